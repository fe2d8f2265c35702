"""Stage 4: plan the module of one tool: stable names, the fast path and the exact collector.

Lowering says what to check; this stage decides how the module spells it, and nothing else:
names from JSON names, with a collision suffix (docs/how-it-works.md, "Names and diffs"); the
fast path (`FastPlan`, generator/plan/fast.py) proves a valid call valid with straight-line
tests, and the collector (generator/plan/collector.py) finds every issue of any other call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ir.names import identifier, json_name, numbered
from ..ir.nodes import ToolModule
from .collector import CollectorPlan
from .fast import FastPlan
from .repairs import ToolAdoption, plan_repairs

# Module-level names every module defines; a constant or helper never takes one of these.
_FIXED = frozenset({"TOOL_NAME", "NOT_ENFORCED", "ONE", "MANY", "DECLARED"})


@dataclass
class ModulePlan:
    """A module's plan: its fast path, its collector, one compiled pattern per distinct pattern."""

    tool: ToolModule
    # python spelling -> constant name, `_<NAME>_PATTERN` from the JSON name of the first schema
    # (in declaration order) using it
    patterns: dict[str, str]
    fast: FastPlan
    collector: CollectorPlan
    # The adopted repairs' tree (generator/plan/repairs.py); None: none adopted, nothing placed.
    repairs: dict[str, Any] | None = None

    @property
    def number_bounds(self) -> bool:
        """Some schema bounds a number: the module defines `_INF` for its tests."""
        return any(b.spec.macro == "number" for n in self.tool.nodes for b in n.bounds)


def plan(tool: ToolModule, adopted: ToolAdoption | None = None) -> ModulePlan:
    patterns: dict[str, str] = {}
    taken: set[str] = set(_FIXED)
    for node in tool.nodes:
        for bound in node.bounds:
            if bound.python is not None and bound.python not in patterns:
                word = identifier(json_name(node.pointer)).upper()
                patterns[bound.python] = "_" + numbered(word, taken, "_PATTERN")
    fast = FastPlan(tool)
    # names taken without their leading underscore: `_ONE`, `_MANY` as `ONE`, `MANY` above
    collector = CollectorPlan(tool, patterns, taken | {"NUMBER", "INF"}, fast)
    # A list visit proves a child valid with its helper (collector.j2, proven).
    calls = [c for f in collector.functions for c in f.calls]
    fast.embed({id(c.fast) for c in calls if c.fast is not None and not c.direct})
    repairs = plan_repairs(tool, adopted)
    return ModulePlan(tool=tool, patterns=patterns, fast=fast, collector=collector, repairs=repairs)
