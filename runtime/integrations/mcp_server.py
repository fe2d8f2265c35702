"""A generated package in front of an MCP server's `tools/call` (the official `mcp` SDK's
low-level `Server`): a bad call of a declared tool gets `CallToolResult(is_error=True)` with
the validation message as its text, and the server's handler is never called for it.

    server = Server("tools", on_list_tools=list_tools(), on_call_tool=guard_call_tool(call_tool))

Omitted `arguments` mean `{}` (the handler then sees `arguments={}`, never None). Tools the
package does not declare pass through to the handler unchecked. Rejections are reported to
`on_validation_failure` (the executor's signature, e.g. a `JsonlFailureSink`) and to
OpenTelemetry when it is installed. Imports `mcp` (a test/user dependency, never the runtime's).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext

import generated
from runtime.check import ValidationFailure, Validators, check_call

CallTool = Callable[
    [ServerRequestContext[Any], types.CallToolRequestParams],
    Awaitable[types.CallToolResult | types.InputRequiredResult],
]
ListTools = Callable[
    [ServerRequestContext[Any], types.PaginatedRequestParams | None], Awaitable[types.ListToolsResult]
]


def rejection(message: str) -> types.CallToolResult:
    """The result of a call that failed validation: its message, marked as an error."""
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def guard_call_tool(
    call_tool: CallTool,
    *,
    validators: Validators = generated,
    on_validation_failure: ValidationFailure | None = None,
) -> CallTool:
    """`call_tool` (an `on_call_tool` handler) with the package's validators in front of it."""

    async def guarded(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        if params.arguments is None:
            params = params.model_copy(update={"arguments": {}})
        message = check_call(
            params.name, params.arguments, validators=validators, on_validation_failure=on_validation_failure
        )
        if message is not None:
            return rejection(message)
        return await call_tool(ctx, params)

    return guarded


def list_tools(package: ModuleType = generated) -> ListTools:
    """An `on_list_tools` handler listing the package's declarations (`package.mcp_tools()`)."""
    tools = [types.Tool.model_validate(tool) for tool in package.mcp_tools()]

    async def listed(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.model_copy(deep=True) for tool in tools])

    return listed
