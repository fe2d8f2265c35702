"""What every source gives: tools in MCP form, and the one error a source can raise."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ImportedTool:
    name: str
    description: str | None  # None: the source gives none, and the file has no "description"
    input_schema: dict[str, Any]  # as the source gives it, keys in its order
    source: str  # the source as the user spelt it: `pkg.tools:server`, or `--stdio 'COMMAND'`

    def declaration(self) -> dict[str, Any]:
        """The tool in MCP form: name, description, inputSchema (in that order)."""
        found: dict[str, Any] = {"name": self.name}
        if self.description is not None:
            found["description"] = self.description
        found["inputSchema"] = self.input_schema
        return found


class ImportRefused(Exception):
    """`toolgen import` stops (exit 2, nothing written); the message says why."""


class SourceError(ImportRefused):
    """A source that cannot give its tools; the message names the source and the reason."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason
