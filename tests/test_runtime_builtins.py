"""This repository's own file and task tools (runtime.builtins), through the executor, checked on disk."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from runtime import ToolExecutor
from tests.runtime_support import create_tasks, ok, rejected, repo_executor


@pytest.fixture
def executor(tmp_path: Path) -> ToolExecutor:
    (tmp_path / "work").mkdir()
    return repo_executor(tmp_path / "work", tmp_path / "tasks", lambda tool, args: True)


def task(tmp_path: Path, task_id: str) -> Any:
    return json.loads((tmp_path / "tasks" / f"{task_id}.json").read_bytes())


def test_task_create_writes_one_file_per_task(tmp_path: Path, executor: ToolExecutor) -> None:
    args = {
        "subject": "Fix",
        "description": "the bug",
        "activeForm": "Fixing",
        "metadata": {"a": 1, "b": None},
    }
    ok(executor.execute("TaskCreate", args))
    assert task(tmp_path, "1") == {
        "id": "1",
        "subject": "Fix",
        "description": "the bug",
        "activeForm": "Fixing",
        "status": "pending",
        "blocks": [],
        "blockedBy": [],
        "metadata": {"a": 1},
    }
    assert (tmp_path / "tasks" / "1.json").read_text().endswith("}\n")


def test_task_ids_are_never_reused(tmp_path: Path, executor: ToolExecutor) -> None:
    create_tasks(executor, "a", "b")
    assert ok(executor.execute("TaskUpdate", {"taskId": "2", "status": "deleted"})) == "Task #2 deleted"
    assert not (tmp_path / "tasks" / "2.json").exists()
    assert ok(executor.execute("TaskCreate", {"subject": "c", "description": "d"})).startswith("Task #3 ")
    assert rejected(executor.execute("TaskGet", {"taskId": "2"})) == "Task #2 not found"


def test_task_ids_that_are_paths_find_nothing(tmp_path: Path, executor: ToolExecutor) -> None:
    (tmp_path / "secret.json").write_text('{"id": "x"}')
    create_tasks(executor, "a")
    for task_id in ("../secret", "01", "1.0", "١", " 1"):
        assert rejected(executor.execute("TaskGet", {"taskId": task_id})) == f"Task #{task_id} not found"
        rejected(executor.execute("TaskUpdate", {"taskId": task_id, "status": "deleted"}))
    assert (tmp_path / "secret.json").exists()


def test_task_update_merges_metadata_and_links_both_ends(tmp_path: Path, executor: ToolExecutor) -> None:
    create_tasks(executor, "a", "b", "c")
    ok(executor.execute("TaskUpdate", {"taskId": "1", "metadata": {"keep": 1, "drop": 2}}))
    ok(
        executor.execute(
            "TaskUpdate", {"taskId": "1", "metadata": {"drop": None, "new": [3]}, "addBlocks": ["2", "3"]}
        )
    )
    ok(executor.execute("TaskUpdate", {"taskId": "3", "addBlockedBy": ["1", "2"]}))

    assert task(tmp_path, "1")["metadata"] == {"keep": 1, "new": [3]}
    assert [(task(tmp_path, i)["blocks"], task(tmp_path, i)["blockedBy"]) for i in "123"] == [
        (["2", "3"], []),
        (["3"], ["1"]),
        ([], ["1", "2"]),
    ]
    assert ok(executor.execute("TaskList", {})) == (
        "#1 [pending] a\n#2 [pending] b [blocked by #1]\n#3 [pending] c [blocked by #1, #2]"
    )
    ok(executor.execute("TaskUpdate", {"taskId": "1", "status": "deleted"}))
    assert ok(executor.execute("TaskList", {})) == "#2 [pending] b\n#3 [pending] c [blocked by #2]"


def test_task_update_with_a_bad_link_writes_nothing(tmp_path: Path, executor: ToolExecutor) -> None:
    create_tasks(executor, "a", "b")
    before = [(tmp_path / "tasks" / f"{i}.json").read_bytes() for i in "12"]

    missing = rejected(executor.execute("TaskUpdate", {"taskId": "1", "owner": "x", "addBlocks": ["2", "9"]}))
    itself = rejected(executor.execute("TaskUpdate", {"taskId": "1", "addBlockedBy": ["1"]}))

    assert missing == "Task #1 not updated: `addBlocks` names #9: no such task"
    assert itself == "Task #1 not updated: `addBlockedBy` names #1: a task cannot block itself"
    assert [(tmp_path / "tasks" / f"{i}.json").read_bytes() for i in "12"] == before


def test_task_update_that_changes_nothing_does_not_rewrite(tmp_path: Path, executor: ToolExecutor) -> None:
    create_tasks(executor, "a")
    path = tmp_path / "tasks" / "1.json"
    os.utime(path, ns=(1, 1))
    result = executor.execute("TaskUpdate", {"taskId": "1", "subject": "a", "status": "pending"})
    assert ok(result) == "Task #1 unchanged: nothing to update"
    assert path.stat().st_mtime_ns == 1


def test_task_get_and_list_show_every_field(executor: ToolExecutor) -> None:
    assert ok(executor.execute("TaskList", {})) == "No tasks found"
    create_tasks(executor, "a", "b")
    update = {"taskId": "2", "status": "in_progress", "owner": "bot", "activeForm": "Doing b"}
    ok(executor.execute("TaskUpdate", {**update, "addBlockedBy": ["1"], "metadata": {"k": "v"}}))
    assert ok(executor.execute("TaskGet", {"taskId": "2"})) == (
        "Task #2: b\nStatus: in_progress\nDescription: about b\nActive form: Doing b\n"
        'Owner: bot\nBlocked by: #1\nMetadata: {"k": "v"}'
    )
    assert (
        ok(executor.execute("TaskList", {}))
        == "#1 [pending] a\n#2 [in_progress] b (owner: bot) [blocked by #1]"
    )


def test_concurrent_creates_through_two_executors_get_distinct_ids(tmp_path: Path) -> None:
    # Two executors share no thread lock: only the file lock keeps their ids apart.
    executors = [repo_executor(tmp_path, tmp_path / "tasks") for _ in range(2)]

    def create(executor: ToolExecutor, k: int) -> None:
        for i in range(10):
            ok(executor.execute("TaskCreate", {"subject": f"{k}-{i}", "description": "race"}))

    threads = [threading.Thread(target=create, args=(e, k)) for k, e in enumerate(executors * 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    subjects = sorted(task(tmp_path, str(i))["subject"] for i in range(1, 41))
    assert subjects == sorted(f"{k}-{i}" for k in range(4) for i in range(10))
    assert not (tmp_path / "tasks" / "41.json").exists()


def test_read_pages_through_a_file(tmp_path: Path, executor: ToolExecutor) -> None:
    (tmp_path / "work" / "f.txt").write_bytes(b"a\r\nb\n\nd")
    assert (
        ok(executor.execute("Read", {"file_path": "f.txt"})) == "     1\ta\r\n     2\tb\n     3\t\n     4\td"
    )
    assert ok(executor.execute("Read", {"file_path": "f.txt", "offset": 0, "limit": 1.0})) == "     1\ta\r"
    assert ok(executor.execute("Read", {"file_path": "f.txt", "offset": 9})).endswith(
        "has 4 lines; offset 9 is past its end."
    )
    assert (
        rejected(executor.execute("Read", {"file_path": "f.txt", "limit": 0}))
        == "Read failed: `limit` must be at least 1"
    )
    assert rejected(executor.execute("Read", {"file_path": "f.txt", "offset": 1.5})) == (
        "Read failed: `offset` must be a whole number, not 1.5"
    )


@pytest.mark.parametrize(
    ("file_path", "error"),
    [
        ("bin", "Read failed: {work}/bin is not UTF-8 text"),
        ("dir", "Read failed: not a regular file: {work}/dir"),
        ("no", "Read failed: file does not exist: {work}/no"),
        ("../secret", "Read failed: ../secret is outside the working directory {work}"),
        ("link/1.json", "Read failed: link/1.json is outside the working directory {work}"),
        ("/etc/passwd", "Read failed: /etc/passwd is outside the working directory {work}"),
        ("a\0b", "Read failed: 'a\\x00b' is not a usable path: embedded null byte"),
    ],
)
def test_read_refuses_what_it_cannot_show(
    tmp_path: Path, executor: ToolExecutor, file_path: str, error: str
) -> None:
    work = tmp_path / "work"
    (work / "bin").write_bytes(b"\xff\xfe")
    (work / "dir").mkdir()
    (work / "link").symlink_to(tmp_path / "tasks")
    (tmp_path / "secret").write_text("never shown")
    result = executor.execute("Read", {"file_path": file_path})
    assert rejected(result) == error.format(work=work.resolve())


def test_read_of_an_empty_file_says_so(tmp_path: Path, executor: ToolExecutor) -> None:
    (tmp_path / "work" / "empty.txt").write_bytes(b"")
    path = (tmp_path / "work" / "empty.txt").resolve()
    assert ok(executor.execute("Read", {"file_path": "empty.txt"})) == f"The file {path} exists but is empty."


def test_write_keeps_permissions_and_needs_an_existing_folder(tmp_path: Path, executor: ToolExecutor) -> None:
    script = tmp_path / "work" / "run.sh"
    script.write_text("old")
    script.chmod(0o751)
    ok(executor.execute("Write", {"file_path": str(script), "content": "new"}))
    assert (script.read_text(), script.stat().st_mode & 0o777) == ("new", 0o751)

    error = rejected(executor.execute("Write", {"file_path": "no/such/dir.txt", "content": "x"}))
    assert error == f"Write failed: the folder {(tmp_path / 'work').resolve() / 'no/such'} does not exist"
    assert rejected(executor.execute("Write", {"file_path": "../x.txt", "content": "x"})).startswith(
        "Write failed: "
    )
    assert not (tmp_path / "x.txt").exists()
    error = rejected(executor.execute("Write", {"file_path": "s.txt", "content": "\ud800"}))
    assert error == "Write failed: the new content is not valid Unicode text (a lone surrogate)"
    assert sorted(p.name for p in (tmp_path / "work").iterdir()) == ["run.sh"]


def test_edit_replaces_exactly_what_was_asked(tmp_path: Path, executor: ToolExecutor) -> None:
    path = tmp_path / "work" / "f.py"
    path.write_bytes(b"x = 1\r\ny = x\r\n")
    real = path.resolve()

    assert ok(executor.execute("Edit", {"file_path": "f.py", "old_string": "y", "new_string": "z"})) == (
        f"The file {real} has been updated (1 replacement)."
    )
    assert path.read_bytes() == b"x = 1\r\nz = x\r\n"
    error = rejected(executor.execute("Edit", {"file_path": "f.py", "old_string": "x", "new_string": "w"}))
    assert error == (
        f"Edit failed: old_string occurs 2 times in {real}; add surrounding lines to make it unique, "
        "or set replace_all to true to replace every occurrence"
    )
    edit = {"file_path": "f.py", "old_string": "x", "new_string": "w", "replace_all": True}
    assert ok(executor.execute("Edit", edit)).endswith("(2 replacements).")
    assert path.read_bytes() == b"w = 1\r\nz = w\r\n"


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        ("", "a", "Edit failed: old_string is empty; use Write to create or replace a whole file"),
        ("w", "w", "Edit failed: old_string and new_string are the same; there is nothing to change"),
        ("q", "r", "Edit failed: old_string was not found in {path}"),
    ],
)
def test_edit_refusals_leave_the_file_alone(
    tmp_path: Path, executor: ToolExecutor, old: str, new: str, error: str
) -> None:
    path = tmp_path / "work" / "f.txt"
    path.write_bytes(b"w = 1\n")
    edit = {"file_path": "f.txt", "old_string": old, "new_string": new}
    assert rejected(executor.execute("Edit", edit)) == error.format(path=path.resolve())
    assert path.read_bytes() == b"w = 1\n"


def test_edit_without_permission_callback_is_denied(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"before")
    executor = repo_executor(tmp_path, tmp_path / "tasks")
    error = rejected(
        executor.execute("Edit", {"file_path": "f.txt", "old_string": "before", "new_string": "after"})
    )
    assert error == (
        f"Edit was not allowed to change {path.resolve()}: no permission callback is configured, "
        "so tools that change things are denied; nothing was written"
    )
    assert path.read_bytes() == b"before"
