"""`--stdio COMMAND`: an MCP server started over stdio with the `mcp` SDK's client, asked
for every tool (following `nextCursor`), then stopped."""

from __future__ import annotations

import asyncio
import os
import shlex
import tempfile
from typing import Any

from .mcp_server import from_wire
from .tool import ImportedTool, SourceError

TIMEOUT = 30.0  # seconds for the whole exchange: start, initialize, every page of tools/list
_MAX_PAGES = 1000  # a server whose cursor never ends is refused, not followed forever
_STDERR_LINES = 20  # the end of the server's stderr, shown when it fails


def label(command: str) -> str:
    """How messages name a stdio source."""
    return f"--stdio {shlex.quote(command)}"


def tools(command: str, timeout: float = TIMEOUT) -> list[ImportedTool]:
    source = label(command)
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise SourceError(source, f"cannot split the command: {exc}") from None
    if not words:
        raise SourceError(source, "the command is empty")
    try:
        import mcp  # noqa: F401  (only to say clearly that the SDK is missing)
    except ImportError:
        raise SourceError(source, "--stdio needs the mcp package (pip install mcp)") from None
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        try:
            listed = asyncio.run(asyncio.wait_for(_list(words, errlog), timeout))
        except (TimeoutError, asyncio.TimeoutError):
            raise SourceError(source, f"no answer within {timeout:g}s{_stderr(errlog)}") from None
        except SourceError as exc:
            raise SourceError(source, f"{exc.reason}{_stderr(errlog)}") from None
        except Exception as exc:  # the transport's own errors: a command not found, a closed pipe
            raise SourceError(source, f"{_reason(exc)}{_stderr(errlog)}") from None
    return [from_wire(tool, source) for tool in listed]


async def _list(words: list[str], errlog: Any) -> list[dict[str, Any]]:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp_types import PaginatedRequestParams

    # The user's environment, as a shell would pass it (the SDK's default keeps only a few variables).
    server = StdioServerParameters(command=words[0], args=words[1:], env=dict(os.environ))
    found: list[dict[str, Any]] = []
    async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        cursor: str | None = None
        for _ in range(_MAX_PAGES):
            params = None if cursor is None else PaginatedRequestParams(cursor=cursor)
            page = await session.list_tools(params=params)
            found += [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in page.tools]
            cursor = page.next_cursor
            if not cursor:
                return found
    raise SourceError("", f"tools/list still had a next cursor after {_MAX_PAGES} pages")


def _reason(exc: BaseException) -> str:
    """The innermost useful message of an exception group from the SDK's task groups."""
    while getattr(exc, "exceptions", None):  # an ExceptionGroup (Python 3.10 has no builtin name)
        exc = exc.exceptions[0]  # type: ignore[attr-defined]
    if isinstance(exc, FileNotFoundError):
        return f"cannot start the server: {exc.strerror}: {exc.filename}"
    text = str(exc) or type(exc).__name__
    return f"the server did not answer: {text}"


def _stderr(errlog: Any) -> str:
    errlog.flush()
    errlog.seek(0)
    lines = errlog.read().rstrip().splitlines()[-_STDERR_LINES:]
    return "; the server's stderr:\n" + "\n".join(f"  {line}" for line in lines) if lines else ""
