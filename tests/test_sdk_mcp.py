"""An `mcp` client calling an `mcp` low-level Server guarded by runtime.integrations.mcp_server,
in process (the SDK's in-memory transport): bad calls of declared tools come back as
`isError` results with the exact message and never reach the handler; omitted arguments
mean {}; tools the package does not declare pass through; `tools/list` is the declarations."""

from __future__ import annotations

import asyncio
from typing import Any

import mcp_types as types
from mcp import Client
from mcp.server import Server
from mcp.server.context import ServerRequestContext

import generated
from runtime.integrations.mcp_server import guard_call_tool, list_tools

BAD_UPDATE_MESSAGE = (
    "TaskUpdate failed due to the following issues:\n"
    "The required parameter `taskId` is missing\n"
    "An unexpected parameter `id` was provided"
)
MISSING_ID = "TaskGet failed due to the following issue:\nThe required parameter `taskId` is missing"
DEADLINE = 20.0  # seconds for the whole conversation


def text(result: types.CallToolResult) -> list[str]:
    return [block.text for block in result.content if isinstance(block, types.TextContent)]


async def conversation(failures: list[tuple[str, object]]) -> tuple[list[Any], list[tuple[str, Any]]]:
    handled: list[tuple[str, Any]] = []

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        handled.append((params.name, params.arguments))
        return types.CallToolResult(content=[types.TextContent(text=f"ran {params.name}")])

    server: Server[Any] = Server(
        "toolgen-test",
        on_list_tools=list_tools(generated),
        on_call_tool=guard_call_tool(
            generated,
            call_tool,
            on_validation_failure=lambda name, args, issues: failures.append((name, args)),
        ),
    )
    async with Client(server) as client:
        results: list[Any] = [await client.list_tools()]
        results.append(await client.call_tool("TaskUpdate", {"id": "1"}))
        results.append(await client.call_tool("TaskGet"))  # no arguments at all
        results.append(await client.call_tool("TaskList"))
        results.append(await client.call_tool("TaskGet", {"taskId": "1"}))
        results.append(await client.call_tool("lookup", {"query": 7}))  # not a declared tool
    return results, handled


def test_an_mcp_client_meets_a_guarded_server() -> None:
    failures: list[tuple[str, object]] = []
    results, handled = asyncio.run(asyncio.wait_for(conversation(failures), DEADLINE))
    listed, bad, missing, no_arguments, good, custom = results
    assert [tool.name for tool in listed.tools] == sorted(generated.TOOL_NAMES)
    assert [
        tool.model_dump(by_alias=True, exclude_none=True) for tool in listed.tools
    ] == generated.mcp_tools()
    assert bad.is_error is True and text(bad) == [BAD_UPDATE_MESSAGE]
    assert missing.is_error is True and text(missing) == [MISSING_ID]
    assert not no_arguments.is_error and text(no_arguments) == ["ran TaskList"]
    assert not good.is_error and text(good) == ["ran TaskGet"]
    assert not custom.is_error and text(custom) == ["ran lookup"]
    assert handled == [("TaskList", {}), ("TaskGet", {"taskId": "1"}), ("lookup", {"query": 7})]
    assert failures == [("TaskUpdate", {"id": "1"}), ("TaskGet", {})]
