"""ToolExecutor: validate (declared tools) -> PreToolUse hooks -> the tool -> PostToolUse hooks.

The executor never raises for anything a tool or its input causes: every problem becomes a
failed ToolResult the model can read and act on. A validation failure stops the call before
any hook, permission question or side effect (docs/spec/validation.md §1).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from .check import (
    ValidationFailure,
    Validators,
    message_of,
    not_declared,
    package_name,
    repaired,
    report_rejection,
    report_repairs,
)
from .drift import OnStale, in_step
from .names import meant
from .result import Handler, ToolResult, describe_exception, failed

# "declared": the package passed to the executor declares it, and every call is validated;
# "mcp" and "custom": registered with their own schema, passed through unvalidated.
Origin = Literal["declared", "mcp", "custom"]
Permission = Callable[[str, Any], bool]
PreToolUse = Callable[[str, Any], "str | None"]
PostToolUse = Callable[[str, Any, ToolResult], None]
HOOK_EVENTS = ("PreToolUse", "PostToolUse")


@dataclass(frozen=True)
class _Tool:
    origin: Origin
    handler: Handler | None
    parameters: Mapping[str, object] | None


@dataclass(frozen=True)
class _Hook:
    event: str
    callback: Callable[..., object]
    names: frozenset[str] | None  # None: every tool


class ToolExecutor:
    """Runs an agent's tool calls, each tool your package declares validated by it first.

    `validators` is your generated package (`import generated`, or whatever `--out` named
    it): every tool it declares is known to the executor, and a call of one is checked
    before anything runs; bind each one's implementation with `register_declared` (or the
    `declared` decorator). Tools it does not declare can be added with `register_custom`
    and `register_mcp`; those pass through unvalidated.

    `permission(tool_name, args)` is asked by tools that change things, before the change;
    only `True` allows. Without it those tools are denied with a clear result.
    `on_validation_failure(tool_name, args, issues)` is told about each call the validators
    reject, before the failed result is returned; whatever it raises is swallowed. Each
    rejection is also reported to OpenTelemetry when it is installed (`toolgen.runtime.telemetry`).
    A call that the repair kinds the package's project adopted rescue (its `repair()`,
    docs/audit-suggest.md) runs with the repaired arguments, and each repair is reported:
    to `on_validation_failure.repaired(tool_name, args, repairs)` when the callback has that
    method (`JsonlFailureSink` does), and to OpenTelemetry (`toolgen.tool_input.repaired`).

    `live_tools`, the tools' declarations as they are now (any form `toolgen.runtime.drift.compare`
    takes), are compared with the package's once, here: a stale tool raises StaleValidators,
    or with `on_stale="pass"` its calls run unvalidated, a warning logged on each.
    """

    def __init__(
        self,
        validators: Validators,
        *,
        permission: Permission | None = None,
        on_validation_failure: ValidationFailure | None = None,
        live_tools: Iterable[object] | None = None,
        on_stale: OnStale = "refuse",
    ) -> None:
        if not isinstance(getattr(validators, "TOOL_NAMES", None), frozenset):
            raise TypeError(
                f"ToolExecutor takes a generated validator package (with TOOL_NAMES), not {validators!r}"
            )
        if live_tools is not None:  # compared once, here: a call never sees a digest
            validators = in_step(validators, live_tools, on_stale=on_stale)
        self._permission = permission
        self._on_validation_failure = on_validation_failure
        self._validators = validators
        self._tools: dict[str, _Tool] = {
            name: _Tool("declared", None, None) for name in validators.TOOL_NAMES
        }
        self._hooks: list[_Hook] = []

    @property
    def validators(self) -> Validators:
        """The package the executor validates declared tools with."""
        return self._validators

    # Registration -------------------------------------------------------------------------

    def register_declared(self, name: str, handler: Handler) -> None:
        """Bind the implementation of a tool the package declares; its calls are validated.

        A name the package does not declare is refused (ValueError naming the closest
        declared name): a typo here would otherwise leave the real tool unbound and this one
        unvalidated."""
        if name not in self._validators.TOOL_NAMES:
            raise ValueError(
                f"{not_declared(self._validators, name)}; declare it and regenerate, or register it "
                "with register_custom (not validated)"
            )
        self._tools[name] = _Tool("declared", handler, None)

    def declared(self, name: str) -> Callable[[Handler], Handler]:
        """`register_declared` as a decorator: `@executor.declared("get_weather")`."""

        def bind(handler: Handler) -> Handler:
            self.register_declared(name, handler)
            return handler

        return bind

    def register_mcp(self, server: str, name: str, parameters: Mapping[str, object], handler: Handler) -> str:
        """Add a tool of an MCP server as `mcp__<server>__<name>` (returned); never validated here."""
        _require_name("server", server)
        _require_name("name", name)
        exposed = f"mcp__{server}__{name}"
        self._tools[exposed] = _Tool("mcp", handler, _require_parameters(parameters))
        return exposed

    def register_custom(self, name: str, parameters: Mapping[str, object], handler: Handler) -> None:
        """Add a tool the package does not declare, with the schema to show the model; its
        calls pass through unvalidated. A declared name is refused: its calls are validated,
        so bind it with register_declared."""
        _require_name("name", name)
        if name in self._validators.TOOL_NAMES:
            raise ValueError(
                f"{name!r} is declared in {package_name(self._validators)}: bind it with "
                "register_declared, which validates its calls"
            )
        self._tools[name] = _Tool("custom", handler, _require_parameters(parameters))

    def add_hook(self, event: str, callback: Callable[..., object], matcher: str | None = None) -> None:
        """Add a hook. `matcher`: a tool name or `a|b` alternatives (exact names); None, "" or
        "*": every tool. A PreToolUse callback blocks the call by returning a string (the
        reason); any other return value lets it through."""
        if event not in HOOK_EVENTS:
            raise ValueError(f"unknown hook event {event!r}; expected one of {', '.join(HOOK_EVENTS)}")
        names = None if matcher in (None, "", "*") else frozenset(str(matcher).split("|"))
        self._hooks.append(_Hook(event, callback, names))

    def parameters(self, name: str) -> Mapping[str, object] | None:
        """The schema an MCP or custom tool was registered with, to show the model; None for a
        declared tool (the package lists its declaration) and for unknown names."""
        tool = self._tools.get(name)
        return None if tool is None else tool.parameters

    def origin(self, name: str) -> Origin | None:
        """Where the tool of that name came from, or None when there is none."""
        tool = self._tools.get(name)
        return None if tool is None else tool.origin

    # Running ------------------------------------------------------------------------------

    def execute(self, name: str, args: object) -> ToolResult:
        """Run one call. Never raises for a problem of the tool or of its input."""
        if not isinstance(name, str):
            return failed(f"A tool name must be a string, not {type(name).__name__}; nothing was run")
        tool = self._tools.get(name)
        if tool is None:
            hint = meant(name, self._tools)
            return failed(f"No such tool available: {name}" + (f". Did you mean {hint}?" if hint else ""))
        if tool.origin == "declared":
            rejected, args = self._validate(name, args)
            if rejected is not None:
                return rejected
        if tool.handler is None:
            return failed(
                f"{name} is declared but has no implementation bound in this executor; it was not run"
            )
        if not isinstance(args, dict):
            # Declared tools never get here (the validator requires an object); others are refused.
            kind = type(args).__name__
            return failed(f"{name} takes its arguments as a JSON object, not {kind}; it was not run")
        blocked = self._pre_tool_use(name, args)
        if blocked is not None:
            return blocked
        return self._post_tool_use(name, args, _run(name, tool.handler, args))

    async def aexecute(self, name: str, args: object) -> ToolResult:
        """`execute` for async agents: the same pipeline and result, run in a worker thread
        (`asyncio.to_thread`) so that neither a tool nor a hook blocks the event loop. The
        caller's context variables (an OpenTelemetry span, say) are visible to the run."""
        return await asyncio.to_thread(self.execute, name, args)

    def permission_denial(self, tool_name: str, args: object) -> str | None:
        """Ask the permission callable; None when allowed, else why not. For tools to call."""
        if self._permission is None:
            return "no permission callback is configured, so tools that change things are denied"
        try:
            allowed = self._permission(tool_name, args)
        except Exception as exc:
            return f"the permission callback raised {describe_exception(exc)}; treated as a denial"
        return None if allowed is True else "permission was denied"

    def _validate(self, name: str, args: object) -> tuple[ToolResult | None, object]:
        """(None, the arguments to run with) for a valid call or one the adopted repairs
        rescue (the repaired arguments, reported), else (the failed result, args)."""
        check = self._validators.validator(name)
        if check is None:
            # Fail closed: a declared tool the package cannot check is not run unchecked.
            return failed(f"{name} has no validator; it was not run"), args
        message = message_of(check, name, args)
        if message is None:
            return None, args
        fixed, made = repaired(self._validators, name, args)
        if made:
            report_repairs(name, args, made, self._on_validation_failure)
            return None, fixed
        report_rejection(self._validators, name, args, self._on_validation_failure)
        return failed(message), args

    def _hooks_for(self, event: str, name: str) -> list[_Hook]:
        return [h for h in self._hooks if h.event == event and (h.names is None or name in h.names)]

    def _pre_tool_use(self, name: str, args: dict[str, Any]) -> ToolResult | None:
        """The first hook that returns a string blocks the call; a hook that raises blocks it too."""
        for hook in self._hooks_for("PreToolUse", name):
            try:
                reason = hook.callback(name, args)
            except Exception as exc:
                reason = f"the hook raised {describe_exception(exc)}"
            if isinstance(reason, str):
                return failed(f"{name} was blocked by a PreToolUse hook: {reason or 'no reason given'}")
        return None

    def _post_tool_use(self, name: str, args: dict[str, Any], result: ToolResult) -> ToolResult:
        """Every matching hook sees the result; what they raise is kept in metadata, not raised.

        The tool has already run: turning a hook's failure into a failed result would invite
        the model to repeat a side effect that happened.
        """
        errors: list[str] = []
        for hook in self._hooks_for("PostToolUse", name):
            try:
                hook.callback(name, args, result)
            except Exception as exc:
                errors.append(describe_exception(exc))
        if not errors:
            return result
        return replace(result, metadata={**result.metadata, "post_tool_use_errors": tuple(errors)})


def _run(name: str, handler: Handler, args: dict[str, Any]) -> ToolResult:
    try:
        out = handler(args)
    except Exception as exc:
        return failed(f"{name} failed: {describe_exception(exc)}")
    if isinstance(out, ToolResult):
        return out
    if isinstance(out, str):
        return ToolResult(success=True, content=out)
    return failed(f"{name} returned {type(out).__name__}, not a ToolResult or a string")


def _require_name(what: str, value: object) -> None:
    if not isinstance(value, str) or not value:
        raise ValueError(f"the tool's {what} must be a non-empty string, not {value!r}")


def _require_parameters(parameters: object) -> Mapping[str, object]:
    if not isinstance(parameters, Mapping):
        raise TypeError(f"parameters must be a JSON Schema object, not {type(parameters).__name__}")
    return parameters
