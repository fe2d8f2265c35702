"""JSON Schema Test Suite conformance, for each keyword mode.

Files: tests/data/json-schema-test-suite/{draft2020-12,draft7}/ (unchanged copies of
the official JSON Schema Test Suite's files, MIT licence, see its README): for subset mode
the files of its keywords (type, required, enum, properties, additionalProperties, items),
for extended mode those of the keywords it adds (ref, defs / definitions, allOf, anyOf,
oneOf, const, the numeric bounds, multipleOf, the lengths, pattern, minItems, maxItems,
uniqueItems).

How a suite schema becomes a declaration (`wrap`): it is the schema of a required property
`v` of a strict object; its local `$ref`s are rewritten to point below `#/properties/v`
(schema positions only: a `$ref` member inside `enum` or `const` data is data). JSON Schema
reads an object schema without `additionalProperties` as free-form, both modes as strict,
so every object-like schema that leaves it out gets `"additionalProperties": true` (the
same meaning). All the used schemas of a mode are generated into ONE package.

A test is used when the mode reads its schema as the suite does; otherwise it is excluded
with a stated reason, per group (`exclusion`) or, for oneOf's exactly-one rule, per test
(`case_exclusion`: jsonschema itself says the data fits when oneOf is read as anyOf). The
per-file counts are asserted, so the used set can neither shrink nor change meaning
silently. Every used test's verdict must agree with the suite's `valid`, through a backend
(tests/extended_backends.py: the generated package, and in extended mode the reference
interpreter too), and a generated package's message must equal the reference's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator, Draft202012Validator

from tests import reference as ref
from tests.extended_backends import BACKENDS, GENERATE, Backend, ReferenceBackend, package_backend
from tests.genpkg import shared_package
from tests.reference import VOCABULARIES, Vocabulary

SUITE = Path(__file__).resolve().parent / "data" / "json-schema-test-suite"
NAMES = {
    "subset": ("type", "required", "enum", "properties", "additionalProperties", "items"),
    "extended": (
        "ref", "defs", "definitions", "allOf", "anyOf", "oneOf", "const", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern",
        "minItems", "maxItems", "uniqueItems",
    ),
}  # fmt: skip
FILES = {
    mode: sorted(
        f"{d}/{n}.json"
        for d in ("draft2020-12", "draft7")
        for n in names
        if (SUITE / d / f"{n}.json").exists()
    )
    for mode, names in NAMES.items()
}
# Keywords that change nothing for a validator (annotations, identifiers nobody refers to).
ANNOTATIONS = frozenset(
    {"$schema", "$id", "$anchor", "$dynamicAnchor", "$comment", "title", "description", "examples", "default",
     "deprecated", "readOnly", "writeOnly"}
)  # fmt: skip

FALSE = (
    "boolean subschema false: JSON Schema rejects every value, a boolean subschema constrains nothing here"
)
# The reasons cite docs/spec/extended.md (E3 ...) and docs/spec/validation.md (§7).
NON_LOCAL = "a $ref that is not a local JSON pointer is not interpreted (E3)"
NESTED_ID = "a nested $id changes what a $ref points to in JSON Schema; extended mode ignores $id (E3)"
SIBLINGS = "draft 7 ignores the siblings of $ref; extended mode applies them (E3)"
PATTERN = "a pattern outside the syntax of E6 is not interpreted"
TUPLE = "tuple-form items is not interpreted"
SHARED_KEYS = (
    "additionalProperties next to another object-like schema of one group: a key declared by any schema "
    "of the group is not additional (E4)"
)
REQUIRED_ONLY = "required names without properties are declared keys, so not additional"
ONE_OF = "oneOf: two branches fit, and oneOf's exactly-one rule is not enforced (E2)"
OUTSIDE = "keyword not interpreted in this mode: "
EMPTY_ENUM = "refused (validation.md §7): an empty enum"


def _load(file: str) -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = json.loads((SUITE / file).read_text("utf-8"))
    return groups


# ---------- schema positions ----------

IN_PLACE = ("allOf", "anyOf", "oneOf")


def children(schema: dict[str, Any]) -> Iterator[Any]:
    """The subschemas extended mode interprets (E8's list of places)."""
    for keyword in ("properties", "$defs", "definitions"):
        if isinstance(schema.get(keyword), dict):
            yield from schema[keyword].values()
    for keyword in ("additionalProperties", "items"):
        if isinstance(schema.get(keyword), (dict, bool)):
            yield schema[keyword]
    for keyword in IN_PLACE:
        if isinstance(schema.get(keyword), list):
            yield from schema[keyword]


def walk(schema: Any) -> Iterator[Any]:
    yield schema
    if isinstance(schema, dict):
        for child in children(schema):
            yield from walk(child)


def transform(schema: Any, edit: Any) -> Any:
    """A copy with `edit(copy)` applied to every schema object, children first."""
    if not isinstance(schema, dict):
        return schema
    result = dict(schema)
    for keyword in ("properties", "$defs", "definitions"):
        if isinstance(result.get(keyword), dict):
            result[keyword] = {k: transform(v, edit) for k, v in result[keyword].items()}
    for keyword in ("additionalProperties", "items"):
        if isinstance(result.get(keyword), dict):
            result[keyword] = transform(result[keyword], edit)
    for keyword in IN_PLACE:
        if isinstance(result.get(keyword), list):
            result[keyword] = [transform(b, edit) for b in result[keyword]]
    edit(result)
    return result


# ---------- what extended mode reads differently ----------


def _potential(
    root: Any, schema: Any, path: tuple[tuple[int, int], ...], seen: frozenset[int]
) -> Iterator[tuple[Any, tuple[tuple[int, int], ...]]]:
    """Every schema that can be in the group of `schema`, with the branch choices that bring it."""
    if not isinstance(schema, dict) or id(schema) in seen:
        return
    seen = seen | {id(schema)}
    yield schema, path
    if ref.is_local(schema.get("$ref")):
        yield from _potential(root, ref.resolve(root, schema["$ref"]), path, seen)
    for branch in schema.get("allOf", []):
        yield from _potential(root, branch, path, seen)
    for keyword in ("anyOf", "oneOf"):
        for i, branch in enumerate(schema.get(keyword, [])):
            yield from _potential(root, branch, (*path, (id(schema[keyword]), i)), seen)


def _compatible(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]) -> bool:
    choices = dict(a)
    return all(choices.get(c, i) == i for c, i in b)


