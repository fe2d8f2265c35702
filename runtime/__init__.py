"""Executes an agent's tool calls with the generated validators in front of every built-in.

Standard library only (plus the generated package). See README "Wiring it into an agent".
"""

from runtime.adapters import (
    decode_arguments,
    run_anthropic_tool_use,
    run_openai_tool_call,
    run_responses_function_call,
)
from runtime.check import ValidationFailure, Validators, check_call
from runtime.executor import (
    HOOK_EVENTS,
    Permission,
    PostToolUse,
    PreToolUse,
    ToolExecutor,
)
from runtime.result import Handler, ToolResult

__all__ = [
    "HOOK_EVENTS",
    "Handler",
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
