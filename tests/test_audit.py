"""`toolgen audit`: recorded calls in every logged shape, replayed through the real validators."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import generated
from generator.readers.audit import Call, Malformed, Unrecognised, calls_in
from runtime.failures import JsonlFailureSink
from tests.toolgen_cli import ROOT, invoke, run_process

OPENAI_LOG = ROOT / "examples" / "audit" / "openai.jsonl"
ANTHROPIC_LOG = ROOT / "examples" / "audit" / "anthropic.jsonl"
ARGS = {"file_path": "a.txt"}


def openai_entry(name: str, arguments: str) -> dict[str, Any]:
    return {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}


@pytest.mark.parametrize(
    ("value", "calls"),
    [
        (openai_entry("Write", '{"file_path": "a.txt"}'), [Call("Write", ARGS)]),
        ({"role": "assistant", "content": None,
          "tool_calls": [openai_entry("Write", "{}"), openai_entry("Read", "{}")]},
         [Call("Write", {}), Call("Read", {})]),
        ({"role": "assistant", "content": "no call", "tool_calls": None}, []),
        ({"choices": [{"index": 0,
                       "message": {"role": "assistant", "tool_calls": [openai_entry("Read", "{}")]}}]},
         [Call("Read", {})]),
        ({"type": "function_call", "call_id": "c", "name": "Write", "arguments": '{"file_path": "a.txt"}'},
         [Call("Write", ARGS)]),
        ({"output": [{"type": "reasoning"}, {"type": "function_call", "name": "Read", "arguments": "{}"}]},
         [Call("Read", {})]),
        ({"type": "tool_use", "id": "t", "name": "Write", "input": ARGS}, [Call("Write", ARGS)]),
        ({"role": "assistant",
          "content": [{"type": "text", "text": "hi"}, {"type": "tool_use", "name": "Read", "input": {}}]},
         [Call("Read", {})]),
        ({"name": "Write", "arguments": ARGS}, [Call("Write", ARGS)]),
        ({"name": "Write", "input": ARGS}, [Call("Write", ARGS)]),
        ({"role": "user", "content": "hello"}, []),
        ({"role": "tool", "tool_call_id": "call_1", "content": "done"}, []),
        ([{"name": "Read", "arguments": {}}, {"type": "tool_use", "name": "Write", "input": {}}],
         [Call("Read", {}), Call("Write", {})]),
        ({"event": "tool_input_rejected", "tool": "Write", "issues": [], "arguments": ARGS},
         [Call("Write", ARGS)]),
    ],
)  # fmt: skip
def test_calls_are_found_in_every_logged_shape(value: Any, calls: list[Call]) -> None:
    assert calls_in(value) == calls


def test_openai_arguments_that_are_not_json_are_a_rejected_call() -> None:
    [call] = calls_in(openai_entry("Read", "{'file_path': 'a'}"))
    assert (call.tool, call.has_arguments) == ("Read", False)
    assert (
        call.undecodable == "arguments are not JSON: Expecting property name enclosed in double quotes: "
        "line 1 column 2 (char 1)"
    )


@pytest.mark.parametrize(
    ("value", "error", "reason"),
    [
        ({"type": "tool_use", "input": {}}, Malformed, "tool_use block without a name"),
        ({"role": "assistant", "content": [{"type": "tool_use", "input": {}}]}, Malformed,
         "tool_use block without a name"),
        ({"tool_calls": "x"}, Malformed, "tool_calls is not a list"),
        ({"tool": "Write", "issues": [{"path": "x"}]}, Malformed, "failure record with a malformed issue"),
        ({"foo": 1, "bar": 2}, Unrecognised, "no tool call found (keys: bar, foo)"),
        (42, Unrecognised, "expected an object or an array, found a number"),
    ],
)  # fmt: skip
def test_broken_or_unknown_lines_are_named(value: Any, error: type[Exception], reason: str) -> None:
    with pytest.raises(error) as caught:
        calls_in(value)
    assert str(caught.value) == reason


def run(*args: str) -> Any:
    return invoke("audit", *args)


EXPECTED_ANTHROPIC = """\
1 file, 6 lines, 5 tool calls, 0 bad lines
would be rejected: 3 of 5 validated calls (60.0%); passed through: 0 (tools without a validator in generated/)

tool          calls  rejected   share
LSP               1         1  100.0%
Read              1         1  100.0%
TaskCreate        1         1  100.0%
ExitWorktree      1         0    0.0%
Glob              1         0    0.0%

tool        parameter    kind     detail                    issues
LSP         operation    invalid                                 1
Read        offset       type     string instead of number       1
TaskCreate  description  missing                                 1

