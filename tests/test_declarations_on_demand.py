"""Declarations on demand (issue 22.3): `openai_tools(["Read", "Write"])` and the other three
build only the tools asked for, checked against the SDKs' own types; a name the package does
not declare is a KeyError naming it; the whole list stays the default; one declaration is
reachable by name without loading the others' modules."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import mcp_types
import pytest
from anthropic.types import ToolParam
from openai.types.chat import ChatCompletionToolParam
from openai.types.responses import FunctionToolParam
from pydantic import TypeAdapter

import generated
from tests.genpkg import ROOT

WANTED = ["Write", "Read"]


def test_openai_tools_of_names_are_the_chat_tool_params_of_those_tools_in_the_order_asked() -> None:
    tools = generated.openai_tools(WANTED)
    assert TypeAdapter(list[ChatCompletionToolParam]).validate_python(tools) == tools
    everything = {t["function"]["name"]: t for t in generated.openai_tools()}
    assert tools == [everything["Write"], everything["Read"]]


def test_anthropic_responses_and_mcp_tools_of_names_are_their_sdk_types() -> None:
    anthropic = generated.anthropic_tools(WANTED)
    assert TypeAdapter(list[ToolParam]).validate_python(anthropic) == anthropic
    responses = generated.responses_tools(WANTED)
    assert TypeAdapter(list[FunctionToolParam]).validate_python(responses) == responses
    assert [(t["name"], t["strict"]) for t in responses] == [("Write", True), ("Read", False)]
    mcp = generated.mcp_tools(WANTED)
    assert [mcp_types.Tool.model_validate(t).model_dump(by_alias=True, exclude_none=True) for t in mcp] == mcp
    everything = {t["name"]: t for t in generated.mcp_tools()}
    assert mcp == [everything["Write"], everything["Read"]]


@pytest.mark.parametrize("serve", ["openai_tools", "anthropic_tools", "responses_tools", "mcp_tools"])
def test_a_name_not_declared_is_a_key_error_naming_it(serve: str) -> None:
    with pytest.raises(KeyError) as raised:
        getattr(generated, serve)(["Read", "Reed"])
    assert raised.value.args == ("Reed",)


def test_a_bare_str_is_refused_rather_than_read_letter_by_letter() -> None:
    with pytest.raises(TypeError) as raised:
        generated.openai_tools("Read")
    assert str(raised.value) == "names: a list of tool names, not the str 'Read'"


def test_names_asked_twice_give_the_tool_once_and_no_names_give_no_tools() -> None:
    assert [t["name"] for t in generated.mcp_tools(["Read", "Bash", "Read"])] == ["Read", "Bash"]
    assert generated.anthropic_tools([]) == []
    assert [t["name"] for t in generated.anthropic_tools(iter(["Glob"]))] == ["Glob"]


def test_the_default_is_every_tool_in_name_order_as_fresh_copies() -> None:
    tools = generated.anthropic_tools()
    assert [t["name"] for t in tools] == sorted(generated.TOOL_NAMES)
    asked = generated.anthropic_tools(["Read"])
    asked[0]["input_schema"]["properties"].clear()
    assert generated.anthropic_tools(["Read"])[0] == next(t for t in tools if t["name"] == "Read")


LOADED = """
import sys
import generated
declaration = generated.openai_tools(["Read"])[0]
print(declaration["function"]["name"])
print(sorted(m for m in sys.modules if m.startswith("generated.")))
"""


def test_one_declaration_loads_its_own_module_only() -> None:
    done = subprocess.run(
        [sys.executable, "-c", LOADED], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines() == [
        "Read",
        "['generated._declarations', 'generated._support', 'generated.read_9b9a8d05_declaration']",
    ]


def test_the_declaration_module_holds_the_declaration_as_written() -> None:
    from generated import read_9b9a8d05_declaration as read

    tool: dict[str, Any] = generated.openai_tools(["Read"])[0]["function"]
    written = (read.NAME, read.DESCRIPTION, read.PARAMETERS, read.STRICT)
    assert written == ("Read", tool["description"], tool["parameters"], False)
