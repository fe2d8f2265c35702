"""Stage 4, the fast path: straight-line tests that prove a valid call valid, and nothing else.

Lowering says what to check; this stage decides how the module spells it, and nothing else:

* **Names** come from JSON names (generator/ir/names.py), never from positions: the visit of the
  elements of `questions` is `_collect_questions_item`, and a later name that would collide
  with an earlier one gets a suffix, `_2`. So adding an optional property renames nothing
  else (docs/how-it-works.md, "Names and diffs"; tests/test_diff_stability.py).
* **The fast path** (`FastPlan`, below) proves a valid call valid with straight-line tests
  and nothing else: it only has to be sound, since any call it does not prove valid goes to
  **the collector** (generator/plan/collector.py), which finds every issue of any other call.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..ir.names import branch_words, identifier, numbered
from ..ir.nodes import Bound, Node, ToolModule

# ---------- the fast path ----------
#
# The fast path proves a valid call valid with straight-line tests and nothing else; any
# call it does not prove valid goes to the exact collector, so it only has to be sound.
# A value's tests come from its completed group (docs/spec/extended.md E4): with no anyOf /
# oneOf it is the group itself; with one combinator whose branches have none of their own,
# it is one alternative per branch (the group plus that branch's group: E5 rule 1 selects a
# branch exactly when that merged group accepts the value). Anything else (two combinators
# in one group, nested combinators) is left to the collector: its fast test is `False`.


# What an object's fast test does with a key it does not declare: nothing ("allow": an open
# keyword or additionalProperties true), fail ("forbid"), or test its value ("check").
ExtraRule = Literal["allow", "forbid", "check"]


@dataclass
class FastObject:
    required: tuple[str, ...]  # distinct, group order
    members: list[tuple[str, FastValue]]  # (name, its test) per declaring schema, group order
    extra: ExtraRule
    declared: tuple[str, ...]
    extra_values: list[FastValue]

    @functools.cached_property
    def fetched(self) -> frozenset[str]:
        """Required names read with `.get`, with no test of presence of their own."""
        # Their one test fails on None, so it fails when the name is absent too (subset's form).
        names = [name for name, _ in self.members]
        once = {name for name in self.required if names.count(name) == 1}
        return frozenset(name for name, mv in self.members if name in once and mv.rejects_none)


def paired(bounds: Sequence[Bound]) -> list[tuple[Bound, Bound | None]]:
    """The fast path's tests of a value's bounds, in order, each with the upper one chained to it."""
    # Where a JSON type has exactly one lower and one upper comparison of one macro (`1 <= x <= 9`,
    # `2 <= len(x) <= 4`), the two are one chained test, at the lower one's place.
    chained: dict[int, Bound] = {}
    for json_type in dict.fromkeys(b.spec.constrains for b in bounds):
        compared = [b for b in bounds if b.spec.constrains == json_type and b.spec.compare]
        lows = [b for b in compared if b.spec.lower]
        highs = [b for b in compared if not b.spec.lower]
        if len(lows) == 1 and len(highs) == 1 and lows[0].spec.macro == highs[0].spec.macro:
            chained[id(lows[0])] = highs[0]
    uppers = {id(b) for b in chained.values()}
    return [(b, chained.get(id(b))) for b in bounds if id(b) not in uppers]


@dataclass
class FastValue:
    """The fast test of one value against one completed group (or its alternatives)."""

    key: tuple[str, ...]
    types: list[tuple[str, ...]] = field(default_factory=list)  # each must hold
    possible: frozenset[str] | None = None  # JSON types left after `types` (None: any)
    consts: list[Any] = field(default_factory=list)
    enums: list[tuple[Any, ...]] = field(default_factory=list)
    bounds: list[Bound] = field(default_factory=list)
    obj: FastObject | None = None
    items: list[FastValue] = field(default_factory=list)
    alternatives: list[FastValue] | None = None
    fallback: bool = False  # left to the collector
    helper: str = ""  # the `_check_<helper>` function, "" when written inline
    recursive: bool = False  # reached again while being built: checks the depth limit
    # Of alternatives: the one that needs statements (an object, an array), written in this
    # value's body after the others' one condition (`Optional[Model]`: None, then the
    # model's tests), so that it needs no helper of its own (FastPlan.embed).
    inlined: FastValue | None = None
    users: int = 0  # the tests that reach it: members, elements, extras, alternatives, the root
    # Written in place where its one user tests it (an object's member, an array's
    # elements), in validate() or the user's helper, instead of as a helper of its own: a
    # call costs about as much as a short object's tests.
    embedded: bool = False

    def only(self, json_type: str) -> bool:
        return self.possible is not None and self.possible <= {json_type}

    def may(self, json_type: str) -> bool:
        return self.possible is None or json_type in self.possible

    @property
    def rejects_none(self) -> bool:
        """None fails its test: one of its type tests leaves null out."""
        return self.alternatives is None and any("null" not in names for names in self.types)

    @property
    def integral(self) -> bool:
        """A number it accepts is an integer (its type test admits no other number)."""
        return any("integer" in names and "number" not in names for names in self.types)

    @property
    def empty(self) -> bool:
        """Accepts every value: nothing to test."""
        tests = self.fallback or self.types or self.consts or self.enums or self.bounds or self.items
        return self.alternatives is None and self.obj is None and not tests

    @property
    def leaf(self) -> bool:
        if self.alternatives is not None:
            return all(a.leaf for a in self.alternatives)
        return self.obj is None and not self.items and not self.fallback


def value_key(members: tuple[str, ...], resolved: int = 0) -> tuple[str, ...]:
    """The key of a value's test in `FastPlan.values`: the group `members`, whose first
    `resolved` members' combinators are already resolved (0: the group as a value meets it)."""
    return (*members, f"resolved {resolved}")


