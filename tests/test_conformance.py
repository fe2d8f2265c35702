"""JSON Schema Test Suite conformance on the keyword subset.

Every suite schema that uses only our keywords (plus annotations) becomes the value schema
of one required property `v` of a tool declaration; all of them are generated into ONE
package. Object-like schemas that leave `additionalProperties` out mean "free-form" in JSON
Schema, so they are made explicit (`"additionalProperties": true`) when wrapped, because our
subset defaults to strict. Each test's verdict must equal the suite's "valid", and each
message must equal the reference interpreter's.

The suite files are vendored in tests/data/json-schema-test-suite (unchanged copies of
the official JSON Schema Test Suite's files, MIT licence, see its README).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests import reference
from tests.genpkg import shared_package

SUITE = Path(__file__).resolve().parent / "data" / "json-schema-test-suite"
# The subset's files (the extended keywords' files are tests/test_extended_conformance.py's).
SUBSET_FILES = ("type", "required", "enum", "properties", "additionalProperties", "items")
FILES = sorted(p.relative_to(SUITE).as_posix() for p in SUITE.glob("*/*.json") if p.stem in SUBSET_FILES)
SUBSET = frozenset({"type", "required", "enum", "properties", "additionalProperties", "items"})
ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "examples"})
OBJECT_KEYWORDS = ("properties", "required", "additionalProperties")


def _load(file: str) -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = json.loads((SUITE / file).read_text("utf-8"))
    return groups


def _subschemas(schema: dict[str, Any]) -> list[Any]:
    found = list(schema.get("properties", {}).values())
    for keyword in ("additionalProperties", "items"):
        if isinstance(schema.get(keyword), (dict, list)) or schema.get(keyword) is True:
            value = schema[keyword]
            found.extend(value if isinstance(value, list) else [value])
    if schema.get("items") is False:
        found.append(False)
    return found


def exclusion(schema: Any) -> str | None:
    """Why a suite schema means something else in our subset, or None when it does not."""
    if schema is False:
        return "boolean subschema false: JSON Schema rejects every value, our subset constrains nothing"
    if schema is True:
        return None
    outside = sorted(k for k in schema if k not in SUBSET and k not in ANNOTATIONS)
    if outside:
        return f"keyword outside the subset: {', '.join(outside)}"
    if isinstance(schema.get("items"), list):
        return "tuple-form items is not interpreted"
    if schema.get("enum") == []:
        return "an empty enum is refused by the generator (spec section 7)"
    undeclared = set(schema.get("required", [])) - set(schema.get("properties", {}))
    if schema.get("additionalProperties") is False and undeclared:
        return "required names without properties are declared keys in our subset"
    for sub in _subschemas(schema):
        reason = exclusion(sub)
        if reason is not None:
            return reason
    return None


def _object_like(schema: dict[str, Any]) -> bool:
    declared = schema.get("type", [])
    return any(k in schema for k in OBJECT_KEYWORDS) or "object" in (
        [declared] if isinstance(declared, str) else declared
    )


def explicit(schema: Any) -> Any:
    """The same meaning in our subset: free-form objects say so."""
    if isinstance(schema, bool):
        return schema
    result = dict(schema)
    if _object_like(result) and "additionalProperties" not in result:
        result["additionalProperties"] = True
    if "properties" in result:
        result["properties"] = {k: explicit(v) for k, v in result["properties"].items()}
    for keyword in ("additionalProperties", "items"):
        if isinstance(result.get(keyword), dict):
            result[keyword] = explicit(result[keyword])
    return result


def wrap(schema: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"v": explicit(schema)},
        "required": ["v"],
        "additionalProperties": False,
    }


def tool_name(file: str, group: int) -> str:
    return f"{file}#{group}"


def _used_groups() -> dict[str, Any]:
    """Tool name -> wrapped parameters, for every suite schema we can express."""
    return {
        tool_name(file, i): wrap(group["schema"])
        for file in FILES
        for i, group in enumerate(_load(file))
        if exclusion(group["schema"]) is None
    }


OUTSIDE = "keyword outside the subset: "
FALSE = "boolean subschema false: JSON Schema rejects every value, our subset constrains nothing"
TUPLE = "tuple-form items is not interpreted"
EMPTY_ENUM = "an empty enum is refused by the generator (spec section 7)"

# file -> (test cases used, {reason: test cases excluded}). Asserted so that the set of
# cases can neither silently shrink nor silently change meaning.
EXPECTED_COUNTS: dict[str, tuple[int, dict[str, int]]] = {
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
}  # fmt: skip


@pytest.fixture(scope="session")
def suite_pkg(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return shared_package(tmp_path_factory, "suite_validators", _used_groups)


def test_counts_of_used_and_excluded_cases() -> None:
    counts: dict[str, tuple[int, dict[str, int]]] = {}
    for file in FILES:
        used = 0
        excluded: dict[str, int] = {}
        for group in _load(file):
            reason = exclusion(group["schema"])
            if reason is None:
                used += len(group["tests"])
            else:
                excluded[reason] = excluded.get(reason, 0) + len(group["tests"])
        counts[file] = (used, excluded)
    assert counts == EXPECTED_COUNTS
    assert sum(used for used, _ in counts.values()) == 352


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


@pytest.mark.parametrize("file", FILES)
def test_verdicts_agree_with_the_suite(suite_pkg: ModuleType, file: str) -> None:
    disagreements = []
    for i, group in enumerate(_load(file)):
        if exclusion(group["schema"]) is not None:
            continue
        tool = tool_name(file, i)
        parameters = wrap(group["schema"])
        for case in group["tests"]:
            args = {"v": case["data"]}
            message = suite_pkg.validate(tool, args)
            if (message is None) != case["valid"]:
                disagreements.append(f"{tool} {case['description']!r}: {message}")
            assert message == reference.message(tool, parameters, args)
    assert disagreements == []