def _visit_roots(root: Any) -> Iterator[Any]:
    """Schemas visited as a value's own schema: the root and what properties, items and
    additionalProperties hold (wherever they sit), not what is only reached in place."""
    yield root
    for schema in walk(root):
        if isinstance(schema, dict):
            yield from (
                v for v in schema.get("properties", {}).values() if isinstance(schema.get("properties"), dict)
            )
            for keyword in ("additionalProperties", "items"):
                if isinstance(schema.get(keyword), dict):
                    yield schema[keyword]


def _object_reason(root: Any) -> str | None:
    for start in _visit_roots(root):
        members = list(_potential(root, start, (), frozenset()))
        for schema, choice in members:
            extra = schema.get("additionalProperties", True)
            if extra is True:
                continue
            undeclared = set(schema.get("required", [])) - set(schema.get("properties", {}))
            if undeclared:
                return REQUIRED_ONLY
            for other, other_choice in members:
                if other is not schema and ref.object_like(other) and _compatible(choice, other_choice):
                    return SHARED_KEYS
    return None


def _refusal(root: Any) -> str | None:
    """The E8 refusals the suite's schemas can meet."""
    for schema in walk(root):
        if not isinstance(schema, dict):
            continue
        for keyword in IN_PLACE:
            if keyword in schema and schema[keyword] == []:
                return f"refused in extended mode (E8): empty {keyword}"
        if schema.get("enum") == []:
            return EMPTY_ENUM
        if ref.is_local(schema.get("$ref")):
            try:
                if _cycles(root, schema, frozenset()):
                    return "refused in extended mode (E8): an in-place reference cycle"
            except (KeyError, IndexError, ValueError, TypeError):
                return "refused in extended mode (E8): a $ref whose target does not exist"
    return None