@dataclass
class FastPlan:
    """The fast path of a module: the root's test, and its helpers in preorder."""

    tool: ToolModule
    values: dict[tuple[str, ...], FastValue] = field(default_factory=dict)
    helpers: list[FastValue] = field(default_factory=list)
    _building: set[tuple[str, ...]] = field(default_factory=set)
    _names: set[str] = field(default_factory=lambda: {"value", "message", "collect"})

    def __post_init__(self) -> None:
        self._nodes = {n.pointer: n for n in self.tool.nodes}
        self.root = self.value("", "args")
        self._spread_fallbacks()
        # some value is recursive: every helper checks the depth limit (E4)
        self.depth = any(v.recursive for v in self.values.values())

    def _spread_fallbacks(self) -> None:
        """A value with a part this path cannot prove valid (a fallback) is a fallback itself."""
        # With no helper: its test could only pass where that part is absent, and a helper that
        # always returns False would be called for nothing, once per element. Repeated until
        # nothing changes, since a recursive value is completed after its users.
        changed = True
        while changed:
            changed = False
            for fv in self.values.values():
                parts = [*(fv.alternatives or ()), *fv.items]
                if fv.obj is not None:
                    parts += [v for _, v in fv.obj.members] + fv.obj.extra_values
                if not fv.fallback and any(part.fallback for part in parts):
                    fv.fallback, fv.obj, fv.items, fv.alternatives = True, None, [], None
                    changed = True
        for fv in self.values.values():
            fv.helper = "" if fv.fallback else fv.helper
        self.helpers = [h for h in self.helpers if h.helper]

    def value(self, pointer: str, name: str) -> FastValue:
        return self.merged(self._nodes[pointer].group, name)

    def merged(self, members: tuple[str, ...], name: str, resolved: int = 0) -> FastValue:
        """The test of a value against the group `members`, whose first `resolved` members'
        combinators are already resolved (this is one alternative of theirs)."""
        key = value_key(members, resolved)
        if (found := self.values.get(key)) is not None:
            found.recursive |= key in self._building
            found.users += 1
            return found
        fv = FastValue(key=key)
        self.values[key] = fv
        self._building.add(key)
        nodes = [self._nodes[p] for p in members]
        choices = [c for n in nodes[resolved:] for c in n.choices]
        if len(choices) > 1:
            fv.fallback = True
        elif choices:
            branches = [self._nodes[b] for b in choices[0].branches]
            if any(self._nodes[m].choices for b in branches for m in b.group if m not in members):
                fv.fallback = True  # a combinator inside a branch: left to the collector
            else:
                fv.alternatives = [
                    self.merged(tuple(dict.fromkeys(members + b.group)), f"{name}_{word}", len(members))
                    for b, word in zip(branches, branch_words(choices[0], self._nodes), strict=True)
                ]
        else:
            self.fill(fv, nodes, name)
        if not fv.leaf or fv.recursive:
            fv.helper = numbered(identifier(name), self._names)
            self.helpers.append(fv)
        self._building.discard(key)
        fv.users += 1
        return fv

    def fill(self, fv: FastValue, nodes: list[Node], name: str) -> None:
        fv.types = [n.types for n in nodes if n.types is not None]
        fv.possible = possible(fv.types)
        fv.consts = [n.const[0] for n in nodes if n.const]
        fv.enums = [n.enum for n in nodes if n.enum is not None]
        fv.bounds = [b for n in nodes for b in n.bounds]
        if any(n.object_like for n in nodes) and fv.may("object"):
            required = tuple(dict.fromkeys(r for n in nodes for r in n.required))
            declared = tuple(
                dict.fromkeys(d for n in nodes for d in (*(p for p, _ in n.properties), *n.required))
            )
            members = [(p, self.value(sub, p)) for n in nodes for p, sub in n.properties]
            extras = [n.extra for n in nodes if n.extra is not None]
            extra_values = [self.value(e, f"{name}_value") for e in extras if isinstance(e, str)]
            extra: ExtraRule
            if any(n.open for n in nodes) or any(e is True for e in extras):
                extra, extra_values = "allow", []
            else:
                extra = "check" if extra_values else "forbid"
            # a value that accepts everything needs no test (an undeclared key is then
            # tested only for being a str)
            members = [(p, v) for p, v in members if not v.empty or v.key in self._building]
            extra_values = [v for v in extra_values if not v.empty or v.key in self._building]
            # an object none of whose keys is tested is its type test alone (a leaf)
            tested = required or members or extra != "allow" or self.tool.vocabulary.strict_keys
            if tested:
                fv.obj = FastObject(
                    required=required,
                    members=members,
                    extra=extra,
                    declared=declared,
                    extra_values=extra_values,
                )
        if fv.may("array"):
            items = [self.value(n.items, f"{name}_item") for n in nodes if n.items is not None]
            fv.items = [v for v in items if not v.empty or v.key in self._building]

    def embed(self, called: set[int]) -> None:
        """Decide which helpers' tests are written in place, at their one user, instead
        (`called`: the ids of the values whose helpers the collector calls, which stay)."""
        # Of a union's alternatives, the one that needs statements when every other is one
        # condition (`Optional[Model]`: None, then the model's tests), in the union's body;
        # it is reached from that union only (its key extends the union's).
        inlined: set[int] = set()  # by identity: two values may compare equal
        for fv in self.values.values():
            if fv.alternatives is None or fv.recursive:
                continue
            heavy = [a for a in fv.alternatives if not a.leaf]
            light = [a for a in fv.alternatives if a.leaf and not a.empty]
            alone = len(heavy) == 1 and heavy[0].helper and not heavy[0].recursive
            if alone and light and len(light) + 1 == len(fv.alternatives):
                fv.inlined = heavy[0]
                inlined.add(id(heavy[0]))
        # A nested object or array with one user, a member or the elements of its user, where
        # its statements fall through when it passes. Not in a tool with a depth limit, where
        # each helper counts one level of nesting; and at most `_IN_PLACE` values deep in one
        # function (Python allows 20 nested loops, 100 indents).
        if not self.depth:
            for fv in list(self.values.values()):
                sites = [mv for _, mv in fv.obj.members] if fv.obj is not None else []
                sites += fv.items if len(fv.items) == 1 else []
                for site in sites:
                    if site.helper and site.users == 1 and id(site) not in called and _embeddable(site):
                        site.embedded = True
            # A value too deep in place keeps its helper (whose body starts at depth 0 again).
            tops = [self.root, *(h for h in self.helpers if not h.embedded and id(h) not in inlined)]
            while tops:
                top = tops.pop()
                tops += _too_deep(top, 0)  # those restored are tops of their own helpers
        for fv in self.values.values():
            fv.helper = "" if fv.embedded else fv.helper
        self.helpers = [h for h in self.helpers if h.helper and id(h) not in inlined]


