"""Repair kinds a project adopts (`[tool.toolgen.repairs]`, issue 39 point 3): planned per
tool, placed in the generated package as `repair(tool, args)`, applied by the run-time guard.

A kind adopted for one parameter applies there alone: a guarded `MCPServer`, called by the real
SDK client, gives its tool the repaired arguments, and the repair is recorded by the failure
sink (one line per repair) and by OpenTelemetry's `toolgen.tool_input.repaired`; a call the
adopted repairs cannot make valid gets the exact message of the call as sent. A package
without adoption is the one toolgen wrote before the table existed (the byte gate holds every
file of it); adopting for one tool changes that tool's module, `__init__.py`, and adds
`_repair.py`, nothing else.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import mcp_types as types
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from generator.package.build import build
from generator.plan.repairs import adoption
from runtime import ToolExecutor
from runtime.failures import JsonlFailureSink
from runtime.integrations.mcp_server import validation_middleware
from tests.genpkg import import_package, write_declarations, write_locked
from tests.test_telemetry import counts, delta, key, reader
from tests.toolgen_cli import run_in

__all__ = ["reader"]  # the process's one in-memory metric reader, a fixture shared with test_telemetry

DEADLINE = 20.0  # seconds for the whole conversation
WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "labels": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["city"],
    "additionalProperties": False,
}
# Adopted for `tags` alone: `labels` has the same schema and is not repaired.
ADOPTED = {"parameters": {"get_weather": {"tags": ["array-from-single"]}}}
LABELS_LINE = "The parameter `labels` type is expected as `array` but provided as `string`"
TAGS_LINE = "The parameter `tags` type is expected as `array` but provided as `string`"
ONE = "get_weather failed due to the following issue:\n"
MANY = "get_weather failed due to the following issues:\n"


def adopted_package(tmp: Path, stem: str, table: dict[str, Any]) -> Iterator[ModuleType]:
    """The user's own package of get_weather, generated with `table` as its repairs."""
    name = f"{stem}_{id(tmp)}"
    write_declarations(tmp / "schemas", {"get_weather": WEATHER})
    write_locked(tmp / name, build(tmp / "schemas", repairs=adoption(table)).files)
    yield import_package(tmp / name)
    for module in [n for n in sys.modules if n == name or n.startswith(name + ".")]:
        del sys.modules[module]


@pytest.fixture
def weather(tmp_path: Path) -> Iterator[ModuleType]:
    yield from adopted_package(tmp_path, "weather_repairs", ADOPTED)


def text(result: types.CallToolResult) -> list[str]:
    return [block.text for block in result.content if isinstance(block, types.TextContent)]


async def conversation(
    package: ModuleType, sink: JsonlFailureSink, ran: list[dict[str, Any]]
) -> list[types.CallToolResult]:
    server: MCPServer[Any] = MCPServer(
        "weather", middleware=[validation_middleware(package, on_validation_failure=sink)]
    )

    @server.tool()
    def get_weather(
        city: str, unit: str = "celsius", tags: list[str] | None = None, labels: list[str] | None = None
    ) -> str:
        ran.append({"city": city, "unit": unit, "tags": tags, "labels": labels})
        return f"{city}: 21 degrees {unit}"

    async with Client(server) as client:
        return [
            await client.call_tool("get_weather", {"city": "Oslo", "tags": "rain"}),
            await client.call_tool("get_weather", {"city": "Oslo", "labels": "rain"}),
            await client.call_tool("get_weather", {"city": "Oslo", "tags": "rain", "labels": "wind"}),
            await client.call_tool("get_weather", {"city": "Oslo", "tags": "rain", "unit": "Celsius"}),
        ]