def _cycles(root: Any, schema: Any, seen: frozenset[int]) -> bool:
    if not isinstance(schema, dict):
        return False
    if id(schema) in seen:
        return True
    seen = seen | {id(schema)}
    following = [b for k in IN_PLACE for b in schema.get(k, [])]
    if ref.is_local(schema.get("$ref")):
        following.append(ref.resolve(root, schema["$ref"]))
    return any(_cycles(root, b, seen) for b in following)


def exclusion(schema: Any, draft: str, vocabulary: Vocabulary) -> str | None:
    """Why this mode reads this suite schema otherwise than the suite, or None."""
    known = vocabulary.interpreted | ANNOTATIONS
    for sub in walk(schema):
        if sub is False:
            return FALSE
        if sub is True:
            continue
        outside = sorted(k for k in sub if k not in known)
        if outside:
            return OUTSIDE + ", ".join(outside)
        if isinstance(sub.get("items"), list):
            return TUPLE
        if "$ref" in sub and not ref.is_local(sub["$ref"]):
            return NON_LOCAL
        if sub is not schema and "$id" in sub:
            return NESTED_ID
        if isinstance(sub.get("pattern"), str) and ref.ecma_pattern(sub["pattern"]) is None:
            return PATTERN
        if draft == "draft7" and "$ref" in sub and set(sub) - ANNOTATIONS - {"$ref", "definitions", "$defs"}:
            return SIBLINGS
    return _refusal(schema) or _object_reason(schema)


def explicit(schema: Any) -> Any:
    """Free-form objects say so: what JSON Schema means by leaving additionalProperties out."""

    def edit(s: dict[str, Any]) -> None:
        if ref.object_like(s) and "additionalProperties" not in s:
            s["additionalProperties"] = True

    return transform(schema, edit)


def relocated(schema: Any) -> Any:
    """Local $refs rewritten for the schema's new place, `#/properties/v`."""

    def edit(s: dict[str, Any]) -> None:
        if ref.is_local(s.get("$ref")):
            s["$ref"] = "#/properties/v" + s["$ref"][1:]

    return transform(schema, edit)


def wrap(schema: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"v": relocated(explicit(schema))},
        "required": ["v"],
        "additionalProperties": False,
    }


def _as_anyof(schema: Any) -> Any:
    def edit(s: dict[str, Any]) -> None:
        if "oneOf" in s:
            s["allOf"] = [*s.get("allOf", []), {"anyOf": s.pop("oneOf")}]

    return transform(schema, edit)


def case_exclusion(schema: Any, draft: str, case: dict[str, Any]) -> str | None:
    if case["valid"] or not any(isinstance(s, dict) and "oneOf" in s for s in walk(schema)):
        return None
    validator = Draft7Validator if draft == "draft7" else Draft202012Validator
    return ONE_OF if validator(_as_anyof(schema)).is_valid(case["data"]) else None


def tool_name(file: str, group: int) -> str:
    return f"{file}#{group}"


def _used_groups(mode: str) -> dict[str, Any]:
    """Tool name -> wrapped parameters, for every suite schema the mode reads as the suite does."""
    return {
        tool_name(file, i): wrap(group["schema"])
        for file in FILES[mode]
        for i, group in enumerate(_load(file))
        if exclusion(group["schema"], file.split("/")[0], VOCABULARIES[mode]) is None
    }


# (mode, backend kind): subset mode's package, extended mode's package and its reference reading
ANSWERERS = [("subset", "generated"), *(("extended", kind) for kind in BACKENDS)]


