"""The SDKs' own objects, built with their `model_validate` from documented response JSON,
through every adapter; each reply checked against the SDK's own param type (pydantic
`TypeAdapter`), so what goes back is what the real API accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from anthropic.types import Message, ToolResultBlockParam
from openai.types.chat import ChatCompletion, ChatCompletionToolMessageParam
from openai.types.chat.parsed_function_tool_call import ParsedFunctionToolCall
from openai.types.responses import Response
from openai.types.responses.response_input_param import FunctionCallOutput
from pydantic import TypeAdapter, ValidationError

from runtime import ToolExecutor, run_anthropic_tool_use, run_openai_tool_call, run_responses_function_call
from tests import sdk_server as api
from tests.runtime_support import Journal, make_executor

CHAT_REPLY = TypeAdapter(ChatCompletionToolMessageParam)
TOOL_RESULT = TypeAdapter(ToolResultBlockParam)
CALL_OUTPUT = TypeAdapter(FunctionCallOutput)

CREATE = '{"subject": "Release notes", "description": "Write them"}'
BAD_UPDATE = '{"id": "1", "status": "done"}'
BAD_UPDATE_MESSAGE = (
    "TaskUpdate failed due to the following issues:\n"
    "The required parameter `taskId` is missing\n"
    "An unexpected parameter `id` was provided\n"
    'The parameter `status` is invalid: expected one of "pending", "in_progress", "completed", "deleted"'
)
NAN_MESSAGE = (
    "TaskGet was not run: its arguments are not valid JSON (NaN is not JSON). Send them as one JSON object."
)


@pytest.fixture
def journal() -> Journal:
    return Journal()


@pytest.fixture
def executor(tmp_path: Path, journal: Journal) -> ToolExecutor:
    return make_executor(tmp_path, journal, spied=("TaskCreate", "TaskUpdate", "TaskGet", "Write"))


def valid(adapter: TypeAdapter[Any], reply: dict[str, Any]) -> dict[str, Any]:
    """The reply, after checking it is exactly an instance of the SDK's param type."""
    assert adapter.validate_python(reply) == reply
    return reply


