"""runtime/failures.py: the JSONL sink for rejected calls, as the executor's callback."""

from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import generated
from runtime.failures import EVENT, JsonlFailureSink

BAD_CALL = {"id": "2", "status": "done", "owner": "sk-secret-value"}


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("ascii").splitlines()]


def reject(sink: JsonlFailureSink, tool: str, args: object) -> None:
    sink(tool, args, generated.issues(tool, args))


def test_one_line_per_failure_with_kinds_and_paths_but_no_values(tmp_path: Path) -> None:
    sink = JsonlFailureSink(tmp_path / "failures.jsonl")
    before = datetime.now(timezone.utc)
    reject(sink, "TaskUpdate", BAD_CALL)
    reject(sink, "Write", {"file_path": "a.txt"})
    [first, second] = lines(tmp_path / "failures.jsonl")
    assert first["event"] == EVENT
    stamp = datetime.fromisoformat(str(first["timestamp"]))
    assert stamp.utcoffset() == timedelta(0) and before - timedelta(seconds=1) <= stamp <= datetime.now(
        timezone.utc
    )
    assert first["tool"] == "TaskUpdate"
    assert first["issues"] == [
        {"kind": "missing", "path": "taskId", "line": "The required parameter `taskId` is missing"},
        {"kind": "unexpected", "path": "id", "line": "An unexpected parameter `id` was provided"},
        {
            "kind": "invalid",
            "path": "status",
            "line": "The parameter `status` is invalid: expected one of "
            '"pending", "in_progress", "completed", "deleted"',
        },
    ]
    assert "arguments" not in first
    assert second["issues"] == [
        {"kind": "missing", "path": "content", "line": "The required parameter `content` is missing"}
    ]
    text = (tmp_path / "failures.jsonl").read_text("ascii")
    assert "sk-secret-value" not in text and '"done"' not in text
    assert (sink.written, sink.dropped) == (2, 0)


def test_arguments_only_when_asked(tmp_path: Path) -> None:
    sink = JsonlFailureSink(tmp_path / "f.jsonl", include_arguments=True)
    reject(sink, "TaskUpdate", BAD_CALL)
    assert lines(tmp_path / "f.jsonl")[0]["arguments"] == BAD_CALL


def test_values_that_are_not_json_are_recorded_by_repr(tmp_path: Path) -> None:
    sink = JsonlFailureSink(tmp_path / "f.jsonl", include_arguments=True)
    reject(sink, "Write", {"file_path": b"a", ("x", 1): {1, 2}, "content": "\ud800"})
    reject(sink, "Write", ("not", "a", "dict"))
    [first, second] = lines(tmp_path / "f.jsonl")
    assert first["arguments"] == repr({"file_path": b"a", ("x", 1): {1, 2}, "content": "\ud800"})
    assert second["arguments"] == ["not", "a", "dict"]  # json writes a tuple as an array
    assert second["issues"] == [
        {
            "kind": "type",
            "path": "",
            "line": "The tool input type is expected as `object` but provided as `tuple`",
        }
    ]


def test_a_write_that_fails_is_counted_never_raised(tmp_path: Path) -> None:
    sink = JsonlFailureSink(tmp_path)  # a folder: opening it for appending fails
    reject(sink, "Write", {})
    assert (sink.written, sink.dropped) == (0, 1)
    assert isinstance(sink.last_error, OSError)


def test_threads_append_whole_lines(tmp_path: Path) -> None:
    sink = JsonlFailureSink(tmp_path / "f.jsonl", include_arguments=True)
    payload = {"file_path": "x" * 5000}  # long lines make torn writes visible

    def worker(n: int) -> None:
        for i in range(100):
            reject(sink, "Write", {**payload, "n": n * 1000 + i})

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    records = lines(tmp_path / "f.jsonl")
    assert sorted(r["arguments"]["n"] for r in records) == sorted(
        n * 1000 + i for n in range(8) for i in range(100)
    )
    assert sink.written == 800
