"""Stage 4: plan the module of one tool: stable names, shared helpers, the fast-path form.

Lowering says what to check; this stage decides how the module spells it, and nothing else:

* **Names** come from JSON names (generator/names.py), never from positions: the enum of
  `status` is `_STATUS`, the helpers of the elements of `questions` are
  `_check_questions_item` / `_collect_questions_item`. A later name that would collide with
  an earlier one (in preorder) gets a suffix, `_2`.
* **Sharing by content**: identical subschemas share one pair of helpers, identical enums
  one constant; the first use names them.
* **One form per construct**: a schema is written inline where its value is reached, except
  an object (always a pair of helpers, which keeps nesting flat at any depth) and an array
  reached inside a loop (an element or an additionalProperties value). Which form a member
  takes depends only on that member's own schema, so adding or removing a member changes
  only its own lines, plus the key set and the required count. (An object that declares
  nothing at all is one test, `if v:`: it accepts only {}.)
* **Kinds**: each collector helper takes only the issue lists (missing, unexpected, type,
  invalid) that its schema can fill.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.collector import CollectorPlan
from generator.ir import (
    ArrayCheck,
    Bound,
    EnumCheck,
    ExtendedTool,
    Node,
    ObjectCheck,
    Schema,
    ToolModule,
    TypeCheck,
)
from generator.names import identifier

KINDS = ("mis", "une", "typ", "inv")  # missing, unexpected, type, invalid: the spec's order
# Module-level names every module defines; a constant or helper never takes one of these.
_FIXED = frozenset({"TOOL_NAME", "NOT_ENFORCED", "ONE", "MANY", "DECLARED"})
# The constants one base name may spell (`_STATUS`, `_STATUS_TEXT`, ...): reserved together.
_SUFFIXES = ("", "_MEMBERS", "_TEXT", "_TYPE", "_INVALID", "_MISSING", "_DECLARED")


def _key(value: object) -> str:
    """Content identity: the repr of frozen dataclasses and JSON values (1 != 1.0 != True)."""
    return repr(value)


@dataclass(frozen=True)
class Helper:
    """A pair of functions, `_check_<name>` (fast) and `_collect_<name>` (exact)."""

    name: str
    schema: Schema
    kinds: tuple[str, ...]  # the issue lists _collect_<name> takes
    keys: str  # the constant of its object's declared names, "" when it has none to check


@dataclass(frozen=True)
class Enum:
    """The constants of one enum: `_<NAME>_MEMBERS` (as declared), `_<NAME>` (strings only)."""

    name: str  # upper-case base
    check: EnumCheck

    @property
    def strings(self) -> bool:
        """Every member a string: membership in a frozenset decides."""
        return all(isinstance(m, str) for m in self.check.members)

    @property
    def unique_strings(self) -> tuple[str, ...]:
        seen: list[str] = []
        for member in self.check.members:
            if member not in seen:
                seen.append(member)
        return tuple(seen)


@dataclass
class ModulePlan:
    tool: ToolModule
    helpers: list[Helper] = field(default_factory=list)
    enums: list[Enum] = field(default_factory=list)
    _helper_of: dict[str, Helper] = field(default_factory=dict)
    _enum_of: dict[str, Enum] = field(default_factory=dict)
    _member_base: dict[str, str] = field(default_factory=dict)
    _upper: set[str] = field(default_factory=lambda: set(_FIXED))
    _lower: set[str] = field(default_factory=set)

    # ---- what templates ask ----

    object_check = ObjectCheck
    array_check = ArrayCheck

    @property
    def root(self) -> ObjectCheck:
        return self.tool.root_object

    def helper(self, schema: Schema) -> Helper | None:
        """The helpers that render this schema, or None when it is written inline."""
        return self._helper_of.get(_key(schema))

    def enum(self, check: EnumCheck) -> Enum:
        return self._enum_of[_key(check)]

    def base(self, name: str) -> str:
        """The upper-case base of a top-level member's line constants (`_TASK_ID_TYPE`)."""
        return self._member_base[name]

    @staticmethod
    def leaf_of(schema: Schema) -> Schema:
        """The type and enum checks of a schema: the part written as one condition."""
        return Schema(tuple(c for c in schema.checks if isinstance(c, (TypeCheck, EnumCheck))))

    def kinds(self, schema: Schema) -> tuple[str, ...]:
        found: set[str] = set()
        _kinds(schema, found)
        return tuple(k for k in KINDS if k in found)

    def uses_number(self) -> bool:
        """Some type check accepts `number`: the fast path tests `type(x) not in _NUMBER`."""
        return "number" in _type_names(self.tool.root)

    def root_kinds(self) -> tuple[str, ...]:
        """The collector of the top level always may report a type issue (input not a dict)."""
        return tuple(k for k in KINDS if k in (*self.kinds(self.tool.root), "typ"))

    @staticmethod
    def leaf(schema: Schema) -> bool:
        """Only type and enum checks: one condition, written in place."""
        return all(isinstance(c, (TypeCheck, EnumCheck)) for c in schema.checks)

    @staticmethod
    def type_of(schema: Schema) -> TypeCheck | None:
        found = schema.find(TypeCheck)
        return found if isinstance(found, TypeCheck) else None

    @staticmethod
    def only(schema: Schema, name: str) -> bool:
        """The declared type is exactly this one JSON type (so the fast path knows the Python type)."""
        types = ModulePlan.type_of(schema)
        return types is not None and types.names == (name,)

    @staticmethod
    def rejects_none(schema: Schema) -> bool:
        """`.get` both finds and fetches a required member whose type excludes null."""
        types = ModulePlan.type_of(schema)
        return types is not None and "null" not in types.names

    # ---- naming ----

    def _upper_name(self, text: str) -> str:
        word = identifier(text).upper()
        candidate, n = word, 1
        while any(candidate + s in self._upper for s in _SUFFIXES):
            n += 1
            candidate = f"{word}_{n}"
        self._upper.update(candidate + s for s in _SUFFIXES)
        return candidate

    def _keys_name(self, helper: str) -> str:
        """The declared names of a helper's object: `_QUESTIONS_ITEM_KEYS`."""
        word, n = helper.upper(), 1
        candidate = f"{word}_KEYS"
        while candidate in self._upper:
            n += 1
            candidate = f"{word}_{n}_KEYS"
        self._upper.add(candidate)
        return candidate

    def _lower_name(self, text: str) -> str:
        word = identifier(text)
        candidate, n = word, 1
        while candidate in self._lower:
            n += 1
            candidate = f"{word}_{n}"
        self._lower.add(candidate)
        return candidate

    # ---- the walk, in preorder of the declaration ----

    def walk(self, schema: Schema, name: str, in_loop: bool) -> None:
        """Name what `schema` needs; `name` is the JSON name its value is reached by."""
        needs_helper = schema.find(ObjectCheck) is not None or (
            in_loop and schema.find(ArrayCheck) is not None
        )
        if needs_helper:
            key = _key(schema)
            if key in self._helper_of:
                return
            obj = schema.find(ObjectCheck)
            keys = ""
            lower = self._lower_name(name)
            # An object that declares no name has no key set: every key is undeclared.
            if isinstance(obj, ObjectCheck) and obj.extra in ("forbid", "check", "keys") and obj.members:
                keys = f"_{self._keys_name(lower)}"
            helper = Helper(lower, schema, self.kinds(schema), keys)
            self._helper_of[key] = helper
            self.helpers.append(helper)
        for check in schema.checks:
            if isinstance(check, EnumCheck) and _key(check) not in self._enum_of:
                enum = Enum(self._upper_name(name), check)
                self._enum_of[_key(check)] = enum
                self.enums.append(enum)
            elif isinstance(check, ObjectCheck):
                self.walk_object(check, name)
            elif isinstance(check, ArrayCheck):
                self.walk(check.items, f"{name}_item", in_loop=True)

    def walk_object(self, check: ObjectCheck, name: str) -> None:
        for member in check.members:
            self.walk(member.schema, member.name, in_loop=False)
        if check.extra_schema is not None:
            self.walk(check.extra_schema, f"{name}_value", in_loop=True)


