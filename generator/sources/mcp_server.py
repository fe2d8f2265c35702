"""An MCP server object: `MCPServer` (mcp 2.x), `FastMCP` (mcp 1.x) or the standalone
`fastmcp` package's `FastMCP`. Its own `list_tools()` gives the tools as it serves them.

An MCP server's schemas have no one key order: the same `MCPServer` lists `type` last in
process, first over the in-memory transport and third over stdio (mcp 2.3). So that a
server imported as `module:attribute` and the same server run with `--stdio` write the same
bytes, the keywords of every schema object are sorted; the members of name maps
(`properties`, `$defs`, ...) keep the server's order, which is the function's parameter order.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

from .tool import ImportedTool, SourceError


def tools(server: Any, source: str) -> list[ImportedTool]:
    listed = _run(server.list_tools())
    if isinstance(listed, dict):  # fastmcp 2.x: get_tools()-style mapping of name to tool
        listed = list(listed.values())
    return [from_wire(_wire(tool), source) for tool in listed]


def _run(value: Any) -> Any:
    """The result of a method that is async in some versions and not in others."""
    if not inspect.isawaitable(value):
        return value

    async def wait() -> Any:
        return await value

    return asyncio.run(wait())


def _wire(tool: Any) -> dict[str, Any]:
    """A tool object as the server sends it in `tools/list` (camelCase keys, no None)."""
    if hasattr(tool, "to_mcp_tool"):  # the standalone fastmcp's own tool objects
        tool = tool.to_mcp_tool()
    dumped: dict[str, Any] = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def from_wire(tool: dict[str, Any], source: str) -> ImportedTool:
    """One entry of a `tools/list` result: name, description, inputSchema."""
    name, schema, description = tool.get("name"), tool.get("inputSchema"), tool.get("description")
    if not isinstance(name, str) or not isinstance(schema, dict):
        raise SourceError(source, f"a listed tool has no name or no inputSchema object: {tool!r}")
    if description is not None and not isinstance(description, str):
        raise SourceError(source, f"tool {name!r}: the description is not a string")
    return ImportedTool(name, description, canonical(schema), source)


# Keywords whose value maps names to schemas: the names keep their order.
_NAME_MAPS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)
# Keywords whose value is data, not schemas: kept exactly.
_DATA = frozenset({"default", "const", "enum", "examples", "required", "dependentRequired"})


def canonical(schema: Any) -> Any:
    """A schema with the keywords of every schema object in sorted order."""
    if isinstance(schema, list):
        return [canonical(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result: dict[str, Any] = {}
    for key in sorted(schema):
        value = schema[key]
        if key in _DATA:
            result[key] = value
        elif key in _NAME_MAPS and isinstance(value, dict):
            result[key] = {name: canonical(member) for name, member in value.items()}
        else:
            result[key] = canonical(value)
    return result