def test_a_repair_adopted_for_one_parameter_applies_to_it_alone(
    weather: ModuleType, tmp_path: Path, reader: InMemoryMetricReader
) -> None:
    sink = JsonlFailureSink(tmp_path / "failures.jsonl")
    ran: list[dict[str, Any]] = []
    before = counts(reader)
    results = asyncio.run(asyncio.wait_for(conversation(weather, sink, ran), DEADLINE))
    repaired, other_parameter, both, with_bad_unit = results
    # The repaired call reaches the tool with the repaired arguments: `tags` a list.
    assert (repaired.is_error, text(repaired)) == (False, ["Oslo: 21 degrees celsius"])
    assert ran == [{"city": "Oslo", "unit": "celsius", "tags": ["rain"], "labels": None}]
    # `labels` has the same schema, but nothing was adopted for it: the exact message.
    assert (other_parameter.is_error, text(other_parameter)) == (True, [ONE + LABELS_LINE])
    # Repairing `tags` would not make these calls valid: the messages of the calls as sent.
    assert (both.is_error, text(both)) == (True, [MANY + TAGS_LINE + "\n" + LABELS_LINE])
    bad_unit = 'The parameter `unit` is invalid: expected one of "celsius", "fahrenheit"'
    assert (with_bad_unit.is_error, text(with_bad_unit)) == (True, [MANY + TAGS_LINE + "\n" + bad_unit])
    lines = [json.loads(line) for line in (tmp_path / "failures.jsonl").read_text().splitlines()]
    for line in lines:
        assert isinstance(line.pop("timestamp"), str)
    assert lines == [
        {
            "event": "tool_input_repaired",
            "tool": "get_weather",
            "kind": "array-from-single",
            "parameter": "tags",
            "path": "tags",
        },
        {
            "event": "tool_input_rejected",
            "tool": "get_weather",
            "issues": [{"kind": "type", "path": "labels", "line": LABELS_LINE}],
        },
        {
            "event": "tool_input_rejected",
            "tool": "get_weather",
            "issues": [
                {"kind": "type", "path": "tags", "line": TAGS_LINE},
                {"kind": "type", "path": "labels", "line": LABELS_LINE},
            ],
        },
        {
            "event": "tool_input_rejected",
            "tool": "get_weather",
            "issues": [
                {"kind": "type", "path": "tags", "line": TAGS_LINE},
                {"kind": "invalid", "path": "unit", "line": bad_unit},
            ],
        },
    ]
    assert (sink.written, sink.dropped) == (4, 0)
    changed = delta(before, counts(reader))
    repaired_key = key(
        "toolgen.tool_input.repaired", tool="get_weather", kind="array-from-single", parameter="tags"
    )
    assert changed[repaired_key] == 1
    assert [k for k in changed if k[0] == "toolgen.tool_input.repaired"] == [repaired_key]
    assert changed[key("toolgen.tool_calls.rejected", tool="get_weather")] == 3


def test_repair_returns_the_repairs_or_the_call_unchanged(weather: ModuleType) -> None:
    call = {"city": "Oslo", "tags": "rain"}
    fixed, made = weather.repair("get_weather", call)
    assert fixed == {"city": "Oslo", "tags": ["rain"]} and call == {"city": "Oslo", "tags": "rain"}
    assert [tuple(r) for r in made] == [("array-from-single", "tags", "tags")]
    for unrescued in ({"city": "Oslo", "labels": "rain"}, {"city": "Oslo", "tags": "a", "labels": "b"}):
        assert weather.repair("get_weather", unrescued) == (unrescued, ())
    valid = {"city": "Oslo", "tags": ["rain"]}
    assert weather.repair("get_weather", valid) == (valid, ())
    assert weather.repair("unknown_tool", call) == (call, ())


def test_the_executor_runs_the_tool_with_the_repaired_arguments(weather: ModuleType, tmp_path: Path) -> None:
    sink = JsonlFailureSink(tmp_path / "failures.jsonl")
    executor = ToolExecutor(weather, on_validation_failure=sink)
    seen: list[object] = []

    def get_weather(args: dict[str, Any]) -> str:
        seen.append(args)
        return "ran"

    executor.register_declared("get_weather", get_weather)
    assert executor.execute("get_weather", {"city": "Oslo", "tags": "rain"}).text() == "ran"
    failed = executor.execute("get_weather", {"city": "Oslo", "labels": "rain"})
    assert (failed.success, failed.text()) == (False, ONE + LABELS_LINE)
    assert seen == [{"city": "Oslo", "tags": ["rain"]}]
    events = [json.loads(line)["event"] for line in (tmp_path / "failures.jsonl").read_text().splitlines()]
    assert events == ["tool_input_repaired", "tool_input_rejected"]


