"""langchain-core: a `StructuredTool` over a ToolExecutor whose failures become
`ToolMessage(status="error")`.

    tool = structured_tool(executor, "get_weather")
    message = tool.invoke({"type": "tool_call", "id": "c1", "name": "get_weather", "args": {...}})

The declaration is the tool's `args_schema` (a JSON Schema dict, which langchain passes
through unchecked), so the executor's validators are what check the call; any failed result
(a validation message, a denied permission) is raised as a `ToolException`, which
`handle_tool_error=True` turns into the ToolMessage's content with status "error".
`ainvoke` runs the call off the event loop. Imports `langchain_core`.
"""

from __future__ import annotations

from typing import Any

from langchain_core.tools import StructuredTool, ToolException

from ..check import declaration
from ..executor import ToolExecutor
from ..result import ToolResult


def _text(result: ToolResult) -> str:
    if not result.success:
        raise ToolException(result.text())
    return result.content


def structured_tool(executor: ToolExecutor, name: str) -> StructuredTool:
    """A tool the executor's package declares, as a StructuredTool run by `executor`."""
    declared = declaration(executor.validators, name)

    def run(**arguments: Any) -> str:
        return _text(executor.execute(name, arguments))

    async def arun(**arguments: Any) -> str:
        return _text(await executor.aexecute(name, arguments))

    return StructuredTool.from_function(
        func=run,
        coroutine=arun,
        name=name,
        description=declared.get("description", ""),
        args_schema=declared["parameters"],
        handle_tool_error=True,
    )
