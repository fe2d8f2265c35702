"""A pydantic-ai `Tool`: its `tool_def` (name, description, parameters_json_schema)."""

from __future__ import annotations

from typing import Any

from .tool import ImportedTool


def tools(tool: Any, source: str) -> list[ImportedTool]:
    definition = tool.tool_def
    return [
        ImportedTool(
            definition.name, definition.description or None, dict(definition.parameters_json_schema), source
        )
    ]
