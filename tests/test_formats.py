"""Declaration formats in tool_schemas/: OpenAI, Anthropic, MCP and many-tool listings, detected
from their shape; refusals point inside the file; the package carries the declarations back out."""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.cli.commands import main
from generator.front.errors import DeclarationError
from generator.front.load import read_all, read_declarations
from generator.front.shapes import ANTHROPIC, MCP, OPENAI, OPENAI_RESPONSES, tools_in
from generator.package.build import build
from generator.readers.package import import_package
from tests.genpkg import write_locked

ROOT = Path(__file__).resolve().parent.parent
LOOKUP = {
    "type": "object",
    "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
    "required": ["query"],
    "additionalProperties": False,
}


def write(folder: Path, name: str, value: Any) -> Path:
    path = folder / name
    path.write_text(json.dumps(value, indent=2), "utf-8")
    return path


def mcp_listing(count: int) -> dict[str, Any]:
    return {
        "tools": [{"name": f"t{i}", "description": f"tool {i}", "inputSchema": LOOKUP} for i in range(count)]
    }


@pytest.mark.parametrize(
    ("value", "form", "pointer"),
    [
        ({"type": "function", "function": {"name": "a", "parameters": LOOKUP}}, OPENAI,
         "/function/parameters"),
        ({"type": "function", "name": "a", "parameters": LOOKUP}, OPENAI_RESPONSES, "/parameters"),
        ({"name": "a", "description": "d", "input_schema": LOOKUP}, ANTHROPIC, "/input_schema"),
        ({"name": "a", "inputSchema": LOOKUP}, MCP, "/inputSchema"),
        ({"tools": [{"name": "a", "inputSchema": LOOKUP}]}, MCP, "/tools/0/inputSchema"),
        ({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": LOOKUP}]}}, MCP,
         "/result/tools/0/inputSchema"),
        ([{"name": "a", "input_schema": LOOKUP}], ANTHROPIC, "/0/input_schema"),
    ],
)  # fmt: skip
def test_each_shape_is_detected_with_the_pointer_of_its_parameters(
    value: Any, form: str, pointer: str
) -> None:
    [found] = tools_in(value, "f.json")
    assert (found.name, found.form, found.pointer, found.parameters) == ("a", form, pointer, LOOKUP)


def test_openai_tool_without_parameters_takes_no_arguments() -> None:
    [found] = tools_in({"type": "function", "function": {"name": "Ping"}}, "f.json")
    assert found.parameters == {"type": "object", "properties": {}}


@pytest.mark.parametrize(
    ("value", "pointer", "reason"),
    [
        ({"type": "tool", "name": "a"}, "/type", "unrecognised declaration"),
        ({"name": "a", "description": "no schema"}, "", "unrecognised declaration"),
        ({"tools": [{"name": "a", "inputSchema": {}}, {"name": "", "inputSchema": {}}]}, "/tools/1/name",
         "the tool name is missing or empty"),
        ({"tools": {"a": 1}}, "/tools", "expected a non-empty list of tools"),
        ({"result": {"tools": []}}, "/result/tools", "expected a non-empty list of tools"),
        ([], "", "expected a non-empty list of tools"),
        ({"tools": [3]}, "/tools/0", "expected a tool declaration"),
        ({"type": "function", "function": []}, "/function", "expected an object"),
        ("text", "", "expected a tool declaration"),
    ],
)  # fmt: skip
def test_unrecognised_shapes_are_refused_with_file_and_pointer(value: Any, pointer: str, reason: str) -> None:
    with pytest.raises(DeclarationError) as caught:
        tools_in(value, "tool_schemas/x.json")
    assert (caught.value.file, caught.value.pointer) == ("tool_schemas/x.json", pointer)
    assert caught.value.reason.startswith(reason)


def test_a_schema_error_points_inside_the_listing(tmp_path: Path) -> None:
    listing = mcp_listing(5)
    listing["tools"][3]["inputSchema"] = {"type": "object", "properties": {"x": {"type": "text"}}}
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    write(schemas, "server.json", listing)
    result = CliRunner().invoke(main, ["generate", "--schemas", str(schemas), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.stderr == (
        'error: server.json: tool t3: /tools/3/inputSchema/properties/x/type: unknown type "text"; '
        "expected one of string, number, integer, boolean, object, array, null\n"
    )
    assert not (tmp_path / "out").exists()


def test_a_warning_inside_a_listing_names_its_tool(tmp_path: Path) -> None:
    listing = mcp_listing(3)
    listing["tools"][1]["inputSchema"] = {
        "type": "object",
        "properties": {"x": {"type": "string", "default": ""}},
    }
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    write(schemas, "server.json", listing)
    write(
        schemas,
        "single.json",
        {"name": "s", "inputSchema": {"type": "object", "properties": {"y": {"format": "uri"}}}},
    )
    result = CliRunner().invoke(main, ["generate", "--schemas", str(schemas), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "warning: server.json: tool t1: /tools/1/inputSchema: not enforced: "
        "/tools/1/inputSchema/properties/x: default",
        "warning: single.json: /inputSchema: not enforced: /inputSchema/properties/y: format",
    ]


def test_duplicate_names_inside_one_file_are_refused(tmp_path: Path) -> None:
    write(
        tmp_path,
        "server.json",
        {"tools": [{"name": "a", "inputSchema": LOOKUP}, {"name": "a", "inputSchema": LOOKUP}]},
    )
    with pytest.raises(DeclarationError) as caught:
        read_all(tmp_path)
    assert caught.value.pointer == "/tools/1/name"
    assert caught.value.reason == "tool name 'a' is already declared in /tools/0/name"


def test_duplicate_names_across_formats_are_refused(tmp_path: Path) -> None:
    write(tmp_path, "a.json", {"type": "function", "function": {"name": "Lookup", "parameters": LOOKUP}})
    write(tmp_path, "b.json", {"name": "Lookup", "input_schema": LOOKUP})
    with pytest.raises(DeclarationError) as caught:
        read_all(tmp_path)
    assert (caught.value.pointer, caught.value.reason) == (
        "/name",
        "tool name 'Lookup' is already declared in a.json",
    )


def test_an_mcp_tool_is_read_with_its_pointers(tmp_path: Path) -> None:
    [single] = read_declarations(write(tmp_path, "one.json", {"name": "x", "inputSchema": LOOKUP}))
    assert (single.name, single.pointer, single.name_pointer) == ("x", "/inputSchema", "/name")


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A schemas folder in every format, generated into a package once for the tests below."""
    root = tmp_path_factory.mktemp("mixed")
    schemas = root / "tool_schemas"
    schemas.mkdir()
    shutil.copy(ROOT / "tool_schemas" / "TaskUpdate.json", schemas)
    write(
        schemas, "lookup.json", {"name": "Lookup", "description": "Search the index.", "input_schema": LOOKUP}
    )
    write(schemas, "server.json", {"jsonrpc": "2.0", "id": 1, "result": mcp_listing(3)})
    result = build(schemas)
    write_locked(root / "mixedpkg", result.files)
    return root


def test_every_format_generates_a_working_validator(mixed: Path) -> None:
    package = import_package(mixed / "mixedpkg")
    assert sorted(package.TOOL_NAMES) == ["Lookup", "TaskUpdate", "t0", "t1", "t2"]
    assert package.validate("Lookup", {"query": "x", "limit": 2}) is None
    assert package.validate("t2", {"limit": "5"}) == (
        "t2 failed due to the following issues:\n"
        "The required parameter `query` is missing\n"
        "The parameter `limit` type is expected as `integer` but provided as `string`"
    )


def test_declarations_out_equal_the_declarations_in(mixed: Path) -> None:
    sys.path.insert(0, str(mixed))
    try:
        package = importlib.import_module("mixedpkg")
    finally:
        sys.path.remove(str(mixed))
    openai = package.openai_tools()
    anthropic = package.anthropic_tools()
    task_update = json.loads((ROOT / "tool_schemas" / "TaskUpdate.json").read_text("utf-8"))
    assert [t["function"]["name"] for t in openai] == ["Lookup", "TaskUpdate", "t0", "t1", "t2"]
    assert openai[1] == task_update
    assert anthropic[0] == {"name": "Lookup", "description": "Search the index.", "input_schema": LOOKUP}
    assert anthropic[2] == {"name": "t0", "description": "tool 0", "input_schema": LOOKUP}
    assert openai[2] == {
        "type": "function",
        "function": {"name": "t0", "description": "tool 0", "parameters": LOOKUP},
    }
    anthropic[0]["input_schema"]["properties"].clear()  # fresh copies: the next call is unaffected
    assert package.anthropic_tools()[0]["input_schema"] == LOOKUP


def test_checked_in_package_declares_exactly_the_schema_files() -> None:
    import generated

    declared = [json.loads(p.read_text("utf-8")) for p in sorted((ROOT / "tool_schemas").glob("*.json"))]
    assert sorted(generated.openai_tools(), key=lambda t: t["function"]["name"]) == sorted(
        declared, key=lambda t: t["function"]["name"]
    )
    assert [t["name"] for t in generated.anthropic_tools()] == sorted(generated.TOOL_NAMES)
