"""The evidence bar of `audit --suggest`: when a repair kind is worth adopting, and the
`[tool.toolgen.repairs]` lines that adopt it (docs/audit-suggest.md).

A kind clears the bar when it rescues at least `min_rescued` calls and the lower bound of
the 95% Wilson score interval of its share of the rejected calls is at least `min_share`.
The interval is computed here with `math` alone: the build-time code takes no statistics
dependency for one formula.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from ..plan.repairs import toml_key as toml_key
from ..plan.repairs import toml_string as toml_string

# The standard normal quantile for a two-sided 95% interval, 1.95996398454005423552..., as the
# nearest float (statistics.NormalDist().inv_cdf(0.975) computes a float two units under it).
Z95 = 1.9599639845400543
CONFIDENCE = 0.95
DEFAULT_MIN_RESCUED = 10
DEFAULT_MIN_SHARE = 0.10

# The `parameters` part of `[tool.toolgen.repairs]`, the part the report writes:
# tool -> parameter (in audit's notation) -> kinds.
ParameterKinds = dict[str, dict[str, list[str]]]


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of `successes` out of `trials`: the proportions whose score
    test at `z` does not reject the observed one. With no trials, every share: (0.0, 1.0)."""
    if trials <= 0:
        return 0.0, 1.0
    share = successes / trials
    spread = z * z / trials
    centre = share + spread / 2
    margin = z * math.sqrt(share * (1 - share) / trials + spread / (4 * trials))
    low, high = (centre - margin) / (1 + spread), (centre + margin) / (1 + spread)
    # At no successes (all) the bound is 0 (1) exactly, which the formula's rounding misses.
    return (0.0 if successes <= 0 else low), (1.0 if successes >= trials else high)


def outward(interval: tuple[float, float], places: int) -> tuple[float, float]:
    """The interval rounded outward to `places` decimals, so what is shown contains what was
    computed: a lower bound just under a threshold never shows as the threshold itself."""
    scale = 10**places
    return math.floor(interval[0] * scale) / scale, math.ceil(interval[1] * scale) / scale


@dataclass(frozen=True)
class EvidenceBar:
    """When a kind's rescues are evidence enough for a rule (docs/audit-suggest.md's defaults)."""

    min_rescued: int = DEFAULT_MIN_RESCUED
    min_share: float = DEFAULT_MIN_SHARE

    def enough_calls(self, rescued: int) -> bool:
        return rescued >= self.min_rescued

    def sure_share(self, rescued: int, whole: int) -> bool:
        return wilson(rescued, whole)[0] >= self.min_share

    def clears(self, rescued: int, whole: int) -> bool:
        return self.enough_calls(rescued) and self.sure_share(rescued, whole)


DEFAULT_BAR = EvidenceBar()


def evidence_bar(
    given: tuple[int | None, float | None], configured: tuple[int | None, float | None]
) -> EvidenceBar:
    """The bar in force from (count, share) given on the command line and set in the project's
    table: for each of the two, the command line's, else the table's, else the default."""
    count = given[0] if given[0] is not None else configured[0]
    share = given[1] if given[1] is not None else configured[1]
    return EvidenceBar(
        count if count is not None else DEFAULT_MIN_RESCUED,
        share if share is not None else DEFAULT_MIN_SHARE,
    )


def adoption(kinds: Iterable[str], places: Iterable[tuple[str, str, str]]) -> ParameterKinds:
    """The kinds adopted at the parameters they rescued calls in (`places`: (kind, tool,
    parameter)): tools and parameters sorted, each parameter's kinds in `kinds`' order."""
    order = list(kinds)
    found: dict[str, dict[str, set[str]]] = {}
    for kind, tool, parameter in places:
        if kind in order:
            found.setdefault(tool, {}).setdefault(parameter, set()).add(kind)
    return {
        tool: {name: sorted(listed, key=order.index) for name, listed in sorted(found[tool].items())}
        for tool in sorted(found)
    }


def toml_lines(parameters: ParameterKinds) -> list[str]:
    """The `[tool.toolgen.repairs.parameters.TOOL]` tables a project pastes into its pyproject.toml,
    a blank line between two."""
    out: list[str] = []
    for tool, members in parameters.items():
        out += [""] if out else []
        out.append(f"[tool.toolgen.repairs.parameters.{toml_key(tool)}]")
        out += [f"{toml_key(name)} = {_toml_list(kinds)}" for name, kinds in members.items()]
    return out


def _toml_list(items: list[str]) -> str:
    return "[" + ", ".join(toml_string(item) for item in items) + "]"
