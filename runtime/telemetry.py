"""Rejected calls reported to OpenTelemetry, when `opentelemetry-api` is importable.

Each rejected call adds one span event `tool_input_rejected` to the current span (attributes
`tool`, and `kind` and `parameter` as parallel lists, one entry per issue) and increments two
counters: `toolgen.tool_calls.rejected` once per call (`tool`), and `toolgen.tool_input.issues`
once per issue (`tool`, `kind`, `parameter`). A parameter is the issue's path with array
positions merged (`questions[*].header`, as `toolgen audit` groups them), `(input)` for the
arguments as a whole. Argument values are never recorded.

A call that the repair kinds a project adopted rescue (docs/audit-suggest.md) is not
rejected: each repair made increments `toolgen.tool_input.repaired` (`tool`, `kind`,
`parameter`, the parameter as the adoption names it), so the evidence keeps coming once a
rule is adopted.

Without the package nothing happens, and nothing is imported until the first rejection.
The API is a no-op until the application installs an SDK; reporting never raises.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .failures import IssueLike

EVENT = "tool_input_rejected"
REJECTED_CALLS = "toolgen.tool_calls.rejected"
ISSUES = "toolgen.tool_input.issues"
REPAIRED = "toolgen.tool_input.repaired"

_POSITION = re.compile(r"\[\d+\]")
_UNSET: Any = object()
_instruments: Any = _UNSET  # (trace module, calls counter, issues counter), or None without the API


def parameter(path: str) -> str:
    """The attribute value naming an issue's parameter: positions merged, `(input)` for the root."""
    return _POSITION.sub("[*]", path) if path else "(input)"


def _load() -> Any:
    global _instruments
    if _instruments is _UNSET:
        try:
            from opentelemetry import metrics, trace
        except ImportError:
            _instruments = None
        else:
            meter = metrics.get_meter("toolgen")
            _instruments = (
                trace,
                meter.create_counter(REJECTED_CALLS, unit="{call}", description="Tool calls rejected"),
                meter.create_counter(ISSUES, unit="{issue}", description="Issues of rejected tool calls"),
            )
    return _instruments


def available() -> bool:
    """Whether opentelemetry-api is importable (imported on the first call)."""
    try:
        return _load() is not None
    except Exception:
        return False


def record_rejection(tool_name: str, issues: Iterable[IssueLike]) -> None:
    """Report one rejected call (see the module docstring); never raises."""
    try:
        instruments = _load()
        if instruments is None:
            return
        trace, calls, counted = instruments
        kinds: list[str] = []
        parameters: list[str] = []
        for issue in issues:
            kinds.append(str(issue.kind))
            parameters.append(parameter(str(issue.path)))
        trace.get_current_span().add_event(EVENT, {"tool": tool_name, "kind": kinds, "parameter": parameters})
        calls.add(1, {"tool": tool_name})
        for kind, name in zip(kinds, parameters, strict=True):
            counted.add(1, {"tool": tool_name, "kind": kind, "parameter": name})
    except Exception:  # telemetry must never change what the model gets back
        return


_repaired: Any = _UNSET  # the repairs counter, or None without the API


def _repaired_counter() -> Any:
    global _repaired
    if _repaired is _UNSET:
        try:
            from opentelemetry import metrics
        except ImportError:
            _repaired = None
        else:
            meter = metrics.get_meter("toolgen")
            made = "Repairs made to tool calls"
            _repaired = meter.create_counter(REPAIRED, unit="{repair}", description=made)
    return _repaired


def record_repairs(tool_name: str, repairs: Iterable[Any]) -> None:
    """Count each repair made to one call (kind, parameter); never raises."""
    try:
        counter = _repaired_counter()
        if counter is None:
            return
        for repair in repairs:
            counter.add(1, {"tool": tool_name, "kind": str(repair.kind), "parameter": str(repair.parameter)})
    except Exception:  # telemetry must never change what the tool gets
        return
