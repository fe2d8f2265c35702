"""docs/spec/validation.md §3: a dict key that is not a str is always unexpected, in a map whose
`additionalProperties` is a schema too (never validated against that schema); both modes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.package.build import build
from tests import reference
from tests.genpkg import import_package, write_declarations, write_locked

TOOLS = {
    "Maps": {
        "type": "object",
        "properties": {
            "tags": {"type": "object", "additionalProperties": {"type": "string"}},
            "meta": {
                "type": "object",
                "properties": {"id": {"type": "integer"}},
                "additionalProperties": {"type": "string"},
            },
        },
    },
    "RootMap": {"type": "object", "additionalProperties": {"type": "integer"}},
    # A value schema that constrains nothing still makes a key that is not a str unexpected.
    "Free": {
        "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": {}}},
        "additionalProperties": {"description": "anything"},
    },
}
CALLS: list[tuple[str, dict[Any, Any], str]] = [
    ("Maps", {"tags": {1: "x", "a": "b"}}, "An unexpected parameter `tags.1` was provided"),
    ("Maps", {"tags": {None: 5}}, "An unexpected parameter `tags.None` was provided"),
    ("Maps", {"meta": {"id": 1, 2.5: "s"}}, "An unexpected parameter `meta.2.5` was provided"),
    ("RootMap", {1: 1, "ok": 2}, "An unexpected parameter `1` was provided"),
    ("RootMap", {(1, 2): "not an integer"}, "An unexpected parameter `(1, 2)` was provided"),
    ("Free", {"m": {1: 2}}, "An unexpected parameter `m.1` was provided"),
    ("Free", {3: 4, "m": {}}, "An unexpected parameter `3` was provided"),
]


@pytest.mark.parametrize("keywords", ["subset", "extended"])
def test_a_key_that_is_not_a_str_is_unexpected_in_a_schema_map(tmp_path: Path, keywords: str) -> None:
    schemas = tmp_path / "schemas"
    write_declarations(schemas, TOOLS)
    out = tmp_path / f"nonstr_{keywords}"
    write_locked(out, build(schemas, keywords=keywords).files)
    package = import_package(out)
    for tool, args, line in CALLS:
        expected = f"{tool} failed due to the following issue:\n{line}"
        assert package.validate(tool, args) == expected
        assert reference.message(tool, TOOLS[tool], args, reference.VOCABULARIES[keywords]) == expected
    # A str key is still checked against the schema, and a str subclass is a str.
    assert package.validate("Maps", {"tags": {"a": 1}}) == (
        "Maps failed due to the following issue:\n"
        "The parameter `tags.a` type is expected as `string` but provided as `number`"
    )
    assert package.validate("Maps", {"tags": {type("S", (str,), {})("a"): "b"}}) is None
    assert package.validate("Maps", {"tags": {"a": "b"}, "meta": {"id": 1, "x": "y"}}) is None
    assert package.validate("Free", {"m": {"a": [1]}, "x": None}) is None
    # Two keys that print alike (two NaN objects) are two keys, so two issues, in both modes
    # (E4 records once only an issue whose path segments are the same keys).
    keys = {float("nan"): 1, float("nan"): 2}
    line = "An unexpected parameter `nan` was provided"
    expected = f"RootMap failed due to the following issues:\n{line}\n{line}"
    assert package.validate("RootMap", keys) == expected
    assert reference.message("RootMap", TOOLS["RootMap"], keys, reference.VOCABULARIES[keywords]) == expected
