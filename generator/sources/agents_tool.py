"""An openai-agents `FunctionTool` (what `@function_tool` makes): name, description and
`params_json_schema`, the schema the Agents SDK sends to the model."""

from __future__ import annotations

from typing import Any

from .tool import ImportedTool


def tools(tool: Any, source: str) -> list[ImportedTool]:
    return [ImportedTool(tool.name, tool.description or None, dict(tool.params_json_schema), source)]