def test_adopting_for_one_tool_changes_its_module_and_the_package_files_only(tmp_path: Path) -> None:
    get_time = {"type": "object", "properties": {"zone": {"type": "string"}}}
    tools = {"get_weather": WEATHER, "get_time": get_time}
    write_declarations(tmp_path / "schemas", tools)
    plain = build(tmp_path / "schemas").files
    adopted = build(tmp_path / "schemas", repairs=adoption(ADOPTED)).files
    assert build(tmp_path / "schemas", repairs=adoption({})).files == plain
    changed = sorted(name for name in adopted if plain.get(name) != adopted[name])
    weather_module = next(n for n in plain if n.startswith("get_weather_") and "declaration" not in n)
    assert changed == ["__init__.py", "_repair.py", weather_module]
    assert "def repair(tool_name: str, args: object)" in adopted["__init__.py"]
    assert "repair" not in plain["__init__.py"]


TASKS = {
    "type": "object",
    "properties": {
        "taskId": {"type": "string"},
        "status": {"type": "string", "enum": ["pending", "completed"]},
        "note": {"type": "string"},
        "limit": {"type": "integer"},
    },
    "required": ["taskId"],
    "additionalProperties": False,
}


def _project(tmp_path: Path, table: str) -> Path:
    write_declarations(tmp_path / "tool_schemas", {"TaskUpdate": TASKS})
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\n\n' + table, "utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            '[tool.toolgen.repairs.parameters.TaskUpdate]\nlimt = ["number-from-string"]\n',
            "pyproject.toml: [tool.toolgen.repairs.parameters.TaskUpdate] limt: TaskUpdate has no such "
            "parameter (taskId, status, note, limit); nothing written",
        ),
        (
            '[tool.toolgen.repairs.parameters.TaskUpdate]\nnote = ["number-from-string"]\n',
            "pyproject.toml: [tool.toolgen.repairs.parameters.TaskUpdate] note: number-from-string never "
            "applies: its schema admits string; nothing written",
        ),
        (
            '[tool.toolgen.repairs.parameters.TaskUpdate]\ntaskId = ["null-as-missing"]\n',
            "pyproject.toml: [tool.toolgen.repairs.parameters.TaskUpdate] taskId: null-as-missing never "
            "applies: it is required or admits null; nothing written",
        ),
        (
            '[tool.toolgen.repairs.tools]\nTaskUpdat = ["enum-case"]\n',
            "pyproject.toml: [tool.toolgen.repairs.tools] TaskUpdat: no tool of that name is declared in "
            "tool_schemas; nothing written",
        ),
    ],
)
def test_an_adoption_naming_what_is_not_declared_is_refused(tmp_path: Path, table: str, message: str) -> None:
    project = _project(tmp_path, table)
    done = run_in(project, "generate")
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {message}\n")
    assert not (project / "generated").exists()


