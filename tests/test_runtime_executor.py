"""ToolExecutor mechanics: registration, hooks, handler outcomes, permission answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import generated
from runtime import ToolExecutor, ToolResult, check_call
from runtime.builtins import register_file_tools, register_task_tools
from tests.genpkg import user_package
from tests.runtime_support import Journal, make_executor, ok, rejected, repo_executor


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
    # A misspelt name is answered with the tool it was probably meant for, as `toolgen validate` does.
    assert (
        rejected(executor.execute("task_get", {}))
        == "No such tool available: task_get. Did you mean `TaskGet`?"
    )
    assert (
        rejected(executor.execute("Tasklist", {}))
        == "No such tool available: Tasklist. Did you mean `TaskList`?"
    )
    assert executor.origin("Teleport") is None
    nameless = rejected(executor.execute(None, {}))  # type: ignore[arg-type]
    assert nameless == "A tool name must be a string, not NoneType; nothing was run"


def test_validation_failure_callback_that_raises_changes_nothing(tmp_path: Path) -> None:
    executor = repo_executor(tmp_path, tmp_path / "tasks", on_validation_failure=boom)
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

    executor = repo_executor(tmp_path, tmp_path / "tasks", permission)
    target = tmp_path.resolve() / "a.txt"
    error = rejected(executor.execute("Write", {"file_path": "a.txt", "content": "x"}))
    assert error == f"Write was not allowed to change {target}: {reason}; nothing was written"
    assert not target.exists()


def test_registration_mistakes_raise_at_registration(tmp_path: Path) -> None:
    executor = repo_executor(tmp_path, tmp_path / "tasks")
    with pytest.raises(ValueError) as undeclared:
        executor.register_declared("Teleport", lambda args: "")
    assert str(undeclared.value) == (
        "'Teleport' is not declared in `generated`; declare it and regenerate, "
        "or register it with register_custom (not validated)"
    )
    with pytest.raises(ValueError) as misspelt:
        executor.register_declared("task_create", lambda args: "")
    assert str(misspelt.value) == (
        "'task_create' is not declared in `generated` (did you mean `TaskCreate`?); declare it and "
        "regenerate, or register it with register_custom (not validated)"
    )
    with pytest.raises(ValueError) as shadowing:
        executor.register_custom("Read", {"type": "object"}, lambda args: "")
    assert str(shadowing.value) == (
        "'Read' is declared in `generated`: bind it with register_declared, which validates its calls"
    )
    with pytest.raises(ValueError, match="unknown hook event"):
        executor.add_hook("PreToolCall", lambda name, args: None)
    with pytest.raises(ValueError, match="non-empty string"):
        executor.register_mcp("", "x", {}, lambda args: "")
    with pytest.raises(TypeError, match="JSON Schema object"):
        executor.register_custom("x", [], lambda args: "")  # type: ignore[arg-type]


def test_a_declared_tool_can_be_rebound(tmp_path: Path) -> None:
    executor = repo_executor(tmp_path, tmp_path / "tasks")
    executor.register_declared("Bash", lambda args: f"ran {args['command']}")
    assert ok(executor.execute("Bash", {"command": "true"})) == "ran true"
    assert executor.origin("Bash") == "declared"
    assert rejected(executor.execute("Bash", {"cmd": "true"})).startswith("Bash failed due to")


WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    "required": ["city"],
    "additionalProperties": False,
}


@pytest.fixture
def weather_tools(tmp_path: Path) -> Iterator[ModuleType]:
    """A user's own package, generated from their own declarations (no file or task tools)."""
    tools = {"get_weather": WEATHER, "get_forecast": WEATHER}
    yield from user_package(tmp_path / "project", "weather_tools", tools)


