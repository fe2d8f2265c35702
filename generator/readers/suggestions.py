"""The `--suggest` part of an audit report: per repair kind, the calls it rescues and where,
then together/none and what the numbers mean for a decision (text and JSON)."""

from __future__ import annotations

from typing import Any

from ..base.textui import counted, percent, table
from .repairs import KINDS, RENAMED_PARAMETER, Repairs

# A kind that rescues less than this share of the rejected calls is not worth a
# compatibility rule: the rule would be code, documentation and a looser contract for
# a handful of calls a clearer description might prevent.
WORTH_A_RULE = 0.10


def _rows(repairs: Repairs, kind: str) -> list[tuple[str, str, int]]:
    found = [(tool, parameter, n) for (k, tool, parameter), n in repairs.parameters.items() if k == kind]
    return sorted(found, key=lambda row: (-row[2], row[0], row[1]))


def repairs_json(repairs: Repairs) -> dict[str, Any]:
    kinds: dict[str, Any] = {}
    for kind in KINDS:
        parameters: dict[str, dict[str, int]] = {}
        for tool, parameter, n in sorted(_rows(repairs, kind), key=lambda row: (row[0], -row[2], row[1])):
            parameters.setdefault(tool, {})[parameter] = n
        kinds[kind] = {"calls": repairs.rescued[kind], "parameters": parameters}
    return {
        "rejected_with_arguments": repairs.considered,
        "kinds": kinds,
        "together": repairs.together,
        "none": repairs.none,
    }


def repairs_text(repairs: Repairs, without_arguments: int) -> str:
    whole = repairs.considered
    apart = (
        f"; {counted(without_arguments, 'failure record')} without arguments not repaired"
        if without_arguments
        else ""
    )
    out = [f"repairs of the {counted(whole, 'rejected call')} with arguments, each kind alone{apart}:"]
    for kind in KINDS:
        rescued = repairs.rescued[kind]
        out += ["", f"{kind}: {counted(rescued, 'call')} rescued ({percent(rescued, whole)})"]
        rows = _rows(repairs, kind)
        if rows:
            text = table(("tool", "parameter", "calls"), rows, (False, False, True))
            out += ["  " + line for line in text.splitlines()]
    out += [
        "",
        f"together: {counted(repairs.together, 'call')} rescued ({percent(repairs.together, whole)}); "
        f"none: {counted(repairs.none, 'call')} nothing rescues ({percent(repairs.none, whole)})",
        decision(repairs),
    ]
    return "\n".join(out)


def decision(repairs: Repairs) -> str:
    """One line: which kinds the numbers argue for, which not, and what no rule would change."""
    whole = repairs.considered
    if not whole:
        return "what it means: no rejected call with arguments, so no evidence for any compatibility rule."
    rules = [k for k in KINDS if k != RENAMED_PARAMETER and repairs.rescued[k] >= WORTH_A_RULE * whole]
    few = [k for k in KINDS if k != RENAMED_PARAMETER and 0 < repairs.rescued[k] < WORTH_A_RULE * whole]
    parts = []
    if rules:
        listed = ", ".join(f"{k} {percent(repairs.rescued[k], whole)}" for k in rules)
        parts.append(f"worth weighing as a rule (each rescues {WORTH_A_RULE:.0%} or more): {listed}")
    if few:
        listed = ", ".join(f"{k} {percent(repairs.rescued[k], whole)}" for k in few)
        parts.append(f"too few to justify a rule: {listed}")
    if not rules and not few:
        parts.append("no repair of a value rescues any call, so no rule is worth adopting")
    renamed = repairs.rescued[RENAMED_PARAMETER]
    if renamed:
        parts.append(
            f"{RENAMED_PARAMETER} {percent(renamed, whole)}: fix those parameters' names or descriptions, "
            "not a rule"
        )
    parts.append(f"{percent(repairs.none, whole)} no repair rescues: real errors that no rule would hide")
    return "what it means: " + "; ".join(parts) + "."
