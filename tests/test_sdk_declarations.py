"""Declarations out in every form, from the same source: `responses_tools()` (OpenAI
Responses `FunctionToolParam`, with `strict` per tool) and `mcp_tools()` (MCP `Tool`), checked
against the SDKs' own types, and the strict-mode decision on purpose-built declarations."""

from __future__ import annotations

import copy
from typing import Any

import mcp_types
from agents.exceptions import UserError
from agents.strict_schema import ensure_strict_json_schema
from openai.types.responses import FunctionToolParam
from pydantic import TypeAdapter

import generated
from generator.emit.openai_strict import qualifies

STRICT = {"EnterPlanMode", "ExitPlanMode", "Write"}  # see README, "Responses API"


def by_name() -> dict[str, dict[str, Any]]:
    return {t["function"]["name"]: t["function"] for t in generated.openai_tools()}


def test_responses_tools_are_function_tool_params_of_the_same_declarations() -> None:
    adapter = TypeAdapter(FunctionToolParam)
    declared = by_name()
    tools = generated.responses_tools()
    assert [adapter.validate_python(tool) for tool in tools] == tools
    assert [t["name"] for t in tools] == sorted(generated.TOOL_NAMES)
    for tool in tools:
        assert tool == {"type": "function", **declared[tool["name"]], "strict": tool["name"] in STRICT}
    tools[0]["parameters"]["properties"].clear()  # fresh copies
    assert generated.responses_tools()[0]["parameters"] == declared[tools[0]["name"]]["parameters"]


KEYWORD_ONLY = {"WebFetch"}  # shaped for strict mode, but `format: uri` is not a supported format


def test_strict_agrees_with_openai_agents_strict_conversion() -> None:
    # An independent check of the structural half of the rule: openai-agents rewrites (or
    # refuses) a schema that strict mode would not accept; a strict tool needs neither.
    for tool in generated.responses_tools():
        try:
            unchanged = ensure_strict_json_schema(copy.deepcopy(tool["parameters"])) == tool["parameters"]
        except UserError:
            unchanged = False
        assert unchanged is (tool["strict"] or tool["name"] in KEYWORD_ONLY), tool["name"]


def test_mcp_tools_are_mcp_tools_of_the_same_declarations() -> None:
    declared = by_name()
    tools = generated.mcp_tools()
    assert [t["name"] for t in tools] == sorted(generated.TOOL_NAMES)
    for tool in tools:
        parsed = mcp_types.Tool.model_validate(tool)
        assert parsed.input_schema == declared[tool["name"]]["parameters"]
        assert parsed.model_dump(by_alias=True, exclude_none=True) == tool
        assert tool == {
            "name": tool["name"],
            "description": declared[tool["name"]]["description"],
            "inputSchema": declared[tool["name"]]["parameters"],
        }


def closed(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """An object schema strict mode accepts: every property required, nothing else allowed."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
        **extra,
    }


def nested(depth: int) -> dict[str, Any]:
    schema = closed({"leaf": {"type": "string"}})
    for _ in range(depth - 1):
        schema = closed({"child": schema})
    return schema


TEXT = {"type": "string", "description": "some text"}
CASES: dict[str, tuple[dict[str, Any], bool]] = {
    "closed": (closed({"a": TEXT, "b": {"type": "integer"}}), True),
    "empty": (closed({}), True),
    "nullable_and_enum": (closed({"a": {"type": ["string", "null"]}, "b": {"enum": ["x", "y"]}}), True),
    "array_of_closed": (closed({"a": {"type": "array", "items": closed({"b": TEXT})}}), True),
    "date_time": (closed({"a": {"type": "string", "format": "date-time"}}), True),
    "ten_deep": (nested(10), True),
    "optional": ({**closed({"a": TEXT, "b": TEXT}), "required": ["a"]}, False),
    "open": ({"type": "object", "properties": {"a": TEXT}, "required": ["a"]}, False),
    "open_inside": (closed({"a": {"type": "object", "properties": {"b": TEXT}, "required": ["b"]}}), False),
    "open_items": (
        closed({"a": {"type": "array", "items": {"type": "object", "additionalProperties": True}}}),
        False,
    ),
    "default": (closed({"a": {"type": "boolean", "default": False}}), False),
    "max_length": (closed({"a": {"type": "string", "maxLength": 5}}), False),
    "uri": (closed({"a": {"type": "string", "format": "uri"}}), False),
    "eleven_deep": (nested(11), False),
}


def test_strict_is_set_exactly_for_declarations_strict_mode_accepts() -> None:
    # The rule is template code, the same in every generated package: exercised here directly.
    decided = {name: qualifies(schema) for name, (schema, _) in CASES.items()}
    assert decided == {name: accepted for name, (_, accepted) in CASES.items()}
