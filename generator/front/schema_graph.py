"""Static analysis of one declaration in its vocabulary (docs/spec/validation.md, docs/spec/extended.md).

`analyse(file, parameters)` checks every schema that the vocabulary interprets (§7 and E8
refusals, raised as `DeclarationError` at the first one), resolves local `$ref`s
(E3), refuses in-place cycles, builds each schema's group (E4) with its combinators and
their branches' groups (E5), finds the groups reached recursively through `properties`,
`items` or `additionalProperties`, and collects the E8 warnings as structured records.

Schemas are named by their RFC 6901 JSON pointer from the `parameters` root ("" is the root,
"/$defs/Node", "/properties/a~1b"); refusals and warnings name the pointer inside the file
(`base` + that pointer). Nothing here reads generator/ beyond errors.py, patterns.py,
refusals.py and vocabulary.py: the lowering consumes the returned `SchemaGraph`.

Readings where the spec is silent (docs/extended.md, "How a declaration is read", says the
same for users):
* A boolean subschema (`true` or `false`) contributes nothing to a group (E4): its group is
  empty. `additionalProperties: true|false` keeps its own meaning and is not a subschema.
* A schema met twice in one group (`allOf: [{$ref: A}, {$ref: A}]`) is kept once, at its first
  place: applying it again could only repeat identical issues, which E4 records once.
* Every schema the vocabulary interprets is checked, also where a declared `type` makes a
  keyword unreachable (`{"type": "string", "properties": {"x": {"type": "strin"}}}` is refused).
* The top-level rules of docs/spec/validation.md §7 (type "object", no enum, and E8's no
  const) apply to every schema of the root's group known before any combinator, since all of
  them are applied to the whole input; the root itself keeps the subset texts word for word.
* Warnings judged on a value (accepts only {}, names required without a property schema,
  undeclared keys unchecked) look at every schema that can be applied in place to that value:
  its group and the groups of all branches of its combinators, at any depth.
* Bounds no value can meet are judged per schema.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any
from urllib.parse import unquote

from ..base.graph import components
from .errors import DeclarationError, Notice, WarningKind, pointer_join
from .patterns import PatternTranslation
from .refusals import required_refusal, type_refusal
from .vocabulary import EXTENDED, CombinatorKeyword, Vocabulary, is_number

__all__ = [
    "Combinator",
    "Discriminator",
    "Group",
    "PatternCheck",
    "SchemaGraph",
    "analyse",
    "json_equal",
    "json_type",
]

# In the order one schema's combinators are resolved (E4).
COMBINATORS: tuple[CombinatorKeyword, ...] = ("anyOf", "oneOf")
DEFINITIONS = ("$defs", "definitions")
OBJECT_KEYWORDS = ("properties", "required", "additionalProperties")

# What judges a pattern (generator/front/patterns.py's translate; a test's stand-in).
PatternCheck = Callable[[str], PatternTranslation]


@dataclass(frozen=True)
class Discriminator:
    """E5 rule 2: a property whose `const` tag tells the branches apart."""

    name: str
    tags: tuple[Any, ...]  # tags[i] is branch i's tag


@dataclass(frozen=True)
class Combinator:
    """One `anyOf` / `oneOf` met in a group."""

    keyword: CombinatorKeyword
    schema: str  # pointer of the schema that carries it
    branches: tuple[Group, ...]  # each branch's own group (branch i is at schema/keyword/i)
    discriminator: Discriminator | None
    # Names declared (properties or required) by any branch: its group and the branches of the
    # combinators in it, at any depth (E5: they count as declared while candidates are weighed,
    # and for E4 4c when no branch is selected).
    declared: tuple[str, ...]


@dataclass(frozen=True)
class Group:
    """G(S) for one schema S (E4)."""

    schema: str  # pointer of S
    # The object schemas applied in place before any combinator, in group order: S, then
    # G($ref target), then G(each allOf branch). Booleans contribute nothing; a schema is kept
    # once. Empty for a boolean S.
    members: tuple[str, ...]
    combinators: tuple[Combinator, ...]  # of the members, in member order, anyOf before oneOf
    # The pointer of an equivalent group: S itself, or the canonical group of S's only link
    # when S adds nothing but a local $ref (or an allOf of one branch). Lowerings share by it.
    canonical: str
    object_like: bool  # some member is object-like (judged before any combinator)
    declared: tuple[str, ...]  # names in properties or required of the members, first seen first
    # E5 rule 3's Ti: the type names of the first member declaring `type`, else the JSON types
    # of the first const / enum's members; None when every type is accepted.
    accepts: tuple[str, ...] | None


@dataclass(frozen=True)
class SchemaGraph:
    schemas: Mapping[str, Any]  # every interpreted schema (a dict or a boolean), in walk order
    groups: Mapping[str, Group]  # the group of every interpreted schema
    # Canonical groups on a cycle of descents (a tree, a linked list): each needs its own
    # function pair; every other group may be inlined where it is reached.
    recursive: frozenset[str]
    warnings: tuple[Notice[WarningKind], ...]  # kinds: the keys of errors.NOTICE_KINDS (check.py maps them)
    vocabulary: Vocabulary = EXTENDED  # what was interpreted

    @property
    def not_enforced(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """(file pointer, keywords) of everything not enforced, in walk order."""
        return tuple((w.pointer, w.keywords) for w in self.warnings if w.kind == "not_interpreted")


# In this order: a bool is also an int.
_JSON_TYPES = (
    (type(None), "null"),
    (bool, "boolean"),
    ((int, float), "number"),
    (str, "string"),
    (dict, "object"),
    (list, "array"),
)


def json_type(value: Any) -> str:
    """The JSON type name of a decoded JSON value (docs/spec/validation.md §3)."""
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), type(value).__name__)


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality (docs/spec/validation.md §4)."""
    kind = json_type(a)
    if kind != json_type(b):
        return False
    if kind == "array":
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if kind == "object":
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def declared_types(schema: dict[str, Any]) -> list[str] | None:
    """The type names of an accepted schema, or None when it declares no type."""
    if "type" not in schema:
        return None
    declared = schema["type"]
    return [declared] if isinstance(declared, str) else list(declared)


