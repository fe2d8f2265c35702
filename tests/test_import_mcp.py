"""`toolgen import` of an `MCPServer` (mcp 2.x): as `module:attribute` in process, and the
same server started by `--stdio` as a real subprocess; the two give the same bytes."""

from __future__ import annotations

import asyncio
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.import_support import declaration, files, toolgen, write

SERVER = '''\
from typing import Literal, Optional

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

server = MCPServer("shop")


class Address(BaseModel):
    street: str
    zip: str = Field(pattern=r"^[0-9]{5}$")


@server.tool()
def ship(
    to: Address,
    weight_kg: float = Field(gt=0, le=30),
    speed: Literal["standard", "express"] = "standard",
    note: Optional[str] = None,
) -> str:
    """Ship a parcel."""
    return "shipped"


@server.tool()
def track(parcel_id: str) -> str:
    """Track a parcel."""
    return "on its way"


if __name__ == "__main__":
    server.run()
'''

TRACK = """\
{
  "name": "track",
  "description": "Track a parcel.",
  "inputSchema": {
    "properties": {
      "parcel_id": {
        "title": "Parcel Id",
        "type": "string"
      }
    },
    "required": [
      "parcel_id"
    ],
    "title": "trackArguments",
    "type": "object"
  }
}
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(tmp_path, {"pyproject.toml": '[project]\nname = "shop"\n', "shop/__init__.py": ""})
    write(tmp_path, {"shop/tools.py": SERVER})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def listed(project: Path) -> list[Any]:
    """What the server itself lists, through the SDK's own in-memory client."""
    sys.path.insert(0, str(project))
    try:
        from mcp import Client
        from shop.tools import server  # type: ignore[import-not-found]

        async def tools() -> list[Any]:
            async with Client(server) as client:
                return list((await client.list_tools()).tools)

        return asyncio.run(tools())
    finally:
        sys.path.remove(str(project))
        for name in ("shop.tools", "shop"):
            sys.modules.pop(name, None)


def test_an_mcpserver_is_imported_as_it_lists_its_tools(project: Path) -> None:
    result = toolgen("import", "shop.tools:server")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "2 tools imported into tool_schemas: 0 changed, 2 new, 0 unchanged, 0 removed in N.Ns\n",
        "",
    )
    assert sorted(files(project / "tool_schemas")) == ["ship.json", "toolgen-import.toml", "track.json"]
    for tool in listed(project):
        found = declaration(project / "tool_schemas" / f"{tool.name}.json")
        assert found == {"name": tool.name, "description": tool.description, "inputSchema": tool.input_schema}
    assert (project / "tool_schemas" / "track.json").read_text("utf-8") == TRACK
    ship = declaration(project / "tool_schemas" / "ship.json")["inputSchema"]
    assert list(ship["properties"]) == ["to", "weight_kg", "speed", "note"]  # the function's order
    assert ship["$defs"]["Address"]["properties"]["zip"]["pattern"] == "^[0-9]{5}$"
    assert (project / "tool_schemas" / "toolgen-import.toml").read_text("utf-8") == (
        "# Written by `toolgen import`: the declaration files it owns, each with its source.\n"
        "# A re-run rewrites or removes only these files. Do not edit.\n"
        "[files]\n"
        '"ship.json" = "shop.tools:server"\n'
        '"track.json" = "shop.tools:server"\n'
    )


def test_the_imported_declarations_generate_validators_that_check_a_bad_call(project: Path) -> None:
    assert toolgen("import", "shop.tools:server").exit_code == 0
    assert toolgen("generate", "--keywords", "extended").exit_code == 0
    call = '{"to": {"street": "Main St 1", "zip": "12a45"}, "weight_kg": 0, "speed": "fast"}'
    bad = toolgen("validate", "ship", call)
    assert (bad.exit_code, bad.stdout) == (
        1,
        "ship failed due to the following issues:\n"
        "The parameter `to.zip` is invalid: expected a string matching the pattern ^[0-9]{5}$\n"
        "The parameter `weight_kg` is invalid: expected a number greater than 0\n"
        "The parameter `speed` is invalid: expected one of \"standard\", \"express\"\n",
    )
    call = '{"to": {"street": "Main St 1", "zip": "12345"}, "weight_kg": 2.5, "note": null}'
    good = toolgen("validate", "ship", call)
    assert (good.exit_code, good.stdout) == (0, "ship: valid (extended keywords)\n")