kind     issues
invalid       1
missing       1
type          1
"""


def test_audit_report_of_an_anthropic_log() -> None:
    result = run(ANTHROPIC_LOG.relative_to(ROOT).as_posix())
    assert (result.exit_code, result.stdout, result.stderr) == (0, EXPECTED_ANTHROPIC, "")


def test_audit_json_over_two_logs_counts_by_tool_parameter_and_kind() -> None:
    result = run("--json", str(OPENAI_LOG), str(ANTHROPIC_LOG))
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert {
        k: data[k] for k in ("lines", "bad_lines", "calls", "validated", "passed_through", "rejected")
    } == {
        "lines": 19,
        "bad_lines": 1,
        "calls": 16,
        "validated": 15,
        "passed_through": 1,
        "rejected": 11,
    }
    assert data["by_tool"][0] == {"tool": "Read", "validated": True, "calls": 4, "rejected": 3}
    assert {"tool": "mcp__github__create_issue", "validated": False, "calls": 1, "rejected": 0} in data[
        "by_tool"
    ]
    assert data["by_parameter"][0] == {
        "tool": "AskUserQuestion",
        "parameter": "questions[*].multiSelect",
        "kind": "type",
        "detail": "string instead of boolean",
        "count": 2,
    }
    assert data["by_kind"] == [
        {"kind": "type", "issues": 5},
        {"kind": "missing", "issues": 4},
        {"kind": "invalid", "issues": 2},
        {"kind": "unexpected", "issues": 2},
        {"kind": "undecodable", "issues": 1},
    ]
    assert data["bad"] == [
        {
            "file": str(OPENAI_LOG),
            "line": 11,
            "reason": "not JSON: Invalid control character at: line 1 column 127 (char 126)",
        }
    ]


def test_failure_sink_files_are_replayed_or_counted_as_recorded(tmp_path: Path) -> None:
    log = tmp_path / "failures.jsonl"
    bare, full = JsonlFailureSink(log), JsonlFailureSink(log, include_arguments=True)
    for sink in (bare, full):
        for tool, args in (("TaskUpdate", {"id": "2"}), ("Write", {"file_path": 1, "content": ""})):
            sink(tool, args, generated.issues(tool, args))
    data = json.loads(run("--json", str(log)).stdout)
    assert (data["calls"], data["rejected"], data["counted_from_records"]) == (4, 4, 2)
    assert data["by_parameter"] == [
        {"tool": "TaskUpdate", "parameter": "id", "kind": "unexpected", "detail": "", "count": 2},
        {"tool": "TaskUpdate", "parameter": "taskId", "kind": "missing", "detail": "", "count": 2},
        {
            "tool": "Write",
            "parameter": "file_path",
            "kind": "type",
            "detail": "number instead of string",
            "count": 2,
        },
    ]


def test_bad_lines_are_counted_and_listed_never_fatal(tmp_path: Path) -> None:
    log = tmp_path / "mixed.jsonl"
    good = json.dumps({"name": "Write", "arguments": {}})
    bad = [b"\xff\xfe not utf-8", b"{not json", b'{"type": "tool_use"}', b"[1, 2]", b"[" * 100_000]
    log.write_bytes(b"\n".join([good.encode(), *bad * 5, b"", good.encode()]) + b"\n")
    result = run(str(log))
    assert result.exit_code == 0
    assert result.stdout.startswith("1 file, 27 lines, 2 tool calls, 25 bad lines\n")
    listed = [line for line in result.stdout.splitlines() if line.startswith(f"  {log}:")]
    assert listed[:5] == [
        f"  {log}:2: not UTF-8 text (byte 0)",
        f"  {log}:3: not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        f"  {log}:4: tool_use block without a name",
        f"  {log}:5: expected an object or an array, found a number",
        f"  {log}:6: nested too deeply",
    ]
    assert len(listed) == 20 and result.stdout.endswith("  ... and 5 more\n")


def test_progress_bar_on_long_files(tmp_path: Path) -> None:
    log = tmp_path / "long.jsonl"
    line = json.dumps({"name": "Write", "arguments": {"file_path": "a", "content": "x" * 1000}}) + "\n"
    log.write_text(line * 1100, "utf-8")  # just over 1 MB
    result = run("--json", str(log))
    assert json.loads(result.stdout)["calls"] == 1100
    assert f"auditing {log}" in result.stderr
    assert "auditing" not in run("--no-progress", str(log)).stderr
    assert "auditing" not in run(str(OPENAI_LOG)).stderr


def test_unreadable_file_or_package_exits_2(tmp_path: Path) -> None:
    missing = run(str(tmp_path / "nope.jsonl"))
    assert (missing.exit_code, missing.stderr) == (
        2,
        f"error: {tmp_path}/nope.jsonl: No such file or directory\n",
    )
    no_package = run("--out", str(tmp_path), str(OPENAI_LOG))
    assert no_package.exit_code == 2
    assert no_package.stderr == (
        f"error: {tmp_path}: no generated package here; run: toolgen generate --out {tmp_path}\n"
    )


def test_audit_in_a_real_process() -> None:
    done = run_process("audit", "examples/audit/anthropic.jsonl")
    assert (done.returncode, done.stdout, done.stderr) == (0, EXPECTED_ANTHROPIC, "")