def test_a_users_own_tools_are_validated_by_their_own_package(
    tmp_path: Path, weather_tools: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    journal = Journal()
    executor = ToolExecutor(weather_tools, on_validation_failure=journal.on_failure)

    @executor.declared("get_weather")
    def get_weather(args: dict[str, Any]) -> str:
        journal.events.append(("run", "get_weather"))
        return f"{args['city']}: sunny"

    assert get_weather({"city": "Oslo"}) == "Oslo: sunny"  # the decorator returns the function
    journal.events.clear()
    assert ok(executor.execute("get_weather", {"city": "Oslo"})) == "Oslo: sunny"
    assert rejected(executor.execute("get_weather", {"city": 3})) == (
        "get_weather failed due to the following issue:\n"
        "The parameter `city` type is expected as `string` but provided as `number`"
    )
    assert journal.events == [("run", "get_weather")]
    assert [(name, args) for name, args, _ in journal.failures] == [("get_weather", {"city": 3})]
    assert (executor.origin("get_weather"), executor.origin("get_forecast")) == ("declared", "declared")
    # Declared but not bound: still validated first, then reported, never pretended.
    assert rejected(executor.execute("get_forecast", {})).startswith("get_forecast failed due to")
    assert rejected(executor.execute("get_forecast", {"city": "Oslo"})) == (
        "get_forecast is declared but has no implementation bound in this executor; it was not run"
    )
    assert rejected(executor.execute("getWeather", {"city": "Oslo"})) == (
        "No such tool available: getWeather. Did you mean `get_weather`?"
    )
    # This repository's file and task tools are not there, and no folder was made for them.
    assert executor.origin("Read") is None and executor.origin("TaskCreate") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["project"]


def test_registering_a_misspelt_declared_name_suggests_the_declared_one(weather_tools: ModuleType) -> None:
    executor = ToolExecutor(weather_tools)
    with pytest.raises(ValueError) as refused:
        executor.declared("get_wether")(lambda args: "")
    assert str(refused.value) == (
        f"'get_wether' is not declared in `{weather_tools.__name__}` (did you mean `get_weather`?); "
        "declare it and regenerate, or register it with register_custom (not validated)"
    )
    executor.register_custom("geocode", {"type": "object"}, lambda args: "59.9,10.7")
    assert ok(executor.execute("geocode", {"place": 7})) == "59.9,10.7"  # not declared: not validated
    assert executor.origin("geocode") == "custom"


def test_the_file_and_task_tools_need_a_package_that_declares_them(
    tmp_path: Path, weather_tools: ModuleType
) -> None:
    executor = ToolExecutor(weather_tools)
    with pytest.raises(ValueError) as refused:
        register_file_tools(executor, tmp_path)
    assert (
        str(refused.value)
        == f"`{weather_tools.__name__}` declares none of the file tools (Read, Write, Edit)"
    )
    assert register_task_tools(ToolExecutor(generated), tmp_path / "tasks") == (
        "TaskCreate",
        "TaskGet",
        "TaskUpdate",
        "TaskList",
    )


def test_the_executor_takes_a_package_not_a_folder(tmp_path: Path) -> None:
    with pytest.raises(TypeError) as refused:
        ToolExecutor(tmp_path)  # type: ignore[arg-type]
    assert str(refused.value) == (
        f"ToolExecutor takes a generated validator package (with TOOL_NAMES), not {tmp_path!r}"
    )


def test_check_call_guards_a_users_own_tools_without_an_executor(weather_tools: ModuleType) -> None:
    heard: list[tuple[str, object, list[str]]] = []

    def on_failure(name: str, args: object, issues: tuple[Any, ...]) -> None:
        heard.append((name, args, [issue.line for issue in issues]))

    assert (
        check_call(weather_tools, "get_weather", {"city": "Oslo"}, on_validation_failure=on_failure) is None
    )
    assert check_call(weather_tools, "get_weather", {"city": 3}, on_validation_failure=on_failure) == (
        "get_weather failed due to the following issue:\n"
        "The parameter `city` type is expected as `string` but provided as `number`"
    )
    # A tool the package does not declare passes through, and is no rejection.
    assert check_call(weather_tools, "geocode", {"place": 7}, on_validation_failure=on_failure) is None
    assert heard == [
        (
            "get_weather",
            {"city": 3},
            ["The parameter `city` type is expected as `string` but provided as `number`"],
        )
    ]
