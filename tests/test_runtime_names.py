"""The runtime and `toolgen validate` agree on which tool a misspelt name was meant for, and
say it the same way; the runtime imports no generated package of its own (issue 20)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from click.testing import CliRunner

import generated
from generator.cli.commands import main
from generator.readers.didyoumean import meant as validate_meant
from generator.readers.explain import suggest
from runtime import ToolExecutor
from runtime.failures import EVENT
from runtime.names import close_names, meant

ROOT = Path(__file__).resolve().parent.parent
KNOWN = ["get_weather", "get_forecast", "list_issues", "list-issue-comments", "TaskGet", "TaskList", "Read"]
CASES = [
    ("get_wether", ["get_weather"]),
    ("GetWeather", ["get_weather"]),
    ("get-weather", ["get_weather"]),
    ("list_issue", ["list_issues"]),
    ("List_Issues", ["list_issues"]),
    ("taskget", ["TaskGet"]),
    ("task_lst", ["TaskList"]),
    ("TaskGot", ["TaskGet"]),
    ("read", ["Read"]),
    ("get_forecasts", ["get_forecast"]),
    ("list_issue_comment", ["list-issue-comments"]),
    ("weather", []),  # another tool, not a typo
    ("Write", []),
    ("TaskCreate", []),
    ("", []),
    ("mcp__github__create_issue", []),
]


@pytest.mark.parametrize(("name", "expected"), CASES)
def test_the_runtime_and_validate_suggest_the_same_names(name: str, expected: list[str]) -> None:
    assert close_names(name, KNOWN) == suggest(name, KNOWN, close_only=True) == expected


@pytest.mark.parametrize(("name", "expected"), CASES)
def test_the_runtime_and_validate_say_it_the_same_way(name: str, expected: list[str]) -> None:
    # validate words it with didyoumean.meant over the package's TOOL_NAMES (a frozenset).
    worded = " or ".join(f"`{n}`" for n in expected)
    assert meant(name, KNOWN) == validate_meant(name, frozenset(KNOWN)) == worded


def test_a_misspelt_call_gets_the_same_suggestion_from_validate_and_the_executor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    cli = CliRunner().invoke(main, ["validate", "task_get", '{"taskId": "1"}'])
    assert (cli.exit_code, cli.output) == (
        1,
        "task_get: no validator in generated/; did you mean `TaskGet`?\n",
    )
    result = ToolExecutor(generated).execute("task_get", {"taskId": "1"})
    assert result.error == "No such tool available: task_get. Did you mean `TaskGet`?"


def test_the_sink_writes_the_event_the_packages_name() -> None:
    assert EVENT == generated._support.FAILURE_EVENT


def generated_imports(source: str) -> list[str]:
    """Every import of a module named `generated` (or inside it) in the source, wherever it is."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[0] == "generated"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            module = node.module or ""
            found += [module] if module.split(".")[0] == "generated" else []
    return found


def test_no_runtime_module_imports_a_generated_package() -> None:
    # The runtime works with the package the user passes; the repository's own `generated/`
    # would be another project's declarations in a user's install.
    modules = sorted((ROOT / "runtime").rglob("*.py"))
    assert len(modules) >= 15
    found = {
        path.relative_to(ROOT).as_posix(): imports
        for path in modules
        if (imports := generated_imports(path.read_text("utf-8")))
    }
    assert found == {}


def test_the_scan_finds_an_import_of_generated() -> None:
    source = (
        "import generated\nfrom generated._support import Issue\nimport os, generated.x as g\n"
        "def f():\n    from generated import validate\nfrom .generated import nothing\n"
    )
    assert generated_imports(source) == ["generated", "generated._support", "generated.x", "generated"]