def _type_names(schema: Schema) -> set[str]:
    """Every type name declared in the schema or below it."""
    found: set[str] = set()
    for check in schema.checks:
        if isinstance(check, TypeCheck):
            found.update(check.names)
        elif isinstance(check, ObjectCheck):
            for member in check.members:
                found |= _type_names(member.schema)
            if check.extra_schema is not None:
                found |= _type_names(check.extra_schema)
        elif isinstance(check, ArrayCheck):
            found |= _type_names(check.items)
    return found


def _kinds(schema: Schema, found: set[str]) -> None:
    for check in schema.checks:
        if isinstance(check, TypeCheck):
            found.add("typ")
        elif isinstance(check, EnumCheck):
            found.add("inv")
        elif isinstance(check, ObjectCheck):
            if check.required:
                found.add("mis")
            if check.extra in ("forbid", "check", "keys"):  # a key that is not a str is unexpected
                found.add("une")
            for member in check.properties:
                _kinds(member.schema, found)
            if check.extra_schema is not None:
                _kinds(check.extra_schema, found)
        elif isinstance(check, ArrayCheck):
            _kinds(check.items, found)


def plan(tool: ToolModule) -> ModulePlan:
    result = ModulePlan(tool)
    # Top-level members first: their line constants take the plain names (`_STATUS_TYPE`).
    for member in tool.root_object.members:
        result._member_base[member.name] = result._upper_name(member.name)
    for member in tool.root_object.members:
        schema = member.schema
        enum = schema.find(EnumCheck)
        if isinstance(enum, EnumCheck) and _key(enum) not in result._enum_of:
            # A top-level enum's constants share its member's base: _STATUS, _STATUS_INVALID.
            named = Enum(result._member_base[member.name], enum)
            result._enum_of[_key(enum)] = named
            result.enums.append(named)
    result.walk_object(tool.root_object, "value")
    return result