def object_like(schema: dict[str, Any]) -> bool:
    """Of an accepted schema (or the root, whose `type` can only be "object")."""
    return any(k in schema for k in OBJECT_KEYWORDS) or "object" in (declared_types(schema) or ())


def is_local(ref: Any) -> bool:
    """A local reference (E3): `#` or a JSON pointer fragment."""
    return isinstance(ref, str) and (ref == "#" or ref.startswith("#/"))


def _closure(group: Group) -> tuple[str, ...]:
    found: dict[str, None] = {}
    stack = [group]
    seen: set[int] = set()
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        found.update(dict.fromkeys(current.members))
        for combinator in reversed(current.combinators):
            stack.extend(reversed(combinator.branches))
    return tuple(found)


class _Analysis:
    def __init__(
        self, file: str, base: str, root: Any, pattern_check: PatternCheck | None, vocabulary: Vocabulary
    ) -> None:
        self.file = file
        self.vocabulary = vocabulary
        # Keywords that make a schema add something to a visit; a schema whose only such keyword
        # is one in-place link ($ref, or allOf with one branch) is equivalent to the link's target.
        self.contributing = (vocabulary.interpreted - set(DEFINITIONS)) | vocabulary.opening
        self.reads = vocabulary.interpreted
        # The in-place links this vocabulary follows (E4): allOf, then anyOf / oneOf.
        self.in_place_keywords = tuple(k for k in ("allOf", *COMBINATORS) if k in self.reads)
        self.base = base
        self.root = root
        # Each distinct pattern is judged once.
        self.pattern_check = cache(pattern_check) if pattern_check is not None else None
        self.schemas: dict[str, Any] = {}
        self.refs: dict[str, str] = {}
        self.targets: list[tuple[str, Any]] = []  # (pointer, schema) of each local $ref's target, for walk
        self.nonlocal_refs: set[str] = set()
        # Per object schema, in walk order: its descents (properties, additionalProperties, items).
        self.descents: dict[str, list[str]] = {}
        self.definitions: list[str] = []
        self.warnings: list[Notice[WarningKind]] = []
        self.groups: dict[str, Group] = {}

    # ---------- reporting ----------

    def refuse(self, pointer: str, reason: str) -> DeclarationError:
        return DeclarationError(self.file, self.base + pointer, reason)

    def warn(self, pointer: str, kind: WarningKind, keywords: tuple[str, ...], reason: str) -> None:
        self.warnings.append(Notice(self.file, self.base + pointer, kind, reason, keywords))

    # ---------- the whole analysis ----------

    def run(self) -> SchemaGraph:
        self.check_root()
        self.walk()
        self.build_groups()
        self.check_root_group()
        self.check_cases()
        self.value_warnings()
        return SchemaGraph(
            schemas=MappingProxyType(self.schemas),
            groups=MappingProxyType(self.groups),
            recursive=self.recursion(),
            warnings=tuple(self.warnings),
            vocabulary=self.vocabulary,
        )

    def check_root(self) -> None:
        schema = self.root
        if not isinstance(schema, dict):
            raise self.refuse("", "parameters must be an object schema")
        self.check_top_level("", schema, "")
        if not object_like(schema) and not any(k in schema and k in self.reads for k in ("$ref", "allOf")):
            raise self.refuse("", _NOT_OBJECT_LIKE)

    def check_top_level(self, pointer: str, schema: dict[str, Any], suffix: str) -> None:
        """docs/spec/validation.md §7's rules on a schema applied to the whole input (E8 adds const)."""
        if "type" in schema and schema["type"] != "object":
            raise self.refuse(pointer_join(pointer, "type"), 'parameters must have type "object"' + suffix)
        for keyword, article in (("enum", "an"), ("const", "a")):
            # an enum is refused whatever the vocabulary reads (§7); a const where it is read (E8)
            if keyword in schema and (keyword == "enum" or keyword in self.reads):
                raise self.refuse(
                    pointer_join(pointer, keyword), f"parameters must not have {article} {keyword}{suffix}"
                )

    def walk(self) -> None:
        """Check every interpreted schema, preorder in document order; then the targets of
        local references that lie where nothing else is interpreted."""
        stack: list[tuple[str, Any]] = [("", self.root)]
        while stack or self.targets:
            pointer, schema = stack.pop() if stack else self.targets.pop(0)
            if pointer in self.schemas:
                continue
            self.schemas[pointer] = schema
            if isinstance(schema, bool):  # never the root: check_root refused that
                self.warn(
                    pointer,
                    "boolean_subschema",
                    (),
                    f"boolean subschema {json.dumps(schema)} constrains nothing here",
                )
                continue
            stack.extend(reversed(self.check(pointer, schema)))

    # ---------- one schema's keywords ----------

    def check(self, pointer: str, schema: dict[str, Any]) -> list[tuple[str, Any]]:
        """Refuse what is malformed in one schema, warn about it; return its subschemas."""
        children: list[tuple[str, Any]] = []
        # A schema's own keywords not interpreted come first, then what is found inside them.
        known = self.vocabulary.interpreted | self.vocabulary.annotations
        ignored = sorted(k for k in schema if k not in known)
        if ignored:
            self.warn(pointer, "not_interpreted", tuple(ignored), f"not enforced: {', '.join(ignored)}")
        if refused := type_refusal(schema, pointer):
            raise self.refuse(*refused)
        if "enum" in schema and (not isinstance(schema["enum"], list) or not schema["enum"]):
            raise self.refuse(pointer_join(pointer, "enum"), "expected a non-empty list")
        if refused := required_refusal(schema, pointer):
            raise self.refuse(*refused)
        if "properties" in schema:
            children += self.subschemas(pointer, schema, "properties", "property names")
        extra = schema.get("additionalProperties", False)  # absent: nothing to walk
        if isinstance(extra, dict):
            children.append((pointer_join(pointer, "additionalProperties"), extra))
        elif not isinstance(extra, bool):
            raise self.refuse(pointer_join(pointer, "additionalProperties"), "expected a boolean or a schema")
        children += self.check_items(pointer, schema)
        self.descents[pointer] = [at for at, _ in children]
        self.check_ref(pointer, schema)
        for keyword in self.in_place_keywords:
            if keyword in schema:
                children.extend(self.subschemas(pointer, schema, keyword))
        for keyword in DEFINITIONS:
            if keyword in schema and keyword in self.reads:
                found = self.subschemas(pointer, schema, keyword, "names")
                children += found
                self.definitions += [at for at, _ in found]
        self.check_bounds(pointer, schema)
        self.check_pattern(pointer, schema)
        if "oneOf" in schema and "oneOf" in self.reads:
            self.warn(
                pointer_join(pointer, "oneOf"),
                "one_of",
                ("oneOf",),
                "oneOf is checked as anyOf: a value that fits several branches is accepted",
            )
        self.check_unsatisfiable(pointer, schema)
        return children

    def check_items(self, pointer: str, schema: dict[str, Any]) -> list[tuple[str, Any]]:
        """The schema `items` descends to, if any: its tuple form is not enforced (a warning),
        anything but a schema or a list refused."""
        if "items" not in schema:
            return []
        items = schema["items"]
        at = pointer_join(pointer, "items")
        if isinstance(items, list):
            self.warn(at, "not_interpreted", ("items (tuple form)",), "not enforced: items (tuple form)")
            return []
        if not isinstance(items, (dict, bool)):
            raise self.refuse(at, "expected a schema (an object or a boolean) or a list of schemas")
        return [(at, items)]

    def check_ref(self, pointer: str, schema: dict[str, Any]) -> None:
        """A non-local $ref is not enforced; a local one is resolved to the canonical pointer of
        its target (queued for walk), a missing target refused."""
        if "$ref" not in schema or "$ref" not in self.reads:
            return
        ref = schema["$ref"]
        where = pointer_join(pointer, "$ref")
        if not isinstance(ref, str):
            raise self.refuse(where, "expected a reference (a string)")
        shown = json.dumps(ref, ensure_ascii=False)
        if not is_local(ref):
            self.nonlocal_refs.add(pointer)
            self.warn(
                where, "not_interpreted", ("$ref",), f"not enforced: $ref {shown} is not a local reference"
            )
            return
        try:
            decoded = unquote(ref[1:], errors="strict")
        except UnicodeDecodeError:
            raise self.refuse(where, f"{shown} is not a valid JSON pointer (bad percent-encoding)") from None
        raws = decoded.split("/")[1:]
        if any(raw[i + 1 : i + 2] not in ("0", "1") for raw in raws for i, c in enumerate(raw) if c == "~"):
            raise self.refuse(where, f"{shown} is not a valid JSON pointer (~ must be ~0 or ~1)")
        value: Any = self.root
        target = ""
        for token in tokens(decoded):
            if isinstance(value, dict) and token in value:
                value = value[token]
            elif isinstance(value, list) and _is_index(token) and int(token) < len(value):
                value = value[int(token)]  # (an index as _is_index spells it: its own token)
            else:
                raise self.refuse(where, f"{shown} refers to nothing in parameters")
            target = pointer_join(target, token)
        if not isinstance(value, (dict, bool)):
            found = (
                "an array"
                if isinstance(value, list)
                else f"{json_type(value)} {json.dumps(value, ensure_ascii=False, separators=(', ', ': '))}"
            )
            raise self.refuse(where, f"{shown} refers to {found}, not a schema")
        self.targets.append((target, value))
        self.refs[pointer] = target

    def subschemas(
        self, pointer: str, schema: dict[str, Any], keyword: str, names: str = ""
    ) -> list[tuple[str, Any]]:
        """(pointer, subschema) of each member of `keyword`'s value: an object mapping `names` to
        schemas, else (allOf, anyOf, oneOf) a non-empty list; refuses a malformed one."""
        where = pointer_join(pointer, keyword)
        value = schema[keyword]
        if names and not isinstance(value, dict):
            raise self.refuse(where, f"expected an object mapping {names} to schemas")
        if not names and (not isinstance(value, list) or not value):
            raise self.refuse(where, "expected a non-empty list of schemas")
        members = value.items() if names else enumerate(value)
        found = [(pointer_join(where, key), sub) for key, sub in members]
        for at, sub in found:
            if not isinstance(sub, (dict, bool)):
                raise self.refuse(at, "expected a schema (an object or a boolean)")
        return found

    def check_bounds(self, pointer: str, schema: dict[str, Any]) -> None:
        """Refuse a bound whose value its spec refuses (the pattern's syntax is check_pattern's)."""
        for spec in self.vocabulary.bounds:
            if spec.name not in schema:
                continue
            value = schema[spec.name]
            where = pointer_join(pointer, spec.name)
            if spec.macro == "number" and spec.inert is not None and spec.inert(value):
                self.warn(
                    where,
                    "not_interpreted",
                    (spec.name,),
                    f"not enforced: {spec.name} {json.dumps(value)} (the draft-4 boolean form; "
                    f"write the bound itself as {spec.name})",
                )
                continue
            if spec.refusal is not None and (reason := spec.refusal(value)) is not None:
                raise self.refuse(where, reason)

    def check_pattern(self, pointer: str, schema: dict[str, Any]) -> None:
        if "pattern" not in schema or "pattern" not in self.reads or self.pattern_check is None:
            return
        pattern = schema["pattern"]  # a str: check_bounds refused anything else (the spec's refusal)
        where = pointer_join(pointer, "pattern")
        result = self.pattern_check(pattern)
        if result.status == "invalid":
            raise self.refuse(where, f"not a valid ECMA-262 regular expression: {result.reason}")
        if result.status == "not_enforced":
            self.warn(where, "not_interpreted", ("pattern",), f"not enforced: pattern ({result.reason})")
        elif result.nested_quantifier:
            self.warn(
                where,
                "nested_quantifier",
                ("pattern",),
                "pattern has a nested unbounded quantifier: its matching time can grow "
                "exponentially with a hostile string (still enforced)",
            )

    def check_unsatisfiable(self, pointer: str, schema: dict[str, Any]) -> None:
        """Per JSON type, the tightest lower and upper bound (a strict one wins a tie): warn
        when no value can meet both."""
        for kind in dict.fromkeys(k.constrains for k in self.vocabulary.bounds if k.compare):
            best: dict[bool, tuple[str, Any, bool]] = {}  # lower? -> (keyword, K, strict)
            for spec in self.vocabulary.bounds:
                value = schema.get(spec.name)
                if spec.constrains != kind or not spec.compare or not is_number(value):
                    continue
                strict = spec.compare in (">", "<")
                found = best.get(spec.lower)
                tighter = found is None or (value > found[1] if spec.lower else value < found[1])
                if tighter or (found is not None and value == found[1] and strict):
                    best[spec.lower] = (spec.name, value, strict)
            low, high = best.get(True), best.get(False)
            if low and high and (low[1] > high[1] or (low[1] == high[1] and (low[2] or high[2]))):
                self.warn(
                    pointer,
                    "unsatisfiable",
                    (low[0], high[0]),
                    f"no {kind} can meet {low[0]} {json.dumps(low[1])} and {high[0]} {json.dumps(high[1])}",
                )

    # ---------- in place: cycles and groups ----------

    def in_place(self, pointer: str) -> list[tuple[str, str]]:
        """(target, pointer of the keyword that leads there) for each in-place link."""
        schema = self.schemas[pointer]
        links = [(self.refs[pointer], pointer_join(pointer, "$ref"))] if pointer in self.refs else []
        if isinstance(schema, dict):
            links += [(at, at) for k in self.in_place_keywords for at in _branches(pointer, schema, k)]
        return links

    def build_groups(self) -> None:
        """Depth-first over in-place links: refuse a cycle; build each group after its links'."""
        for start in self.schemas:
            if start in self.groups:
                continue
            path = {start: iter(self.in_place(start))}  # the current path, each with its links left
            while path:
                current, links = next(reversed(path.items()))
                step = next(links, None)
                if step is None:
                    del path[current]
                    self.groups[current] = self.group(current)
                    continue
                target, via = step
                if target in path:
                    chain = [*list(path)[list(path).index(target) :], target]
                    raise self.refuse(
                        via,
                        f"in-place cycle {' -> '.join('#' + p for p in chain)}: $ref, allOf, anyOf "
                        "and oneOf apply a schema to the same value; recursion must go through "
                        "properties, items or additionalProperties",
                    )
                if target not in self.groups:
                    path[target] = iter(self.in_place(target))

    def group(self, pointer: str) -> Group:
        """G(pointer), from its links' groups (already built)."""
        schema = self.schemas[pointer]
        if isinstance(schema, bool):
            return Group(
                schema=pointer,
                members=(),
                combinators=(),
                canonical=pointer,
                object_like=False,
                declared=(),
                accepts=None,
            )
        links = [self.refs[pointer]] if pointer in self.refs else []
        if "allOf" in self.reads:
            links += _branches(pointer, schema, "allOf")
        parts = [self.groups[link] for link in links]
        # The members: S, then its links' members; the rest is judged over them, in that order.
        members = tuple(dict.fromkeys([pointer, *(m for part in parts for m in part.members)]))
        combinators: dict[tuple[str, str], Combinator] = {
            (pointer, k): self.combinator(pointer, k) for k in COMBINATORS if k in schema and k in self.reads
        }
        for c in (c for part in parts for c in part.combinators):
            combinators.setdefault((c.schema, c.keyword), c)
        # S adds nothing but its one in-place link (a local $ref, or an allOf of one branch).
        alias = len(parts) == 1 and sum(k in self.contributing for k in schema) == 1
        known = [self.schemas[m] for m in members]
        declared = dict.fromkeys(n for s in known for n in [*s.get("properties", {}), *s.get("required", [])])
        return Group(
            schema=pointer,
            members=members,
            combinators=tuple(combinators.values()),
            canonical=parts[0].canonical if alias else pointer,
            object_like=any(object_like(s) for s in known),
            declared=tuple(declared),
            accepts=_accepts(known),
        )

    def combinator(self, pointer: str, keyword: CombinatorKeyword) -> Combinator:
        """The combinator `keyword` of `pointer` (built once: with its schema's group)."""
        branches = tuple(self.groups[b] for b in _branches(pointer, self.schemas[pointer], keyword))
        declared = dict.fromkeys(
            n for b in branches for names in (b.declared, *(c.declared for c in b.combinators)) for n in names
        )
        return Combinator(
            keyword=keyword,
            schema=pointer,
            branches=branches,
            discriminator=self.discriminator(branches),
            declared=tuple(declared),
        )

    def discriminator(self, branches: tuple[Group, ...]) -> Discriminator | None:
        if not all(b.object_like for b in branches):
            return None
        tagged = [self.tags(b) for b in branches]
        names = dict.fromkeys(n for m in branches[0].members for n in self.schemas[m].get("properties", {}))
        for name in (n for n in names if all(n in tags for tags in tagged)):
            values = [tags[name] for tags in tagged]
            if all(not json_equal(a, b) for i, a in enumerate(values) for b in values[i + 1 :]):
                return Discriminator(name=name, tags=tuple(values))
        return None

    def tags(self, branch: Group) -> dict[str, Any]:
        """Property name -> its tag: a const (or one-member enum) in its own subschema."""
        found: dict[str, Any] = {}
        for member in branch.members:
            for name, sub in self.schemas[member].get("properties", {}).items():
                # (an enum here is a non-empty list: check() refused any other)
                if isinstance(sub, dict) and "const" in sub:
                    found.setdefault(name, sub["const"])
                elif isinstance(sub, dict) and len(sub.get("enum", ())) == 1:
                    found.setdefault(name, sub["enum"][0])
        return found

    def check_cases(self) -> None:
        """Refuse a group whose anyOf / oneOf selections combine into more than CASES_LIMIT
        cases (see `cases`): the first such schema in walk order. Counting stops at the limit,
        so this costs at most about CASES_LIMIT steps a group, whatever the declaration."""
        counted: dict[tuple[int, ...], int] = {}
        for pointer in self.schemas:
            group = self.groups.get(pointer)
            if group is not None and cases(group.combinators, counted) > CASES_LIMIT:
                raise self.refuse(
                    pointer,
                    f"its anyOf / oneOf selections combine into more than {CASES_LIMIT:,} cases "
                    "to compile (the limit); split it into fewer combinators in place",
                )

    # ---------- the root and the values ----------

    def check_root_group(self) -> None:
        root = self.groups[""]
        for member in root.members[1:]:
            self.check_top_level(member, self.schemas[member], _IN_PLACE)
        if not root.object_like:
            raise self.refuse("", _NOT_OBJECT_LIKE)

    def value_warnings(self) -> None:
        """Warnings judged on everything that can be applied in place to one value."""
        targets = set(self.refs.values())
        descents = [at for found in self.descents.values() for at in found]
        entries = dict.fromkeys(["", *descents, *(d for d in self.definitions if d not in targets)])
        reported: set[tuple[str, str]] = set()
        for entry in entries:
            pointers = _closure(self.groups[entry])
            closure = [self.schemas[m] for m in pointers]
            objectish = any(object_like(s) for s in closure)
            found = {k for s in closure for k in s if k in self.vocabulary.opening}
            opened = tuple(sorted(found | {"$ref" for p in pointers if p in self.nonlocal_refs}))
            if objectish and opened:
                self.warn(
                    entry,
                    "keys_unchecked",
                    opened,
                    f"undeclared keys go unchecked because of {', '.join(opened)}",
                )
            known = [self.schemas[m] for m in self.groups[entry].members]
            excluded = any("object" not in (declared_types(s) or ["object"]) for s in known)
            empty = not any(
                s.get("properties") or s.get("required") or "additionalProperties" in s for s in closure
            )
            if entry and objectish and not opened and not excluded and empty:
                self.warn(
                    entry,
                    "accepts_only_empty",
                    (),
                    'this object accepts only {}; say "additionalProperties": true for a free-form map',
                )
            properties = {n for s in closure for n in s.get("properties", {})}
            for pointer, schema in zip(pointers, closure, strict=True):
                for name in schema.get("required", []):
                    if name in properties or (pointer, name) in reported:
                        continue
                    reported.add((pointer, name))
                    self.warn(
                        pointer_join(pointer, "required"),
                        "required_without_property",
                        ("required",),
                        f"{json.dumps(name)} is required but has no property schema",
                    )

    def recursion(self) -> frozenset[str]:
        """The canonical groups reached from the root that are on a cycle of descents through
        properties, additionalProperties or items: in a strongly connected component of two or
        more, or their own successor."""
        below: dict[str, list[str]] = {}  # canonical group -> the groups of its descents
        todo = [self.groups[""].canonical]
        while todo:
            current = todo.pop()
            if current in below:
                continue
            found = [at for member in _closure(self.groups[current]) for at in self.descents[member]]
            below[current] = [self.groups[at].canonical for at in found]
            todo.extend(reversed(below[current]))
        component = components(below)
        sizes = Counter(component.values())
        return frozenset(node for node in below if sizes[component[node]] > 1 or node in below[node])


