"""Executes an agent's tool calls, with your generated validators in front of every tool your
package declares.

Standard library only; it imports no generated package of its own: you pass yours
(`ToolExecutor(generated)`). See docs/agent.md. Names are imported on first use, so
`import toolgen.runtime` (or `toolgen.runtime.failures`) stays cheap. Installed, this package is
`toolgen.runtime`; in this repository it is imported as `runtime`. Its imports are relative
(the lazy names below too, looked up beside this module), so the same source is both.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .adapters import (
        decode_arguments,
        run_anthropic_tool_use,
        run_openai_tool_call,
        run_responses_function_call,
    )
    from .check import Issue, ValidationFailure, Validators, check_call, checked_call
    from .drift import Drift, OnStale, StaleValidators, compare, in_step
    from .executor import HOOK_EVENTS, Permission, PostToolUse, PreToolUse, ToolExecutor
    from .result import Handler, ToolResult

_WHERE = {
    "decode_arguments": ".adapters",
    "run_anthropic_tool_use": ".adapters",
    "run_openai_tool_call": ".adapters",
    "run_responses_function_call": ".adapters",
    "Issue": ".check",
    "ValidationFailure": ".check",
    "Validators": ".check",
    "check_call": ".check",
    "checked_call": ".check",
    "Drift": ".drift",
    "OnStale": ".drift",
    "StaleValidators": ".drift",
    "compare": ".drift",
    "in_step": ".drift",
    "HOOK_EVENTS": ".executor",
    "Permission": ".executor",
    "PostToolUse": ".executor",
    "PreToolUse": ".executor",
    "ToolExecutor": ".executor",
    "Handler": ".result",
    "ToolResult": ".result",
}

__all__ = [
    "HOOK_EVENTS",
    "Drift",
    "Handler",
    "Issue",
    "OnStale",
    "Permission",
    "PostToolUse",
    "PreToolUse",
    "StaleValidators",
    "ToolExecutor",
    "ToolResult",
    "ValidationFailure",
    "Validators",
    "check_call",
    "checked_call",
    "compare",
    "decode_arguments",
    "in_step",
    "run_anthropic_tool_use",
    "run_openai_tool_call",
    "run_responses_function_call",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value
