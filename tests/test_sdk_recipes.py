"""Each framework recipe of runtime/integrations driven by its framework's own machinery:
openai-agents against the scripted local API (tests/sdk_server.py), pydantic-ai with its
`FunctionModel`, langchain-core by tool invocation. In each, a bad call never runs the tool
and the model (or caller) gets the exact message; the corrected call runs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, OpenAIChatCompletionsModel, RunConfig, Runner
from langchain_core.messages import ToolMessage
from openai import AsyncOpenAI
from pydantic_ai import Agent as PydanticAgent
from pydantic_ai import Tool
from pydantic_ai.exceptions import UnexpectedModelBehavior
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

import generated
from runtime.integrations import langchain, openai_agents, pydantic_ai
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
DEADLINE = 30.0  # seconds for any one agent run


def declared(name: str) -> dict[str, Any]:
    """The declaration the package shows the model (OpenAI function form)."""
    return next(t["function"] for t in generated.openai_tools() if t["function"]["name"] == name)


def runs(journal: Journal) -> list[str]:
    return [name for event, name in journal.events if event == "run"]


# openai-agents ----------------------------------------------------------------------------


def test_openai_agents_guardrail_rejects_with_the_exact_message(tmp_path: Path) -> None:
    journal = Journal()
    executor = make_executor(tmp_path, journal, spied=("TaskCreate",))
    steps: list[api.Step] = [
        lambda body: api.chat_tool_call("call_1", "TaskCreate", json.dumps(WRONG)),
        lambda body: (
            api.chat_tool_call("call_2", "TaskCreate", json.dumps(RIGHT))
            if body["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": MESSAGE}
            else api.chat_text("I did not get the validation message.")
        ),
        lambda body: api.chat_text("Created task #1." if body["messages"][-1]["content"] == CREATED else "?"),
    ]
    with api.ScriptedAPI(steps) as server:
        client = AsyncOpenAI(base_url=server.url + "/v1", api_key="test-key", max_retries=0, timeout=10)
        agent = Agent(
            name="planner",
            instructions="Keep the task list.",
            model=OpenAIChatCompletionsModel(model="gpt-4o", openai_client=client),
            tools=[openai_agents.function_tool(executor, "TaskCreate")],
        )
        run = Runner.run(
            agent, "Add a task for the release notes.", run_config=RunConfig(tracing_disabled=True)
        )
        result = asyncio.run(asyncio.wait_for(run, DEADLINE))
    assert result.final_output == "Created task #1."
    assert runs(journal) == ["TaskCreate"] and journal.handler_args == [("TaskCreate", RIGHT)]
    bodies = server.bodies("/v1/chat/completions")
    assert len(bodies) == 3
    assert [t["function"]["parameters"] for t in bodies[0]["tools"]] == [declared("TaskCreate")["parameters"]]
    assert bodies[1]["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": MESSAGE}


def test_the_guardrail_allows_valid_calls_and_tools_it_does_not_declare() -> None:
    guardrail = openai_agents.input_guardrail(generated)
    from agents.tool_context import ToolContext
    from agents.tool_guardrails import ToolInputGuardrailData

    def verdict(name: str, arguments: str) -> Any:
        context: ToolContext[Any] = ToolContext(
            context=None, tool_name=name, tool_call_id="call_1", tool_arguments=arguments
        )
        data = ToolInputGuardrailData(context=context, agent=Agent(name="a"))
        return asyncio.run(guardrail.run(data)).behavior

    assert verdict("TaskCreate", json.dumps(RIGHT)) == {"type": "allow"}
    assert verdict("lookup", "not json") == {"type": "allow"}
    assert verdict("TaskCreate", json.dumps(WRONG)) == {"type": "reject_content", "message": MESSAGE}
    assert verdict("TaskGet", '{"taskId": NaN}') == {
        "type": "reject_content",
        "message": "TaskGet was not run: its arguments are not valid JSON (NaN is not JSON). "
        "Send them as one JSON object.",
    }


# pydantic-ai ------------------------------------------------------------------------------


def scripted_model(*arguments: dict[str, Any]) -> FunctionModel:
    """Calls TaskCreate with each of `arguments` in turn, each after the previous one was
    answered (a retry prompt carrying MESSAGE, or the tool's return), then says what it saw."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        turn = sum(isinstance(m, ModelResponse) for m in messages)
        last = messages[-1]
        parts = last.parts if isinstance(last, ModelRequest) else []
        retried = [p.content for p in parts if isinstance(p, ToolReturnPart) and p.outcome == "retried"]
        returned = [p.content for p in parts if isinstance(p, ToolReturnPart) and p.outcome == "success"]
        if turn > 0 and retried != [MESSAGE]:
            return ModelResponse(parts=[TextPart(f"saw {returned}")])
        if turn < len(arguments):
            return ModelResponse(parts=[ToolCallPart("TaskCreate", arguments[turn], tool_call_id=f"c{turn}")])
        return ModelResponse(parts=[TextPart("?")])

    return FunctionModel(respond)


def test_pydantic_ai_args_validator_retries_with_the_exact_message(tmp_path: Path) -> None:
    journal = Journal()
    executor = make_executor(tmp_path, journal, spied=("TaskCreate",))
    agent = PydanticAgent(
        scripted_model(WRONG, WRONG, RIGHT), tools=[pydantic_ai.tool(executor, "TaskCreate")]
    )
    result = agent.run_sync("Add a task for the release notes.")
    assert result.output == f"saw [{CREATED!r}]"
    assert journal.handler_args == [("TaskCreate", RIGHT)]
    retries = [
        p
        for m in result.all_messages()
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart) and p.outcome == "retried"
    ]
    assert [(p.tool_name, p.content) for p in retries] == [("TaskCreate", MESSAGE)] * 2
    assert [p.retry.cause if p.retry else None for p in retries] == ["model_retry"] * 2


