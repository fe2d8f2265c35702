"""The one value every tool call ends in: a ToolResult, never an exception."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolResult:
    """What a tool call produced.

    `success` says whether the call did what was asked; `content` is the text for the model
    on success; `error` is the text for the model on failure (for a validation failure,
    exactly the message of docs/spec/validation.md §6). `metadata` carries anything else a caller
    may want to keep (never shown to the model by the adapters).
    """

    success: bool
    content: str
    error: str | None = None
    metadata: Mapping[str, object] = field(default_factory=dict)

    def text(self) -> str:
        """The text the model sees: the content on success, the error on failure."""
        if self.success:
            return self.content
        return self.error if self.error is not None else self.content


# A handler receives the decoded arguments (always a dict: declared tools are validated first,
# other tools are refused unless their arguments are an object) and returns a ToolResult
# or, for a plain success, its content as a string.
Handler = Callable[[dict[str, Any]], "ToolResult | str"]


def failed(error: str) -> ToolResult:
    return ToolResult(success=False, content="", error=error)


def describe_exception(exc: BaseException) -> str:
    """`Type: text` of an exception, even when its own __str__ raises."""
    name = type(exc).__name__
    try:
        text = str(exc)
    except Exception:
        return name
    return f"{name}: {text}" if text else name