# ---------- extended mode ----------

_KEYWORD_TOKENS = frozenset(
    {"properties", "items", "additionalProperties", "$defs", "definitions", "allOf", "anyOf", "oneOf"}
)


def _json_name(pointer: str) -> str:
    """The JSON name a schema is reached by: the last token of its pointer that is a name."""
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    for k in range(len(tokens) - 1, -1, -1):
        token = tokens[k]
        if token in _KEYWORD_TOKENS and (
            k == 0 or tokens[k - 1] not in ("properties", "$defs", "definitions")
        ):
            continue
        if token.isdigit() and k > 0 and tokens[k - 1] in ("allOf", "anyOf", "oneOf"):
            continue
        return token
    return "value"


@dataclass
class ExtendedPlan:
    """Names of an extended module's constants: one compiled pattern per distinct pattern,
    `_<NAME>_PATTERN` from the JSON name of the first schema (in declaration order) using it."""

    tool: ExtendedTool
    patterns: dict[str, str] = field(default_factory=dict)  # python spelling -> constant name
    fast: FastPlan | None = None
    collector: CollectorPlan | None = None

    def pattern(self, python: str) -> str:
        return self.patterns[python]


def plan_extended(tool: ExtendedTool) -> ExtendedPlan:
    result = ExtendedPlan(tool)
    taken: set[str] = set(_FIXED)
    for node in tool.nodes:
        for bound in node.bounds:
            if bound.python is None or bound.python in result.patterns:
                continue
            word = identifier(_json_name(node.pointer)).upper()
            candidate, n = f"{word}_PATTERN", 1
            while candidate in taken:
                n += 1
                candidate = f"{word}_{n}_PATTERN"
            taken.add(candidate)
            result.patterns[bound.python] = f"_{candidate}"
    result.fast = plan_fast(tool)
    result.collector = CollectorPlan(
        tool, result.patterns, taken | {"_NUMBER", "_INF", "_ONE", "_MANY"}, result.fast
    )
    # A list visit proves a child valid with its helper (collector_extended.j2, proven).
    calls = [c for f in result.collector.functions for c in f.calls]
    result.fast.embed({id(c.fast) for c in calls if c.fast is not None and not c.direct})
    return result


