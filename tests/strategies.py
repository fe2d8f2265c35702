"""Random declarations of both keyword modes, their jsonschema rewrite, and near-valid inputs.

Declarations are drawn with a seeded `random.Random`, so every xdist worker draws the same
ones and one generated package serves the whole session. Inputs are hypothesis strategies
built from a declaration: a value of the right shape, then mutated (keys dropped or added,
values swapped for other JSON values) at every depth.

The two modes draw different declarations (subset: `random_roots`, `to_jsonschema`,
`values_for`; extended: `random_extended_roots`, `extended_to_jsonschema`, `Inputs`); how
inputs are mutated and how an object value is put together is shared (`_often`,
`_presence`, `_object_of`), the mode's weights passed in.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests import reference as ref
from tests.reference import OBJECT_KEYWORDS, TYPE_NAMES, declared_types, object_like

NAMES = ("a", "b", "c", "a.b", "x y", "", "é", "`q`", "1", "type", 'q"', "\\", "new\nline", "__class__")
ENUM_POOL: tuple[Any, ...] = (
    "a", "b", "", "é", 0, 1, 1.0, -1, 2.5, True, False, None,
    [], [1], [True], [1, "a"], {}, {"a": 1}, {"a": False}, {"a": [None]},
)  # fmt: skip
IGNORED: dict[str, Any] = {"minLength": 3, "maximum": 0, "format": "uri", "default": 7, "minItems": 2,
                           "pattern": "^z$", "const": "q", "not": {}, "title": "t"}  # fmt: skip
OPENING: dict[str, Any] = {"patternProperties": {"^a": {"type": "null"}}, "anyOf": [{}], "$ref": "#",
                           "if": {}, "unevaluatedProperties": False}  # fmt: skip


# ---------- random schemas (seeded random, not hypothesis: one package per session) ----------


def _types(rng: random.Random, must: str | None = None) -> str | list[str]:
    names = rng.sample(TYPE_NAMES, rng.choice((1, 1, 1, 2, 3)))
    if must is not None and must not in names:
        names[0] = must
    return names[0] if len(names) == 1 and rng.random() < 0.7 else names


def _enum(rng: random.Random) -> list[Any]:
    return rng.sample(ENUM_POOL, rng.randint(1, 4))


def _decorate(rng: random.Random, schema: dict[str, Any]) -> dict[str, Any]:
    if rng.random() < 0.1:
        keyword = rng.choice(sorted(IGNORED))
        schema[keyword] = IGNORED[keyword]
    return schema


def object_schema(rng: random.Random, depth: int, root: bool = False) -> dict[str, Any]:
    schema: dict[str, Any] = {}
    roll = rng.random()
    if root:
        if roll < 0.8:
            schema["type"] = "object"
    elif roll < 0.5:
        schema["type"] = "object"
    elif roll < 0.7:
        schema["type"] = _types(rng, must="object")
    names = rng.sample(NAMES, rng.randint(0, 4 if root else 3))
    if names or rng.random() < 0.5:
        schema["properties"] = {name: subschema(rng, depth + 1) for name in names}
    required = [n for n in names if rng.random() < 0.5]
    if rng.random() < 0.2:
        required.append(rng.choice([n for n in ("r", "s") if n not in names]))
    if required or rng.random() < 0.2:
        schema["required"] = rng.sample(required, len(required))
    extra = rng.random()
    if extra < 0.2:
        schema["additionalProperties"] = False
    elif extra < 0.4:
        schema["additionalProperties"] = True
    elif extra < 0.6:
        schema["additionalProperties"] = any_schema(rng, depth + 1)
    if rng.random() < 0.07:
        keyword = rng.choice(sorted(OPENING))
        schema[keyword] = OPENING[keyword]
    if not root and rng.random() < 0.1:
        schema["enum"] = [{}, {"a": 1}, {"b": None}][: rng.randint(1, 3)]
    if not any(k in schema for k in ("type", *OBJECT_KEYWORDS)):
        schema["properties"] = {}
    return _decorate(rng, schema)


def array_schema(rng: random.Random, depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {}
    roll = rng.random()
    if roll < 0.6:
        schema["type"] = "array"
    elif roll < 0.8:
        schema["type"] = _types(rng, must="array")
    items = rng.random()
    if items < 0.8:
        schema["items"] = subschema(rng, depth + 1)
    elif items < 0.9:
        schema["items"] = [subschema(rng, depth + 1)]  # the ignored tuple form
    return _decorate(rng, schema)


def any_schema(rng: random.Random, depth: int) -> dict[str, Any]:
    """A schema object (never a boolean), shallower as depth grows."""
    roll = rng.random() if depth < 4 else rng.random() * 0.55
    if roll < 0.25:
        return _decorate(rng, {"type": _types(rng)})
    if roll < 0.4:
        return _decorate(rng, {"enum": _enum(rng)})
    if roll < 0.5:
        return _decorate(rng, {"type": _types(rng), "enum": _enum(rng)})
    if roll < 0.55:
        return _decorate(rng, {})
    if roll < 0.6:  # object and array keywords under a type that may exclude them
        return {
            "type": _types(rng),
            "properties": {"a": {"type": "string"}},
            "required": ["a"],
            "items": {"enum": [1]},
        }
    if roll < 0.8:
        return object_schema(rng, depth)
    return array_schema(rng, depth)


def subschema(rng: random.Random, depth: int) -> Any:
    """Where a subschema is expected (properties values, items): booleans allowed."""
    if rng.random() < 0.06:
        return rng.random() < 0.5
    return any_schema(rng, depth)


def random_roots(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [object_schema(rng, 0, root=True) for _ in range(count)]


# ---------- the same meaning for the jsonschema library ----------


def to_jsonschema(schema: Any) -> dict[str, Any]:
    """A Draft 2020-12 schema with our meaning: strict objects, booleans as {}, no ignored keywords."""
    if isinstance(schema, bool):
        return {}
    result: dict[str, Any] = {k: schema[k] for k in ("type", "enum") if k in schema}
    if object_like(schema):
        properties = {k: to_jsonschema(v) for k, v in schema.get("properties", {}).items()}
        for name in schema.get("required", []):
            properties.setdefault(name, {})  # a required-only name is a declared key
        result["properties"] = properties
        result["required"] = schema.get("required", [])
        extra = schema.get("additionalProperties", False)
        if any(k in schema for k in ref.SUBSET.open_keywords):
            result["additionalProperties"] = True
        else:
            result["additionalProperties"] = extra if isinstance(extra, bool) else to_jsonschema(extra)
    if isinstance(schema.get("items"), (dict, bool)):
        result["items"] = to_jsonschema(schema["items"])
    return result


# ---------- inputs ----------


def reproducible(examples: int) -> settings:
    """Hypothesis settings for CI: the same examples on every run, no database, no deadline."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from((0, 1, -1, 2, 10**20)),
    st.sampled_from((0.0, -0.0, 1.0, 1.5, 2.0, -3.25, 1e300)),
    st.sampled_from(("", "a", "b", "é", "x y", "1")),
    st.integers(-5, 5),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(NAMES), inner, max_size=3)
    ),
    max_leaves=6,
)


