"""docs/spec/validation.md §7: every refusal exits 2 with one line naming the file and the JSON pointer,
writes nothing and leaves a previous output byte-identical; lint warnings are printed and
become errors under --strict."""

from __future__ import annotations

import hashlib
import itertools
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from generator.ir.names import module_name
from tests.reliability import declaration, generate_into, invoke, snapshot, write_schemas

GOOD = declaration("Good", {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
P = "/function/parameters"


def tool(parameters: Any, name: str = "Bad") -> str:
    return json.dumps(declaration(name, parameters))


def with_property(schema: Any) -> str:
    return tool({"type": "object", "properties": {"x": schema}})


# (case id, text of bad.json, pointer the message must name, words the reason must contain)
REFUSALS: list[tuple[str, str, str, str]] = [
    ("invalid JSON", '{"type": "function",\n  "function": {"name": "X",}}', "/", "line 2, column 28"),
    ("truncated JSON", '{"type": "function"', "/", "line 1, column 20"),
    (
        "NaN",
        '{"type": "function", "function": {"name": "X", "parameters": {"type": "object", '
        '"properties": {"n": {"enum": [NaN]}}}}}',
        f"{P}/properties/n/enum/0",
        "NaN is not a JSON number",
    ),
    (
        "Infinity",
        tool({"type": "object", "properties": {}}).replace("{}", '{"i": {"enum": [Infinity]}}'),
        f"{P}/properties/i/enum/0",
        "Infinity is not a JSON number",
    ),
    (
        "-Infinity",
        tool({"type": "object"}).replace('"object"', '"object", "x": -Infinity'),
        f"{P}/x",
        "-Infinity is not a JSON number",
    ),
    (
        "float overflow",
        tool({"type": "object"}).replace('"object"', '"object", "x": 1e400'),
        f"{P}/x",
        "1e400 is not a JSON number",
    ),
    (
        "integer too long",
        tool({"type": "object"}).replace('"object"', '"object", "x": ' + "9" * 5000),
        "/",
        "not valid JSON",
    ),
    ("not UTF-8", '{"type": "function", "function": {"name": "caf\xe9"}}', "/", "not UTF-8"),
    (
        "member written twice",
        '{"type": "function", "function": {"name": "A", "name": "B"}}',
        "/function/name",
        "more than once",
    ),
    ("not a function tool", json.dumps({"type": "tool", "function": {"name": "X"}}), "/type", "function"),
    ("function not an object", json.dumps({"type": "function", "function": []}), "/function", "object"),
    (
        "missing name",
        json.dumps({"type": "function", "function": {"description": "d"}}),
        "/function/name",
        "missing or empty",
    ),
    ("empty name", tool({"type": "object"}, name=""), "/function/name", "missing or empty"),
    (
        "name not a string",
        json.dumps({"type": "function", "function": {"name": 7}}),
        "/function/name",
        "missing or empty",
    ),
    ("lone surrogate in name", tool({"type": "object"}, name="\ud800"), "/function/name", "surrogate"),
    (
        "lone surrogate in property name",
        with_property({}).replace('"x"', '"\\udfff"'),
        f"{P}/properties",
        "surrogate",
    ),
    ("lone surrogate in enum", with_property({"enum": ["\udc80"]}), f"{P}/properties/x/enum/0", "surrogate"),
    ("parameters type array", tool({"type": "array"}), f"{P}/type", '"object"'),
    ("parameters type list", tool({"type": ["object", "null"]}), f"{P}/type", '"object"'),
    ("parameters not object-like", tool({"description": "no type"}), P, "object-like"),
    ("parameters not an object", tool(["object"]), P, "object"),
    ("parameters a boolean", tool(True), P, "object"),
    ("top-level enum", tool({"type": "object", "enum": [{}]}), f"{P}/enum", "enum"),
    ("unknown type name", with_property({"type": "text"}), f"{P}/properties/x/type", '"text"'),
    (
        "unknown type in list",
        with_property({"type": ["string", "float"]}),
        f"{P}/properties/x/type/1",
        '"float"',
    ),
    ("type not a string", with_property({"type": 3}), f"{P}/properties/x/type", "type name"),
    ("empty type list", with_property({"type": []}), f"{P}/properties/x/type", "non-empty"),
    (
        "duplicate type",
        with_property({"type": ["string", "string"]}),
        f"{P}/properties/x/type",
        "more than once",
    ),
    ("required not a list", tool({"type": "object", "required": "a"}), f"{P}/required", "list"),
    ("required non-string", tool({"type": "object", "required": ["a", 1]}), f"{P}/required", "strings"),
    (
        "required duplicates",
        tool({"type": "object", "required": ["a", "a"]}),
        f"{P}/required",
        "more than once",
    ),
    (
        "required malformed where unused",
        with_property({"type": "string", "required": {}}),
        f"{P}/properties/x/required",
        "list",
    ),
    ("enum not a list", with_property({"enum": "a"}), f"{P}/properties/x/enum", "non-empty list"),
    ("enum empty", with_property({"enum": []}), f"{P}/properties/x/enum", "non-empty list"),
    ("properties not an object", tool({"type": "object", "properties": ["a"]}), f"{P}/properties", "object"),
    ("property not a schema", with_property(3), f"{P}/properties/x", "schema"),
    ("property schema null", with_property(None), f"{P}/properties/x", "schema"),
    (
        "additionalProperties string",
        tool({"type": "object", "additionalProperties": "no"}),
        f"{P}/additionalProperties",
        "boolean or a schema",
    ),
    (
        "nested additionalProperties list",
        with_property({"type": "object", "additionalProperties": []}),
        f"{P}/properties/x/additionalProperties",
        "boolean or a schema",
    ),
    (
        "items a string",
        with_property({"type": "array", "items": "string"}),
        f"{P}/properties/x/items",
        "schema",
    ),
    ("items a number", with_property({"items": 0}), f"{P}/properties/x/items", "schema"),
    (
        "escaped pointer",
        tool({"type": "object", "properties": {"a/b~c": {"type": "strin"}}}),
        f"{P}/properties/a~1b~0c/type",
        '"strin"',
    ),
]


def _deep(levels: int) -> str:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"p": schema}}
    return tool(schema)