@pytest.fixture(scope="module")
def answerer(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Backend]:
    mode, kind = request.param
    if kind == "reference":
        return mode, ReferenceBackend(_used_groups(mode), VOCABULARIES[mode])
    package = shared_package(tmp_path_factory, f"suite_{mode}", lambda: _used_groups(mode), GENERATE[mode])
    return mode, package_backend(package)


def counts(file: str, vocabulary: Vocabulary) -> tuple[int, dict[str, int]]:
    draft = file.split("/")[0]
    used = 0
    excluded: dict[str, int] = {}
    for group in _load(file):
        reason = exclusion(group["schema"], draft, vocabulary)
        for case in group["tests"]:
            why = reason or case_exclusion(group["schema"], draft, case)
            if why is None:
                used += 1
            else:
                excluded[why] = excluded.get(why, 0) + 1
    return used, excluded


# mode -> file -> (tests used, {reason: tests excluded}); asserted so that the set of cases
# can neither silently shrink nor silently change meaning
EXPECTED_COUNTS: dict[str, dict[str, tuple[int, dict[str, int]]]] = {
    "subset": {
        "draft2020-12/additionalProperties.json": (
            7,
            {OUTSIDE + "patternProperties": 8, OUTSIDE + "allOf": 1, OUTSIDE + "propertyNames": 2,
             OUTSIDE + "dependentSchemas": 3},
        ),
        "draft2020-12/enum.json": (45, {EMPTY_ENUM: 6}),
        "draft2020-12/items.json": (
            10,
            {FALSE: 2, OUTSIDE + "$defs, prefixItems": 6, OUTSIDE + "prefixItems": 9, OUTSIDE + "allOf": 2},
        ),
        "draft2020-12/properties.json": (16, {OUTSIDE + "patternProperties": 8, FALSE: 4}),
        "draft2020-12/required.json": (18, {}),
        "draft2020-12/type.json": (80, {}),
        "draft7/additionalProperties.json": (7, {OUTSIDE + "patternProperties": 8, OUTSIDE + "allOf": 1}),
        "draft7/enum.json": (45, {}),
        "draft7/items.json": (10, {TUPLE: 10, FALSE: 2, OUTSIDE + "additionalItems, definitions": 6}),
        "draft7/properties.json": (16, {OUTSIDE + "patternProperties": 8, FALSE: 4}),
        "draft7/required.json": (18, {}),
        "draft7/type.json": (80, {}),
    },
    "extended": {
        "draft2020-12/allOf.json": (28, {FALSE: 2}),
        "draft2020-12/anyOf.json": (16, {FALSE: 2}),
        "draft2020-12/const.json": (54, {}),
        "draft2020-12/defs.json": (0, {NON_LOCAL: 2}),
        "draft2020-12/exclusiveMaximum.json": (4, {}),
        "draft2020-12/exclusiveMinimum.json": (4, {}),
        "draft2020-12/maxItems.json": (6, {}),
        "draft2020-12/maxLength.json": (7, {}),
        "draft2020-12/maximum.json": (8, {}),
        "draft2020-12/minItems.json": (6, {}),
        "draft2020-12/minLength.json": (7, {}),
        "draft2020-12/minimum.json": (11, {}),
        "draft2020-12/multipleOf.json": (11, {}),
        "draft2020-12/oneOf.json": (17, {ONE_OF: 7, FALSE: 3}),
        "draft2020-12/pattern.json": (9, {PATTERN: 3}),
        "draft2020-12/ref.json": (
            37,
            {FALSE: 5, OUTSIDE + "prefixItems": 2, NON_LOCAL: 26, OUTSIDE + "unevaluatedProperties": 1,
             OUTSIDE + "not": 2, OUTSIDE + "if": 2, OUTSIDE + "then": 2, OUTSIDE + "else": 2},
        ),
        "draft2020-12/uniqueItems.json": (43, {OUTSIDE + "prefixItems": 26}),
        "draft7/allOf.json": (28, {FALSE: 2}),
        "draft7/anyOf.json": (16, {FALSE: 2}),
        "draft7/const.json": (54, {}),
        "draft7/definitions.json": (0, {NON_LOCAL: 2}),
        "draft7/exclusiveMaximum.json": (4, {}),
        "draft7/exclusiveMinimum.json": (4, {}),
        "draft7/maxItems.json": (6, {}),
        "draft7/maxLength.json": (7, {}),
        "draft7/maximum.json": (8, {}),
        "draft7/minItems.json": (6, {}),
        "draft7/minLength.json": (7, {}),
        "draft7/minimum.json": (11, {}),
        "draft7/multipleOf.json": (11, {}),
        "draft7/oneOf.json": (17, {ONE_OF: 7, FALSE: 3}),
        "draft7/pattern.json": (9, {}),
        "draft7/ref.json": (
            34, {FALSE: 5, TUPLE: 2, SIBLINGS: 3, NESTED_ID: 16, NON_LOCAL: 16, OUTSIDE + "not": 2}
        ),
        "draft7/uniqueItems.json": (43, {TUPLE: 16, OUTSIDE + "additionalItems": 10}),
    },
}  # fmt: skip
TOTALS = {"subset": 352, "extended": 533}


