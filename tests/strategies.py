"""Random schemas of the keyword subset, their jsonschema rewrite, and near-valid inputs.

Schemas are drawn with a seeded `random.Random`, so every xdist worker draws the same ones
and one generated package serves the whole session. Inputs are hypothesis strategies built
from a schema: a value of the right shape, then mutated (keys dropped or added, values
swapped for other JSON values) at every depth.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

TYPE_NAMES = ("string", "number", "integer", "boolean", "object", "array", "null")
NAMES = ("a", "b", "c", "a.b", "x y", "", "é", "`q`", "1", "type", 'q"', "\\", "new\nline", "__class__")
ENUM_POOL: tuple[Any, ...] = (
    "a", "b", "", "é", 0, 1, 1.0, -1, 2.5, True, False, None,
    [], [1], [True], [1, "a"], {}, {"a": 1}, {"a": False}, {"a": [None]},
)  # fmt: skip
IGNORED: dict[str, Any] = {"minLength": 3, "maximum": 0, "format": "uri", "default": 7, "minItems": 2,
                           "pattern": "^z$", "const": "q", "not": {}, "title": "t"}  # fmt: skip
OPENING: dict[str, Any] = {"patternProperties": {"^a": {"type": "null"}}, "anyOf": [{}], "$ref": "#",
                           "if": {}, "unevaluatedProperties": False}  # fmt: skip
OBJECT_KEYWORDS = ("properties", "required", "additionalProperties")
OPENING_ALL = frozenset(
    {
        "patternProperties", "allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "$recursiveRef",
        "dependentSchemas", "dependencies", "if", "then", "else", "unevaluatedProperties",
    }
)  # fmt: skip


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


def _declared_types(schema: dict[str, Any]) -> list[str]:
    declared = schema.get("type", [])
    return [declared] if isinstance(declared, str) else list(declared)


def object_like(schema: dict[str, Any]) -> bool:
    return any(k in schema for k in OBJECT_KEYWORDS) or "object" in _declared_types(schema)


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
        if any(k in schema for k in OPENING_ALL):
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


def _often(main: st.SearchStrategy[Any], wild: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly `main`, sometimes anything at all (the mutation)."""
    return st.one_of(main, main, main, main, main, main, main, wild)


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


def _presence(required: bool) -> st.SearchStrategy[bool]:
    """Required keys are usually present, optional ones half the time."""
    return st.integers(0, 7).map(lambda k: k != 0 if required else k < 4)


def _object_value(schema: dict[str, Any], wild: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    declared = list(properties) + [n for n in required if n not in properties]
    extra = schema.get("additionalProperties", False)
    extra_values = values_for(extra, wild) if isinstance(extra, dict) else wild
    # (present?, position, name, value): sorting by position shuffles the key order.
    members = [
        st.tuples(
            _presence(name in required), POSITIONS, st.just(name), values_for(properties.get(name, {}), wild)
        )
        for name in declared
    ]
    stray = st.tuples(st.just(True), POSITIONS, st.sampled_from((*NAMES, "zz")), extra_values)
    strays = st.one_of(st.just(()), st.just(()), st.just(()), st.lists(stray, min_size=1, max_size=2))
    drawn = st.tuples(st.tuples(*members), strays)
    return drawn.map(lambda t: {m[2]: m[3] for m in sorted((*t[0], *t[1]), key=lambda m: m[1]) if m[0]})


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
        choices.extend(_typed(schema, name, wild) for name in _declared_types(schema))
    elif object_like(schema):
        choices.append(_object_value(schema, wild))
    elif isinstance(schema.get("items"), (dict, bool)):
        choices.append(_array_value(schema, wild))
    if not choices:
        return wild
    return _often(st.one_of(choices), wild)
