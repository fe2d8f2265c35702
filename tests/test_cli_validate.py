"""`toolgen validate TOOL [JSON | -]`: the exact message, exit 0 valid / 1 invalid / 2 unusable."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from tests.toolgen_cli import ROOT, invoke, run_process

SPEC_EXAMPLE = """\
TaskUpdate failed due to the following issues:
The required parameter `taskId` is missing
An unexpected parameter `id` was provided
The parameter `owner` type is expected as `string` but provided as `number`
The parameter `status` is invalid: expected one of "pending", "in_progress", "completed", "deleted"
"""


def validate(*args: str, stdin: str | None = None) -> Any:
    return invoke("validate", *args, stdin=stdin)


def test_invalid_call_prints_the_exact_message_and_exits_1() -> None:
    result = validate("TaskUpdate", '{"id": "2", "status": "done", "owner": 3}')
    assert (result.exit_code, result.stdout, result.stderr) == (1, SPEC_EXAMPLE, "")


def test_valid_call_exits_0() -> None:
    result = validate("TaskUpdate", '{"taskId": "2", "status": "completed"}')
    assert (result.exit_code, result.stdout) == (0, "TaskUpdate: valid\n")


def test_arguments_from_standard_input() -> None:
    assert validate("Write", stdin='{"file_path": "a.txt"}').stdout == (
        "Write failed due to the following issue:\nThe required parameter `content` is missing\n"
    )
    dash = validate("Write", "-", stdin='{"file_path": "a.txt", "content": ""}')
    assert (dash.exit_code, dash.stdout) == (0, "Write: valid\n")


def test_not_an_object_is_a_type_issue() -> None:
    result = validate("Read", '["a.txt"]')
    assert (result.exit_code, result.stdout) == (
        1,
        "Read failed due to the following issue:\n"
        "The tool input type is expected as `object` but provided as `array`\n",
    )


def test_unknown_tools_pass_through_and_say_so() -> None:
    result = validate("mcp__github__create_issue", "{}")
    assert (result.exit_code, result.stdout) == (
        0,
        "mcp__github__create_issue: no validator in generated/ (not a built-in tool); "
        "passes through unvalidated\n",
    )


def test_bad_json_or_missing_package_exit_2(tmp_path: Path) -> None:
    bad = validate("Write", "{'file_path': 1}")
    assert (bad.exit_code, bad.stdout) == (2, "")
    assert bad.stderr == (
        "error: the arguments are not JSON: Expecting property name enclosed in double quotes: "
        "line 1 column 2 (char 1)\n"
    )
    missing = validate("Write", "{}", "--out", str(tmp_path))
    assert (missing.exit_code, missing.stderr) == (
        2,
        f"error: {tmp_path}: no generated package here; run: toolgen generate --out {tmp_path}\n",
    )


def test_a_moved_package_under_another_name_is_used(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "generated", tmp_path / "vendored_validators")
    # a package that knows one tool fewer: proves the copy, not the installed one, answered
    (tmp_path / "vendored_validators" / "_declarations.py").write_text(
        (ROOT / "generated" / "_declarations.py")
        .read_text("utf-8")
        .replace('    "Write": "write_3f00927a",\n', ""),
        "utf-8",
    )
    out = str(tmp_path / "vendored_validators")
    assert validate("Write", "{}", "--out", out).stdout.startswith("Write: no validator in ")
    assert validate("Read", "{}", "--out", out).exit_code == 1


def test_validate_in_a_real_process() -> None:
    done = run_process("validate", "TaskUpdate", "-", stdin='{"id": "2", "status": "done", "owner": 3}')
    assert (done.returncode, done.stdout, done.stderr) == (1, SPEC_EXAMPLE, "")


def test_nothing_on_standard_input_says_where_it_looked() -> None:
    result = invoke("validate", "Write", stdin="")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        "error: no arguments: standard input (read when no JSON follows the tool name) was empty; "
        "give the call's JSON after the tool name, or pipe it in\n",
    )
