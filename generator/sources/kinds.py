"""Which adapter reads an object: recognised by the modules and names of its classes, so no
framework is imported to find out (an object of a framework means it is installed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import (
    agents_tool,
    langchain_tool,
    mcp_server,
    pydantic_ai_tool,
    pydantic_model,
)
from .tool import ImportedTool, SourceError

Adapter = Callable[[Any, str], list[ImportedTool]]

# (module prefix, class name) anywhere in the object's class hierarchy -> its adapter.
_INSTANCES: tuple[tuple[str, str, Adapter], ...] = (
    ("mcp.server.", "MCPServer", mcp_server.tools),  # mcp 2.x
    ("mcp.server.", "FastMCP", mcp_server.tools),  # mcp 1.x
    ("fastmcp.", "FastMCP", mcp_server.tools),  # the standalone fastmcp package
    ("agents.", "FunctionTool", agents_tool.tools),
    ("langchain_core.tools", "BaseTool", langchain_tool.tools),
    ("pydantic_ai.", "Tool", pydantic_ai_tool.tools),
)
SUPPORTED = (
    "an MCPServer or FastMCP server, a pydantic BaseModel subclass, an openai-agents FunctionTool, "
    "a LangChain BaseTool, a pydantic-ai Tool, or a list, tuple or dict of these"
)


def _is(cls: type, prefix: str, name: str) -> bool:
    return any(c.__name__ == name and c.__module__.startswith(prefix) for c in cls.__mro__)


def tools_of(value: Any, source: str) -> list[ImportedTool]:
    """Every tool an object gives, in its order (a dict's values in insertion order)."""
    if isinstance(value, (list, tuple)):
        return [tool for item in value for tool in tools_of(item, source)]
    if isinstance(value, dict):
        return [tool for item in value.values() for tool in tools_of(item, source)]
    adapter = _adapter(value, source)
    try:
        return adapter(value, source)
    except SourceError:
        raise
    except Exception as exc:  # the framework or the user's code failed listing its tools
        raise SourceError(source, f"listing the tools failed: {type(exc).__name__}: {exc}") from None


def _adapter(value: Any, source: str) -> Adapter:
    if isinstance(value, type):
        if _is(value, "pydantic.", "BaseModel"):
            return pydantic_model.tools
        what = f"the class {value.__module__}.{value.__qualname__}"
    else:
        for prefix, name, adapter in _INSTANCES:
            if _is(type(value), prefix, name):
                return adapter
        what = f"a {type(value).__module__}.{type(value).__qualname__}"
    raise SourceError(source, f"{what} is of no supported kind; expected {SUPPORTED}")
