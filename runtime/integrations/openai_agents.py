"""openai-agents: a `ToolInputGuardrail` that rejects a bad call with the exact message.

    tool = FunctionTool(..., tool_input_guardrails=[input_guardrail(generated)])
    tools = [function_tool(executor, name) for name in ("get_weather", "book_table")]

The guardrail runs before the tool is invoked: a call of a tool the package declares whose
arguments fail validation (or are not JSON) is answered with the message instead of being
run (`ToolGuardrailFunctionOutput.reject_content`), so the model can correct it; tools the
package does not declare are allowed unchecked. A `function_tool` runs through the executor,
which gives the tool the arguments the package's adopted repairs fix (docs/audit-suggest.md).
Imports `agents` (openai-agents).
"""

from __future__ import annotations

from typing import Any

from agents import FunctionTool, ToolGuardrailFunctionOutput, ToolInputGuardrail
from agents.tool_context import ToolContext
from agents.tool_guardrails import ToolInputGuardrailData

from ..adapters import decode_arguments, undecodable
from ..check import ValidationFailure, Validators, check_call, declaration, repaired
from ..executor import ToolExecutor


def input_guardrail(
    validators: Validators,
    *,
    on_validation_failure: ValidationFailure | None = None,
    repaired_by_tool: bool = False,
) -> ToolInputGuardrail[Any]:
    """A guardrail checking each call against the package's validators.

    A guardrail can allow or reject a call, not change its arguments: so it rejects a call
    the package's adopted repairs would rescue, unless `repaired_by_tool` says the tool
    repairs (and records) them itself, as `function_tool`'s executor does."""

    def toolgen_validation(data: ToolInputGuardrailData) -> ToolGuardrailFunctionOutput:
        name = data.context.tool_name
        if name not in validators.TOOL_NAMES:
            return ToolGuardrailFunctionOutput.allow()
        args, why = decode_arguments(data.context.tool_arguments)
        if why is not None:
            message: str | None = undecodable(name, why)
        elif repaired_by_tool and repaired(validators, name, args)[1]:
            message = None  # the executor repairs it, and reports the repairs
        else:
            message = check_call(validators, name, args, on_validation_failure=on_validation_failure)
        if message is None:
            return ToolGuardrailFunctionOutput.allow()
        return ToolGuardrailFunctionOutput.reject_content(message)

    return ToolInputGuardrail(guardrail_function=toolgen_validation, name="toolgen_validation")


def function_tool(executor: ToolExecutor, name: str) -> FunctionTool:
    """A tool the executor's package declares, as a FunctionTool run by `executor` (off the
    event loop), its declaration shown as is (`strict_json_schema=False`: see docs/agent.md,
    "Responses API") and the guardrail in front of it. A failed run (a denied permission,
    say) returns its text."""
    declared = declaration(executor.validators, name)

    async def invoke(context: ToolContext[Any], arguments: str) -> str:
        args, why = decode_arguments(arguments)
        return undecodable(name, why) if why is not None else (await executor.aexecute(name, args)).text()

    return FunctionTool(
        name=name,
        description=declared.get("description", ""),
        params_json_schema=declared["parameters"],
        on_invoke_tool=invoke,
        strict_json_schema=False,
        tool_input_guardrails=[input_guardrail(executor.validators, repaired_by_tool=True)],
    )
