"""The `--suggest` part of an audit report: per repair kind, the calls it rescues and where,
each share with its 95% Wilson interval, then together/none, what the numbers mean for a
decision (the evidence bar of generator/readers/evidence.py) and the `[tool.toolgen.repairs]`
lines that adopt the kinds that clear it (text and JSON)."""

from __future__ import annotations

from typing import Any

from ..base.textui import counted, percent, table
from .evidence import (
    CONFIDENCE,
    EvidenceBar,
    ParameterKinds,
    adoption,
    outward,
    toml_lines,
    wilson,
)
from .repairs import KINDS, RENAMED_PARAMETER, RepairKind, Repairs

# What introduces the lines a project pastes into its pyproject.toml.
ADOPTING = "the [tool.toolgen.repairs] lines that adopt them"


def _rows(repairs: Repairs, kind: str) -> list[tuple[str, str, int]]:
    found = [(tool, parameter, n) for (k, tool, parameter), n in repairs.parameters.items() if k == kind]
    return sorted(found, key=lambda row: (-row[2], row[0], row[1]))


def adopted(repairs: Repairs, bar: EvidenceBar) -> list[RepairKind]:
    """The kinds whose rescues clear the bar, in KINDS order. Never renamed-parameter: a
    misread name is fixed in the declaration, not accepted by a rule."""
    whole = repairs.considered
    return [k for k in KINDS if k != RENAMED_PARAMETER and bar.clears(repairs.rescued[k], whole)]


def adopting(repairs: Repairs, bar: EvidenceBar) -> ParameterKinds:
    """The adopted kinds at the parameters they rescued calls in."""
    return adoption(adopted(repairs, bar), repairs.parameters)


def _interval_json(part: int, whole: int) -> list[float]:
    return list(outward(wilson(part, whole), 4))


def repairs_json(repairs: Repairs, bar: EvidenceBar) -> dict[str, Any]:
    whole = repairs.considered
    kinds: dict[str, Any] = {}
    for kind in KINDS:
        parameters: dict[str, dict[str, int]] = {}
        for tool, parameter, n in sorted(_rows(repairs, kind), key=lambda row: (row[0], -row[2], row[1])):
            parameters.setdefault(tool, {})[parameter] = n
        rescued = repairs.rescued[kind]
        kinds[kind] = {
            "calls": rescued,
            "parameters": parameters,
            "share": round(rescued / whole, 4) if whole else 0.0,
            "interval": _interval_json(rescued, whole),
            "clears_bar": bar.clears(rescued, whole),
        }
    adopt = adopting(repairs, bar)
    return {
        "rejected_with_arguments": whole,
        "kinds": kinds,
        "together": repairs.together,
        "none": repairs.none,
        "together_interval": _interval_json(repairs.together, whole),
        "none_interval": _interval_json(repairs.none, whole),
        "evidence_bar": {
            "min_rescued": bar.min_rescued,
            "min_share": bar.min_share,
            "confidence": CONFIDENCE,
        },
        "adopt": {"parameters": adopt} if adopt else {},
    }


def _fraction(value: float) -> str:
    return f"{100 * value:.1f}%"


def _share(part: int, whole: int) -> str:
    """`21.4%; 95% interval 7.5% to 47.6%`: the share and its Wilson interval, rounded outward."""
    low, high = outward(wilson(part, whole), 3)
    return f"{percent(part, whole)}; {CONFIDENCE:.0%} interval {_fraction(low)} to {_fraction(high)}"


def _bounded(kind: RepairKind, repairs: Repairs) -> str:
    """`number-from-string 21.4% (lower bound 7.5%)`."""
    rescued, whole = repairs.rescued[kind], repairs.considered
    lower = outward(wilson(rescued, whole), 3)[0]
    return f"{kind} {percent(rescued, whole)} (lower bound {_fraction(lower)})"


def repairs_text(repairs: Repairs, without_arguments: int, bar: EvidenceBar) -> str:
    whole = repairs.considered
    apart = (
        f"; {counted(without_arguments, 'failure record')} without arguments not repaired"
        if without_arguments
        else ""
    )
    out = [f"repairs of the {counted(whole, 'rejected call')} with arguments, each kind alone{apart}:"]
    for kind in KINDS:
        rescued = repairs.rescued[kind]
        out += ["", f"{kind}: {counted(rescued, 'call')} rescued ({_share(rescued, whole)})"]
        rows = _rows(repairs, kind)
        if rows:
            text = table(("tool", "parameter", "calls"), rows, (False, False, True))
            out += ["  " + line for line in text.splitlines()]
    out += [
        "",
        f"together: {counted(repairs.together, 'call')} rescued ({_share(repairs.together, whole)}); "
        f"none: {counted(repairs.none, 'call')} nothing rescues ({_share(repairs.none, whole)})",
        decision(repairs, bar),
    ]
    adopt = adopting(repairs, bar)
    if adopt:
        out += ["", f"{ADOPTING} where they rescued calls:", *toml_lines(adopt)]
    return "\n".join(out)


def _threshold(bar: EvidenceBar) -> str:
    return f"{round(100 * bar.min_share, 4):g}%"


def decision(repairs: Repairs, bar: EvidenceBar) -> str:
    """One line: which kinds clear the evidence bar, which not and why, and what no rule would change."""
    whole = repairs.considered
    if not whole:
        return "what it means: no rejected call with arguments, so no evidence for any compatibility rule."
    seen = [k for k in KINDS if k != RENAMED_PARAMETER and repairs.rescued[k]]
    rules = adopted(repairs, bar)
    few = [k for k in seen if not bar.enough_calls(repairs.rescued[k])]
    unsure = [k for k in seen if k not in rules and k not in few]
    parts = []
    if rules:
        listed = ", ".join(_bounded(k, repairs) for k in rules)
        parts.append(
            f"worth adopting (at least {counted(bar.min_rescued, 'call')} rescued and a {CONFIDENCE:.0%} "
            f"lower bound of {_threshold(bar)} or more): {listed}"
        )
    if few:
        listed = ", ".join(f"{k} {counted(repairs.rescued[k], 'call')}" for k in few)
        parts.append(f"too few calls rescued to justify a rule (under {bar.min_rescued}): {listed}")
    if unsure:
        listed = ", ".join(_bounded(k, repairs) for k in unsure)
        parts.append(
            f"a share too uncertain to justify a rule (lower bound under {_threshold(bar)}): {listed}"
        )
    if not seen:
        parts.append("no repair of a value rescues any call, so no rule is worth adopting")
    renamed = repairs.rescued[RENAMED_PARAMETER]
    if renamed:
        parts.append(
            f"{RENAMED_PARAMETER} {percent(renamed, whole)}: fix those parameters' names or descriptions, "
            "not a rule"
        )
    parts.append(f"{percent(repairs.none, whole)} no repair rescues: real errors that no rule would hide")
    return "what it means: " + "; ".join(parts) + "."
