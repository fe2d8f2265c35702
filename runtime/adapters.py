"""The message formats agents speak: OpenAI `tool_calls`, Responses `function_call`, Anthropic `tool_use`.

Each adapter runs one call through a ToolExecutor and returns the message that carries its
result back to the model. A call may be a dict (JSON as sent over the wire) or the SDK's own
object (`ChatCompletionMessageFunctionToolCall`, `ParsedFunctionToolCall`, Responses
`ResponseFunctionToolCall`, anthropic `ToolUseBlock`, or anything with the same attributes):
members are read as keys of a mapping, else as attributes, and no SDK is imported.

None raises: a malformed entry or undecodable arguments give a failed result the model can
read. On failure the model sees the error text itself (for a validation failure, the message
of the spec, section 6). A call whose id cannot be read runs nothing and gets a reply without
an id, whose text names the object's type: the API then refuses the next request outright
instead of the conversation going on with a reply paired to no call (or to the wrong one).
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


def _type_name(entry: object) -> str:
    return type(entry).__name__


def _unreadable_id(what: str, entry: object, key: str, hint: str) -> ToolResult:
    return failed(
        f"The {what} could not be read: {_type_name(entry)} has no `{key}` string; nothing was run. {hint}"
    )


def _wrong_type(what: str, kind: str, expected: str) -> ToolResult:
    return failed(f"The {what} is of type `{kind}`, not `{expected}`; nothing was run.")


def _other_type(entry: object, expected: str) -> str | None:
    """The entry's `type` when it is a string other than `expected` (a missing type is allowed)."""
    kind = _field(entry, "type")
    return kind if isinstance(kind, str) and kind != expected else None


def _run_json_call(executor: ToolExecutor, name: str, arguments: object, where: str) -> ToolResult:
    """A call whose arguments come as a JSON string (OpenAI chat completions and Responses)."""
    if not isinstance(arguments, str):
        return _undecodable(name, f"`{where}` must be a JSON string")
    decoded, why = decode_arguments(arguments)
    return _undecodable(name, why) if why is not None else executor.execute(name, decoded)


def run_openai_tool_call(executor: ToolExecutor, tool_call: object) -> dict[str, str]:
    """One entry of an assistant message's `tool_calls` -> the `{"role": "tool"}` reply."""
    call_id = _text_field(tool_call, "id")
    function = _field(tool_call, "function")
    name = _text_field(function, "name")
    kind = _other_type(tool_call, "function")
    if not call_id:
        result = _unreadable_id(
            "tool call", tool_call, "id", "Pass one entry of the assistant message's `tool_calls`."
        )
    elif kind is not None:
        result = _wrong_type("tool call", kind, "function")
    elif not name:
        result = failed("The tool call names no function; nothing was run.")
    else:
        result = _run_json_call(executor, name, _field(function, "arguments"), "function.arguments")
    reply = {"role": "tool", "tool_call_id": call_id, "content": result.text()}
    if not call_id:
        del reply["tool_call_id"]
    return reply


def run_responses_function_call(executor: ToolExecutor, item: object) -> dict[str, str]:
    """One `function_call` item of a Responses API `output` -> its `function_call_output` item.

    The reply is keyed by the item's `call_id` (not its `id`, which names the item itself);
    on failure `output` is the same text the other adapters give.
    """
    call_id = _text_field(item, "call_id")
    name = _text_field(item, "name")
    kind = _other_type(item, "function_call")
    if not call_id:
        result = _unreadable_id(
            "function_call item", item, "call_id", "Pass one `function_call` item of the response's `output`."
        )
    elif kind is not None:
        result = _wrong_type("output item", kind, "function_call")
    elif not name:
        result = failed("The function_call item names no function; nothing was run.")
    else:
        result = _run_json_call(executor, name, _field(item, "arguments"), "arguments")
    reply = {"type": "function_call_output", "call_id": call_id, "output": result.text()}
    if not call_id:
        del reply["call_id"]
    return reply


def run_anthropic_tool_use(executor: ToolExecutor, block: object) -> dict[str, object]:
    """One `tool_use` content block -> its `tool_result` block (`is_error` only on failure)."""
    block_id = _text_field(block, "id")
    name = _text_field(block, "name")
    kind = _other_type(block, "tool_use")
    if not block_id:
        result = _unreadable_id(
            "tool_use block", block, "id", "Pass one `tool_use` block of the message's `content`."
        )
    elif kind is not None:
        result = _wrong_type("content block", kind, "tool_use")
    elif not name:
        result = failed("The tool_use block names no tool; nothing was run.")
    else:
        result = executor.execute(name, _field(block, "input"))
    reply: dict[str, object] = {"type": "tool_result", "tool_use_id": block_id, "content": result.text()}
    if not block_id:
        del reply["tool_use_id"]
    if not result.success:
        reply["is_error"] = True
    return reply
