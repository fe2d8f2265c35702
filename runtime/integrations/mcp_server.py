"""Your generated package in front of an MCP server's `tools/call` (the official `mcp` SDK):
a bad call of a tool the package declares gets `CallToolResult(is_error=True)` with the exact
validation message as its text, and the tool is never called for it.

Either SDK server fits:

    # MCPServer (pydantic-typed tool functions): the guard runs as server middleware, before
    # the SDK's own argument validation, so the model gets toolgen's message, not pydantic's.
    server = MCPServer("weather", middleware=[validation_middleware(generated)])

    # The low-level Server: wrap its `on_call_tool` handler.
    server = Server("weather", on_list_tools=list_tools(generated),
                    on_call_tool=guard_call_tool(generated, call_tool))

Omitted `arguments` are checked as `{}` (with `guard_call_tool` the handler then sees
`arguments={}`, never None). Tools the package does not declare pass through unchecked.
Rejections are reported to `on_validation_failure` (the executor's signature, e.g. a
`JsonlFailureSink`) and to OpenTelemetry when it is installed. Imports `mcp` (a test/user
dependency, never the runtime's).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext

from ..check import ValidationFailure, Validators, check_call

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


def validation_middleware(
    validators: Validators, *, on_validation_failure: ValidationFailure | None = None
) -> ServerMiddleware[Any]:
    """Server middleware (`MCPServer(middleware=[...])`, or appended to a low-level
    `Server.middleware`) that answers a bad `tools/call` of a declared tool with its message.

    It sees the call as sent, before the SDK validates anything: a call the package accepts
    goes on unchanged, so an `MCPServer`'s pydantic validation and the tool itself run as
    before; every other request is passed straight through."""

    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method != "tools/call" or ctx.request_id is None or not isinstance(ctx.params, Mapping):
            return await call_next(ctx)
        name = ctx.params.get("name")
        if not isinstance(name, str):
            return await call_next(ctx)  # malformed: the SDK's own error is the right answer
        arguments = ctx.params.get("arguments")
        message = check_call(
            validators,
            name,
            {} if arguments is None else arguments,
            on_validation_failure=on_validation_failure,
        )
        if message is not None:
            return rejection(message)
        return await call_next(ctx)

    return middleware


def guard_call_tool(
    validators: Validators,
    call_tool: CallTool,
    *,
    on_validation_failure: ValidationFailure | None = None,
) -> CallTool:
    """`call_tool` (a low-level `on_call_tool` handler) with the package's validators in front."""

    async def guarded(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        if params.arguments is None:
            params = params.model_copy(update={"arguments": {}})
        message = check_call(
            validators, params.name, params.arguments, on_validation_failure=on_validation_failure
        )
        if message is not None:
            return rejection(message)
        return await call_tool(ctx, params)

    return guarded


def list_tools(package: Any) -> ListTools:
    """An `on_list_tools` handler listing the package's declarations (`package.mcp_tools()`)."""
    tools = [types.Tool.model_validate(tool) for tool in package.mcp_tools()]

    async def listed(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.model_copy(deep=True) for tool in tools])

    return listed
