"""Your generated package in front of an MCP server's `tools/call` (the official `mcp` SDK):
a bad call of a tool the package declares gets `CallToolResult(is_error=True)` with the exact
validation message as its text, and the tool is never called for it.

Either SDK server fits:

    # MCPServer (pydantic-typed tool functions): the guard runs as server middleware, before
    # the SDK's own argument validation, so the model gets toolgen's message, not pydantic's.
    server = MCPServer("weather", middleware=[validation_middleware(generated)])

    # Also compared with the server's tools when it starts (runtime/drift.py): a tool
    # changed since generation refuses the start, naming the commands that fix it.
    guard = validation_guard("shop.validators")
    server = MCPServer("shop", lifespan=guard.lifespan, middleware=[guard.middleware])

    # The low-level Server: wrap its `on_call_tool` handler.
    server = Server("weather", on_list_tools=list_tools(generated),
                    on_call_tool=guard_call_tool(generated, call_tool))

A call that fails only in ways the repair kinds your project adopted fix
(`[tool.toolgen.repairs]`, docs/audit-suggest.md) reaches the tool with the repaired
arguments, each repair recorded (`on_validation_failure.repaired`, OpenTelemetry's
`toolgen.tool_input.repaired`); any other failing call gets the message of the call as sent.
Omitted `arguments` are checked as `{}` (with `guard_call_tool` the handler then sees
`arguments={}`, never None). Tools the package does not declare pass through unchecked.
Rejections are reported to `on_validation_failure` (the executor's signature, e.g. a
`JsonlFailureSink`) and to OpenTelemetry when it is installed. Imports `mcp` (a test/user
dependency, never the runtime's).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext

from ..check import ValidationFailure, Validators, checked_call
from ..drift import ON_STALE, OnStale, in_step

CallTool = Callable[
    [ServerRequestContext[Any], types.CallToolRequestParams],
    Awaitable[types.CallToolResult | types.InputRequiredResult],
]
Lifespan = Callable[[Any], AbstractAsyncContextManager[Any]]
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
    before; every other request is passed straight through. It never compares the package
    with the server's tools: `validation_guard` does that when the server starts."""
    return _middleware(lambda: validators, on_validation_failure)


def _middleware(
    current: Callable[[], Validators], on_validation_failure: ValidationFailure | None
) -> ServerMiddleware[Any]:
    """The middleware of `validation_middleware`, validating with `current()` at each call."""

    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method != "tools/call" or ctx.request_id is None or not isinstance(ctx.params, Mapping):
            return await call_next(ctx)
        name = ctx.params.get("name")
        if not isinstance(name, str):
            return await call_next(ctx)  # malformed: the SDK's own error is the right answer
        arguments = ctx.params.get("arguments")
        sent = {} if arguments is None else arguments
        message, passed = checked_call(current(), name, sent, on_validation_failure=on_validation_failure)
        if message is not None:
            return rejection(message)
        if passed is not sent:  # repaired: the tool gets the repaired arguments
            ctx = dataclasses.replace(ctx, params={**ctx.params, "arguments": passed})
        return await call_next(ctx)

    return middleware


class ValidationGuard:
    """`validation_middleware` that also compares the package with the server's tools when
    the server starts (runtime/drift.py): give the server both halves,

        guard = validation_guard("shop.validators")
        server = MCPServer("shop", lifespan=guard.lifespan, middleware=[guard.middleware])

    At start (`server.run()`, each in-process `Client(server)`) the lifespan lists the
    server's tools (`await app.list_tools()`) and compares each one's name and input schema
    with the digest the package recorded. A tool changed since generation, or one the package
    does not declare, refuses the start (StaleValidators, naming the tools and the package's
    own import and generate commands), or with `on_stale="pass"` passes through unvalidated,
    a warning logged at start and on each of its calls. `validators` may be the package or its
    module name, imported at start: the server module then does not import the package, so
    `toolgen import` can import the server before the package is first generated.
    """

    def __init__(
        self,
        validators: Validators | str,
        *,
        on_stale: OnStale = "refuse",
        on_validation_failure: ValidationFailure | None = None,
    ) -> None:
        if on_stale not in ON_STALE:
            raise ValueError(f"on_stale: expected one of {', '.join(map(repr, ON_STALE))}, not {on_stale!r}")
        self._given = validators
        self._on_stale: OnStale = on_stale
        self._checked: Validators | None = None  # what the last start left to validate with
        self.middleware = _middleware(lambda: self.validators, on_validation_failure)

    @property
    def validators(self) -> Validators:
        """The package calls are validated with: after a start with stale tools passed, the
        view of it that passes them; before any start, the package as given."""
        return self._checked if self._checked is not None else self._package()

    def _package(self) -> Validators:
        if isinstance(self._given, str):  # imported once, at the first start or call
            self._given = importlib.import_module(self._given)
        return self._given

    def start(self, tools: Iterable[object]) -> Validators:
        """Compare the package with `tools` (the server's listing, MCP tools) now: what the
        lifespan does, for a server whose tools you list yourself. Raises StaleValidators
        when a tool is stale and `on_stale` is "refuse"."""
        self._checked = in_step(self._package(), tools, on_stale=self._on_stale, live="the server's tools")
        return self._checked

    def lifespan(self, app: Any) -> AbstractAsyncContextManager[dict[str, Any]]:
        """An `MCPServer(lifespan=...)` that compares at start, then yields `{}` (the SDK's
        default lifespan state)."""
        return self.around(_no_lifespan)(app)

    def around(self, lifespan: Lifespan) -> Lifespan:
        """Your own lifespan, entered once the comparison has passed."""

        @asynccontextmanager
        async def checked(app: Any) -> AsyncIterator[Any]:
            list_tools = getattr(app, "list_tools", None)
            if list_tools is None:
                raise TypeError(
                    f"{app!r} has no list_tools(): the guard's lifespan is for an MCPServer; for a "
                    "low-level Server, call guard.start(tools) with the tools it lists"
                )
            self.start(await list_tools())
            async with lifespan(app) as state:
                yield state

        return checked


def validation_guard(
    validators: Validators | str,
    *,
    on_stale: OnStale = "refuse",
    on_validation_failure: ValidationFailure | None = None,
) -> ValidationGuard:
    """A ValidationGuard: `lifespan` compares the package with the server's tools at start,
    `middleware` validates each `tools/call` (see the class)."""
    return ValidationGuard(validators, on_stale=on_stale, on_validation_failure=on_validation_failure)


@asynccontextmanager
async def _no_lifespan(app: Any) -> AsyncIterator[dict[str, Any]]:
    yield {}


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
        message, passed = checked_call(
            validators, params.name, params.arguments, on_validation_failure=on_validation_failure
        )
        if message is not None:
            return rejection(message)
        if passed is not params.arguments:  # repaired: the handler gets the repaired arguments
            params = params.model_copy(update={"arguments": passed})
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
