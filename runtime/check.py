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


def message_of(check: Callable[[object], str | None], name: str, args: object) -> str | None:
    """What a tool's validate function says of a call; a validator never raises, and what a
    hand-made package's raises is the message."""
    try:
        return check(args)
    except Exception as exc:
        return f"{name} failed: its validator raised {describe_exception(exc)}"


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
    message = message_of(check, name, args)
    if message is not None:
        report_rejection(validators, name, args, on_validation_failure)
    return message


def repaired(validators: Validators, name: str, args: object) -> tuple[object, tuple[Any, ...]]:
    """The package's `repair(name, args)` (a package whose project adopted repair kinds,
    docs/audit-suggest.md): (the repaired arguments, the repairs made), else (args, ()), also
    for a package without `repair`. Never raises."""
    fix = getattr(validators, "repair", None)
    if fix is None:
        return args, ()
    try:
        fixed, made = fix(name, args)
        return fixed, tuple(made)
    except Exception:  # a generated repair() never raises; a hand-made package might
        return args, ()


def report_repairs(
    name: str, args: object, repairs: tuple[Any, ...], on_validation_failure: ValidationFailure | None
) -> None:
    """Tell the failure callback, when it records repairs (a `repaired(tool, args, repairs)`
    method: `JsonlFailureSink`), and OpenTelemetry (if installed); never raises."""
    record = getattr(on_validation_failure, "repaired", None)
    if record is not None:
        with contextlib.suppress(Exception):
            record(name, args, repairs)
    telemetry.record_repairs(name, repairs)


def checked_call(
    validators: Validators,
    name: str,
    args: object,
    *,
    on_validation_failure: ValidationFailure | None = None,
) -> tuple[str | None, object]:
    """`check_call`, with the repairs the package's project adopted: (None, the arguments to
    pass to the tool) for a valid call, a tool the package does not declare, or a call the
    adopted repairs make valid (reported as repaired: the arguments are the repaired ones);
    else (the message of the call as sent, the arguments as sent), reported as a rejection.
    Never raises."""
    check = validators.validator(name)
    if check is None:
        return None, args
    message = message_of(check, name, args)
    if message is None:
        return None, args
    fixed, made = repaired(validators, name, args)
    if made:
        report_repairs(name, args, made, on_validation_failure)
        return None, fixed
    report_rejection(validators, name, args, on_validation_failure)
    return message, args


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
