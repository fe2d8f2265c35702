"""Declaration shapes: find the tools in one decoded file, whatever form they were written in.

Recognised shapes (detected from the members present, never from the file name; docs/cli.md,
"Adding a tool", shows them to users):

* OpenAI function tool: `{"type": "function", "function": {"name", "description", "parameters"}}`
* OpenAI Responses API function tool: `{"type": "function", "name", "description", "parameters"}`
* Anthropic tool: `{"name", "description", "input_schema"}`
* MCP tool: `{"name", "description", "inputSchema"}`
* Many tools in one file: an MCP `tools/list` result `{"tools": [...]}`, a JSON-RPC response
  `{"result": {"tools": [...]}}`, or a bare JSON array; each element is any single-tool form.

Each tool found carries the JSON pointer of its parameters inside the file, so every
refusal about its schema points at the right place (`/tools/3/inputSchema/properties/x`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from .errors import DeclarationError, pointer_join

NO_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}

# The recognised shapes a tool is written in.
Shape = Literal["openai", "openai-responses", "anthropic", "mcp"]
OPENAI: Shape = "openai"
OPENAI_RESPONSES: Shape = "openai-responses"
ANTHROPIC: Shape = "anthropic"
MCP: Shape = "mcp"

_SHAPES = (
    "an OpenAI function tool {type: function, function: {name, parameters}}, "
    "an Anthropic tool {name, input_schema}, an MCP tool {name, inputSchema}, "
    "or a list of tools ({tools: [...]}, {result: {tools: [...]}} or [...])"
)


@dataclass(frozen=True)
class FoundTool:
    """One tool inside a file: its name, its parameters schema and where they are."""

    name: str
    parameters: Any
    pointer: str  # JSON pointer of the parameters schema inside the file
    raw: Any  # the tool's own JSON object, as written
    form: Shape  # which of the recognised shapes it was written in
    listed: bool = False  # one of many tools in its file: messages name it


def describe(raw: Any) -> Any:
    """The description written beside a tool's name (None when there is none)."""
    if not isinstance(raw, dict):
        return None
    function = raw.get("function")
    holder = function if isinstance(function, dict) else raw
    return holder.get("description")


def tools_in(value: Any, file: str) -> list[FoundTool]:
    """Every tool declared in one decoded file, in the order written; refuses unknown shapes."""
    listing = _listing(value)
    if listing is None:
        return [_single(value, file, "")]
    items, where = listing
    if not isinstance(items, list) or not items:
        raise DeclarationError(file, where, "expected a non-empty list of tools")
    return [
        dataclasses.replace(_single(item, file, pointer_join(where, i)), listed=True)
        for i, item in enumerate(items)
    ]


def _listing(value: Any) -> tuple[Any, str] | None:
    """Where the list of tools is, for files holding many; None for a single tool."""
    if isinstance(value, list):
        return value, ""
    if not isinstance(value, dict):
        return None
    result = value.get("result")
    if "tools" not in value and isinstance(result, dict) and "tools" in result:
        return result["tools"], "/result/tools"
    if "tools" in value and "name" not in value:
        return value["tools"], "/tools"
    return None


def _single(value: Any, file: str, where: str) -> FoundTool:
    if not isinstance(value, dict):
        raise DeclarationError(file, where, f"expected a tool declaration: {_SHAPES}")
    if value.get("type") == "function" and "function" in value:
        function = value["function"]
        at = pointer_join(where, "function")
        if not isinstance(function, dict):
            raise DeclarationError(file, at, "expected an object")
        return _tool(function, file, at, "parameters", value, OPENAI)
    for key, form in (("input_schema", ANTHROPIC), ("inputSchema", MCP)):
        if key in value:
            return _tool(value, file, where, key, value, form)
    if value.get("type") == "function" and "name" in value:
        return _tool(value, file, where, "parameters", value, OPENAI_RESPONSES)
    if "type" in value and value.get("type") != "function":
        where = pointer_join(where, "type")
    raise DeclarationError(file, where, f"unrecognised declaration; expected {_SHAPES}")


def _tool(holder: dict[str, Any], file: str, where: str, key: str, raw: Any, form: Shape) -> FoundTool:
    name = holder.get("name")
    if not isinstance(name, str) or not name:
        raise DeclarationError(file, pointer_join(where, "name"), "the tool name is missing or empty")
    parameters = holder.get(key, NO_PARAMETERS)
    return FoundTool(name=name, parameters=parameters, pointer=pointer_join(where, key), raw=raw, form=form)
