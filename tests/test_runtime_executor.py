"""ToolExecutor mechanics: registration, hooks, handler outcomes, permission answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runtime import ToolExecutor, ToolResult
from tests.runtime_support import Journal, make_executor, ok, rejected


def boom(*args: object) -> Any:
    raise RuntimeError("hook broke")


def test_pre_tool_use_hook_blocks_with_its_reason_and_nothing_runs(tmp_path: Path) -> None:
    journal = Journal()
    executor = make_executor(tmp_path, journal, spied=("Write",))
    executor.add_hook("PreToolUse", lambda name, args: "writes are frozen", matcher="Edit|Write")

    error = rejected(executor.execute("Write", {"file_path": "a.txt", "content": "x"}))

    assert error == "Write was blocked by a PreToolUse hook: writes are frozen"
    assert journal.events == [("pre", "Write")]
    assert not (tmp_path / "work" / "a.txt").exists()


def test_hook_matcher_selects_tools_by_exact_name(tmp_path: Path) -> None:
    journal = Journal()
    executor = make_executor(tmp_path, journal)
    seen: list[str] = []
    executor.add_hook("PostToolUse", lambda name, args, result: seen.append(name), matcher="TaskGet|TaskList")
    executor.add_hook("PostToolUse", lambda name, args, result: seen.append("*" + name), matcher="*")

    for name in ("TaskList", "TaskCreate", "TaskGet"):
        executor.execute(name, {"taskId": "1"} if name == "TaskGet" else {})

    # TaskCreate fails validation: no hook at all. TaskGet fails in the tool: hooks see it.
    assert seen == ["TaskList", "*TaskList", "TaskGet", "*TaskGet"]


def test_a_raising_pre_hook_blocks_the_call(tmp_path: Path) -> None:
    executor = make_executor(tmp_path, Journal())
    executor.add_hook("PreToolUse", boom)

    error = rejected(executor.execute("TaskCreate", {"subject": "s", "description": "d"}))

    assert error == "TaskCreate was blocked by a PreToolUse hook: the hook raised RuntimeError: hook broke"
    assert not (tmp_path / "tasks" / "1.json").exists()


def test_a_raising_post_hook_keeps_the_result_and_records_the_error(tmp_path: Path) -> None:
    executor = make_executor(tmp_path, Journal())
    executor.add_hook("PostToolUse", boom)

    result = executor.execute("TaskCreate", {"subject": "s", "description": "d"})

    assert ok(result) == "Task #1 created successfully: s"
    assert result.metadata == {"post_tool_use_errors": ("RuntimeError: hook broke",)}
    assert (tmp_path / "tasks" / "1.json").exists()


def test_post_hook_sees_failed_tool_results_too(tmp_path: Path) -> None:
    executor = make_executor(tmp_path, Journal())
    results: list[ToolResult] = []
    executor.add_hook("PostToolUse", lambda name, args, result: results.append(result))

    returned = executor.execute("TaskGet", {"taskId": "7"})

    assert results == [returned]
    assert rejected(returned) == "Task #7 not found"


@pytest.mark.parametrize(
    ("handler", "error"),
    [
        (lambda args: 1 / 0, "calc failed: ZeroDivisionError: division by zero"),
        (lambda args: 42, "calc returned int, not a ToolResult or a string"),
        (lambda args: ToolResult(False, "", "bad input: x"), "bad input: x"),
    ],
)
def test_handler_outcomes_become_results(tmp_path: Path, handler: Any, error: str) -> None:
    executor = make_executor(tmp_path, Journal())
    executor.register_custom("calc", {"type": "object"}, handler)
    assert rejected(executor.execute("calc", {})) == error


def test_non_object_arguments_of_a_non_built_in_are_refused_before_hooks(tmp_path: Path) -> None:
    journal = Journal()
    executor = make_executor(tmp_path, journal)
    executor.register_custom("calc", {"type": "object"}, journal.spy("calc"))

    error = rejected(executor.execute("calc", ["1", "2"]))

    assert error == "calc takes its arguments as a JSON object, not list; it was not run"
    assert journal.events == []


def test_non_object_arguments_of_a_built_in_get_the_validation_message(tmp_path: Path) -> None:
    journal = Journal()
    executor = make_executor(tmp_path, journal)
    error = rejected(executor.execute("TaskList", "all"))
    assert error == (
        "TaskList failed due to the following issue:\n"
        "The tool input type is expected as `object` but provided as `string`"
    )
    assert [(name, args) for name, args, _ in journal.failures] == [("TaskList", "all")]


def test_unknown_tool_is_a_failed_result(tmp_path: Path) -> None:
    executor = make_executor(tmp_path, Journal())
    assert rejected(executor.execute("Teleport", {})) == "No such tool available: Teleport"
    assert executor.origin("Teleport") is None
    nameless = rejected(executor.execute(None, {}))  # type: ignore[arg-type]
    assert nameless == "A tool name must be a string, not NoneType; nothing was run"


def test_validation_failure_callback_that_raises_changes_nothing(tmp_path: Path) -> None:
    executor = ToolExecutor(tmp_path, tmp_path / "tasks", on_validation_failure=boom)
    error = rejected(executor.execute("TaskGet", {}))
    assert error == "TaskGet failed due to the following issue:\nThe required parameter `taskId` is missing"


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (False, "permission was denied"),
        ("yes", "permission was denied"),
        (boom, "the permission callback raised RuntimeError: hook broke; treated as a denial"),
    ],
)
def test_only_true_grants_permission(tmp_path: Path, answer: Any, reason: str) -> None:
    def permission(tool: str, args: object) -> Any:
        return answer(tool, args) if callable(answer) else answer

    executor = ToolExecutor(tmp_path, tmp_path / "tasks", permission)
    target = tmp_path.resolve() / "a.txt"
    error = rejected(executor.execute("Write", {"file_path": "a.txt", "content": "x"}))
    assert error == f"Write was not allowed to change {target}: {reason}; nothing was written"
    assert not target.exists()


def test_registration_mistakes_raise_at_registration(tmp_path: Path) -> None:
    executor = ToolExecutor(tmp_path, tmp_path / "tasks")
    with pytest.raises(ValueError, match="not a built-in"):
        executor.register_builtin("Teleport", lambda args: "")
    with pytest.raises(ValueError, match="unknown hook event"):
        executor.add_hook("PreToolCall", lambda name, args: None)
    with pytest.raises(ValueError, match="non-empty string"):
        executor.register_mcp("", "x", {}, lambda args: "")
    with pytest.raises(TypeError, match="JSON Schema object"):
        executor.register_custom("x", [], lambda args: "")  # type: ignore[arg-type]


def test_a_built_in_can_be_rebound(tmp_path: Path) -> None:
    executor = ToolExecutor(tmp_path, tmp_path / "tasks")
    executor.register_builtin("Bash", lambda args: f"ran {args['command']}")
    assert ok(executor.execute("Bash", {"command": "true"})) == "ran true"
    assert executor.origin("Bash") == "builtin"
    assert rejected(executor.execute("Bash", {"cmd": "true"})).startswith("Bash failed due to")
