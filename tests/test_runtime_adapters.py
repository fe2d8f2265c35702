"""OpenAI tool_calls and Anthropic tool_use adapters: strict JSON, the reply shapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runtime import ToolExecutor, decode_arguments, run_anthropic_tool_use, run_openai_tool_call
from tests.runtime_support import Journal, make_executor


def openai_call(name: object, arguments: object, call_id: str = "call_1") -> dict[str, object]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


@pytest.fixture
def executor(tmp_path: Path) -> ToolExecutor:
    return make_executor(tmp_path, Journal())


def test_openai_success_carries_the_content(executor: ToolExecutor) -> None:
    reply = run_openai_tool_call(executor, openai_call("TaskCreate", '{"subject": "s", "description": "d"}'))
    assert reply == {"role": "tool", "tool_call_id": "call_1", "content": "Task #1 created successfully: s"}


@pytest.mark.parametrize(
    ("arguments", "why"),
    [
        ('{"taskId": "1"', "Expecting ',' delimiter: line 1 column 15 (char 14)"),
        ('{"taskId": NaN}', "NaN is not JSON"),
        ("[-Infinity]", "-Infinity is not JSON"),
        ('{"taskId": "1", "taskId": "2"}', "the member 'taskId' is given twice"),
        ("", "Expecting value: line 1 column 1 (char 0)"),
        ({"taskId": "1"}, "`function.arguments` must be a JSON string"),
    ],
)
def test_openai_undecodable_arguments_are_a_recoverable_result(
    tmp_path: Path, arguments: object, why: str
) -> None:
    journal = Journal()
    executor = make_executor(tmp_path, journal)
    reply = run_openai_tool_call(executor, openai_call("TaskGet", arguments))
    assert reply == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": f"TaskGet was not run: its arguments are not valid JSON ({why}). "
        "Send them as one JSON object.",
    }
    assert journal.events == [] and journal.failures == []


def test_openai_arguments_that_are_not_an_object(executor: ToolExecutor) -> None:
    executor.register_custom("calc", {"type": "object"}, lambda args: "never")
    builtin = run_openai_tool_call(executor, openai_call("TaskList", "[]"))
    custom = run_openai_tool_call(executor, openai_call("calc", "3"))
    assert builtin["content"] == (
        "TaskList failed due to the following issue:\n"
        "The tool input type is expected as `object` but provided as `array`"
    )
    assert custom["content"] == "calc takes its arguments as a JSON object, not int; it was not run"


NAMELESS = "The tool call names no function; nothing was run."


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (None, "NoneType has no `id` string"),
        ([], "list has no `id` string"),
        ({"id": 5}, "dict has no `id` string"),
        ({"id": "", "function": {"name": "TaskList", "arguments": "{}"}}, "dict has no `id` string"),
        ({"function": {"arguments": "{}"}}, "dict has no `id` string"),
        ({"id": "chatcmpl-1", "object": "chat.completion", "choices": []}, "dict has no `function`"),
        (
            {"id": "call_1", "type": "custom", "custom": {"name": "TaskList", "input": ""}},
            "dict is of type `custom`, not `function`",
        ),
    ],
)
def test_openai_entries_without_a_call_id_get_no_id_and_name_their_type(
    tmp_path: Path, entry: object, problem: str
) -> None:
    journal = Journal()
    executor = make_executor(tmp_path, journal)
    assert run_openai_tool_call(executor, entry) == {
        "role": "tool",
        "content": f"The tool call could not be read: {problem}; nothing was run. "
        "Pass one entry of the assistant message's `tool_calls`.",
    }
    assert journal.events == []


@pytest.mark.parametrize("entry", [openai_call(7, "{}"), {"id": "call_1", "function": {"arguments": "{}"}}])
def test_openai_entries_naming_no_function_keep_their_id(executor: ToolExecutor, entry: object) -> None:
    reply = run_openai_tool_call(executor, entry)
    assert reply == {"role": "tool", "tool_call_id": "call_1", "content": NAMELESS}


def test_anthropic_success_has_no_is_error(executor: ToolExecutor) -> None:
    block = {"type": "tool_use", "id": "toolu_1", "name": "TaskList", "input": {}}
    assert run_anthropic_tool_use(executor, block) == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": "No tasks found",
    }


def test_anthropic_failures_are_marked(executor: ToolExecutor) -> None:
    unknown = run_anthropic_tool_use(executor, {"type": "tool_use", "id": "t", "name": "Nope", "input": {}})
    nameless = run_anthropic_tool_use(executor, {"type": "tool_use", "id": "t", "input": {}})
    idless = run_anthropic_tool_use(executor, {"type": "tool_use", "name": "TaskList", "input": {}})
    assert idless == {
        "type": "tool_result",
        "content": "The tool_use block could not be read: dict has no `id` string; nothing was run. "
        "Pass one `tool_use` block of the message's `content`.",
        "is_error": True,
    }
    assert unknown == {
        "type": "tool_result",
        "tool_use_id": "t",
        "content": "No such tool available: Nope",
        "is_error": True,
    }
    assert (
        nameless["content"] == "The tool_use block names no tool; nothing was run."
        and nameless["is_error"] is True
    )


def test_decode_arguments_keeps_values_exact() -> None:
    text = '{"big": 123456789012345678901234567890, "f": 1.0, "s": "\\u00e9", "n": null}'
    assert decode_arguments(text) == (
        {"big": 123456789012345678901234567890, "f": 1.0, "s": "é", "n": None},
        None,
    )
    value, why = decode_arguments("[" * 100_000 + "]" * 100_000)
    assert (value, why) == (None, "nested too deeply")
    assert json.loads("1") == decode_arguments("1")[0]
