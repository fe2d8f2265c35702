"""One call checked against a generated package, its rejection reported: shared by the
executor and by the integrations that put a package in front of someone else's tools."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Protocol

import generated
from runtime import telemetry
from runtime.result import describe_exception

ValidationFailure = Callable[[str, object, "tuple[generated.Issue, ...]"], None]


class Validators(Protocol):
    """What is needed of a generated validator package (`generated` by default)."""

    TOOL_NAMES: frozenset[str]

    def validator(self, tool_name: str) -> Callable[[object], str | None] | None: ...

    def issues(self, tool_name: str, args: object) -> tuple[generated.Issue, ...]: ...


def report_rejection(
    validators: Validators, name: str, args: object, on_validation_failure: ValidationFailure | None
) -> None:
    """Tell the failure callback (if any) and OpenTelemetry (if installed); never raises."""
    if on_validation_failure is None and not telemetry.available():
        return  # nobody to tell: the issues are not collected
    issues: tuple[generated.Issue, ...] = ()
    with contextlib.suppress(Exception):
        issues = validators.issues(name, args)
    if on_validation_failure is not None:
        # Reporting must never change what the model gets back.
        with contextlib.suppress(Exception):
            on_validation_failure(name, args, issues)
    telemetry.record_rejection(name, issues)


def check_call(
    name: str,
    args: object,
    *,
    validators: Validators = generated,
    on_validation_failure: ValidationFailure | None = None,
) -> str | None:
    """The validation message of a call to a tool the package declares, reported as a rejection;
    None when the call is valid or the tool is not the package's (MCP and custom tools pass
    through). Never raises."""
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
