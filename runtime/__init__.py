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
    from runtime.drift import Drift, OnStale, StaleValidators, compare, in_step
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
    "Drift": "runtime.drift",
    "OnStale": "runtime.drift",
    "StaleValidators": "runtime.drift",
    "compare": "runtime.drift",
    "in_step": "runtime.drift",
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
        raise AttributeError(f"module 'runtime' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