# ---------- extended mode: the fast path ----------
#
# The fast path proves a valid call valid with straight-line tests and nothing else; any
# call it does not prove valid goes to the exact collector, so it only has to be sound.
# A value's tests come from its completed group (E4): with no anyOf / oneOf it is the group
# itself; with one combinator whose branches have none of their own, it is one alternative
# per branch (the group plus that branch's group: E5 rule 1 selects a branch exactly when
# that merged group accepts the value). Anything else (two combinators in one group, nested
# combinators) is left to the collector: its fast test is `False`.


@dataclass
class FastObject:
    required: tuple[str, ...]  # distinct, group order
    optional: tuple[str, ...]  # declared, not required
    members: list[tuple[str, FastValue]]  # (name, its test) per declaring schema, group order
    extra: str  # "allow" (open or additionalProperties true), "forbid", "check"
    declared: tuple[str, ...]
    extra_values: list[FastValue]

    @functools.cached_property
    def fetched(self) -> frozenset[str]:
        """Required names read with `.get`, with no test of presence of their own: their one
        test fails on None, so it fails when the name is absent too (subset's form)."""
        names = [name for name, _ in self.members]
        return frozenset(
            name
            for name, value in self.members
            if name in self.required and names.count(name) == 1 and value.rejects_none
        )


def paired(bounds: Sequence[Bound]) -> list[tuple[Bound, Bound | None]]:
    """The fast path's tests of a value's bounds, in order: where a JSON type has exactly one
    lower and one upper comparison of one macro (`1 <= x <= 9`, `2 <= len(x) <= 4`), the two
    are one chained test, at the lower one's place."""
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
    name: str  # JSON name (the words of its helper's name)
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
        return (
            self.alternatives is None
            and not self.fallback
            and not self.types
            and not self.consts
            and not self.enums
            and not self.bounds
            and self.obj is None
            and not self.items
        )

    @property
    def leaf(self) -> bool:
        if self.alternatives is not None:
            return all(a.leaf for a in self.alternatives)
        return self.obj is None and not self.items and not self.fallback


def _possible(types: list[tuple[str, ...]]) -> frozenset[str] | None:
    found: frozenset[str] | None = None
    for names in types:
        here = frozenset("number" if n == "integer" else n for n in names)
        found = here if found is None else found & here
    return found


