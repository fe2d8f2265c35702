"""A LangChain `BaseTool` (`StructuredTool`, `@tool`): the parameters LangChain itself sends
to a model, from `convert_to_openai_tool`."""

from __future__ import annotations

from typing import Any

from .tool import ImportedTool


def tools(tool: Any, source: str) -> list[ImportedTool]:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    function = convert_to_openai_tool(tool)["function"]
    description = function.get("description") or None
    return [ImportedTool(function["name"], description, function["parameters"], source)]