def test_pydantic_ai_default_retry_budget_is_spent_by_validation_failures(tmp_path: Path) -> None:
    journal = Journal()
    executor = make_executor(tmp_path, journal, spied=("TaskCreate",))
    plain = Tool.from_schema(  # no max_retries: the agent's default budget of 1
        lambda **arguments: executor.execute("TaskCreate", arguments).text(),
        name="TaskCreate",
        description=declared("TaskCreate")["description"],
        json_schema=declared("TaskCreate")["parameters"],
        args_validator=pydantic_ai.args_validator(generated, "TaskCreate"),
    )
    agent = PydanticAgent(scripted_model(WRONG, WRONG, RIGHT), tools=[plain])
    with pytest.raises(UnexpectedModelBehavior, match="exceeded max retries count of 1"):
        agent.run_sync("Add a task for the release notes.")
    assert runs(journal) == []


# langchain-core ---------------------------------------------------------------------------


def tool_call(call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_call", "id": call_id, "name": "TaskCreate", "args": arguments}


def test_langchain_structured_tool_failure_is_an_error_tool_message(tmp_path: Path) -> None:
    journal = Journal()
    executor = make_executor(tmp_path, journal, spied=("TaskCreate",))
    tool = langchain.structured_tool(executor, "TaskCreate")
    assert tool.args_schema == declared("TaskCreate")["parameters"]
    bad = tool.invoke(tool_call("c1", WRONG))
    good = asyncio.run(tool.ainvoke(tool_call("c2", RIGHT)))
    assert isinstance(bad, ToolMessage) and isinstance(good, ToolMessage)
    assert (bad.tool_call_id, bad.status, bad.content) == ("c1", "error", MESSAGE)
    assert (good.tool_call_id, good.status, good.content) == ("c2", "success", CREATED)
    assert journal.handler_args == [("TaskCreate", RIGHT)]


def test_a_recipe_for_a_tool_the_package_does_not_declare_names_the_closest(tmp_path: Path) -> None:
    executor = make_executor(tmp_path, Journal())
    for recipe in (langchain.structured_tool, openai_agents.function_tool, pydantic_ai.tool):
        with pytest.raises(ValueError) as refused:
            recipe(executor, "task_create")
        assert (
            str(refused.value) == "'task_create' is not declared in `generated` (did you mean `TaskCreate`?)"
        )
