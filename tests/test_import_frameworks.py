"""`toolgen import` of the other frameworks' tool objects, each against the real package:
declarations equal to what the framework itself reports, then generated, and one bad call
checked with its exact message."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.import_support import declaration, toolgen, write

MODEL = '''\
from typing import Literal

from pydantic import BaseModel, Field


class BookRoom(BaseModel):
    """Book a meeting room."""

    room: Literal["north", "south"]
    people: int = Field(ge=1, le=12)


class NoDocstring(BaseModel):
    day: str
'''

AGENTS = '''\
from agents import function_tool


@function_tool
def forecast(city: str, days: int) -> str:
    """The weather forecast.

    Args:
        city: The city's name.
        days: How many days ahead.
    """
    return "sunny"
'''

LANGCHAIN = '''\
from typing import Optional

from langchain_core.tools import StructuredTool


def search(query: str, limit: Optional[int] = None) -> str:
    """Search the wiki."""
    return "found"


search_tool = StructuredTool.from_function(search)
'''

PYDANTIC_AI = '''\
from pydantic_ai import Tool


def roll(sides: int, times: int = 1) -> str:
    """Roll dice."""
    return "4"


roll_tool = Tool(roll)
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    write(tmp_path, {"pyproject.toml": '[project]\nname = "app"\n', "app/__init__.py": ""})
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # for the tests' own look at the objects
    yield tmp_path
    for name in [n for n in sys.modules if n == "app" or n.startswith("app.")]:
        del sys.modules[name]


def loaded(module: str, attribute: str) -> Any:
    __import__(f"app.{module}")
    return getattr(sys.modules[f"app.{module}"], attribute)


def imported(project: Path, tool: str) -> Any:
    return declaration(project / "tool_schemas" / f"{tool}.json")


def test_a_pydantic_model_is_one_tool_named_after_the_class(project: Path) -> None:
    write(project, {"app/models.py": MODEL})
    result = toolgen("import", "app.models:BookRoom", "app.models:NoDocstring")
    assert (result.exit_code, result.stderr) == (0, "")
    model = loaded("models", "BookRoom")
    assert imported(project, "BookRoom") == {
        "name": "BookRoom",
        "description": "Book a meeting room.",
        "inputSchema": model.model_json_schema(),
    }
    assert list(imported(project, "BookRoom")["inputSchema"]) == list(model.model_json_schema())
    # no docstring of its own: no description (not BaseModel's inherited one)
    assert list(imported(project, "NoDocstring")) == ["name", "inputSchema"]
    assert toolgen("generate", "--keywords", "extended").exit_code == 0
    bad = toolgen("validate", "BookRoom", '{"room": "east", "people": 0}')
    assert (bad.exit_code, bad.stdout) == (
        1,
        "BookRoom failed due to the following issues:\n"
        'The parameter `room` is invalid: expected one of "north", "south"\n'
        "The parameter `people` is invalid: expected a number greater than or equal to 1\n",
    )


def test_an_openai_agents_function_tool(project: Path) -> None:
    write(project, {"app/agent_tools.py": AGENTS})
    assert toolgen("import", "app.agent_tools:forecast").exit_code == 0
    tool = loaded("agent_tools", "forecast")
    assert imported(project, "forecast") == {
        "name": tool.name,
        "description": tool.description,
        "inputSchema": tool.params_json_schema,
    }
    city = imported(project, "forecast")["inputSchema"]["properties"]["city"]
    assert city["description"] == "The city's name."
    assert toolgen("generate").exit_code == 0
    bad = toolgen("validate", "forecast", '{"city": "Oslo", "days": "3", "hours": 2}')
    assert (bad.exit_code, bad.stdout) == (
        1,
        "forecast failed due to the following issues:\n"
        "An unexpected parameter `hours` was provided\n"
        "The parameter `days` type is expected as `integer` but provided as `string`\n",
    )


def test_a_langchain_structured_tool(project: Path) -> None:
    write(project, {"app/chain.py": LANGCHAIN})
    assert toolgen("import", "app.chain:search_tool").exit_code == 0
    from langchain_core.utils.function_calling import convert_to_openai_tool

    reported = convert_to_openai_tool(loaded("chain", "search_tool"))["function"]
    assert imported(project, "search") == {
        "name": "search",
        "description": "Search the wiki.",
        "inputSchema": reported["parameters"],
    }
    assert toolgen("generate").exit_code == 0
    bad = toolgen("validate", "search", '{"limit": 5}')
    assert (bad.exit_code, bad.stdout) == (
        1,
        "search failed due to the following issue:\nThe required parameter `query` is missing\n",
    )


def test_a_pydantic_ai_tool(project: Path) -> None:
    write(project, {"app/dice.py": PYDANTIC_AI})
    assert toolgen("import", "app.dice:roll_tool").exit_code == 0
    definition = loaded("dice", "roll_tool").tool_def
    assert imported(project, "roll") == {
        "name": definition.name,
        "description": definition.description,
        "inputSchema": definition.parameters_json_schema,
    }
    assert toolgen("generate").exit_code == 0
    bad = toolgen("validate", "roll", '{"sides": 6.5}')
    assert (bad.exit_code, bad.stdout) == (
        1,
        "roll failed due to the following issue:\n"
        "The parameter `sides` type is expected as `integer` but provided as `number`\n",
    )


def test_a_list_or_dict_of_tools_of_several_frameworks(project: Path) -> None:
    write(project, {"app/models.py": MODEL, "app/dice.py": PYDANTIC_AI, "app/chain.py": LANGCHAIN})
    write(
        project,
        {
            "app/all.py": "from app.chain import search_tool\nfrom app.dice import roll_tool\n"
            "from app.models import BookRoom\n\n"
            "TOOLS = [roll_tool, (search_tool,), {'booking': BookRoom}]\n"
        },
    )
    result = toolgen("import", "app.all:TOOLS")
    assert (result.exit_code, result.stdout) == (
        0,
        "3 tools imported into tool_schemas: 0 changed, 3 new, 0 unchanged, 0 removed in N.Ns\n",
    )
    manifest = (project / "tool_schemas" / "toolgen-import.toml").read_text("utf-8")
    assert manifest.endswith(
        '[files]\n"BookRoom.json" = "app.all:TOOLS"\n"roll.json" = "app.all:TOOLS"\n'
        '"search.json" = "app.all:TOOLS"\n'
    )


def test_an_object_of_no_supported_kind_is_refused(project: Path) -> None:
    write(project, {"app/misc.py": "class Plain:\n    pass\n\n\nTHING = Plain()\nLIST = [Plain]\n"})
    supported = (
        "expected an MCPServer or FastMCP server, a pydantic BaseModel subclass, an openai-agents "
        "FunctionTool, a LangChain BaseTool, a pydantic-ai Tool, or a list, tuple or dict of these\n"
    )
    thing = toolgen("import", "app.misc:THING")
    assert (thing.exit_code, thing.stdout) == (2, "")
    assert thing.stderr == f"error: app.misc:THING: a app.misc.Plain is of no supported kind; {supported}"
    listed = toolgen("import", "app.misc:LIST")
    assert listed.stderr == (
        f"error: app.misc:LIST: the class app.misc.Plain is of no supported kind; {supported}"
    )
    assert not (project / "tool_schemas").exists()
