"""A user's own tool served by the `mcp` SDK's high-level `MCPServer` (a pydantic-typed tool
function), guarded by `validation_middleware` over the user's own generated package, and
called by a real `mcp` Client over the SDK's in-memory transport: a bad call comes back as an
`isError` result with toolgen's exact message and never reaches the function; a good one runs;
tools the package does not declare pass through to the SDK's own handling. The same middleware
guards a low-level `Server`."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import mcp_types as types
import pytest
from mcp import Client
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import MCPServer

from runtime.integrations.mcp_server import list_tools, validation_middleware
from tests.genpkg import user_package

DEADLINE = 20.0  # seconds for each whole conversation
WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    },
    "required": ["city"],
    "additionalProperties": False,
}
BAD_CITY = (
    "get_weather failed due to the following issue:\n"
    "The parameter `city` type is expected as `string` but provided as `number`"
)
NO_CITY = "get_weather failed due to the following issue:\nThe required parameter `city` is missing"
BAD_UNIT = (
    "get_weather failed due to the following issues:\n"
    "An unexpected parameter `days` was provided\n"
    'The parameter `unit` is invalid: expected one of "celsius", "fahrenheit"'
)


@pytest.fixture
def weather_tools(tmp_path: Path) -> Iterator[ModuleType]:
    """The user's own package, generated from their own declaration of get_weather."""
    yield from user_package(tmp_path, "weather_tools", {"get_weather": WEATHER})


def text(result: types.CallToolResult) -> list[str]:
    return [block.text for block in result.content if isinstance(block, types.TextContent)]


async def mcpserver_conversation(
    package: ModuleType, ran: list[tuple[str, object]], failures: list[tuple[str, object]]
) -> list[types.CallToolResult]:
    server: MCPServer[Any] = MCPServer(
        "weather",
        middleware=[
            validation_middleware(
                package, on_validation_failure=lambda name, args, _: failures.append((name, args))
            )
        ],
    )

    @server.tool()
    def get_weather(city: str, unit: str = "celsius") -> str:
        ran.append(("get_weather", {"city": city, "unit": unit}))
        return f"{city}: 21 degrees {unit}"

    @server.tool()
    def echo(words: str) -> str:  # not declared in the package: the SDK alone checks it
        ran.append(("echo", {"words": words}))
        return words

    async with Client(server) as client:
        return [
            await client.call_tool("get_weather", {"city": 3}),
            await client.call_tool("get_weather"),  # no arguments at all
            await client.call_tool("get_weather", {"city": "Oslo", "unit": "kelvin", "days": 2}),
            await client.call_tool("get_weather", {"city": "Oslo"}),
            await client.call_tool("echo", {"words": "hi"}),
            await client.call_tool("echo", {"words": 5}),
        ]


def test_an_mcpserver_tool_is_guarded_by_the_users_package(weather_tools: ModuleType) -> None:
    ran: list[tuple[str, object]] = []
    failures: list[tuple[str, object]] = []
    results = asyncio.run(asyncio.wait_for(mcpserver_conversation(weather_tools, ran, failures), DEADLINE))
    bad, missing, two_issues, good, undeclared, undeclared_bad = results
    assert (bad.is_error, text(bad)) == (True, [BAD_CITY])
    assert (missing.is_error, text(missing)) == (True, [NO_CITY])
    assert (two_issues.is_error, text(two_issues)) == (True, [BAD_UNIT])
    assert (good.is_error, text(good)) == (False, ["Oslo: 21 degrees celsius"])
    assert (undeclared.is_error, text(undeclared)) == (False, ["hi"])
    # Not the package's tool: the SDK's own pydantic validation answers, not toolgen.
    assert undeclared_bad.is_error is True
    assert text(undeclared_bad)[0].splitlines()[:3] == [  # the rest links pydantic's docs
        "Error executing tool echo: 1 validation error for echoArguments",
        "words",
        "  Input should be a valid string [type=string_type, input_value=5, input_type=int]",
    ]
    assert ran == [("get_weather", {"city": "Oslo", "unit": "celsius"}), ("echo", {"words": "hi"})]
    assert failures == [
        ("get_weather", {"city": 3}),
        ("get_weather", {}),
        ("get_weather", {"city": "Oslo", "unit": "kelvin", "days": 2}),
    ]


async def server_conversation(package: ModuleType, handled: list[tuple[str, object]]) -> list[Any]:
    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        handled.append((params.name, params.arguments))
        return types.CallToolResult(content=[types.TextContent(text=f"ran {params.name}")])

    server: Server[Any] = Server("weather", on_list_tools=list_tools(package), on_call_tool=call_tool)
    server.middleware.append(validation_middleware(package))
    async with Client(server) as client:
        return [
            await client.list_tools(),
            await client.call_tool("get_weather", {"city": 3}),
            await client.call_tool("get_weather", {"city": "Oslo"}),
            await client.call_tool("lookup", {"query": 7}),
        ]


def test_the_middleware_guards_a_low_level_server_too(weather_tools: ModuleType) -> None:
    handled: list[tuple[str, object]] = []
    listed, bad, good, other = asyncio.run(
        asyncio.wait_for(server_conversation(weather_tools, handled), DEADLINE)
    )
    assert [
        tool.model_dump(by_alias=True, exclude_none=True) for tool in listed.tools
    ] == weather_tools.mcp_tools()
    assert (bad.is_error, text(bad)) == (True, [BAD_CITY])
    assert (good.is_error, text(good)) == (False, ["ran get_weather"])
    assert (other.is_error, text(other)) == (False, ["ran lookup"])
    assert handled == [("get_weather", {"city": "Oslo"}), ("lookup", {"query": 7})]