REFUSALS.append(("nested too deep", _deep(150), P + "/properties/p" * 99, "nested more than 200"))


@pytest.fixture(scope="module")
def previous(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output folder from an earlier good run: refusals must leave it byte-identical."""
    base = tmp_path_factory.mktemp("previous")
    generate_into(write_schemas(base / "schemas", [GOOD]), base / "generated")
    return base / "generated"


def run_refused(tmp_path: Path, previous: Path, files: dict[str, bytes]) -> tuple[Result, Path]:
    """Run on a schemas folder holding GOOD plus `files`; expect exit 2 and an untouched output."""
    schemas = write_schemas(tmp_path / "tool_schemas", [GOOD])
    for name, data in files.items():
        (schemas / name).write_bytes(data)
    out = tmp_path / "generated"
    shutil.copytree(previous, out)
    before = snapshot(out)
    result = invoke(tmp_path, "--schemas", "tool_schemas", "--out", "generated")
    assert result.exit_code == 2, result.output
    assert snapshot(out) == before
    return result, out


def the_line(result: Result, file: str) -> str:
    """The single line of output that names the refused file."""
    lines = [line for line in result.output.splitlines() if file in line]
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    return lines[0]


@pytest.mark.parametrize(
    ("text", "pointer", "reason"), [c[1:] for c in REFUSALS], ids=[c[0] for c in REFUSALS]
)
def test_refusal(tmp_path: Path, previous: Path, text: str, pointer: str, reason: str) -> None:
    data = text.encode("utf-8", "surrogatepass") if "not UTF-8" not in reason else text.encode("latin-1")
    result, _ = run_refused(tmp_path, previous, {"bad.json": data})
    line = the_line(result, "tool_schemas/bad.json")
    assert f"tool_schemas/bad.json: {pointer}: " in line
    assert reason in line


def test_refusal_leaves_a_missing_output_missing(tmp_path: Path) -> None:
    schemas = write_schemas(tmp_path / "tool_schemas", [GOOD])
    (schemas / "bad.json").write_text(tool({"type": "array"}), "utf-8")
    result = invoke(tmp_path, "--out", "generated")
    assert result.exit_code == 2
    assert not (tmp_path / "generated").exists()


def test_duplicate_tool_names_across_files(tmp_path: Path, previous: Path) -> None:
    result, _ = run_refused(tmp_path, previous, {"z_again.json": json.dumps(GOOD).encode()})
    line = the_line(result, "tool_schemas/z_again.json")
    assert "tool_schemas/z_again.json: /function/name: tool name 'Good' is already declared in " in line
    assert line.endswith("tool_schemas/t0000.json")


def _colliding_names() -> tuple[str, str]:
    """Two tool names with the same slug ("x") and the same 8-hex hash prefix: a birthday search."""
    seen: dict[str, str] = {}
    for n in itertools.count():
        name = "x" + "".join("!?#-+=@%"[int(d)] for d in f"{n:o}")
        prefix = hashlib.sha256(name.encode()).hexdigest()[:8]
        if prefix in seen:
            return seen[prefix], name
        seen[prefix] = name
    raise AssertionError("unreachable")


def test_module_name_clash(tmp_path: Path, previous: Path) -> None:
    first, second = _colliding_names()
    assert first != second and module_name(first) == module_name(second)
    files = {
        "a.json": tool({"type": "object"}, first).encode(),
        "b.json": tool({"type": "object"}, second).encode(),
    }
    result, _ = run_refused(tmp_path, previous, files)
    assert "clashes with" in result.output


# ---------- lint warnings (§7) ----------

WARNINGS: list[tuple[str, Any, str, str]] = [
    (
        "accepts only {}",
        {"type": "object", "properties": {"m": {"type": "object"}}},
        f"{P}/properties/m",
        "accepts only {}",
    ),
    (
        "required without property",
        {"type": "object", "properties": {}, "required": ["ghost"]},
        f"{P}/required",
        '"ghost" is required but has no property schema',
    ),
    (
        "boolean subschema",
        {"type": "object", "properties": {"b": True}},
        f"{P}/properties/b",
        "boolean subschema",
    ),
    (
        "keys unchecked",
        {"type": "object", "properties": {}, "patternProperties": {"^a": {}}},
        P,
        "undeclared keys go unchecked because of patternProperties",
    ),
    (
        "not enforced",
        {"type": "object", "properties": {"s": {"type": "string", "maxLength": 3}}},
        P,
        f"not enforced: {P}/properties/s: maxLength",
    ),
    (
        "tuple items",
        {"type": "object", "properties": {"t": {"type": "array", "items": [{}]}}},
        P,
        "items (tuple form)",
    ),
]


@pytest.mark.parametrize(
    ("parameters", "pointer", "reason"), [w[1:] for w in WARNINGS], ids=[w[0] for w in WARNINGS]
)
def test_warning_printed_then_strict_refuses(
    tmp_path: Path, previous: Path, parameters: Any, pointer: str, reason: str
) -> None:
    schemas = write_schemas(tmp_path / "tool_schemas", [GOOD])
    (schemas / "warn.json").write_text(tool(parameters, "Warned"), "utf-8")
    out = tmp_path / "generated"
    shutil.copytree(previous, out)
    before = snapshot(out)

    strict = invoke(tmp_path, "--strict")
    assert strict.exit_code == 2, strict.output
    assert snapshot(out) == before
    assert f"tool_schemas/warn.json: {pointer}: " in strict.output and reason in strict.output
    assert "Traceback" not in strict.output

    lenient = invoke(tmp_path)
    assert lenient.exit_code == 0, lenient.output
    prefix = f"warning: tool_schemas/warn.json: {pointer}: "
    assert any(line.startswith(prefix) and reason in line for line in lenient.output.splitlines())
    assert snapshot(out) != before
