"""Executes an agent's tool calls, with your generated validators in front of every tool your
package declares.

Standard library only; it imports no generated package of its own: you pass yours
(`ToolExecutor(generated)`). See docs/agent.md. Names are imported on first use, so
`import runtime` (or `runtime.failures`) stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from runtime.adapters import (
        decode_arguments,
        run_anthropic_tool_use,
        run_openai_tool_call,
        run_responses_function_call,
    )
    from runtime.check import Issue, ValidationFailure, Validators, check_call
    from runtime.executor import HOOK_EVENTS, Permission, PostToolUse, PreToolUse, ToolExecutor
    from runtime.result import Handler, ToolResult

_WHERE = {
    "decode_arguments": "runtime.adapters",
    "run_anthropic_tool_use": "runtime.adapters",
    "run_openai_tool_call": "runtime.adapters",
    "run_responses_function_call": "runtime.adapters",
    "Issue": "runtime.check",
    "ValidationFailure": "runtime.check",
    "Validators": "runtime.check",
    "check_call": "runtime.check",
    "HOOK_EVENTS": "runtime.executor",
    "Permission": "runtime.executor",
    "PostToolUse": "runtime.executor",
    "PreToolUse": "runtime.executor",
    "ToolExecutor": "runtime.executor",
    "Handler": "runtime.result",
    "ToolResult": "runtime.result",
}

__all__ = [
    "HOOK_EVENTS",
    "Handler",
    "Issue",
    "Permission",
    "PostToolUse",
    "PreToolUse",
    "ToolExecutor",
    "ToolResult",
    "ValidationFailure",
    "Validators",
    "check_call",
    "decode_arguments",
    "run_anthropic_tool_use",
    "run_openai_tool_call",
    "run_responses_function_call",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'runtime' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