# E5 is compiled as a decision tree (generator/plan/collector.py): the visit of a group resolves its
# combinators in group order, and each one selects a branch (whose own combinators join the end
# of the queue) or none, so the cases after it multiply by its branches plus one; each branch
# of a combinator also gets a candidate function, a tree of its own. The cases grow with the
# product of the branch counts, not with the declaration's size: 6.8 KB of nested oneOf /
# anyOf / $ref make hundreds of thousands. Real declarations need fewer than 10; 256 cases make
# some 250 KB of unformatted code in one module.
CASES_LIMIT = 256


def cases(pending: tuple[Combinator, ...], counted: dict[tuple[int, ...], int], depth: int = 0) -> int:
    """The cases the collector compiles for these pending combinators: the leaves of its
    decision tree and of its candidates' trees, counted up to CASES_LIMIT + 1 (`counted`:
    the counts known, by the combinators' identities).

    Each selection counts at least 2 over its continuation, so a chain of more than half the
    limit is over it: counting it no further keeps the recursion shallow."""
    if not pending:
        return 1
    if depth > CASES_LIMIT // 2:
        return CASES_LIMIT + 1
    key = tuple(map(id, pending))
    if key not in counted:
        first, rest = pending[0], pending[1:]
        total = cases(rest, counted, depth + 1)  # no branch selected
        for branch in first.branches:
            if total > CASES_LIMIT:
                break
            # its candidate, then the rest resolved after it, its own combinators at the end
            total += cases(branch.combinators, counted, depth + 1)
            total += cases(rest + branch.combinators, counted, depth + 1)
        counted[key] = min(total, CASES_LIMIT + 1)
    return counted[key]


