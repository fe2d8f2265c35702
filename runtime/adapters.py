"""The message formats agents speak: OpenAI `tool_calls`, Responses `function_call`, Anthropic `tool_use`.

Each adapter runs one call through a ToolExecutor and returns the message that carries its
result back to the model. A call may be a dict (JSON as sent over the wire) or the SDK's own
object (`ChatCompletionMessageFunctionToolCall`, `ParsedFunctionToolCall`, Responses
`ResponseFunctionToolCall`, anthropic `ToolUseBlock`, or anything with the same attributes):
members are read as keys of a mapping, else as attributes, and no SDK is imported.

None raises: a malformed entry or undecodable arguments give a failed result the model can
read. On failure the model sees the error text itself (for a validation failure, the message
of docs/spec/validation.md §6). A call whose id cannot be read runs nothing and gets a reply without
an id, whose text names the object's type: the API then refuses the next request outright
instead of the conversation going on with a reply paired to no call (or to the wrong one).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .executor import ToolExecutor
from .result import ToolResult, failed


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


def undecodable(name: str, why: str) -> str:
    """The text for a call whose arguments are not JSON (`why` from decode_arguments)."""
    return f"{name} was not run: its arguments are not valid JSON ({why}). Send them as one JSON object."


def _undecodable(name: str, why: str) -> ToolResult:
    return failed(undecodable(name, why))


def _field(entry: object, key: str) -> object:
    """A member of a mapping, else an attribute (SDK objects); None when neither can be read."""
    try:
        if isinstance(entry, Mapping):
            return entry.get(key)
        return getattr(entry, key, None)
    except Exception:  # a property or __getattr__ that raises
        return None


def _text_field(entry: object, key: str) -> str:
    value = _field(entry, key)
    return value if isinstance(value, str) else ""


def _unreadable(
    what: str, entry: object, id_key: str, expected: str, hint: str, member: str | None = None
) -> str | None:
    """Why `entry` cannot be answered as a call of type `expected` (its type name said), or None.

    A `type` other than `expected` counts (a missing one does not), and so does a missing
    `member` holding the call: the object's id, if it has one, then names something else
    (a message, a response), and a reply must never carry it.
    """
    kind = _field(entry, "type")
    if isinstance(kind, str) and kind != expected:
        problem = f"is of type `{kind}`, not `{expected}`"
    elif not _text_field(entry, id_key):
        problem = f"has no `{id_key}` string"
    elif member is not None and _field(entry, member) is None:
        problem = f"has no `{member}`"
    else:
        return None
    return f"The {what} could not be read: {type(entry).__name__} {problem}; nothing was run. {hint}"


def _run_json_call(executor: ToolExecutor, name: str, arguments: object, where: str) -> ToolResult:
    """A call whose arguments come as a JSON string (OpenAI chat completions and Responses)."""
    if not isinstance(arguments, str):
        return _undecodable(name, f"`{where}` must be a JSON string")
    decoded, why = decode_arguments(arguments)
    return _undecodable(name, why) if why is not None else executor.execute(name, decoded)


def run_openai_tool_call(executor: ToolExecutor, tool_call: object) -> dict[str, str]:
    """One entry of an assistant message's `tool_calls` -> the `{"role": "tool"}` reply."""
    hint = "Pass one entry of the assistant message's `tool_calls`."
    unreadable = _unreadable("tool call", tool_call, "id", "function", hint, member="function")
    if unreadable is not None:
        return {"role": "tool", "content": unreadable}
    function = _field(tool_call, "function")
    name = _text_field(function, "name")
    result = (
        _run_json_call(executor, name, _field(function, "arguments"), "function.arguments")
        if name
        else failed("The tool call names no function; nothing was run.")
    )
    return {"role": "tool", "tool_call_id": _text_field(tool_call, "id"), "content": result.text()}


def run_responses_function_call(executor: ToolExecutor, item: object) -> dict[str, str]:
    """One `function_call` item of a Responses API `output` -> its `function_call_output` item.

    The reply is keyed by the item's `call_id` (not its `id`, which names the item itself);
    on failure `output` is the same text the other adapters give.
    """
    hint = "Pass one `function_call` item of the response's `output`."
    unreadable = _unreadable("function_call item", item, "call_id", "function_call", hint)
    if unreadable is not None:
        return {"type": "function_call_output", "output": unreadable}
    name = _text_field(item, "name")
    result = (
        _run_json_call(executor, name, _field(item, "arguments"), "arguments")
        if name
        else failed("The function_call item names no function; nothing was run.")
    )
    return {"type": "function_call_output", "call_id": _text_field(item, "call_id"), "output": result.text()}


def run_anthropic_tool_use(executor: ToolExecutor, block: object) -> dict[str, object]:
    """One `tool_use` content block -> its `tool_result` block (`is_error` only on failure)."""
    hint = "Pass one `tool_use` block of the message's `content`."
    unreadable = _unreadable("tool_use block", block, "id", "tool_use", hint)
    if unreadable is not None:
        return {"type": "tool_result", "content": unreadable, "is_error": True}
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