@pytest.mark.parametrize("mode", FILES)
def test_counts_of_used_and_excluded_cases(mode: str) -> None:
    found = {file: counts(file, VOCABULARIES[mode]) for file in FILES[mode]}
    assert found == EXPECTED_COUNTS[mode]
    assert sum(used for used, _ in found.values()) == TOTALS[mode]


CASES = [(answerer, file) for answerer in ANSWERERS for file in FILES[answerer[0]]]


@pytest.mark.parametrize(
    ("answerer", "file"), CASES, indirect=["answerer"], ids=[f"{m}-{k}-{f}" for (m, k), f in CASES]
)
def test_verdicts_agree_with_the_suite(answerer: tuple[str, Backend], file: str) -> None:
    mode, backend = answerer
    vocabulary = VOCABULARIES[mode]
    draft = file.split("/")[0]
    disagreements = []
    for i, group in enumerate(_load(file)):
        if exclusion(group["schema"], draft, vocabulary) is not None:
            continue
        tool = tool_name(file, i)
        parameters = wrap(group["schema"])
        for case in group["tests"]:
            if case_exclusion(group["schema"], draft, case) is not None:
                continue
            args = {"v": case["data"]}
            message = backend.message(tool, args)
            if (message is None) != case["valid"]:
                disagreements.append(f"{tool} {group['description']!r} {case['description']!r}: {message}")
            if backend.kind != "reference":
                assert message == ref.message(tool, parameters, args, vocabulary)
    assert disagreements == []


def test_wrapping_makes_free_form_objects_explicit() -> None:
    schema = {"properties": {"a": {"type": "object"}, "b": {"items": {"required": ["x"]}}}}
    assert wrap(schema) == {
        "type": "object",
        "properties": {
            "v": {
                "properties": {
                    "a": {"type": "object", "additionalProperties": True},
                    "b": {"items": {"required": ["x"], "additionalProperties": True}},
                },
                "additionalProperties": True,
            }
        },
        "required": ["v"],
        "additionalProperties": False,
    }


def test_wrapping_relocates_refs_in_schema_positions_only() -> None:
    schema = {
        "properties": {"a": {"$ref": "#/$defs/x"}, "$ref": {"enum": [{"$ref": "#/$defs/x"}]}},
        "$defs": {"x": {"allOf": [{"$ref": "#"}], "type": "object"}},
    }
    assert wrap(schema)["properties"]["v"] == {
        "properties": {"a": {"$ref": "#/properties/v/$defs/x"}, "$ref": {"enum": [{"$ref": "#/$defs/x"}]}},
        "$defs": {
            "x": {"allOf": [{"$ref": "#/properties/v"}], "type": "object", "additionalProperties": True}
        },
        "additionalProperties": True,
    }
