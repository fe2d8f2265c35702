"""Diff stability (issue 9.1): a property added first, in the middle or last, at the top level
or in any nested object of any tool, changes only its own lines of the module and the key
set; an enum member renamed changes one line. Names come from JSON names, never positions.
Every vocabulary: subset and extended modules alike (issue 21)."""

from __future__ import annotations

import copy
import difflib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from generator.emit.format import format_source
from generator.emit.render import environment
from generator.front.load import Declaration, read_all, read_declarations
from generator.front.vocabulary import VOCABULARIES
from generator.package.build import KEYWORDS
from generator.package.pipeline import compile_tool


def module_body(declaration: Declaration, keywords: str) -> str:
    """One tool module's formatted body (no header), straight through the stages."""
    (body,) = compile_tool(declaration, VOCABULARIES[keywords], environment(), format_source, ("validator",))
    return body


ROOT = Path(__file__).resolve().parent.parent
# tool_schemas/, and a pydantic-written declaration whose models are `$defs` reached by `$ref`
# (an order with nested models, a list of models and an Optional field)
REAL = ROOT / "tests" / "data" / "real-tools"
DECLARATIONS = {
    d.name: d
    for d in [
        *read_all(ROOT / "tool_schemas"),
        *read_declarations(REAL / "pydantic__pyd_create_order.json"),
    ]
}
NEW = "zzAdded"
DEFINITIONS = ("$defs", "definitions")


def objects(schema: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The paths (keys from the parameters schema) of every schema with `properties`."""
    if not isinstance(schema, dict):
        return
    if isinstance(schema.get("properties"), dict) and schema["properties"]:
        yield path
        for name, sub in schema["properties"].items():
            yield from objects(sub, (*path, "properties", name))
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            yield from objects(schema[key], (*path, key))
    for key in DEFINITIONS:
        if isinstance(schema.get(key), dict):
            for name, sub in schema[key].items():
                yield from objects(sub, (*path, key, name))


def at(schema: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        schema = schema[key]
    return schema


def with_property(declaration: Declaration, path: tuple[str, ...], where: str) -> Declaration:
    parameters = copy.deepcopy(declaration.parameters)
    target = at(parameters, path)
    members = list(target["properties"].items())
    index = {"first": 0, "middle": len(members) // 2, "last": len(members)}[where]
    members.insert(index, (NEW, {"type": "string", "description": "Added."}))
    target["properties"] = dict(members)
    return replace(declaration, parameters=parameters)


def changes(old: str, new: str) -> tuple[list[str], list[str]]:
    removed: list[str] = []
    added: list[str] = []
    for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        (removed if line.startswith("-") else added).append(line[1:])
    return removed, added


CASES = [(tool, path) for tool, d in sorted(DECLARATIONS.items()) for path in objects(d.parameters)]


def test_every_tool_and_nested_object_is_covered() -> None:
    assert len({tool for tool, _ in CASES}) >= 20
    assert any(len(path) > 2 for _, path in CASES)  # nested objects too
    # models in `$defs`, the pydantic order's among them
    assert ("pyd_create_order", ("$defs", "Address")) in CASES
    assert ("pyd_create_order", ("$defs", "OrderItem")) in CASES


def referenced(path: tuple[str, ...], keywords: str) -> bool:
    """The object at `path` is checked at all: it is not in `$defs`, or the vocabulary
    interprets `$ref` (subset mode checks no model reached by reference)."""
    return not any(key in DEFINITIONS for key in path) or "$ref" in VOCABULARIES[keywords].interpreted


@pytest.mark.parametrize("keywords", KEYWORDS)
@pytest.mark.parametrize(("tool", "path"), CASES, ids=[f"{t}:{'/'.join(p) or '/'}" for t, p in CASES])
def test_a_property_added_anywhere_changes_only_its_own_lines_and_the_key_set(
    tool: str, path: tuple[str, ...], keywords: str
) -> None:
    declaration = DECLARATIONS[tool]
    before = module_body(declaration, keywords)
    seen: list[list[str]] = []
    for where in ("first", "middle", "last"):
        removed, added = changes(before, module_body(with_property(declaration, path, where), keywords))
        assert removed == [], (where, removed)  # nothing renumbered, no form switched
        if referenced(path, keywords):
            assert added, where
            assert sum(NEW in line for line in added) >= 3, added  # key set, fast path, collector
        else:
            assert added == [], added  # a model subset mode does not check: nothing changes
        assert len(added) <= 12, added
        seen.append(sorted(added))
    assert seen[0] == seen[1] == seen[2]  # the same lines wherever the property goes


@pytest.mark.parametrize("keywords", KEYWORDS)
def test_an_enum_member_renamed_changes_one_line(keywords: str) -> None:
    declaration = DECLARATIONS["TaskUpdate"]
    parameters = copy.deepcopy(declaration.parameters)
    parameters["properties"]["status"]["enum"][1] = "in_review"
    renamed = replace(declaration, parameters=parameters)
    removed, added = changes(module_body(declaration, keywords), module_body(renamed, keywords))
    assert (removed, added) == (['    "in_progress",'], ['    "in_review",'])