def test_adopt_then_audit_the_rescued_calls_are_no_longer_rejected(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    calls = [
        {"taskId": "1", "limit": "5"},
        {"taskId": "2", "limit": "7"},
        {"taskId": "3", "status": "Completed"},
        {"taskId": "4", "limit": "five"},
    ]
    log.write_text("".join(json.dumps({"name": "TaskUpdate", "arguments": c}) + "\n" for c in calls))
    project = _project(tmp_path, "")
    assert run_in(project, "generate").returncode == 0
    head = run_in(project, "audit", str(log)).stdout.splitlines()[:2]
    assert head[1] == (
        "would be rejected: 4 of 4 validated calls (100.0%); passed through: 0 (tools without a validator in "
        "generated/)"
    )
    table = '[tool.toolgen.repairs.parameters.TaskUpdate]\nlimit = ["number-from-string"]\n'
    _project(tmp_path, table)
    assert run_in(project, "generate").returncode == 0
    report = run_in(project, "audit", "--suggest", str(log)).stdout.splitlines()
    assert report[1:5] == [
        "would be rejected: 2 of 4 validated calls (50.0%); passed through: 0 (tools without a validator in "
        "generated/)",
        "repaired by the kinds adopted in [tool.toolgen.repairs]: 2 calls, not counted as rejected",
        "",
        "tool        kind                parameter  calls",
    ]
    assert report[5] == "TaskUpdate  number-from-string  limit          2"
    # --suggest measures only what is still rejected: `enum-case` would rescue the third call.
    assert "enum-case: 1 call rescued (50.0%; 95% interval 9.4% to 90.6%)" in report
    assert "number-from-string: 0 calls rescued (0.0%; 95% interval 0.0% to 65.8%)" in report
    data = json.loads(run_in(project, "audit", "--json", str(log)).stdout)
    assert (data["rejected"], data["repaired"]) == (2, 2)
    rows = [{"tool": "TaskUpdate", "kind": "number-from-string", "parameter": "limit", "calls": 2}]
    assert data["repaired_by"] == rows


def test_audit_counts_the_repairs_the_runtime_recorded(weather: ModuleType, tmp_path: Path) -> None:
    sink = JsonlFailureSink(tmp_path / "failures.jsonl")
    executor = ToolExecutor(weather, on_validation_failure=sink)
    executor.register_declared("get_weather", lambda args: "ran")
    executor.execute("get_weather", {"city": "Oslo", "tags": "rain"})
    executor.execute("get_weather", {"city": "Oslo", "tags": "sun"})
    package = Path(str(weather.__file__)).parent
    done = run_in(tmp_path, "audit", "--package", str(package), str(tmp_path / "failures.jsonl"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    start = lines.index("repairs the runtime made and recorded (failure-sink lines): 2")
    assert lines[start + 1 : start + 3] == [
        "tool         kind               parameter  repairs",
        "get_weather  array-from-single  tags             2",
    ]


ORDER = {
    "type": "object",
    "properties": {
        "order": {"$ref": "#/$defs/Order"},
        "size": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "mode": {"allOf": [{"$ref": "#/$defs/Mode"}]},
    },
    "$defs": {
        "Order": {
            "type": "object",
            "properties": {"qty": {"type": "integer"}, "rush": {"type": "boolean"}},
            "required": ["qty"],
            "additionalProperties": False,
        },
        "Mode": {"type": "string", "enum": ["fast", "slow"]},
    },
    "additionalProperties": False,
}


def test_extended_references_and_combinators_are_followed(tmp_path: Path) -> None:
    write_declarations(tmp_path / "schemas", {"place_order": ORDER})
    table = {"all": ["number-from-string", "boolean-from-string", "enum-case"]}
    name = f"orders_{id(tmp_path)}"
    built = build(tmp_path / "schemas", keywords="extended", repairs=adoption(table))
    write_locked(tmp_path / name, built.files)
    package = import_package(tmp_path / name)
    try:
        call = {"order": {"qty": "3", "rush": "true"}, "size": "4", "mode": "FAST"}
        fixed = package.repair("place_order", call)
        assert fixed[0] == {"order": {"qty": 3, "rush": True}, "size": 4, "mode": "fast"}
        assert sorted(tuple(r) for r in fixed[1]) == [
            ("boolean-from-string", "order.rush", "order.rush"),
            ("enum-case", "mode", "mode"),
            ("number-from-string", "order.qty", "order.qty"),
            ("number-from-string", "size", "size"),
        ]
        wrong = {"order": {"qty": "three"}, "mode": "FAST"}
        assert package.repair("place_order", wrong) == (wrong, ())
    finally:
        del sys.modules[name]


def test_the_recipes_run_the_tool_with_the_repaired_arguments(weather: ModuleType) -> None:
    from agents import Agent
    from agents.tool_context import ToolContext
    from agents.tool_guardrails import ToolInputGuardrailData
    from pydantic_ai import Agent as PydanticAgent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from runtime.integrations import openai_agents, pydantic_ai

    def verdict(guardrail: Any, arguments: dict[str, Any]) -> Any:
        context: ToolContext[Any] = ToolContext(
            context=None, tool_name="get_weather", tool_call_id="c1", tool_arguments=json.dumps(arguments)
        )
        data = ToolInputGuardrailData(context=context, agent=Agent(name="a"))
        return asyncio.run(guardrail.run(data)).behavior

    # A guardrail cannot change the arguments: alone it refuses what only a repair would pass;
    # in front of the executor, which repairs, it lets the call through.
    repairable = {"city": "Oslo", "tags": "rain"}
    assert verdict(openai_agents.input_guardrail(weather), repairable) == {
        "type": "reject_content",
        "message": ONE + TAGS_LINE,
    }
    in_front = openai_agents.input_guardrail(weather, repaired_by_tool=True)
    assert verdict(in_front, repairable) == {"type": "allow"}
    refused = {"type": "reject_content", "message": ONE + LABELS_LINE}
    assert verdict(in_front, {"city": "Oslo", "labels": "x"}) == refused

    executor = ToolExecutor(weather)
    seen: list[object] = []

    def get_weather(args: dict[str, Any]) -> str:
        seen.append(args)
        return "21 degrees"

    executor.register_declared("get_weather", get_weather)

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        parts = [p for m in messages for p in getattr(m, "parts", ())]
        returned = [p.content for p in parts if isinstance(p, ToolReturnPart)]
        if returned:
            return ModelResponse(parts=[TextPart(f"saw {returned}")])
        return ModelResponse(parts=[ToolCallPart("get_weather", repairable, tool_call_id="c0")])

    agent = PydanticAgent(FunctionModel(respond), tools=[pydantic_ai.tool(executor, "get_weather")])
    assert agent.run_sync("Weather in Oslo?").output == "saw ['21 degrees']"
    assert seen == [{"city": "Oslo", "tags": ["rain"]}]


def _valid(package: ModuleType, tool: str, arguments: object) -> bool:
    return package.validate(tool, arguments) is None


def test_with_every_kind_adopted_repair_rescues_what_suggest_counts_together(tmp_path: Path) -> None:
    from generator.plan.repairs import KINDS
    from generator.readers.repairs import Repairs, declared_schemas

    docs = (Path(__file__).resolve().parent.parent / "docs" / "audit-suggest.md").read_text("utf-8")
    log = docs.split("```jsonl file=calls.jsonl\n", 1)[1].split("```", 1)[0]
    calls = [json.loads(line) for line in log.splitlines()]
    name = f"every_kind_{id(tmp_path)}"
    root = Path(__file__).resolve().parent.parent
    write_locked(tmp_path / name, build(root / "tool_schemas", repairs=adoption({"all": list(KINDS)})).files)
    package = import_package(tmp_path / name)
    try:
        schemas = declared_schemas(package.openai_tools())
        counted = Repairs()
        rescued = 0
        for call in calls:
            tool, arguments = call["name"], call["arguments"]
            if tool in package.TOOL_NAMES and package.validate(tool, arguments) is not None:
                counted.add(tool, arguments, schemas[tool], partial(_valid, package, tool))
                fixed, made = package.repair(tool, arguments)
                rescued += bool(made)
                assert (package.validate(tool, fixed) is None) == bool(made)
        assert (rescued, counted.together, counted.considered) == (11, 11, 14)
    finally:
        del sys.modules[name]


TREE = {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "additionalProperties": False,
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "size": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "additionalProperties": False,
        }
    },
}


def test_a_recursive_schema_is_repaired_at_every_depth(tmp_path: Path) -> None:
    write_declarations(tmp_path / "schemas", {"tree": TREE})
    name = f"tree_{id(tmp_path)}"
    table = {"all": ["number-from-string"]}
    built = build(tmp_path / "schemas", keywords="extended", repairs=adoption(table))
    write_locked(tmp_path / name, built.files)
    package = import_package(tmp_path / name)
    try:
        call = {"root": {"size": "1", "children": [{"size": "2", "children": [{"size": "3"}]}]}}
        fixed, made = package.repair("tree", call)
        assert fixed == {"root": {"size": 1, "children": [{"size": 2, "children": [{"size": 3}]}]}}
        assert [tuple(r) for r in made] == [
            ("number-from-string", "root.size", "root.size"),
            ("number-from-string", "root.children[*].size", "root.children[0].size"),
            ("number-from-string", "root.children[*].children[*].size", "root.children[0].children[0].size"),
        ]
    finally:
        del sys.modules[name]