def _often(
    main: st.SearchStrategy[Any], wild: st.SearchStrategy[Any], weight: int = 7
) -> st.SearchStrategy[Any]:
    """`main` `weight` times out of `weight + 1`, else anything at all (the mutation)."""
    return st.one_of(*[main] * weight, wild)


def _typed(schema: dict[str, Any], name: str, wild: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    if name == "object":
        return _object_value(schema, wild)
    if name == "array":
        return _array_value(schema, wild)
    return {
        "string": st.sampled_from(("", "a", "é", "1")),
        "number": st.sampled_from((0, 1, 2.5, -1.0, 10**20)),
        "integer": st.sampled_from((0, 1, 3, 1.0, -2.0, 10**20)),
        "boolean": st.booleans(),
        "null": st.none(),
    }[name]


POSITIONS = st.integers(0, 3)


def _presence(required: bool, out_of: int = 8, optional: int = 4) -> st.SearchStrategy[bool]:
    """Required keys are present but one time in `out_of`, optional ones `optional` times in it."""
    return st.integers(0, out_of - 1).map(lambda k: k != 0 if required else k < optional)


Member = tuple[bool, int, Any, Any]  # (present?, position, name, value)


def _object_of(
    members: list[st.SearchStrategy[Member]], stray: st.SearchStrategy[Member], calm: int
) -> st.SearchStrategy[dict[Any, Any]]:
    """An object of the declared members and, one time in `calm + 1`, one or two strays;
    sorting by position shuffles the key order."""
    strays = st.one_of(*[st.just(())] * calm, st.lists(stray, min_size=1, max_size=2))
    drawn = st.tuples(st.tuples(*members), strays)
    return drawn.map(lambda t: {m[2]: m[3] for m in sorted((*t[0], *t[1]), key=lambda m: m[1]) if m[0]})


def _object_value(schema: dict[str, Any], wild: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    declared = list(properties) + [n for n in required if n not in properties]
    extra = schema.get("additionalProperties", False)
    extra_values = values_for(extra, wild) if isinstance(extra, dict) else wild
    members = [
        st.tuples(
            _presence(name in required), POSITIONS, st.just(name), values_for(properties.get(name, {}), wild)
        )
        for name in declared
    ]
    stray = st.tuples(st.just(True), POSITIONS, st.sampled_from((*NAMES, "zz")), extra_values)
    return _object_of(members, stray, calm=3)


def _array_value(schema: dict[str, Any], wild: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    items = schema.get("items")
    return st.lists(values_for(items, wild) if isinstance(items, (dict, bool)) else wild, max_size=3)


def values_for(schema: Any, wild: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Values near the schema: built from it, then mutated anywhere with `wild` values."""
    if isinstance(schema, bool) or not schema:
        return wild
    choices: list[st.SearchStrategy[Any]] = []
    if "enum" in schema:
        choices.append(st.sampled_from(schema["enum"]))
    if "type" in schema:
        choices.extend(_typed(schema, name, wild) for name in declared_types(schema))
    elif object_like(schema):
        choices.append(_object_value(schema, wild))
    elif isinstance(schema.get("items"), (dict, bool)):
        choices.append(_array_value(schema, wild))
    if not choices:
        return wild
    return _often(st.one_of(choices), wild)


# ==================== extended mode ====================

# Random extended-mode declarations, their jsonschema rewrite, and inputs that hit them.
#
# Schemas are drawn with a seeded `random.Random` (one set per session, every xdist worker
# draws the same), inputs with hypothesis from the schema (near-valid values, mutated).
#
# The rewrite (`to_jsonschema`) gives Draft 2020-12 the same verdict as extended mode, and it
# is exact only for the schemas drawn here, which keep to these restrictions:
#
# * Undeclared keys: extended mode rejects a key no schema of the value's group declares
#   (docs/spec/extended.md E4 4c).
#   The rewrite says so with `unevaluatedProperties: false` on every schema a value is visited
#   against (the root, `properties` values, `items`, `additionalProperties` schemas) whose
#   possible group holds an object-like schema: JSON Schema then counts the keys evaluated by
#   the whole in-place tree ($ref, allOf, passing anyOf branches), which is the group. A name
#   only in `required` becomes a `properties` entry `{}` (it is declared).
# * `additionalProperties` (false, true or a schema) appears only on a plain object schema
#   (no $ref, allOf, anyOf, oneOf) that is the only object-like schema of its group, where
#   JSON Schema's sibling-only reading is extended mode's group reading.
# * Open keywords appear only on such plain objects: the rewrite drops them and frees the
#   object (`additionalProperties: true`, no `unevaluatedProperties`).
# * Branches of anyOf / oneOf declare their type in their own group, and for a dict value at
#   most one branch can pass: one object branch among typed non-object branches (nullable
#   objects), or a discriminated union (every branch an object requiring a tag `const`, the
#   tags different). Then extended mode's greedy single choice (E5) selects exactly the
#   branch JSON Schema can pass, so "fits some branch" is the same verdict. oneOf becomes
#   anyOf (exactly-one is not enforced, E2); with these unions it changes nothing anyway.
# * No boolean subschemas (`false` constrains nothing in extended mode).
# * `multipleOf` is 2, 3, 0.5 or 0.25 (jsonschema divides floats; for these both are exact),
#   and inputs hold no non-finite or huge floats.
# * Patterns come from SAFE_PATTERNS, each with a Python `re` spelling of the same ECMA meaning
#   (jsonschema uses `re.search`); one pattern outside E6 is dropped by the rewrite (ignored).
# * Non-interpreted keywords (format, default, minProperties, title ...) are dropped.

# (ECMA pattern, the same in Python re); the last one is outside E6: ignored, dropped
SAFE_PATTERNS: tuple[tuple[str, str | None], ...] = (
    ("^[a-z]+$", "^[a-z]+\\Z"),
    ("\\d", "[0-9]"),
    ("^\\w{2,3}$", "^[A-Za-z0-9_]{2,3}\\Z"),
    ("b.c", "b[^\\n\\r\\u2028\\u2029]c"),
    ("^(?:ab|c)*$", "^(?:ab|c)*\\Z"),
    ("^\\s", "^[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]"),
    ("\\bab", "(?a)\\bab"),
    ("(?<=a)b", None),
)
PATTERN_STRINGS = (
    "", "a", "ab", "abc", "abc\n", "b\nc", "bxc", "b😀c", "1", "١", " x", "\u00a0x", "\u2028",
    "ab_", "é", "abab", "cab", "xab", "éab", "abcd", "AB",
)  # fmt: skip
EXTENDED_NAMES = ("a", "b", "c", "d", "a.b", "", "é", "$ref", "type", "x y")
DEF_NAMES = ("A", "B", "a/b", "c~d", "sp ace", "p%q", "Node")
TAGS = ("cat", "dog", "cow")
NOT_READ: dict[str, Any] = {
    "format": "email",
    "default": 3,
    "title": "t",
    "minProperties": 9,
    "examples": [1],
}
OPEN: dict[str, Any] = {
    "patternProperties": {"^z": {"type": "null"}},
    "if": {"type": "null"},
    "dependentSchemas": {"a": {}},
}
EXTENDED_SCALARS: tuple[Any, ...] = ("a", "b", "", 0, 1, 2.5, -1, True, False, None)
MULTIPLES = (2, 3, 0.5, 0.25)
LOWER = (0, 1, -1)
UPPER = (2.5, 10, 3)


def pointer(name: str) -> str:
    """A local $ref to $defs/name: RFC 6901 escapes, then percent-encoding where needed."""
    token = name.replace("~", "~0").replace("/", "~1").replace("%", "%25").replace(" ", "%20")
    return f"#/$defs/{token}"


class Draw:
    """One root declaration: its $defs fill up as schemas refer to them."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.defs: dict[str, Any] = {}

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def decorate(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self.chance(0.1):
            keyword = self.rng.choice(sorted(NOT_READ))
            schema[keyword] = NOT_READ[keyword]
        return schema

    # typed values (usable as combinator branches: they declare their type)
    def string(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string"}
        roll = self.rng.random()
        if roll < 0.3:
            schema["minLength"] = self.rng.choice((1, 2, 1.0))
        if 0.2 < roll < 0.5:
            schema["maxLength"] = self.rng.choice((0, 1, 3))
        if 0.45 < roll < 0.8:
            schema["pattern"] = self.rng.choice(SAFE_PATTERNS)[0]
        if roll > 0.9:
            schema["enum"] = self.rng.sample(("a", "b", "", "ab", "é"), 2)
        return self.decorate(schema)

    def number(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": self.rng.choice(("number", "integer"))}
        for keyword in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
            if self.chance(0.2):  # lower bounds below upper ones: most are satisfiable
                schema[keyword] = self.rng.choice(LOWER if keyword.endswith("inimum") else UPPER)
        if self.chance(0.2):
            schema["multipleOf"] = self.rng.choice(MULTIPLES)
        if self.chance(0.1):
            schema["const"] = self.rng.choice((1, 2.5, 0))
        return self.decorate(schema)

    def scalar(self) -> dict[str, Any]:
        roll = self.rng.random()
        if roll < 0.35:
            return self.string()
        if roll < 0.7:
            return self.number()
        if roll < 0.8:
            return {"type": self.rng.choice(("boolean", "null"))}
        if roll < 0.9:
            return {"enum": self.rng.sample(EXTENDED_SCALARS, self.rng.randint(1, 3))}
        return {"const": self.rng.choice(EXTENDED_SCALARS)}

    def array(self, depth: int) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "array", "items": self.value(depth + 1)}
        if self.chance(0.3):
            schema["minItems"] = self.rng.choice((1, 2))
        if self.chance(0.3):
            schema["maxItems"] = self.rng.choice((1, 3))
        if self.chance(0.3):
            schema["uniqueItems"] = self.rng.choice((True, True, False))
        return schema

    def members(self, depth: int, names: list[str]) -> tuple[dict[str, Any], list[str]]:
        properties = {name: self.value(depth + 1) for name in names}
        required = [n for n in names if self.chance(0.5)]
        if self.chance(0.15):
            required.append("r")  # declared by required alone
        return properties, required

    def plain_object(self, depth: int) -> dict[str, Any]:
        properties, required = self.members(depth, self.rng.sample(EXTENDED_NAMES, self.rng.randint(0, 2)))
        schema: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        roll = self.rng.random()
        if roll < 0.2:
            schema["additionalProperties"] = False
        elif roll < 0.35:
            schema["additionalProperties"] = True
        elif roll < 0.5:
            schema["additionalProperties"] = self.scalar()
        elif roll < 0.57:
            keyword = self.rng.choice(sorted(OPEN))
            schema[keyword] = OPEN[keyword]
        return self.decorate(schema)

    def fragment(self, depth: int, names: list[str]) -> dict[str, Any]:
        properties, required = self.members(depth, names)
        schema: dict[str, Any] = {"properties": properties}
        if required:
            schema["required"] = required
        return schema

    def grouped_object(self, depth: int) -> dict[str, Any]:
        """An object whose keys are declared across a group: allOf, $ref, a union fragment."""
        names = self.rng.sample(EXTENDED_NAMES, self.rng.randint(1, 3))
        cut = self.rng.randint(0, len(names))
        schema: dict[str, Any] = {"type": "object", **self.fragment(depth, names[:cut])}
        rest = names[cut:]
        if rest and self.chance(0.5):
            name = self.rng.choice(("A", "a/b", "sp ace"))  # object fragments
            if name not in self.defs:
                self.defs[name] = {}  # reserved before drawing, so a nested draw cannot take it
                self.defs[name] = self.fragment(depth, rest[:1])
            schema["$ref"] = pointer(name)
            rest = rest[1:]
        fragments = [self.fragment(depth, rest[i : i + 1]) for i in range(len(rest))]
        if self.chance(0.3):
            fragments.append(self.union(depth, tagged_only=True))
        if self.chance(0.3):
            fragments.append({"allOf": [{"required": [self.rng.choice(names)]}]})
        if fragments:
            schema["allOf"] = fragments
        return schema

    def union(self, depth: int, tagged_only: bool = False) -> dict[str, Any]:
        """A discriminated union: every branch an object requiring a different tag."""
        count = self.rng.randint(2, 3)
        branches = []
        for tag in TAGS[:count]:
            names = [n for n in self.rng.sample(EXTENDED_NAMES, self.rng.randint(0, 2)) if n != "kind"]
            properties, required = self.members(depth, names)
            branch = {"type": "object", "properties": {"kind": {"const": tag}, **properties}}
            branch["required"] = ["kind", *required]
            branches.append(branch)
        return {"type": "object", self.rng.choice(("oneOf", "anyOf")): branches}

    def nullable(self, depth: int) -> dict[str, Any]:
        """`Optional[X]`: X declares its type; sometimes a third, scalar branch."""
        inner = self.rng.choice(
            (self.string, self.number, lambda: self.typed_object(depth), lambda: self.array(depth))
        )()
        branches = [inner, {"type": "null"}]
        if self.chance(0.3):
            branches.insert(1, self.rng.choice(({"type": "string", "maxLength": 1}, {"type": "integer"})))
        self.rng.shuffle(branches)
        return {self.rng.choice(("anyOf", "oneOf")): branches}

    def typed_object(self, depth: int) -> dict[str, Any]:
        roll = self.rng.random()
        if roll < 0.4:
            return self.plain_object(depth)
        if roll < 0.7:
            return self.grouped_object(depth)
        if roll < 0.85:
            return self.union(depth)
        return self.reference(depth, object_only=True)

    def node(self) -> str:
        if "Node" not in self.defs:
            self.defs["Node"] = {
                "type": "object",
                "properties": {
                    "v": {"type": "integer"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}, "maxItems": 3},
                    "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]},
                },
                "required": ["v"],
            }
        return "#/$defs/Node"

    def reference(self, depth: int, object_only: bool = False) -> dict[str, Any]:
        if object_only or self.chance(0.3):
            return {"$ref": self.node(), "description": "a tree"}
        name = self.rng.choice(("B", "c~d", "p%q"))  # scalars
        if name not in self.defs:
            self.defs[name] = self.scalar()
        schema: dict[str, Any] = {"$ref": pointer(name)}
        if self.chance(0.3):
            schema["maxLength"] = 2  # a sibling of $ref applies too (E3)
        return schema

    def value(self, depth: int) -> dict[str, Any]:
        """The schema of a property, an item or an extra key."""
        roll = self.rng.random() if depth < 2 else self.rng.random() * 0.45
        if roll < 0.25:
            return self.scalar()
        if roll < 0.35:
            return self.reference(depth)
        if roll < 0.45:
            return self.nullable(depth)
        if roll < 0.5:
            return {"anyOf": [self.string(), self.number()]}
        if roll < 0.55:
            return self.decorate({"minimum": 1, "maxLength": 2})  # untyped: bounds of other types ignore it
        if roll < 0.6:  # untyped, and finds nothing in any value: its visit, and the calls of it, go
            nothing: tuple[dict[str, Any], ...] = (
                {},
                {"items": {}},
                {"properties": {"n": {}}},
                {"additionalProperties": {}},
            )
            return self.rng.choice(nothing)
        if roll < 0.7:
            return self.array(depth)
        return self.typed_object(depth)


def random_extended_root(rng: random.Random) -> dict[str, Any]:
    draw = Draw(rng)
    root = draw.grouped_object(0) if rng.random() < 0.5 else draw.plain_object(0)
    if rng.random() < 0.2:
        root["properties"]["tree"] = {"$ref": draw.node()}
    if draw.defs:
        root["$defs"] = draw.defs
    if rng.random() < 0.15:  # the declaration itself through a $ref (E4)
        root = {"$ref": "#/$defs/Args", "$defs": {**root.pop("$defs", {}), "Args": root}}
    return root


def random_extended_roots(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [random_extended_root(rng) for _ in range(count)]


# ---------- the same meaning for jsonschema ----------

_READ = ref.EXTENDED.interpreted | {"description"}


def _potential(root: Any, schema: Any, seen: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    if not isinstance(schema, dict) or id(schema) in seen:
        return []
    seen = seen | {id(schema)}
    found = [schema]
    if ref.is_local(schema.get("$ref")):
        found += _potential(root, ref.resolve(root, schema["$ref"]), seen)
    for keyword in ("allOf", "anyOf", "oneOf"):
        for branch in schema.get(keyword, []):
            found += _potential(root, branch, seen)
    return found


def extended_to_jsonschema(root: dict[str, Any]) -> dict[str, Any]:
    def rewrite(schema: Any, visited: bool) -> Any:
        assert isinstance(schema, dict), "no boolean subschemas are drawn"
        result: dict[str, Any] = {}
        opened = any(k in schema for k in OPEN)
        for keyword, value in schema.items():
            if keyword not in _READ:
                continue  # not interpreted (open keywords included): dropped
            if keyword == "pattern":
                python = dict(SAFE_PATTERNS)[value]
                if python is not None:
                    result["pattern"] = python
            elif keyword == "properties":
                result["properties"] = {k: rewrite(v, True) for k, v in value.items()}
            elif keyword == "additionalProperties":
                result[keyword] = rewrite(value, True) if isinstance(value, dict) else value
            elif keyword == "items":
                result[keyword] = rewrite(value, True)
            elif keyword == "$defs":
                result[keyword] = {k: rewrite(v, False) for k, v in value.items()}
            elif keyword in ("allOf", "anyOf"):
                result[keyword] = [*result.get(keyword, []), *(rewrite(b, False) for b in value)]
            elif keyword == "oneOf":
                result["anyOf"] = [*result.get("anyOf", []), *(rewrite(b, False) for b in value)]
            else:
                result[keyword] = copy.deepcopy(value)
        for name in schema.get("required", []):
            result.setdefault("properties", {}).setdefault(name, {})
        if opened:
            result["additionalProperties"] = True
        if visited and not opened and any(ref.object_like(s) for s in _potential(root, schema)):
            result["unevaluatedProperties"] = False
        return result

    rewritten: dict[str, Any] = rewrite(root, True)
    return rewritten


# ---------- inputs ----------

WILD_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from((0, 1, -1, 2, 3, 10**20, 0.0, -0.0, 1.0, 1.5, 2.5, 0.25, 0.3, -3.25, 7.0)),
    st.sampled_from(PATTERN_STRINGS),
)
WILD = st.recursive(
    WILD_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(EXTENDED_NAMES), inner, max_size=3)
    ),
    max_leaves=5,
)


def _fits(shape: dict[str, Any], value: Any) -> bool:
    """The value meets the shape's own const, enum and bounds (to draw valid values often)."""
    if "const" in shape and not ref.json_equal(value, shape["const"]):
        return False
    if "enum" in shape and not any(ref.json_equal(value, m) for m in shape["enum"]):
        return False
    return all(ref.bound_text(k, shape[k], value) is None for k in ref.BOUND_ORDER if k in shape)


def _biased(shape: dict[str, Any], name: str, pool: list[Any]) -> st.SearchStrategy[Any]:
    good = [v for v in pool if ref.satisfies(v, name) and _fits(shape, v)]
    whole = st.sampled_from(pool)
    return st.one_of(st.sampled_from(good), st.sampled_from(good), whole) if good else whole


class Inputs:
    """Near-valid values for the schemas of one root."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.made: dict[tuple[int, int], st.SearchStrategy[Any]] = {}  # (id(schema), depth)

    def shapes(self, schema: Any, depth: int) -> list[dict[str, Any]]:
        """Merged views of the groups the value can meet: one per branch choice (capped)."""
        merged: list[dict[str, Any]] = [{}]
        for member in ref.group(self.root, schema, ref.EXTENDED):
            for shape in merged:
                for keyword, value in member.items():
                    if keyword == "properties":
                        shape.setdefault("properties", {}).update(value)
                    elif keyword == "required":
                        shape["required"] = [*shape.get("required", []), *value]
                    elif keyword not in ("allOf", "anyOf", "oneOf", "$ref", "$defs"):
                        shape.setdefault(keyword, value)
            for keyword in ("anyOf", "oneOf"):
                if keyword in member:
                    branches = member[keyword]
                    merged = [
                        _merge(shape, branch_shape)
                        for shape in merged
                        for branch in branches
                        for branch_shape in self.shapes(branch, depth)[:2]
                    ][:6]
        return merged

    def values(self, schema: Any, depth: int = 0) -> st.SearchStrategy[Any]:
        if depth > 3:
            return WILD_SCALARS
        key = (id(schema), depth)
        if key not in self.made:
            self.made[key] = _often(
                st.one_of([self.shaped(s, depth) for s in self.shapes(schema, depth)]), WILD, 15
            )
        return self.made[key]

    def shaped(self, shape: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
        choices: list[st.SearchStrategy[Any]] = []
        if "const" in shape:
            choices += [st.just(shape["const"])] * 4
        if "enum" in shape:
            choices += [st.sampled_from(shape["enum"])] * 4
        names = ref.declared_types(shape) if "type" in shape else []
        if not names:
            names = ["object"] if ref.object_like(shape) else ["string", "number"]
        for name in names:
            choices.append(self.typed(shape, name, depth))
        return st.one_of(choices)

    def typed(self, shape: dict[str, Any], name: str, depth: int) -> st.SearchStrategy[Any]:
        if name == "string":
            lengths = [
                int(shape[k]) + d for k in ("minLength", "maxLength") if k in shape for d in (-1, 0, 1)
            ]
            return _biased(shape, name, [*PATTERN_STRINGS, *("x" * n for n in lengths if n >= 0)])
        if name in ("number", "integer"):
            near = [shape[k] + d for k in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
                    if k in shape for d in (-1, -0.5, 0, 0.5, 1)]  # fmt: skip
            if "multipleOf" in shape:
                near += [shape["multipleOf"] * k for k in (1, 3, 1.5)]
            return _biased(shape, name, [*near, 0, 1, 2, 1.5, -4, 7.0, 0.3])
        if name == "boolean":
            return st.booleans()
        if name == "null":
            return st.none()
        if name == "array":
            items = shape.get("items")
            element = self.values(items, depth + 1) if isinstance(items, dict) else WILD
            low = int(shape.get("minItems", 0))
            high = int(shape.get("maxItems", 3))
            sized = st.one_of(
                st.lists(element, min_size=min(low, high), max_size=max(low, high)),
                st.lists(element, max_size=4),
            )
            return sized.flatmap(lambda xs: st.sampled_from([xs, xs, xs, xs + xs[:1]]) if xs else st.just(xs))
        return self.object(shape, depth)

    def object(self, shape: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
        properties = shape.get("properties", {})
        required = shape.get("required", [])
        declared = list(properties) + [n for n in required if n not in properties]
        members = [
            st.tuples(
                # optional keys a third of the time, rarely when deep
                _presence(name in required, 12, 4 if depth < 3 else 1),
                st.integers(0, 3),
                st.just(name),
                self.values(properties[name], depth + 1) if isinstance(properties.get(name), dict) else WILD,
            )
            for name in declared
        ]
        stray = st.tuples(st.just(True), st.integers(0, 3), st.sampled_from((*EXTENDED_NAMES, "zz")), WILD)
        return _object_of(members, stray, calm=9)


def _merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    merged = dict(a)
    for keyword, value in b.items():
        if keyword == "properties":
            merged["properties"] = {**a.get("properties", {}), **value}
        elif keyword == "required":
            merged["required"] = [*a.get("required", []), *value]
        else:
            merged.setdefault(keyword, value)
    return merged
