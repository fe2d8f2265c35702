"""The real clients, `openai.OpenAI(base_url=...)` and `anthropic.Anthropic(base_url=...)`,
against a scripted API on 127.0.0.1 (tests/sdk_server.py): the model first makes a wrong
call, then the corrected one once the request it receives carries the exact validation
message, and the loop ends with the task done. The request bodies the server received are
asserted: what each SDK really sends back, objects passed to the adapters as they come."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anthropic
import openai
from anthropic.types import ToolParam
from openai.types.chat import ChatCompletionToolParam
from openai.types.responses import FunctionToolParam
from pydantic import TypeAdapter

import generated
from runtime import ToolExecutor, run_anthropic_tool_use, run_openai_tool_call, run_responses_function_call
from tests import sdk_server as api
from tests.runtime_support import Journal, make_executor

WRONG = {"title": "Release notes"}
RIGHT = {"subject": "Release notes", "description": "Write the notes for v1.2"}
MESSAGE = (
    "TaskCreate failed due to the following issues:\n"
    "The required parameter `subject` is missing\n"
    "The required parameter `description` is missing\n"
    "An unexpected parameter `title` was provided"
)
CREATED = "Task #1 created successfully: Release notes"
MAX_TURNS = 5  # the loops below stop here whatever the server says

# The declarations as the SDKs' own param types (checked, so each call type-checks too).
CHAT_TOOLS = TypeAdapter(list[ChatCompletionToolParam]).validate_python(generated.openai_tools())
RESPONSES_TOOLS = TypeAdapter(list[FunctionToolParam]).validate_python(generated.responses_tools())
ANTHROPIC_TOOLS = TypeAdapter(list[ToolParam]).validate_python(generated.anthropic_tools())


def when(seen: bool, then: dict[str, Any], otherwise: dict[str, Any]) -> dict[str, Any]:
    return then if seen else otherwise


def task_done(executor: ToolExecutor) -> str:
    result = executor.execute("TaskGet", {"taskId": "1"})
    assert result.success, result.error
    return result.content


def openai_client(server: api.ScriptedAPI) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.url + "/v1", api_key="test-key", max_retries=0, timeout=10)


def test_openai_chat_completions_loop_recovers_from_a_bad_call(tmp_path: Path) -> None:
    journal = Journal()
    executor = make_executor(tmp_path, journal)
    steps: list[api.Step] = [
        lambda body: api.chat_tool_call("call_1", "TaskCreate", json.dumps(WRONG)),
        lambda body: when(
            body["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": MESSAGE},
            api.chat_tool_call("call_2", "TaskCreate", json.dumps(RIGHT)),
            api.chat_text("I did not get the validation message."),
        ),
        lambda body: api.chat_text("Created task #1." if body["messages"][-1]["content"] == CREATED else "?"),
    ]
    messages: list[Any] = [{"role": "user", "content": "Add a task for the release notes."}]
    with api.ScriptedAPI(steps) as server:
        client = openai_client(server)
        for _ in range(MAX_TURNS):
            completion = client.chat.completions.create(model="gpt-4o", messages=messages, tools=CHAT_TOOLS)
            message = completion.choices[0].message
            messages.append(message.to_dict())
            if not message.tool_calls:
                break
            messages.extend(run_openai_tool_call(executor, call) for call in message.tool_calls)
    assert message.content == "Created task #1."
    assert "Release notes" in task_done(executor)
    bodies = server.bodies("/v1/chat/completions")
    assert len(bodies) == 3
    assert bodies[0]["tools"] == generated.openai_tools()
    assert bodies[1]["messages"][1:] == [
        {
            "role": "assistant",
            "content": None,
            "refusal": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "TaskCreate", "arguments": json.dumps(WRONG)},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": MESSAGE},
    ]
    assert bodies[2]["messages"][-1] == {"role": "tool", "tool_call_id": "call_2", "content": CREATED}
    assert [name for name, _, _ in journal.failures] == ["TaskCreate"]


def test_openai_responses_loop_recovers_from_a_bad_call(tmp_path: Path) -> None:
    executor = make_executor(tmp_path, Journal())
    steps: list[api.Step] = [
        lambda body: api.response([api.function_call_item("call_1", "TaskCreate", json.dumps(WRONG))]),
        lambda body: when(
            body["input"][-1] == {"type": "function_call_output", "call_id": "call_1", "output": MESSAGE},
            api.response([api.function_call_item("call_2", "TaskCreate", json.dumps(RIGHT))]),
            api.response([api.output_text("I did not get the validation message.")]),
        ),
        lambda body: api.response(
            [api.output_text("Created task #1." if body["input"][-1]["output"] == CREATED else "?")]
        ),
    ]
    items: list[Any] = [{"role": "user", "content": "Add a task for the release notes."}]
    with api.ScriptedAPI(steps) as server:
        client = openai_client(server)
        for _ in range(MAX_TURNS):
            response = client.responses.create(model="gpt-4o", input=items, tools=RESPONSES_TOOLS)
            calls = [item for item in response.output if item.type == "function_call"]
            if not calls:
                break
            for call in calls:
                items += [call.to_dict(), run_responses_function_call(executor, call)]
    assert response.output_text == "Created task #1."
    assert "Release notes" in task_done(executor)
    bodies = server.bodies("/v1/responses")
    assert len(bodies) == 3
    assert bodies[0]["tools"] == generated.responses_tools()
    assert {t["name"]: t["strict"] for t in bodies[0]["tools"]}["TaskCreate"] is False
    assert bodies[1]["input"][-1] == {"type": "function_call_output", "call_id": "call_1", "output": MESSAGE}
    assert bodies[1]["input"][-2]["call_id"] == "call_1" and bodies[1]["input"][-2]["type"] == "function_call"
    assert bodies[2]["input"][-1] == {"type": "function_call_output", "call_id": "call_2", "output": CREATED}


def test_anthropic_messages_loop_recovers_from_a_bad_call(tmp_path: Path) -> None:
    executor = make_executor(tmp_path, Journal())
    target = str(tmp_path / "work" / "notes.md")
    wrong = {"path": target, "content": "# v1.2\n"}
    right = {"file_path": target, "content": "# v1.2\n"}
    message = (
        "Write failed due to the following issues:\n"
        "The required parameter `file_path` is missing\n"
        "An unexpected parameter `path` was provided"
    )
    created = f"File created successfully at: {target}"

    def last_result(body: dict[str, Any]) -> Any:
        return body["messages"][-1]["content"][-1]

    steps: list[api.Step] = [
        lambda body: api.anthropic_message([api.tool_use("toolu_1", "Write", wrong)], "tool_use"),
        lambda body: when(
            last_result(body)
            == {"type": "tool_result", "tool_use_id": "toolu_1", "content": message, "is_error": True},
            api.anthropic_message([api.tool_use("toolu_2", "Write", right)], "tool_use"),
            api.anthropic_message([{"type": "text", "text": "no message seen"}], "end_turn"),
        ),
        lambda body: api.anthropic_message(
            [{"type": "text", "text": "Written." if last_result(body)["content"] == created else "?"}],
            "end_turn",
        ),
    ]
    messages: list[Any] = [{"role": "user", "content": "Start the release notes."}]
    with api.ScriptedAPI(steps) as server:
        client = anthropic.Anthropic(base_url=server.url, api_key="test-key", max_retries=0, timeout=10)
        for _ in range(MAX_TURNS):
            reply = client.messages.create(
                model="claude-sonnet-4-5",
                max_tokens=1024,
                messages=messages,
                tools=ANTHROPIC_TOOLS,
            )
            messages.append({"role": "assistant", "content": [block.to_dict() for block in reply.content]})
            uses = [block for block in reply.content if block.type == "tool_use"]
            if not uses:
                break
            messages.append({"role": "user", "content": [run_anthropic_tool_use(executor, b) for b in uses]})
    assert [block.to_dict() for block in reply.content] == [{"type": "text", "text": "Written."}]
    assert (tmp_path / "work" / "notes.md").read_text("utf-8") == "# v1.2\n"
    bodies = server.bodies("/v1/messages")
    assert len(bodies) == 3
    assert bodies[0]["tools"] == generated.anthropic_tools()
    assert bodies[1]["messages"][1:] == [
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "Write", "input": wrong}],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": message, "is_error": True}
            ],
        },
    ]
    assert last_result(bodies[2]) == {"type": "tool_result", "tool_use_id": "toolu_2", "content": created}
