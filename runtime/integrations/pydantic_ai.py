"""pydantic-ai: an `args_validator` that raises `ModelRetry` with the exact message.

    Tool.from_schema(run, name, description, schema, args_validator=args_validator(generated, name))
    tools = [tool(executor, name) for name in ("get_weather", "book_table")]

pydantic-ai sends the message back to the model as a retry prompt. Each retry spends the
tool's retry budget, which is 1 unless set (`Agent(retries=...)` or the tool's
`max_retries`): with the default, a second bad call in a row ends the run with
`UnexpectedModelBehavior`. `tool()` therefore sets `max_retries=3` unless told otherwise.
Imports `pydantic_ai` (pydantic-ai-slim).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic_ai import ModelRetry, RunContext, Tool

from ..check import ValidationFailure, Validators, check_call, declaration, repaired
from ..executor import ToolExecutor


def args_validator(
    validators: Validators,
    name: str,
    *,
    on_validation_failure: ValidationFailure | None = None,
    repaired_by_tool: bool = False,
) -> Callable[..., None]:
    """The validator of one tool: raises ModelRetry(message) for a call that fails validation.
    It cannot change the arguments the tool gets: a call the package's adopted repairs would
    rescue fails too, unless `repaired_by_tool` says the tool repairs (and records) them
    itself, as `tool()`'s executor does."""

    def validate(ctx: RunContext[Any], /, **arguments: Any) -> None:
        if repaired_by_tool and repaired(validators, name, arguments)[1]:
            return  # the executor repairs it, and reports the repairs
        message = check_call(validators, name, arguments, on_validation_failure=on_validation_failure)
        if message is not None:
            raise ModelRetry(message)

    return validate


def tool(executor: ToolExecutor, name: str, *, max_retries: int = 3) -> Tool[Any]:
    """A tool the executor's package declares, as a pydantic-ai Tool run by `executor` (off the
    event loop): its declaration shown as is, the validator in front. A failed run returns its
    text."""
    declared = declaration(executor.validators, name)

    async def run(**arguments: Any) -> str:
        return (await executor.aexecute(name, arguments)).text()

    made: Tool[Any] = Tool.from_schema(
        run,
        name=name,
        description=declared.get("description"),
        json_schema=declared["parameters"],
        args_validator=args_validator(executor.validators, name, repaired_by_tool=True),
    )
    made.max_retries = max_retries
    return made