def _accepts(members: list[dict[str, Any]]) -> tuple[str, ...] | None:
    """E5 rule 3's Ti: the types of the first member declaring `type`, else the first const / enum's."""
    for schema in members:
        if "type" in schema:
            return tuple(declared_types(schema) or ())
    for schema in members:
        if "const" in schema or "enum" in schema:
            values = [schema["const"]] if "const" in schema else schema["enum"]
            return tuple(dict.fromkeys(json_type(v) for v in values))
    return None


def _branches(pointer: str, schema: dict[str, Any], keyword: str) -> list[str]:
    """The pointers of the branches of `keyword` (allOf, anyOf, oneOf) in `schema`, if any."""
    where = pointer_join(pointer, keyword)
    return [pointer_join(where, i) for i in range(len(schema.get(keyword, ())))]


def _is_index(token: str) -> bool:
    return token.isascii() and token.isdigit() and (token == "0" or token[0] != "0")


def tokens(pointer: str) -> list[str]:
    """The reference tokens of a JSON pointer, unescaped (RFC 6901)."""
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


_IN_PLACE = " (this schema applies to parameters in place)"
_NOT_OBJECT_LIKE = (
    "parameters is not object-like (no type object, properties, required or additionalProperties)"
)


def analyse(
    file: str,
    parameters: Any,
    *,
    base: str = "/function/parameters",
    pattern_check: PatternCheck | None = None,
    vocabulary: Vocabulary = EXTENDED,
) -> SchemaGraph:
    """Check one declaration's `parameters` in `vocabulary` and describe its schemas.

    `base` is where `parameters` sits inside the file (Declaration.pointer). `pattern_check`
    judges each distinct pattern (generator/front/patterns.py's translate); without it patterns are
    only required to be strings. Raises DeclarationError at the first refusal.
    """
    return _Analysis(file, base, parameters, pattern_check, vocabulary).run()