def test_the_same_server_over_stdio_gives_the_same_bytes(project: Path) -> None:
    assert toolgen("import", "shop.tools:server").exit_code == 0
    command = f"{shlex.quote(sys.executable)} -m shop.tools"
    result = toolgen("import", "--stdio", command, "--schemas", "over_stdio")
    assert (result.exit_code, result.stderr) == (0, "")
    in_process, over_stdio = files(project / "tool_schemas"), files(project / "over_stdio")
    assert in_process.pop("toolgen-import.toml") != over_stdio.pop("toolgen-import.toml")
    assert in_process == over_stdio
    # and --check of the in-process import is satisfied by the server run over stdio
    check = toolgen("import", "--stdio", command, "--check", "--schemas", "over_stdio")
    assert (check.exit_code, check.stdout) == (0, "over_stdio: in sync with the code (2 tools)\n")


PAGED = '''\
import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

NAMES = ["alpha", "beta", "gamma"]


async def list_tools(ctx, params):
    at = int(params.cursor) if params is not None and params.cursor else 0
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    tool = types.Tool(name=NAMES[at], input_schema=schema)
    more = str(at + 1) if at + 1 < len(NAMES) else None
    return types.ListToolsResult(tools=[tool], next_cursor=more)


server = Server("paged", on_list_tools=list_tools)


async def main():
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
'''


def test_stdio_follows_the_pagination_cursor(project: Path) -> None:
    write(project, {"paged.py": PAGED})
    result = toolgen("import", "--stdio", f"{shlex.quote(sys.executable)} paged.py")
    assert (result.exit_code, result.stderr) == (0, "")
    written = files(project / "tool_schemas")
    assert sorted(written) == ["alpha.json", "beta.json", "gamma.json", "toolgen-import.toml"]
    # no description given, none written; the keywords sorted (MCP sources, generator/sources/mcp_server.py)
    assert written["beta.json"] == (
        b'{\n  "name": "beta",\n  "inputSchema": {\n    "properties": {\n      "n": {\n'
        b'        "type": "integer"\n      }\n    },\n    "type": "object"\n  }\n}\n'
    )


def test_a_server_that_fails_to_start_is_refused_with_its_stderr(project: Path) -> None:
    write(project, {"broken.py": "import sys\nprint('no file: shop.ini', file=sys.stderr)\nsys.exit(3)\n"})
    command = f"{shlex.quote(sys.executable)} broken.py"
    result = toolgen("import", "--stdio", command)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: --stdio {shlex.quote(command)}: the server did not answer: ")
    assert result.stderr.endswith("; the server's stderr:\n  no file: shop.ini\n")
    assert not (project / "tool_schemas").exists()


def test_a_command_that_does_not_exist_is_refused(project: Path) -> None:
    result = toolgen("import", "--stdio", "no-such-server --port 3")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "error: --stdio 'no-such-server --port 3': cannot start the server: "
        "No such file or directory: no-such-server\n"
    )


def test_a_server_that_never_answers_times_out(project: Path) -> None:
    write(project, {"silent.py": "import sys, time\nprint('warming up', file=sys.stderr)\ntime.sleep(60)\n"})
    command = f"{shlex.quote(sys.executable)} silent.py"
    result = toolgen("import", "--stdio", command, "--timeout", "1")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"error: --stdio {shlex.quote(command)}: no answer within 1s; the server's stderr:\n  warming up\n"
    )