def chat_completion(*calls: tuple[str, str, str]) -> ChatCompletion:
    body = api.chat_tool_call(*calls[0])
    body["choices"][0]["message"]["tool_calls"] = [
        {"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls
    ]
    return ChatCompletion.model_validate(body)


def test_chat_completion_tool_calls_run_as_they_come(executor: ToolExecutor, journal: Journal) -> None:
    completion = chat_completion(
        ("call_1", "TaskCreate", CREATE),
        ("call_2", "TaskUpdate", BAD_UPDATE),
        ("call_3", "TaskGet", '{"taskId": NaN}'),
    )
    calls = completion.choices[0].message.tool_calls
    assert calls is not None and type(calls[0]).__name__ == "ChatCompletionMessageFunctionToolCall"
    replies = [valid(CHAT_REPLY, run_openai_tool_call(executor, call)) for call in calls]
    assert replies == [
        {"role": "tool", "tool_call_id": "call_1", "content": "Task #1 created successfully: Release notes"},
        {"role": "tool", "tool_call_id": "call_2", "content": BAD_UPDATE_MESSAGE},
        {"role": "tool", "tool_call_id": "call_3", "content": NAN_MESSAGE},
    ]
    assert [event for event in journal.events if event[0] == "run"] == [("run", "TaskCreate")]
    assert [name for name, _, _ in journal.failures] == ["TaskUpdate"]


def test_parsed_function_tool_call_is_read_by_its_arguments_text(executor: ToolExecutor) -> None:
    call = ParsedFunctionToolCall.model_validate(
        {
            "id": "call_9",
            "type": "function",
            "function": {
                "name": "TaskGet",
                "arguments": '{"taskId": 1}',
                "parsed_arguments": {"taskId": "1"},
            },
        }
    )
    assert valid(CHAT_REPLY, run_openai_tool_call(executor, call)) == {
        "role": "tool",
        "tool_call_id": "call_9",
        "content": "TaskGet failed due to the following issue:\n"
        "The parameter `taskId` type is expected as `string` but provided as `number`",
    }


def test_the_wrong_openai_object_is_named_and_gets_no_id(executor: ToolExecutor, journal: Journal) -> None:
    completion = chat_completion(("call_1", "TaskCreate", CREATE))
    hint = "nothing was run. Pass one entry of the assistant message's `tool_calls`."
    for entry, problem in [
        (completion.choices[0].message, "ChatCompletionMessage has no `id` string"),
        (completion, "ChatCompletion has no `function`"),
    ]:
        reply = run_openai_tool_call(executor, entry)
        assert reply == {"role": "tool", "content": f"The tool call could not be read: {problem}; {hint}"}
        with pytest.raises(ValidationError, match="tool_call_id"):
            CHAT_REPLY.validate_python(reply)  # the API refuses it: the bug cannot go unnoticed
    assert journal.events == []


def responses_output() -> Response:
    return Response.model_validate(
        api.response(
            [
                api.output_text("Updating the task."),
                api.function_call_item("call_a", "TaskCreate", CREATE),
                api.function_call_item("call_b", "TaskUpdate", BAD_UPDATE),
                api.function_call_item("call_c", "TaskGet", '{"taskId": NaN}'),
            ]
        )
    )


def test_responses_function_calls_run_as_they_come(executor: ToolExecutor, journal: Journal) -> None:
    response = responses_output()
    items = [item for item in response.output if item.type == "function_call"]
    assert type(items[0]).__name__ == "ResponseFunctionToolCall"
    replies = [valid(CALL_OUTPUT, run_responses_function_call(executor, item)) for item in items]
    assert replies == [
        {
            "type": "function_call_output",
            "call_id": "call_a",
            "output": "Task #1 created successfully: Release notes",
        },
        {"type": "function_call_output", "call_id": "call_b", "output": BAD_UPDATE_MESSAGE},
        {"type": "function_call_output", "call_id": "call_c", "output": NAN_MESSAGE},
    ]
    assert [event for event in journal.events if event[0] == "run"] == [("run", "TaskCreate")]


def test_the_wrong_responses_object_is_named_and_gets_no_call_id(executor: ToolExecutor) -> None:
    response = responses_output()
    hint = "nothing was run. Pass one `function_call` item of the response's `output`."
    for entry, problem in [
        (response.output[0], "ResponseOutputMessage is of type `message`, not `function_call`"),
        (response, "Response has no `call_id` string"),
    ]:
        assert run_responses_function_call(executor, entry) == {
            "type": "function_call_output",
            "output": f"The function_call item could not be read: {problem}; {hint}",
        }


def anthropic_message(tmp_path: Path) -> Message:
    target = str(tmp_path / "work" / "notes.txt")
    return Message.model_validate(
        api.anthropic_message(
            [
                {"type": "text", "text": "I'll write the notes and update the task."},
                api.tool_use("toolu_01", "Write", {"file_path": target, "content": "v1.2: faster"}),
                api.tool_use("toolu_02", "TaskUpdate", {"id": "1", "status": "done"}),
            ],
            "tool_use",
        )
    )


def test_anthropic_tool_use_blocks_run_as_they_come(
    tmp_path: Path, executor: ToolExecutor, journal: Journal
) -> None:
    message = anthropic_message(tmp_path)
    blocks = [block for block in message.content if block.type == "tool_use"]
    assert type(blocks[0]).__name__ == "ToolUseBlock"
    replies = [valid(TOOL_RESULT, run_anthropic_tool_use(executor, block)) for block in blocks]
    target = tmp_path / "work" / "notes.txt"
    assert replies == [
        {
            "type": "tool_result",
            "tool_use_id": "toolu_01",
            "content": f"File created successfully at: {target}",
        },
        {"type": "tool_result", "tool_use_id": "toolu_02", "content": BAD_UPDATE_MESSAGE, "is_error": True},
    ]
    assert target.read_text("utf-8") == "v1.2: faster"
    assert [event for event in journal.events if event[0] == "run"] == [("run", "Write")]


def test_the_wrong_anthropic_object_is_named_and_gets_no_id(tmp_path: Path, executor: ToolExecutor) -> None:
    message = anthropic_message(tmp_path)
    hint = "nothing was run. Pass one `tool_use` block of the message's `content`."
    for entry, problem in [
        (message.content[0], "TextBlock is of type `text`, not `tool_use`"),
        (message, "Message is of type `message`, not `tool_use`"),
    ]:
        reply = run_anthropic_tool_use(executor, entry)
        assert reply == {
            "type": "tool_result",
            "content": f"The tool_use block could not be read: {problem}; {hint}",
            "is_error": True,
        }
        with pytest.raises(ValidationError, match="tool_use_id"):
            TOOL_RESULT.validate_python(reply)
    assert not (tmp_path / "work" / "notes.txt").exists()


class Exploding:
    """An object whose attributes raise when read."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(name)


def test_an_object_whose_attributes_raise_is_named(executor: ToolExecutor) -> None:
    assert run_openai_tool_call(executor, Exploding())["content"] == (
        "The tool call could not be read: Exploding has no `id` string; nothing was run. "
        "Pass one entry of the assistant message's `tool_calls`."
    )
    assert run_responses_function_call(executor, Exploding())["output"].startswith(
        "The function_call item could not be read: Exploding has no `call_id` string;"
    )
