"""The real-tools coverage report (`make coverage`, benchmarks/coverage.py).

Hand-made declarations generated for real (subset mode) give exact per-property verdicts;
a hand-written NOT_ENFORCED as an extended-mode module would list it exercises the reading
of references and branches; and on the real corpus the subset numbers must equal a count
made independently here, from docs/spec/validation.md §2 alone (no generated module consulted).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from benchmarks import coverage
from benchmarks.coverage import PropertyCount
from generator.front.load import read_all
from tests.genpkg import write_declarations

ROOT_POINTER = "/function/parameters"

HAND_MADE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "a": {"type": "string", "maxLength": 3},
        "b": {"type": "integer", "description": "how many", "default": 1, "title": "B"},
        "c": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "d": {"$ref": "#/$defs/D"},
        "f": {"description": "anything at all"},
        "g": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"h": {"enum": ["x", "y"]}, "i": {"type": "number", "minimum": 0}},
                "required": ["h"],
            },
        },
        "j": {"type": "array", "items": {"type": "string", "pattern": "^a"}},
        "k": {"type": "string", "format": "date"},
        "l": {
            "type": "object",
            "anyOf": [{"required": ["m"]}],
            "properties": {"m": {"type": "string"}},
            "additionalProperties": {"type": "object", "properties": {"n": {"type": "string"}}},
        },
        "o": {"type": "string", "properties": {"p": {"type": "string"}}},
        "q": {"anyOf": [{"type": "object", "properties": {"r": {"type": "string"}}}, {"type": "null"}]},
        "s": {"type": "array", "items": [{"type": "string"}]},
    },
    "$defs": {
        "D": {"type": "object", "properties": {"e": {"type": "string"}}},
        "Dead": {"type": "object", "properties": {"z": {"type": "string"}}},  # no $ref to it
    },
}
# property -> (type enforced, fully enforced) in subset mode
HAND_MADE_SUBSET = {
    "a": (True, False),  # maxLength is not interpreted
    "b": (True, True),  # description, default, title are not constraints
    "c": (False, False),  # only anyOf declares its type
    "d": (False, False),  # only $ref does
    "f": (True, True),  # declares no type: nothing to enforce (untyped)
    "g": (True, True),  # its items' type, properties and required are all interpreted
    "g.h": (True, True),
    "g.i": (True, False),
    "j": (True, False),  # a pattern in its items
    "k": (True, True),  # format is an annotation (counted apart)
    "l": (True, False),  # its anyOf
    "l.m": (True, True),
    "l.*.n": (False, False),  # anyOf opens l: additionalProperties is not applied
    "o": (True, True),
    "o.p": (False, False),  # a string has no properties: never applied
    "q": (False, False),
    "q.r": (False, False),  # inside a branch that is not interpreted
    "s": (True, False),  # tuple-form items
    "D.e": (False, False),  # a definition no interpreted $ref reaches
}


def _name(pointer: str) -> str:
    """`/function/parameters/properties/g/items/properties/h` -> `g.h` (short names for the tests)."""
    tokens = pointer[len(ROOT_POINTER) :].split("/")[1:]
    names: list[str] = []
    for i, token in enumerate(tokens):
        before = tokens[i - 1] if i else ""
        if before in ("properties", "$defs"):
            names.append(token)
        elif token == "additionalProperties":
            names.append("*")
    return ".".join(names)


@pytest.fixture(scope="module")
def hand_made(tmp_path_factory: pytest.TempPathFactory) -> list[PropertyCount]:
    tmp = tmp_path_factory.mktemp("coverage")
    write_declarations(tmp / "schemas", {"hand_made": HAND_MADE})
    declarations = read_all(tmp / "schemas")
    found = coverage.generated_not_enforced(tmp / "schemas", "subset", tmp / "out")
    return coverage.count(declarations, {"subset": found})


def test_hand_made_declaration_counts_exactly(hand_made: list[PropertyCount]) -> None:
    assert [_name(c.pointer) for c in hand_made if c.dead] == ["Dead.z"]
    got = {_name(c.pointer): c.by_mode["subset"] for c in hand_made if not c.dead}
    assert got == HAND_MADE_SUBSET
    assert list(got) == ["a", "b", "c", "d", "f", "g", "g.h", "g.i", "j", "k", "l", "l.m", "l.*.n",
                         "o", "o.p", "q", "q.r", "s", "D.e"]  # fmt: skip
    assert [_name(c.pointer) for c in hand_made if not c.typed and not c.dead] == ["f"]
    assert [_name(c.pointer) for c in hand_made if c.formats] == ["k"]


def test_table_of_the_hand_made_declaration(hand_made: list[PropertyCount], tmp_path: Path) -> None:
    write_declarations(tmp_path, {"hand_made": HAND_MADE})
    declarations = read_all(tmp_path)
    text = coverage.table(declarations, hand_made, {"extended": "extended mode not available"})
    # 19 properties: 12 type enforced, 7 fully (b, f, g, g.h, k, l.m, o)
    assert text == (
        "| source | tools | properties | untyped | subset: type enforced | subset: fully enforced "
        "| extended: type enforced | extended: fully enforced |\n"
        "|---|---|---|---|---|---|---|---|\n"
        "| t0000.json | 1 | 19 | 1 | 63.2% (12/19) | 36.8% (7/19) | n/a | n/a |\n"
        "| **total** | 1 | 19 | 1 | 63.2% (12/19) | 36.8% (7/19) | n/a | n/a |"
    )


# What an extended-mode module would list for this pydantic-like declaration: annotations,
# a lookbehind pattern (outside E6), a format and an `if`. Everything else is interpreted.
PYDANTIC_LIKE: dict[str, Any] = {
    "$defs": {
        "Color": {"enum": ["red", "green"], "title": "Color", "type": "string"},
        "Item": {
            "additionalProperties": False,
            "properties": {
                "sku": {"pattern": "(?<=x)a", "type": "string"},
                "n": {"minimum": 1, "type": "integer"},
            },
            "required": ["sku"],
            "type": "object",
        },
    },
    "type": "object",
    "properties": {
        "color": {"$ref": "#/$defs/Color", "default": "red"},
        "maybe": {"anyOf": [{"maxLength": 3, "type": "string"}, {"type": "null"}], "default": None},
        "items": {"items": {"$ref": "#/$defs/Item"}, "maxItems": 3, "type": "array"},
        "loose": {"anyOf": [{"type": "string"}, {}]},
        "when": {"format": "date-time", "type": "string"},
        "cond": {"type": "object", "if": {"properties": {"z": {"type": "string"}}}, "properties": {"y": {}}},
        "unused": {"$ref": "#/$defs/Nowhere"},
    },
    "required": ["color"],
}
EXTENDED_NOT_ENFORCED = {
    f"{ROOT_POINTER}/$defs/Color": frozenset({"title"}),
    f"{ROOT_POINTER}/$defs/Item/properties/sku": frozenset({"pattern"}),
    f"{ROOT_POINTER}/properties/color": frozenset({"default"}),
    f"{ROOT_POINTER}/properties/maybe": frozenset({"default"}),
    f"{ROOT_POINTER}/properties/when": frozenset({"format"}),
    f"{ROOT_POINTER}/properties/cond": frozenset({"if"}),
}
PYDANTIC_LIKE_EXTENDED = {
    "Item.sku": (True, False),  # reached through items -> $ref; its pattern is not enforced
    "Item.n": (True, True),
    "color": (True, True),  # the enum of its $ref target
    "maybe": (True, True),  # every branch typed, maxLength interpreted
    "items": (True, True),  # maxItems, items, the target's type, required, additionalProperties
    "loose": (True, True),  # a branch without a type: nothing left to check
    "when": (True, True),
    "cond": (True, False),  # its `if`
    "cond.z": (False, False),  # inside the `if`
    "cond.y": (True, True),  # untyped
    "unused": (True, True),  # a $ref to nothing declares no type (the generator refuses it)
}
PYDANTIC_LIKE_SUBSET = {
    "Item.sku": (False, False),
    "Item.n": (False, False),
    "color": (False, False),
    "maybe": (False, False),
    "items": (True, False),
    "loose": (False, False),
    "when": (True, True),
    "cond": (True, False),
    "cond.z": (False, False),
    "cond.y": (True, True),
    "unused": (True, False),
}


def test_extended_reading_follows_refs_and_branches() -> None:
    subset_not_enforced = {
        f"{ROOT_POINTER}": frozenset({"$defs"}),
        f"{ROOT_POINTER}/properties/color": frozenset({"$ref", "default"}),
        f"{ROOT_POINTER}/properties/maybe": frozenset({"anyOf", "default"}),
        f"{ROOT_POINTER}/properties/items": frozenset({"maxItems"}),
        f"{ROOT_POINTER}/properties/items/items": frozenset({"$ref"}),
        f"{ROOT_POINTER}/properties/loose": frozenset({"anyOf"}),
        f"{ROOT_POINTER}/properties/when": frozenset({"format"}),
        f"{ROOT_POINTER}/properties/cond": frozenset({"if"}),
        f"{ROOT_POINTER}/properties/unused": frozenset({"$ref"}),
    }
    for not_enforced, expected in (
        (EXTENDED_NOT_ENFORCED, PYDANTIC_LIKE_EXTENDED),
        (subset_not_enforced, PYDANTIC_LIKE_SUBSET),
    ):
        reading = coverage.Reading(PYDANTIC_LIKE, ROOT_POINTER, not_enforced)
        got = {
            _name(p): (v.type_enforced, v.fully_enforced)
            for p in coverage.declared_properties(PYDANTIC_LIKE, ROOT_POINTER)
            for v in [reading.verdict(p)]
        }
        assert got == expected


def test_items_tuple_form_entry_is_read_at_its_schema() -> None:
    module = ModuleType("tool_module")
    entries = (("/p/properties/s/items", ("items (tuple form)",)), ("/p", ("$defs", "default")))
    setattr(module, "NOT_ENFORCED", entries)  # noqa: B010 -- a module attribute mypy cannot see
    assert coverage.not_enforced_of(module) == {
        "/p/properties/s": frozenset({"items"}),
        "/p": frozenset({"$defs", "default"}),
    }


# ---------- the real corpus, counted independently from §2 ----------

SUBSET = frozenset({"type", "required", "enum", "properties", "additionalProperties", "items"})


def _admits(schema: dict[str, Any], name: str) -> bool:
    declared = schema.get("type")
    return declared is None or declared == name or (isinstance(declared, list) and name in declared)


def _resolve(root: Any, ref: str) -> Any:
    value = root
    for token in ref[2:].split("/") if ref.startswith("#/") else []:
        key = token.replace("~1", "/").replace("~0", "~")
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _declares_type(root: Any, schema: Any, depth: int = 0) -> bool:
    if not isinstance(schema, dict) or depth > 50:
        return False
    if "type" in schema or "enum" in schema or "const" in schema:
        return True
    subs = [b for k in ("allOf", "anyOf", "oneOf") for b in schema.get(k, [])]
    if isinstance(schema.get("$ref"), str):
        subs.append(_resolve(root, schema["$ref"]))
    return any(_declares_type(root, s, depth + 1) for s in subs)


def _only_subset(schema: Any) -> bool:
    """Every constraint of `schema`, its items and additionalProperties schemas is in the subset."""
    if not isinstance(schema, dict):
        return True
    if any(k in coverage.CONSTRAINTS and k not in SUBSET for k in schema):
        return False
    if isinstance(schema.get("items"), list):
        return False
    subs = []
    if _admits(schema, "array") and isinstance(schema.get("items"), dict):
        subs.append(schema["items"])
    if _admits(schema, "object") and isinstance(schema.get("additionalProperties"), dict):
        subs.append(schema["additionalProperties"])
    return all(_only_subset(s) for s in subs)


def _subset_verdicts(root: Any, schema: Any, pointer: str) -> Iterator[tuple[str, tuple[bool, bool]]]:
    """(pointer, (type enforced, fully enforced)) of every property the subset reaches."""
    if not isinstance(schema, dict):
        return
    if _admits(schema, "object"):
        for name, sub in schema.get("properties", {}).items():
            where = f"{pointer}/properties/{name.replace('~', '~0').replace('/', '~1')}"
            typed = isinstance(sub, dict) and ("type" in sub or "enum" in sub)
            type_ok = typed or not _declares_type(root, sub)
            yield where, (type_ok, type_ok and _only_subset(sub))
            yield from _subset_verdicts(root, sub, where)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and not any(k in schema for k in coverage.OPENING):
            yield from _subset_verdicts(root, extra, f"{pointer}/additionalProperties")
    if _admits(schema, "array") and isinstance(schema.get("items"), dict):
        yield from _subset_verdicts(root, schema["items"], f"{pointer}/items")


def _refs(value: Any) -> Iterator[str]:
    if isinstance(value, list):
        for v in value:
            yield from _refs(v)
    elif isinstance(value, dict):
        for key, sub in value.items():
            if key == "$ref" and isinstance(sub, str):
                yield sub
            yield from _refs(sub)


def _all_property_members(value: Any, refs: frozenset[str]) -> int:
    """Members of every object under a `properties` key, skipping values that are data and
    definitions no `$ref` names."""
    if isinstance(value, list):
        return sum(_all_property_members(v, refs) for v in value)
    if not isinstance(value, dict):
        return 0
    total = 0
    for key, sub in value.items():
        if key in ("enum", "const", "default", "examples"):
            continue
        if key == "properties" and isinstance(sub, dict):
            total += len(sub)
        if key in ("$defs", "definitions") and isinstance(sub, dict):
            sub = {name: s for name, s in sub.items() if f"#/{key}/{name}" in refs}
        total += _all_property_members(sub, refs)
    return total


def test_real_corpus_subset_numbers_match_an_independent_count(tmp_path: Path) -> None:
    schemas = coverage.REAL_TOOLS
    declarations = read_all(schemas)
    found = coverage.generated_not_enforced(schemas, "subset", tmp_path)
    counts = coverage.count(declarations, {"subset": found})
    assert len(declarations) == len(list(schemas.glob("*.json")))
    assert sum(not c.dead for c in counts) == sum(
        _all_property_members(d.parameters, frozenset(_refs(d.parameters))) for d in declarations
    )
    counts = [c for c in counts if not c.dead]
    by_tool: dict[str, dict[str, tuple[bool, bool]]] = {}
    for d in declarations:
        by_tool[d.name] = dict(_subset_verdicts(d.parameters, d.parameters, d.pointer))
    for c in counts:
        assert c.by_mode["subset"] == by_tool[c.tool].get(c.pointer, (False, False)), (c.tool, c.pointer)
    # The table's totals are those counts (and every source is a file-name prefix).
    sources = {Path(d.file).name.split("__")[0] for d in declarations}
    text = coverage.table(declarations, counts, {"extended": "n/a"})
    type_ok = sum(c.by_mode["subset"][0] for c in counts)
    fully = sum(c.by_mode["subset"][1] for c in counts)
    total_row = text.splitlines()[-1]
    assert f"| {len(counts)} |" in total_row
    assert f"({type_ok}/{len(counts)})" in total_row and f"({fully}/{len(counts)})" in total_row
    assert all(f"\n| {s} | " in text for s in sources)
    assert 0 < fully < type_ok < len(counts)