_IN_PLACE = 6  # values written in place inside one another, at most


def _too_deep(fv: FastValue, depth: int) -> list[FastValue]:
    """The values written in place below `fv` (at `depth`) past `_IN_PLACE`: no longer
    embedded, each to be walked again as the top of its own helper."""
    below = [mv for _, mv in fv.obj.members if mv.embedded] if fv.obj is not None else []
    below += [v for v in fv.items if v.embedded]
    below += [fv.inlined] if fv.inlined is not None else []
    found: list[FastValue] = []
    for child in below:
        if child.embedded and depth + 1 > _IN_PLACE:
            child.embedded = False
            found.append(child)
        else:
            found += _too_deep(child, depth + 1)
    return found


def _embeddable(fv: FastValue) -> bool:
    """Its tests are statements that fall through when it passes: an object or an array
    (so that no type test follows its body), or `Optional` of one (None, else the body)."""
    if fv.recursive:
        return False
    if fv.inlined is not None:
        return _embeddable(fv.inlined)
    # (a fallback or a union has neither an object nor items: FastPlan.fill is not run for it)
    return (fv.obj is not None and fv.only("object")) or (bool(fv.items) and fv.only("array"))


def kinds_of(names: tuple[str, ...]) -> frozenset[str]:
    """The JSON types of type names, `integer` counted as `number` (a value's JSON type)."""
    return frozenset("number" if n == "integer" else n for n in names)


def possible(types: list[tuple[str, ...]]) -> frozenset[str] | None:
    """The JSON types a value can have when it passes every type test of `types` (None: any)."""
    return frozenset.intersection(*map(kinds_of, types)) if types else None
