"""The two message formats agents speak: OpenAI `tool_calls` and Anthropic `tool_use`.

Each adapter runs one call through a ToolExecutor and returns the message that carries its
result back to the model. Neither raises: a malformed entry or undecodable arguments give
a failed result the model can read. On failure the model sees the error text itself (for a
validation failure, the message of the spec, section 6).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from runtime.executor import ToolExecutor
from runtime.result import ToolResult, failed


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the member {key!r} is given twice")
        out[key] = value
    return out


def decode_arguments(text: str) -> tuple[object, str | None]:
    """Strict JSON: (value, None), or (None, why not). NaN, Infinity and repeated member
    names are refused, since no tool could tell which value the model meant."""
    try:
        return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys), None
    except ValueError as exc:
        return None, str(exc)
    except RecursionError:
        return None, "nested too deeply"


def _undecodable(name: str, why: str) -> ToolResult:
    return failed(
        f"{name} was not run: its arguments are not valid JSON ({why}). Send them as one JSON object."
    )


def _field(entry: object, key: str) -> object:
    return entry.get(key) if isinstance(entry, Mapping) else None


def _text_field(entry: object, key: str) -> str:
    value = _field(entry, key)
    return value if isinstance(value, str) else ""


def run_openai_tool_call(executor: ToolExecutor, tool_call: object) -> dict[str, str]:
    """One entry of an assistant message's `tool_calls` -> the `{"role": "tool"}` reply."""
    function = _field(tool_call, "function")
    name = _text_field(function, "name")
    arguments = _field(function, "arguments")
    if not name:
        result = failed("The tool call names no function; nothing was run.")
    elif not isinstance(arguments, str):
        result = _undecodable(name, "`function.arguments` must be a JSON string")
    else:
        decoded, why = decode_arguments(arguments)
        result = _undecodable(name, why) if why is not None else executor.execute(name, decoded)
    return {"role": "tool", "tool_call_id": _text_field(tool_call, "id"), "content": result.text()}


def run_anthropic_tool_use(executor: ToolExecutor, block: object) -> dict[str, object]:
    """One `tool_use` content block -> its `tool_result` block (`is_error` only on failure)."""
    name = _text_field(block, "name")
    result = (
        executor.execute(name, _field(block, "input"))
        if name
        else failed("The tool_use block names no tool; nothing was run.")
    )
    reply: dict[str, object] = {
        "type": "tool_result",
        "tool_use_id": _text_field(block, "id"),
        "content": result.text(),
    }
    if not result.success:
        reply["is_error"] = True
    return reply
