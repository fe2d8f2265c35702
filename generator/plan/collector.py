"""Stage 4: plan the exact collector as generated code (docs/spec/validation.md §5,
docs/spec/extended.md E4, E5, E7).

The collector is the E4 visit partially evaluated at build time: for each group reached
(keyed by the content of its schemas, so identical schemas share code) this plan describes
one function whose body is that group's visit unrolled:

* step 1 over the group known before any `anyOf` / `oneOf` (type tests, inline);
* each combinator, in group order, resolved by calling one generated *candidate* function
  per branch (the visit of "group so far + branch", the names of later combinators counted
  as declared), then E5's rules spelled with constants (the discriminator's tags, each
  branch's Ti, the EXPECTED text);
* for each selection (a branch, or none), the rest of the visit: the next combinator, or
  steps 1-5 over the completed group, straight-line. When the combinator is the last one and
  the selected branch brings none of its own, the visit's issues are that branch's candidate
  issues, already computed.

Descents (a property, an undeclared key's schema, an element) call the child's visit
function; where the same descent can run twice for one call (inside a candidate, or after
a choice) it goes through a per-call memo keyed by (function, id(value), path), which keeps
E5's candidates linear on trees. A visit function checks the depth limit (256 segments)
where the tool is recursive or deep enough. Frames per level of nesting: at most two (a
visit and a candidate), so 256 levels fit in the interpreter's default recursion limit.
docs/extended.md ("How modules are built") shows the code these records plan.

Nothing here spells code: templates/collector.j2 does, from these records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from graphlib import TopologicalSorter
from typing import Any, ClassVar, Literal, get_args

from ..front.vocabulary import Keyword, Macro
from ..ir.names import branch_words, declaring_word, identifier, numbered
from ..ir.nodes import Choice, ToolModule
from .fast import (  # the fast path is planned first and handed here
    FastPlan,
    FastValue,
    kinds_of,
    possible,
    value_key,
)

DEPTH_LIMIT = 256

# What a module-level constant holds, which templates/collector.j2's `constants` spells: a
# bound's text after "is invalid: " or an enum's members ("literal"), a const's value, an
# enum's members as a frozenset or as the text of its line ("members_set", "members_text":
# `value` is the constant holding the members), a discriminator's tags as text, a multipleOf
# as a Fraction, the declared names, and the top-level lines built when the module loads.
ConstantKind = Literal[
    "literal",
    "const",
    "members_set",
    "members_text",
    "tags_text",
    "fraction",
    "declared",
    "missing_line",
    "type_head",
    "rejected_line",
]
FunctionKind = Literal["visit", "branch"]  # a group's visit, or a combinator branch's candidate
ValueKind = Literal["const", "enum"]  # step 2's tests
# The issue lists of a direct visit: missing, unexpected, type, invalid (the spec's order).
IssueList = Literal["mis", "une", "typ", "inv"]
# How templates/collector.j2 writes a function's body (one per Body class).
BodyForm = Literal["steps", "reuse", "choose", "switch"]


@dataclass
class Constant:
    """A module-level constant of the collector: `name = <kind>(value)` (the template spells it)."""

    name: str
    kind: ConstantKind
    value: Any


@dataclass
class TypeTest:
    names: tuple[str, ...]
    expected: str  # EXPECTED of the type line


@dataclass
class ValueTest:
    """Step 2: `const` (kind "const", `value` the constant) or `enum` (`value` the members' constant)."""

    kind: ValueKind
    value: Any
    text: str  # constant holding the text after "is invalid: "
    members: str = ""


@dataclass
class BoundTest:
    spec: Keyword  # what the keyword is, and the macro that writes its test
    value: Any
    text: str  # constant of its text ("" for uniqueItems)
    extra: str = ""  # the compiled pattern or the Fraction constant


@dataclass
class Call:
    """A call of a generated function on `x` (candidates) or a child value (descents)."""

    callee: Function
    memoized: bool = False  # this call site goes through the memo
    empty: bool = False  # the callee finds nothing but a depth issue: no call made
    descent: bool = False  # a child value (not a candidate on the same value)
    # The fast test (generator/plan/fast.py FastValue) that proves the child valid, so that it is
    # not visited: a helper (`helper`) or one inline condition; None when there is none.
    fast: FastValue | None = None
    direct: bool = False  # from a direct function to the callee's direct form
    # A member of the arguments validate() tests (its name), up to the last one visited by a
    # call: the collector counts them off to know which were proven valid (see _resume).
    resume: str | None = None
    # A direct call of a visit that is one exact type test (the callee's `exact`, its one
    # `pre`) and nothing else: written in place (`if type(w) is not str and ...:
    # _s.wrong_type(...)`), as the subset collector does, so that such helpers, shared by
    # content and named by a first user, never exist.
    exact: bool = False
    enum: ValueTest | None = None  # the enum the visit tests after the exact type, if any
    type_head: str = ""  # at the top level: the constant of its type line up to the type found
    invalid_line: str = ""  # at the top level: the constant of its enum's whole "invalid" line
    # With `exact`: the callee still runs when the type holds (at the top level, a visit whose
    # first test is that one exact type has it written here, with its line's constant).
    visits: bool = False

    @property
    def inline(self) -> bool:
        """Its fast test is one condition with no helper call."""
        return self.fast is not None and _inline(self.fast)


@dataclass
class Objects:
    required: list[str]
    properties: list[tuple[str, Call]]
    declared: str  # the frozenset constant of declared names ("" when none)
    allowed: bool  # every undeclared str key is fine (open keyword or additionalProperties true)
    extras: list[Call]  # additionalProperties schemas, in group order
    # The keys are not looked at, not even for one that is no str: allowed by an open keyword
    # or additionalProperties true, in a vocabulary without strict keys (docs/spec/validation.md §3).
    unexamined: bool = False
    # In the arguments' direct visit, whose paths are known when the module loads: each
    # required name's whole "missing" line, as a constant (subset mode's precomputed lines).
    missing_lines: dict[str, str] = field(default_factory=dict)

    @property
    def examines_nothing(self) -> bool:
        """Nothing of the object is looked at (docs/spec/validation.md §3): no step 4 is written."""
        return self.unexamined and not (self.required or self.properties)


@dataclass
class Steps:
    """Steps 1-5 over one completed group."""

    form: ClassVar[BodyForm] = "steps"

    types: list[TypeTest]
    values: list[ValueTest]
    bounds: dict[str, list[BoundTest]]  # per JSON type they constrain, in step 3's order
    objects: Objects | None
    items: list[Call]
    known: frozenset[str] | None = None  # the value's possible JSON types, when step 1 says

    def only(self, json_type: str) -> bool:
        """The value is known to be of this JSON type: no test of its type is written."""
        return self.known is not None and self.known == {json_type}

    @property
    def nothing(self) -> bool:
        return not (self.types or self.values or self.bounds) and (self.objects is None and not self.items)

    @property
    def one_enum(self) -> ValueTest | None:
        """The group's one test after its type, when that is an enum (written in place)."""
        only = len(self.values) == 1 and self.values[0].kind == "enum"
        rest = self.types or self.bounds or self.objects is not None or self.items
        return self.values[0] if only and not rest else None


@dataclass
class Reuse:
    """The visit's issues are the selected branch's candidate issues."""

    form: ClassVar[BodyForm] = "reuse"

    index: int


@dataclass
class Choose:
    """One combinator resolved (E5), then the rest of the visit per selection."""

    form: ClassVar[BodyForm] = "choose"

    uid: int
    choice: Choice  # its tag, tags and Ti per branch (E5)
    candidates: list[Call]
    tags_text: str  # constant
    expected: str
    on_branch: list[Steps | Choose | Switch | Reuse] = field(default_factory=list)
    on_none: Steps | Choose | Switch | Reuse | None = None


@dataclass
class Switch:
    """A combinator whose branches admit pairwise disjoint JSON types, none a discriminated
    union: E5 selects the one branch admitting the value's type, or none (rule 3's type
    issue). Only that branch could accept (rule 1); any other gets a type issue from its
    first `type`, or an invalid one from its first `const` / `enum`, and is admitted by
    neither rule 2 nor rule 4. So no candidate is computed: the value's type decides."""

    form: ClassVar[BodyForm] = "switch"

    admits: list[tuple[str, ...]]  # Ti per branch
    expected: str
    on_branch: list[Steps | Choose | Switch | Reuse] = field(default_factory=list)
    on_none: Steps | Choose | Switch | Reuse | None = None


Body = Steps | Choose | Switch | Reuse


@dataclass(eq=False)  # one per generated function, hashed by identity
class Function:
    name: str
    kind: FunctionKind
    # The word of the place it checks (a visit's own word; a candidate's, its visit's): its
    # descents are named from it, so a candidate and the rest of its visit share them.
    place: str = ""
    pre: list[TypeTest] = field(default_factory=list)
    body: Body | None = None
    memo: bool = False  # takes the memo argument
    calls: list[Call] = field(default_factory=list)  # every call it makes (for `memo`)
    # Written as `_collect_<name>(x, p, mis, une, typ, inv)` too: the visit appending each
    # issue, worded, to the list of its kind at once, `p` the rendered path (see _directs).
    direct: bool = False
    listed: bool = True  # the list-returning form is written (a list visit or candidate calls it)
    root: bool = False
    # Of the direct form: the lists it appends to or passes on (the others are named `_mis`...),
    # and the one JSON type its first test asks for when nothing after it reads `t` (the test
    # is then an exact-type test first, the JSON type found only for a value that fails it).
    kinds: frozenset[IssueList] = frozenset()
    exact: str = ""
    inline: bool = False  # one exact type test, written in place at every direct call

    @property
    def uses_t(self) -> bool:
        """Its list form reads the value's JSON type `t`: a type test, a bound, a choice."""
        body = self.body
        steps = isinstance(body, Steps) and bool(body.types or body.bounds)
        return bool(self.pre) or steps or isinstance(body, Choose | Switch)

    @property
    def reads_t(self) -> bool:
        """Its direct form's body reads `t` (a type test, a bound's guard, a choice)."""
        body = self.body
        return not isinstance(body, Steps) or bool(body.types) or any(not body.only(k) for k in body.bounds)

    @property
    def root_pre(self) -> list[TypeTest]:
        """The root's type tests a dict can fail (the root's direct form is `_collect`, which
        answers any other value with the one "tool input" line)."""
        return [t for t in self.pre if "object" not in t.names]

    @property
    def collect_name(self) -> str:
        return "_collect" if self.root else "_collect_" + self.name.removeprefix("_visit_")

    @property
    def empty(self) -> bool:
        return not self.pre and isinstance(self.body, Steps) and self.body.nothing


class CollectorPlan:
    """The collector functions and constants of one extended-mode module."""

    def __init__(
        self, tool: ToolModule, patterns: dict[str, str], taken: set[str], fast: FastPlan
    ) -> None:
        self.tool = tool
        self.fast = fast  # the module's FastPlan: its tests let descents skip valid values
        self.patterns = patterns
        self.nodes = {n.pointer: n for n in tool.nodes}
        self.functions: list[Function] = []
        self._by_key: dict[Any, Function] = {}
        self._names: set[str] = set()
        self._upper = taken  # module-level names, each without its leading underscore
        self.constants: list[Constant] = []
        self._constant_of: dict[Any, str] = {}
        self._uid = 0
        # Visits shared by the places of one name only (`visit`): a vocabulary with references.
        self._by_site = "$ref" in tool.vocabulary.interpreted
        self.root = self.visit(self.nodes[""].group, "args")
        # every visit function checks the depth limit (E4): a recursive tool, or one deep enough
        self.depth = bool(tool.recursive) or self._height() > DEPTH_LIMIT
        self._settle()
        self.root.root = True
        self._directs()
        self._top_level_lines()
        self.resume = self._resume()

    def _silent(self, call: Call) -> bool:
        """A descent that can find nothing at all, not even a depth issue: not written."""
        return call.descent and call.empty and not self.depth

    # ---------- names ----------

    def _constant(self, word: str, kind: ConstantKind, value: Any, key: Any = None) -> str:
        """The name of the constant `kind(value)`, made on first use; constants with one key
        (by default the kind and the value's repr) are one."""
        key = (kind, repr(value)) if key is None else key
        if key not in self._constant_of:
            self._constant_of[key] = "_" + numbered(identifier(word).upper(), self._upper)
            self.constants.append(Constant(name=self._constant_of[key], kind=kind, value=value))
        return self._constant_of[key]

    def enum_set(self, members: Any) -> str:
        """The frozenset constant of an enum of strings ("" when there is none)."""
        return self._constant_of.get(("members_set", repr(tuple(members))), "")

    # ---------- functions ----------

    def visit(self, members: tuple[str, ...], site: str) -> Function:
        """The visit of a group reached as `site`: named where its content is declared (a
        `$ref` target's name, else the site), and shared by the places with that name only,
        so a visit never carries the name of another place that happens to declare the
        same schema (`coupon` is not checked by `_collect_line_2`). Subset mode, whose
        output is frozen byte for byte, keeps one visit per content, named by its first
        user (docs/decisions.md)."""
        word = declaring_word(members, site)
        return self.function("visit", list(members), 0, frozenset(), word, word)

    def function(
        self, kind: FunctionKind, members: list[str], start: int, later: frozenset[str], word: str, named: str
    ) -> Function:
        """The visit of a group, or (kind "branch") a candidate: the group so far with one
        branch, whose members before `start` have their combinators resolved already. Keyed by
        what of each member decides the code: its content (without its combinators once they
        are resolved), and in a vocabulary with references the place `word` it checks (a
        candidate's name `named` is not part of it: the candidates of one content at one
        place are one function, however deep the combinators nest)."""
        nodes = [self.nodes[m] for m in members]
        contents = tuple(n.content_resolved if i < start else n.content for i, n in enumerate(nodes))
        key = (kind, contents, start, later, word if self._by_site else "")
        if key in self._by_key:
            return self._by_key[key]
        function = Function(name=numbered(f"_{kind}_{identifier(named)}", self._names), kind=kind, place=word)
        self._by_key[key] = function
        self.functions.append(function)
        function.pre = self._types(members)
        function.body = self._resolve(function, members, start, 0, later, named, kind == "branch")
        return function

    def _types(self, group: list[str]) -> list[TypeTest]:
        distinct = dict.fromkeys(self.nodes[pointer].types for pointer in group)
        return [TypeTest(names=types, expected=" | ".join(types)) for types in distinct if types is not None]

    # The unrolled loop's state, passed down its recursion: where it is (position, k), the names
    # it counts as declared, and what it builds (function, word, memoized). One object for them
    # would be built and taken apart at each of the calls below, all inside this loop.
    def _resolve(  # noqa: PLR0913
        self,
        function: Function,
        group: list[str],
        position: int,
        k: int,
        extra: frozenset[str],
        word: str,
        memoized: bool,
    ) -> Body:
        """The interpreter's loop over the group's combinators from (position, k), unrolled;
        `extra`: names counted as declared (of combinators resolved later or not chosen)."""
        while position < len(group) and k >= len(self.nodes[group[position]].choices):
            position, k = position + 1, 0
        if position >= len(group):
            return self._steps(function, group, extra, word, memoized)
        pending = self.nodes[group[position]].choices
        choice = pending[k]
        # the combinators still to resolve after this one: their names count as declared (E5)
        rests = [*pending[k + 1 :], *(c for a in group[position + 1 :] for c in self.nodes[a].choices)]
        ahead = extra.union(*(rest.names for rest in rests))
        self._uid += 1
        expected = " | ".join(dict.fromkeys(n for names in choice.accepts for n in names or ()))
        on_none = extra | frozenset(choice.names)  # no branch selected: its names count as declared
        if _disjoint(choice):
            switch = Switch(admits=[a for a in choice.accepts if a is not None], expected=expected)
            for b, names in zip(choice.branches, switch.admits, strict=True):
                members = list(self.nodes[b].group)
                then = self._resolve(function, group + members, position, k + 1, extra, word, memoized)
                switch.on_branch.append(_narrowed(then, names))
            switch.on_none = self._resolve(function, group, position, k + 1, on_none, word, memoized)
            return switch
        tag = choice.tag
        tags_text = self._constant(f"{tag}_tags", "tags_text", choice.tags) if tag is not None else ""
        choose = Choose(uid=self._uid, choice=choice, candidates=[], tags_text=tags_text, expected=expected)
        last = not rests
        for i, (b, branch) in enumerate(zip(choice.branches, branch_words(choice, self.nodes), strict=True)):
            members = list(self.nodes[b].group)
            named = f"{word}_{branch}"  # the candidate's constants take its name too
            callee = self.function("branch", group + members, len(group), ahead, function.place, named)
            call = Call(callee=callee)
            function.calls.append(call)
            choose.candidates.append(call)
            if last and not any(self.nodes[m].choices for m in members):
                choose.on_branch.append(Reuse(index=i))
            else:
                then = self._resolve(function, group + members, position, k + 1, extra, word, True)
                choose.on_branch.append(then)
        choose.on_none = self._resolve(function, group, position, k + 1, on_none, word, True)
        return choose

    def _steps(
        self, function: Function, group: list[str], extra: frozenset[str], word: str, memoized: bool
    ) -> Steps:
        nodes = [self.nodes[p] for p in group]
        # step 2: each distinct const and enum once, in group order
        distinct: dict[tuple[ValueKind, str], Any] = {}
        for node in nodes:
            if node.const:
                distinct.setdefault(("const", repr(node.const[0])), node.const[0])
            if node.enum is not None:
                distinct.setdefault(("enum", repr(node.enum)), node.enum)
        values: list[ValueTest] = []
        for (kind, shown), k in distinct.items():
            if kind == "const":
                text = self._constant(f"{word}_const", "const", k)
                values.append(ValueTest(kind="const", value=k, text=text))
                continue
            name = self._constant(f"{word}_members", "literal", k)
            text = self._constant(f"{word}_enum", "members_text", name, ("members_text", shown))
            if all(isinstance(m, str) for m in k):
                # the fast path tests a str against it too: a member renamed is one line
                self._constant(f"{word}_set", "members_set", name, ("members_set", shown))
            values.append(ValueTest(kind="enum", value=k, text=text, members=name))
        # per JSON type, in the order the vocabulary first names each type: one value has one
        # type, so only the order within a type is step 3's
        bounds: dict[str, list[BoundTest]] = {k.constrains: [] for k in self.tool.vocabulary.bounds}
        # step 3: each distinct bound once (an equal one repeated is the same test)
        distinct_bounds = {(b.spec.name, repr(b.value)): b for n in nodes for b in n.bounds}
        for (keyword, shown), bound in distinct_bounds.items():
            text = ""
            if bound.text:
                # by role: `_SKU_PATTERN` is the compiled pattern, `_SKU_PATTERN_LINE` its line
                role = f"{word}_{keyword}_line" if bound.spec.macro == "pattern" else f"{word}_{keyword}"
                # one per place where references are interpreted: `width` is not told it broke
                # `_RADIUS_EXCLUSIVE_MINIMUM` (the text is the same, the bound another's)
                place = function.place if self._by_site else ""
                text = self._constant(role, "literal", bound.text, ("bound", keyword, shown, place))
            extra_name = ""
            if bound.spec.macro == "pattern":
                assert bound.python is not None
                extra_name = self.patterns[bound.python]
            elif bound.spec.macro == "multiple":
                extra_name = self._constant(f"{word}_step", "fraction", bound.value)
            test = BoundTest(spec=bound.spec, value=bound.value, text=text, extra=extra_name)
            bounds[bound.spec.constrains].append(test)
        objects: Objects | None = None
        if any(n.object_like for n in nodes):
            required = list(dict.fromkeys(r for n in nodes for r in n.required))
            declares = [(name, sub) for n in nodes for name, sub in n.properties]
            properties = [(name, self._descend(function, sub, name, memoized)) for name, sub in declares]
            ordered = [name for n in nodes for name in [*(p for p, _ in n.properties), *n.required]]
            ordered = list(dict.fromkeys([*ordered, *sorted(extra)]))
            declared_name = ""
            if ordered:
                one_set = ("declared", tuple(sorted(ordered)))  # one constant, whatever the order
                declared_name = self._constant(f"{word}_declared", "declared", tuple(ordered), one_set)
            extras = [n.extra for n in nodes if n.extra is not None]
            allowed = any(n.open for n in nodes) or any(e is True for e in extras)
            pointers = [] if allowed else [e for e in extras if isinstance(e, str)]
            schemas = [self._descend(function, e, f"{function.place}_value", memoized) for e in pointers]
            unexamined = allowed and not self.tool.vocabulary.strict_keys
            objects = Objects(
                required=required,
                properties=properties,
                declared=declared_name,
                allowed=allowed,
                extras=schemas,
                unexamined=unexamined,
            )
            if objects.examines_nothing:
                objects = None
        items = [
            self._descend(function, n.items, f"{function.place}_item", memoized)
            for n in nodes
            if n.items is not None
        ]
        tested = [t.names for t in function.pre]  # passed already: the same value, the same tests
        types = [t for t in self._types(group) if t.names not in tested]
        known = possible([t.names for t in [*function.pre, *types]])  # past step 1
        steps = Steps(
            types=types,
            values=values,
            bounds={t: b for t, b in bounds.items() if b},
            objects=objects,
            items=items,
        )
        if known is not None:
            _restrict(steps, known)
        return steps

    def _descend(self, function: Function, pointer: str, word: str, memoized: bool) -> Call:
        group = self.nodes[pointer].group
        callee = self.visit(group, word)
        call = Call(callee=callee, memoized=memoized, descent=True)
        fv = self.fast.values.get(value_key(group))
        if fv is not None and not fv.fallback and not fv.empty and (fv.helper or _inline(fv)):
            call.fast = fv
        function.calls.append(call)
        return call

    # ---------- after every function is known ----------

    def _height(self) -> int:
        """The longest chain of descents below the root (no recursion: a DAG)."""
        heights: dict[Function, int] = {}
        callees = {f: [c.callee for c in f.calls] for f in self.functions}
        for f in TopologicalSorter(callees).static_order():  # callees first
            heights[f] = max((heights[c.callee] + c.descent for c in f.calls), default=0)
        return heights[self.root]

    def _settle(self) -> None:
        """Drop the silent calls, until none is left: a visit whose silent calls are dropped
        can find nothing itself, and so make its own callers' calls silent."""
        while True:
            changed = True
            while changed:
                changed = False
                for function in self.functions:
                    needs = any((c.memoized or c.callee.memo) and not c.callee.empty for c in function.calls)
                    if needs != function.memo:
                        function.memo = needs
                        changed = True
            calls = [c for f in self.functions for c in f.calls if c.empty != c.callee.empty]
            if not calls:
                return
            for call in calls:
                call.empty = call.callee.empty
            for steps in (s for f in self.functions for s in _all_steps(f.body)):
                steps.items = [c for c in steps.items if not self._silent(c)]
                o = steps.objects
                if o is not None:
                    o.properties = [(name, c) for name, c in o.properties if not self._silent(c)]
                    if o.extras and all(self._silent(c) for c in o.extras):
                        o.allowed = True  # every undeclared key's schema finds nothing
                    o.extras = [c for c in o.extras if not self._silent(c)]
                    if o.examines_nothing:  # its members' visits turned out to find nothing
                        steps.objects = None

    def _directs(self) -> None:
        """Give the direct form to the visits reached from the root through direct visits
        only, each of which can record no issue twice (so that no `distinct` is needed) and
        chooses no branch by candidates: issues then go straight into the collector's lists,
        as in the subset collector, with no list per visit, no path tuple and no dispatch.
        Not done for a tool with a depth limit (its visits count segments)."""
        if self.depth or not _direct_body(self.root):
            return
        stack = [self.root]
        pending: list[Function] = []  # the list visits that direct visits call
        while stack:
            function = stack.pop()
            if function.direct:
                continue
            function.direct = True
            for call in (c for c in function.calls if not self._silent(c)):
                call.direct = _direct_body(call.callee)
                (stack if call.direct else pending).append(call.callee)
        listed: set[Function] = set()
        while pending:
            callee = pending.pop()
            if callee not in listed:
                listed.add(callee)
                pending += [c.callee for c in callee.calls]
        for function in self.functions:
            function.listed = function in listed or not function.direct
            if function.direct:
                only = function.pre[0].names if len(function.pre) == 1 else ()
                if len(only) == 1 and only[0] != "null" and not function.reads_t:
                    function.exact = only[0]
                    body = function.body
                    if not function.root and isinstance(body, Steps):
                        function.inline = body.nothing or body.one_enum is not None
        for function in self.direct:
            for call in function.calls:
                callee = call.callee
                if call.direct and callee.inline:
                    call.exact = True
                    assert isinstance(callee.body, Steps)
                    call.enum = callee.body.one_enum
            function.kinds = _kinds(function.body) | ({"typ"} if function.pre or function.root else set())

    def _top_level_lines(self) -> None:
        """The lines of the arguments' own members, whose paths are known when the module
        loads, built then: a "missing" line whole, a type line up to the type found (about a
        tenth of an invalid call, measured in subset mode)."""
        body = self.root.body
        if not (self.root.direct and isinstance(body, Steps) and body.objects is not None):
            return
        o = body.objects
        for name in o.required:
            o.missing_lines[name] = self._constant(f"{name}_missing", "missing_line", name)
        for name, call in o.properties:
            if not call.exact and call.direct and call.callee.exact:
                call.exact = call.visits = True
            if call.exact:
                head = (name, call.callee.pre[0].expected)
                call.type_head = self._constant(f"{name}_type", "type_head", head)
            if call.enum is not None:
                call.invalid_line = self._constant(f"{name}_invalid", "rejected_line", (name, call.enum.text))

    def _resume(self) -> dict[str, int]:
        """Where the collector resumes the fast path's work: member name -> its index among
        the arguments' members the fast path tests, in order. validate() names the member it
        failed on (`_message(args, "name")`), and the direct visit of the arguments skips
        those tested before it (a valid value's visit finds nothing). Empty when the fast
        path does not test the arguments member by member in the collector's order, or the
        visit is not one direct object visit."""
        fast, body = self.fast.root, self.root.body  # fast.obj: neither a fallback nor a union
        if fast.obj is None or not (self.root.direct and isinstance(body, Steps) and body.objects):
            return {}
        names = [name for name, _ in fast.obj.members]
        tested = [(name, call) for name, call in body.objects.properties if name in names]
        if len(set(names)) != len(names) or [name for name, _ in tested] != names:
            return {}
        # Only a member visited by a call is skipped: one written in place is tested again,
        # which costs less than counting it off. So an object of such members only (most
        # tools) counts nothing.
        if all(call.exact and not call.visits for _, call in tested):
            return {}
        for name, call in tested:
            call.resume = name
        return {name: names.index(name) for name, _ in tested}

    @property
    def emitted(self) -> list[Function]:
        """The list-returning functions the module defines: every one a list visit, a
        candidate or a direct visit calls, but those that find nothing."""
        return [f for f in self.functions if f.listed and (not f.empty or f is self.root)]

    @property
    def root_lists(self) -> tuple[IssueList | Literal["_s.NO_ISSUES"], ...]:
        """The issue lists _message passes _collect, in the spec's order: a kind the arguments'
        visit never reports gets the shared, never-filled `_s.NO_ISSUES` (no list made)."""
        kinds = self.root.kinds if self.root.direct else frozenset(_LISTS)
        return tuple(k if k in kinds else "_s.NO_ISSUES" for k in _LISTS)

    @property
    def direct(self) -> list[Function]:
        """The direct visits the module defines (one exact type test is written in place)."""
        return [f for f in self.functions if f.direct and not f.inline]

    @property
    def uses_helpers(self) -> bool:
        """The module calls `_paths`: a list visit, a direct visit's number bound (finite),
        uniqueItems (repeat), or a list visit's issues handed over (dispatch); the fast
        path's multipleOf and uniqueItems."""
        helped = any(b.spec.macro in _HELPED for n in self.nodes.values() for b in n.bounds)
        handed = any(c.descent and not (c.direct or self._silent(c)) for f in self.direct for c in f.calls)
        finite = any("number" in s.bounds for f in self.direct for s in _all_steps(f.body))
        return bool(self.emitted) or helped or handed or finite


def _inline(fv: FastValue) -> bool:
    """A fast test written as one condition that calls no helper (so it cannot raise)."""
    if fv.helper or fv.fallback:
        return False
    return all(map(_inline, fv.alternatives)) if fv.alternatives is not None else bool(fv.leaf)


def _direct_body(function: Function) -> bool:
    """A visit that can record no issue twice and resolves at most one combinator, by type:
    each name, undeclared key and element is visited once (one schema declares it), and E5's
    type issue is never repeated by step 1 (all of the group's types were tested before)."""
    if function.kind != "visit":
        return False
    body = function.body
    bodies = [*body.on_branch, body.on_none] if isinstance(body, Switch) else [body]
    for steps in bodies:
        if not isinstance(steps, Steps):
            return False
        o = steps.objects
        if o is not None:
            names = [name for name, _ in o.properties]
            if len(set(names)) != len(names) or len(o.extras) > 1:
                return False
        if len(steps.items) > 1:
            return False
    return True


_HELPED: tuple[Macro, ...] = ("multiple", "unique")  # the macros of bounds whose tests call `_paths`


def _kinds(body: Body | None) -> frozenset[IssueList]:
    """The lists a direct visit's body appends to, or hands to the visits it calls."""
    found: set[IssueList] = {"typ"} if isinstance(body, Switch) else set()
    for steps in _all_steps(body):  # a direct visit's: steps, or a switch's steps
        if steps.types:
            found.add("typ")
        if steps.values or steps.bounds:
            found.add("inv")
        o = steps.objects
        if o is not None:
            if not o.unexamined:
                found.add("une")  # a key that is not a str is unexpected
            if o.required:
                found.add("mis")
        calls = [*(c for _, c in o.properties), *o.extras] if o is not None else []
        for call in [*calls, *steps.items]:
            found |= _filled(call)
    return frozenset(found)


_LISTS: tuple[IssueList, ...] = get_args(IssueList)


def _filled(call: Call) -> set[IssueList]:
    """The lists a descent fills: every one passed on, but one written in place (a type test,
    and its enum) fills only its own."""
    if not call.exact or call.visits:
        return set(_LISTS)
    return {"typ", "inv"} if call.enum else {"typ"}


def _narrowed(body: Body, names: tuple[str, ...]) -> Body:
    """`body` where the value is known to satisfy the type `names`: that test is not written
    again, and steps for the JSON types it excludes go."""
    for steps in _all_steps(body):
        steps.types = [t for t in steps.types if t.names != names]
        _restrict(steps, kinds_of(names) if steps.known is None else steps.known & kinds_of(names))
    return body


def _restrict(steps: Steps, known: frozenset[str]) -> None:
    """Steps of a value whose JSON type is one of `known`: those for other types go."""
    steps.bounds = {k: b for k, b in steps.bounds.items() if k in known}
    steps.objects = steps.objects if "object" in known else None
    steps.items = steps.items if "array" in known else []
    steps.known = known


def _disjoint(choice: Choice) -> bool:
    """No two branches admit one JSON type (`integer` counted as `number`), each admitting
    some declared types, and no discriminator (E5 rule 2 could name any branch)."""
    if choice.tag is not None or None in choice.accepts:
        return False
    kinds = [kinds_of(names) for names in choice.accepts if names is not None]
    return sum(map(len, kinds)) == len(frozenset().union(*kinds))  # no type counted twice


def _all_steps(body: Body | None) -> list[Steps]:
    if isinstance(body, Steps):
        return [body]
    if isinstance(body, Choose | Switch):
        return [s for b in [*body.on_branch, body.on_none] for s in _all_steps(b)]
    return []
