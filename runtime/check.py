"""One call checked against a generated package, its rejection reported: shared by the
executor and by the integrations that put a package in front of someone else's tools.

The package is always the one the caller passes (a user's own `generated/`, or any other
output of `toolgen generate`): nothing here imports a generated package.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from . import telemetry
from .failures import IssueLike
from .names import meant
from .result import describe_exception

# One problem of a call, as a generated package's `issues()` gives it (its `Issue`).
Issue = IssueLike

ValidationFailure = Callable[[str, object, "tuple[Issue, ...]"], None]


class Validators(Protocol):
    """What is needed of a generated validator package (the module `toolgen generate` wrote)."""

    TOOL_NAMES: frozenset[str]

    def validator(self, tool_name: str) -> Callable[[object], str | None] | None: ...

    def issues(self, tool_name: str, args: object) -> Sequence[Issue]: ...


def package_name(validators: Validators) -> str:
    """How messages name the package: its module name when it has one."""
    name = getattr(validators, "__name__", None)
    return f"`{name}`" if isinstance(name, str) else "the validator package"


def report_rejection(
    validators: Validators, name: str, args: object, on_validation_failure: ValidationFailure | None
) -> None:
    """Tell the failure callback (if any) and OpenTelemetry (if installed); never raises."""
    if on_validation_failure is None and not telemetry.available():
        return  # nobody to tell: the issues are not collected
    issues: tuple[Issue, ...] = ()
    with contextlib.suppress(Exception):
        issues = tuple(validators.issues(name, args))
    if on_validation_failure is not None:
        # Reporting must never change what the model gets back.
        with contextlib.suppress(Exception):
            on_validation_failure(name, args, issues)
    telemetry.record_rejection(name, issues)


def check_call(
    validators: Validators,
    name: str,
    args: object,
    *,
    on_validation_failure: ValidationFailure | None = None,
) -> str | None:
    """The validation message of a call to a tool `validators` declares, reported as a
    rejection; None when the call is valid or the tool is not the package's (tools it does
    not declare pass through). Never raises. To compare the package with the live tools
    first, once, pass `toolgen.runtime.drift.in_step(validators, tools)` as `validators`."""
    check = validators.validator(name)
    if check is None:
        return None
    try:
        message = check(args)
    except Exception as exc:  # a validator never raises; a hand-made package might
        message = f"{name} failed: its validator raised {describe_exception(exc)}"
    if message is not None:
        report_rejection(validators, name, args, on_validation_failure)
    return message


def declaration(validators: Validators, name: str) -> dict[str, Any]:
    """The OpenAI-style `function` declaration of a tool the package declares (what the
    framework recipes show the model); ValueError naming the package otherwise."""
    if name not in validators.TOOL_NAMES:
        raise ValueError(not_declared(validators, name))
    listing: Callable[[], list[dict[str, Any]]] | None = getattr(validators, "openai_tools", None)
    if listing is None:
        raise ValueError(
            f"{package_name(validators)} has no openai_tools(): pass a package toolgen generated"
        )
    found: dict[str, Any] = {t["function"]["name"]: t["function"] for t in listing()}[name]
    return found


def not_declared(validators: Validators, name: str) -> str:
    """Why `name` cannot be a declared tool: the package does not declare it (and what it
    probably meant)."""
    hint = meant(name, validators.TOOL_NAMES)
    text = f"{name!r} is not declared in {package_name(validators)}"
    return f"{text} (did you mean {hint}?)" if hint else text
