"""The requirement's acceptance scenarios 1-10 and its independent test, end to end.

Every call goes through ToolExecutor with this repository's file and task tools; the effects are checked
on disk and in a journal of hooks, permission questions and handler runs.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import pytest

from runtime import ToolExecutor, ToolResult, Validators, run_anthropic_tool_use, run_openai_tool_call
from tests.genpkg import user_package
from tests.runtime_support import Journal, create_tasks, make_executor, ok, rejected, repo_executor

STATUS_ENUM = '"pending", "in_progress", "completed", "deleted"'


@pytest.fixture
def journal() -> Journal:
    return Journal()


def task_file(tmp_path: Path, task_id: str) -> Path:
    return tmp_path / "tasks" / f"{task_id}.json"


def task_files(tmp_path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((tmp_path / "tasks").glob("*.json"))}


def rejected_task_update(
    tmp_path: Path, journal: Journal, args: object
) -> tuple[ToolExecutor, str, dict[str, bytes]]:
    """Seed tasks 1 and 2, send a TaskUpdate that must fail validation, and check that it
    ran nothing, fired no hook, asked nothing and left every task file byte for byte."""
    executor = make_executor(tmp_path, journal, spied=("TaskUpdate",))
    create_tasks(executor, "write the parser", "wire the parser")
    before = task_files(tmp_path)
    journal.events.clear()
    error = rejected(executor.execute("TaskUpdate", args))
    assert journal.events == []
    assert journal.handler_args == []
    assert task_files(tmp_path) == before
    return executor, error, before


def test_independent_test_task_update_with_id_instead_of_task_id(tmp_path: Path, journal: Journal) -> None:
    executor, error, before = rejected_task_update(tmp_path, journal, {"id": "2", "status": "completed"})

    assert error == (
        "TaskUpdate failed due to the following issues:\n"
        "The required parameter `taskId` is missing\n"
        "An unexpected parameter `id` was provided"
    )

    assert ok(executor.execute("TaskUpdate", {"taskId": "2", "status": "completed"})) == "Updated task #2"
    after = task_files(tmp_path)
    assert (after["1.json"], after["2.json"] != before["2.json"]) == (before["1.json"], True)
    assert json.loads(task_file(tmp_path, "2").read_bytes())["status"] == "completed"
    assert journal.events == [("pre", "TaskUpdate"), ("run", "TaskUpdate"), ("post", "TaskUpdate")]


def test_scenario_01_missing_required_parameter_does_not_run_the_tool(
    tmp_path: Path, journal: Journal
) -> None:
    _, error, _ = rejected_task_update(tmp_path, journal, {"status": "completed"})
    assert (
        error == "TaskUpdate failed due to the following issue:\nThe required parameter `taskId` is missing"
    )


def test_scenario_02_unexpected_parameter_is_named(tmp_path: Path, journal: Journal) -> None:
    executor = make_executor(tmp_path, journal, spied=("TaskGet",))
    create_tasks(executor, "one")
    journal.events.clear()

    error = rejected(executor.execute("TaskGet", {"taskId": "1", "id": "1"}))

    assert error == "TaskGet failed due to the following issue:\nAn unexpected parameter `id` was provided"
    assert journal.events == []


def test_scenario_03_wrong_type_is_reported_and_not_coerced(tmp_path: Path, journal: Journal) -> None:
    executor = make_executor(tmp_path, journal, spied=("Read",))
    (tmp_path / "work" / "notes.txt").write_text("".join(f"line {i}\n" for i in range(1, 31)))

    error = rejected(executor.execute("Read", {"file_path": "notes.txt", "offset": "20", "limit": 2}))

    assert error == (
        "Read failed due to the following issue:\n"
        "The parameter `offset` type is expected as `number` but provided as `string`"
    )
    assert journal.events == []
    content = ok(executor.execute("Read", {"file_path": "notes.txt", "offset": 20, "limit": 2}))
    assert content == "    20\tline 20\n    21\tline 21"


def test_scenario_04_value_outside_the_enum(tmp_path: Path, journal: Journal) -> None:
    _, error, _ = rejected_task_update(tmp_path, journal, {"taskId": "1", "status": "done"})
    assert error == (
        "TaskUpdate failed due to the following issue:\n"
        f"The parameter `status` is invalid: expected one of {STATUS_ENUM}"
    )


def test_scenario_05_null_for_a_string_only_parameter_is_a_type_issue(
    tmp_path: Path, journal: Journal
) -> None:
    _, error, _ = rejected_task_update(tmp_path, journal, {"taskId": "1", "owner": None})
    assert error == (
        "TaskUpdate failed due to the following issue:\n"
        "The parameter `owner` type is expected as `string` but provided as `null`"
    )


NULLABLE_PARAMETERS = {
    "type": "object",
    "properties": {"text": {"type": "string"}, "tag": {"type": ["string", "null"]}},
    "required": ["text"],
}


@pytest.fixture
def nullable_validators(tmp_path: Path) -> Iterator[ModuleType]:
    """A validator package generated, like `generated/`, from a declaration that allows null."""
    yield from user_package(tmp_path, "nullable_validators", {"Note": NULLABLE_PARAMETERS})


def test_scenario_05_null_passes_where_the_declaration_allows_it(
    tmp_path: Path, journal: Journal, nullable_validators: ModuleType
) -> None:
    executor = make_executor(tmp_path, journal, validators=cast(Validators, nullable_validators))
    executor.register_declared("Note", journal.spy("Note"))

    assert ok(executor.execute("Note", {"text": "hello", "tag": None})) == "ok"
    assert journal.handler_args == [("Note", {"text": "hello", "tag": None})]
    error = rejected(executor.execute("Note", {"text": "hello", "tag": 3}))
    assert error == (
        "Note failed due to the following issue:\n"
        "The parameter `tag` type is expected as `string | null` but provided as `number`"
    )
    assert len(journal.handler_args) == 1


def test_scenario_06_valid_calls_reach_the_tool_exactly_as_sent(tmp_path: Path, journal: Journal) -> None:
    executor = make_executor(tmp_path, journal, spied=("TaskCreate",))
    answer = ToolResult(success=True, content="answered", metadata={"answers": 1})
    executor.register_declared("AskUserQuestion", journal.spy("AskUserQuestion", lambda args: answer))
    question = {
        "questions": [
            {
                "question": "Which database?",
                "header": "Database",
                "options": [{"label": "SQLite"}, {"label": "Postgres"}],
            }
        ],
        "metadata": {"source": "setup-wizard", "ticket": "ABC-1"},
    }
    task = {"subject": "ship", "description": "ship it", "metadata": {"nested": {"deep": [1, 2.5, None]}}}
    sent = copy.deepcopy([question, task])

    result = executor.execute("AskUserQuestion", question)
    created = ok(executor.execute("TaskCreate", task))

    assert result is answer  # the tool's own result, untouched
    assert created == "Task #1 created successfully: ship"
    assert [args for _, args in journal.handler_args] == sent  # no defaults, no coercion
    assert journal.handler_args[0][1] is question
    assert json.loads(task_file(tmp_path, "1").read_bytes())["metadata"] == task["metadata"]
    assert journal.failures == []
    expected = [
        (event, tool) for tool in ("AskUserQuestion", "TaskCreate") for event in ("pre", "run", "post")
    ]
    assert journal.events == expected


def test_scenario_07_a_failed_validation_is_a_recoverable_tool_result(
    tmp_path: Path, journal: Journal
) -> None:
    executor = make_executor(tmp_path, journal)
    create_tasks(executor, "one", "two")
    bad = {"id": "c1", "type": "function", "function": {"name": "TaskUpdate", "arguments": '{"id": "2"}'}}
    good = {
        "id": "c2",
        "type": "function",
        "function": {"name": "TaskUpdate", "arguments": '{"taskId": "2"}'},
    }

    first = run_openai_tool_call(executor, bad)
    retry = run_openai_tool_call(executor, good)

    assert first == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "TaskUpdate failed due to the following issues:\n"
        "The required parameter `taskId` is missing\nAn unexpected parameter `id` was provided",
    }
    assert retry == {"role": "tool", "tool_call_id": "c2", "content": "Task #2 unchanged: nothing to update"}
    block = run_anthropic_tool_use(executor, {"type": "tool_use", "id": "t1", "name": "TaskGet", "input": {}})
    assert block == {
        "type": "tool_result",
        "tool_use_id": "t1",
        "content": "TaskGet failed due to the following issue:\nThe required parameter `taskId` is missing",
        "is_error": True,
    }
    assert [name for name, _, _ in journal.failures] == ["TaskUpdate", "TaskGet"]


def test_scenario_08_mcp_tool_with_incomplete_arguments_passes_through(
    tmp_path: Path, journal: Journal
) -> None:
    executor = make_executor(tmp_path, journal)
    schema = {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}
    exposed = executor.register_mcp("github", "create_issue", schema, journal.spy("mcp"))
    # An MCP tool named like a built-in is still the server's: not validated either.
    shadow = executor.register_mcp("fs", "Write", schema, journal.spy("mcp"))

    assert exposed == "mcp__github__create_issue"
    assert ok(executor.execute(exposed, {})) == "ok"
    assert ok(executor.execute(shadow, {"unexpected": 1})) == "ok"
    assert journal.handler_args == [("mcp", {}), ("mcp", {"unexpected": 1})]
    assert journal.failures == []
    assert (executor.origin(exposed), executor.parameters(exposed)) == ("mcp", schema)
    assert (executor.origin("Write"), executor.parameters("Write")) == ("declared", None)
    assert list(tmp_path.joinpath("work").iterdir()) == []


def test_scenario_09_custom_tool_with_incomplete_arguments_passes_through(
    tmp_path: Path, journal: Journal
) -> None:
    executor = make_executor(tmp_path, journal)
    executor.register_custom("deploy", {"type": "object", "required": ["env"]}, journal.spy("deploy"))

    assert ok(executor.execute("deploy", {"region": 7})) == "ok"
    assert journal.handler_args == [("deploy", {"region": 7})]
    assert journal.failures == []


def test_scenario_09_a_custom_tool_cannot_take_a_declared_name(tmp_path: Path, journal: Journal) -> None:
    # Registering it unvalidated would silently drop the checks the package declares for it.
    executor = make_executor(tmp_path, journal)
    with pytest.raises(ValueError) as refused:
        executor.register_custom("Write", {"type": "object"}, journal.spy("custom Write"))
    assert str(refused.value) == (
        "'Write' is declared in `generated`: bind it with register_declared, which validates its calls"
    )

    assert rejected(executor.execute("Write", {"file_path": "a.txt"})).startswith("Write failed due to")
    assert journal.handler_args == []
    assert executor.origin("Write") == "declared"
    assert not (tmp_path / "work" / "a.txt").exists()


def test_scenario_10_failed_validation_fires_no_hook_and_asks_no_permission(
    tmp_path: Path, journal: Journal
) -> None:
    executor = make_executor(tmp_path, journal, spied=("Write",))

    error = rejected(executor.execute("Write", {"file_path": "a.txt", "conent": "hi"}))

    assert error == (
        "Write failed due to the following issues:\n"
        "The required parameter `content` is missing\n"
        "An unexpected parameter `conent` was provided"
    )
    assert journal.events == []
    assert [(name, [i.kind for i in issues]) for name, _, issues in journal.failures] == [
        ("Write", ["missing", "unexpected"])
    ]


def test_scenario_10_a_valid_call_runs_hook_permission_tool_hook_in_order(
    tmp_path: Path, journal: Journal
) -> None:
    executor = make_executor(tmp_path, journal, spied=("Write",))

    ok(executor.execute("Write", {"file_path": "a.txt", "content": "hi\n"}))

    assert journal.events == [("pre", "Write"), ("run", "Write"), ("permission", "Write"), ("post", "Write")]
    assert (tmp_path / "work" / "a.txt").read_bytes() == b"hi\n"


def test_write_without_content_writes_nothing(tmp_path: Path, journal: Journal) -> None:
    executor = make_executor(tmp_path, journal)
    work = tmp_path / "work"
    (work / "kept.txt").write_bytes(b"original\r\n")

    for name in ("new.txt", "kept.txt"):
        rejected(executor.execute("Write", {"file_path": name}))
        rejected(executor.execute("Write", {"file_path": name, "content": None}))
    assert not (work / "new.txt").exists()
    assert (work / "kept.txt").read_bytes() == b"original\r\n"
    assert journal.events == []

    ok(executor.execute("Write", {"file_path": "new.txt", "content": "fresh"}))
    ok(executor.execute("Write", {"file_path": str(work / "kept.txt"), "content": "replaced"}))
    assert (work / "new.txt").read_bytes() == b"fresh"
    assert (work / "kept.txt").read_bytes() == b"replaced"


def _alternating_calls(n: int) -> Iterator[tuple[bool, str, Any]]:
    """(valid?, tool, arguments): every good call followed by a broken one."""
    for i in range(1, n + 1):
        yield True, "TaskCreate", {"subject": f"task {i}", "description": f"step {i}"}
        yield False, "TaskCreate", {"subject": f"ghost {i}"}
        yield True, "Write", {"file_path": f"out/{i}.txt", "content": f"file {i}\n"}
        yield False, "Write", {"file_path": f"out/ghost{i}.txt", "content": i}
        yield True, "TaskUpdate", {"taskId": str(i), "status": "in_progress", "owner": f"agent {i % 3}"}
        yield False, "TaskUpdate", {"taskId": int(i), "status": "completed"}
        yield False, "Edit", [f"out/{i}.txt", "file", "FILE"]


def test_alternating_bad_and_good_calls_every_good_one_takes_effect(tmp_path: Path, journal: Journal) -> None:
    executor = make_executor(tmp_path, journal)
    (tmp_path / "work" / "out").mkdir()
    n = 25
    outcomes = [(valid, executor.execute(tool, args)) for valid, tool, args in _alternating_calls(n)]

    assert [result.success for _, result in outcomes] == [valid for valid, _ in outcomes]
    assert all(
        result.error and " failed due to the following issue" in result.error
        for valid, result in outcomes
        if not valid
    )
    assert len(journal.failures) == 4 * n
    tasks = [json.loads(task_file(tmp_path, str(i)).read_bytes()) for i in range(1, n + 1)]
    assert [(t["subject"], t["status"], t["owner"]) for t in tasks] == [
        (f"task {i}", "in_progress", f"agent {i % 3}") for i in range(1, n + 1)
    ]
    assert not task_file(tmp_path, str(n + 1)).exists()
    out = tmp_path / "work" / "out"
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{i}.txt" for i in range(1, n + 1))
    assert all((out / f"{i}.txt").read_text() == f"file {i}\n" for i in range(1, n + 1))
    assert journal.events.count(("permission", "Write")) == n


def test_unbound_declared_tool_is_reported_and_not_pretended(tmp_path: Path, journal: Journal) -> None:
    executor = make_executor(tmp_path, journal)

    error = rejected(executor.execute("Bash", {"command": "rm -rf /"}))

    assert error == "Bash is declared but has no implementation bound in this executor; it was not run"
    assert journal.events == []
    assert rejected(executor.execute("Bash", {})).startswith("Bash failed due to the following issue:")


def test_executor_is_constructed_as_the_issue_says(tmp_path: Path) -> None:
    executor = repo_executor(tmp_path, tmp_path / "tasks")
    assert (
        ok(executor.execute("TaskCreate", {"subject": "s", "description": "d"}))
        == "Task #1 created successfully: s"
    )
    error = rejected(executor.execute("Write", {"file_path": "x", "content": "y"}))
    assert error == (
        f"Write was not allowed to change {tmp_path.resolve() / 'x'}: no permission callback is configured, "
        "so tools that change things are denied; nothing was written"
    )
    assert not (tmp_path / "x").exists()