@dataclass
class FastPlan:
    tool: ExtendedTool
    values: dict[tuple[str, ...], FastValue] = field(default_factory=dict)
    helpers: list[FastValue] = field(default_factory=list)
    _building: set[tuple[str, ...]] = field(default_factory=set)
    _names: set[str] = field(default_factory=set)
    _nodes: dict[str, Node] = field(default_factory=dict)
    root: FastValue | None = None
    depth: bool = False  # some value is recursive: every helper checks the depth limit (E4)

    def __post_init__(self) -> None:
        self._nodes = {n.pointer: n for n in self.tool.nodes}

    def helper_name(self, text: str) -> str:
        word = identifier(text)
        candidate, n = word, 1
        while candidate in self._names:
            n += 1
            candidate = f"{word}_{n}"
        self._names.add(candidate)
        return candidate

    def value(self, pointer: str, name: str) -> FastValue:
        return self.merged(self._nodes[pointer].group, name)

    def merged(self, members: tuple[str, ...], name: str, resolved: int = 0) -> FastValue:
        """The test of a value against the group `members`, whose first `resolved` members'
        combinators are already resolved (this is one alternative of theirs)."""
        key = (*members, f"resolved {resolved}")
        found = self.values.get(key)
        if found is not None:
            if key in self._building:
                found.recursive = True
            found.users += 1
            return found
        fv = FastValue(key, name)
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
                    self.merged(tuple(dict.fromkeys(members + b.group)), f"{name}_choice", len(members))
                    for b in branches
                ]
        else:
            self.fill(fv, nodes, name)
        if not fv.leaf or fv.recursive:
            fv.helper = self.helper_name(name)
            self.helpers.append(fv)
        self._building.discard(key)
        fv.users += 1
        return fv

    def fill(self, fv: FastValue, nodes: list[Node], name: str) -> None:
        fv.types = [n.types for n in nodes if n.types is not None]
        fv.possible = _possible(fv.types)
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
            if any(n.open for n in nodes) or any(e is True for e in extras):
                extra, extra_values = "allow", []
            elif extra_values:
                extra = "check"
            else:
                extra = "forbid"
            optional = tuple(d for d in declared if d not in required)
            members = [(p, v) for p, v in members if not v.empty or v.key in self._building]
            fv.obj = FastObject(required, optional, members, extra, declared, extra_values)
        if fv.may("array"):
            items = [self.value(n.items, f"{name}_item") for n in nodes if n.items is not None]
            fv.items = [v for v in items if not v.empty or v.key in self._building]

    def embed(self, called: set[int]) -> None:
        """Decide which helpers' tests are written in place, at their one user, instead
        (`called`: the ids of the values whose helpers the collector calls, which stay):

        * of a union's alternatives, the one that needs statements when every other is one
          condition (`Optional[Model]`: None, then the model's tests), in the union's body;
          it is reached from that union only (its key extends the union's);
        * a nested object or array with one user, a member or the elements of its user,
          where its statements fall through when it passes. Not in a tool with a depth
          limit, where each helper counts one level of nesting."""
        for fv in self.values.values():
            if fv.alternatives is None or fv.recursive:
                continue
            heavy = [a for a in fv.alternatives if not a.leaf]
            light = [a for a in fv.alternatives if a.leaf and not a.empty]
            alone = len(heavy) == 1 and heavy[0].helper and not heavy[0].recursive
            if alone and light and len(light) + 1 == len(fv.alternatives):
                fv.inlined = heavy[0]
                self._drop(heavy[0])
        if self.depth:
            return
        for fv in list(self.values.values()):
            sites = [mv for _, mv in fv.obj.members] if fv.obj is not None else []
            sites += fv.items if len(fv.items) == 1 else []
            for site in sites:
                if site.helper and site.users == 1 and id(site) not in called and _embeddable(site):
                    site.embedded = True
                    site.helper = ""
                    self._drop(site)

    def _drop(self, fv: FastValue) -> None:
        """No helper is written for `fv` (by identity: two values may compare equal)."""
        self.helpers = [h for h in self.helpers if h is not fv]


def _embeddable(fv: FastValue) -> bool:
    """Its tests are statements that fall through when it passes: an object or an array
    (so that no type test follows its body), or `Optional` of one (None, else the body)."""
    if fv.recursive or fv.fallback:
        return False
    if fv.inlined is not None:
        return _embeddable(fv.inlined)
    if fv.alternatives is not None:
        return False
    return (fv.obj is not None and fv.only("object")) or (bool(fv.items) and fv.only("array"))


def plan_fast(tool: ExtendedTool) -> FastPlan:
    """The fast path of an extended module: the root's test, and its helpers in preorder."""
    result = FastPlan(tool)
    result._names.update({"value", "message", "collect"})
    result.root = result.value("", "args")
    result.depth = any(v.recursive for v in result.values.values())
    return result
