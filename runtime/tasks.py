"""This repository's task tools (TaskCreate, TaskGet, TaskUpdate, TaskList) over a folder of JSON files.

One file per task, `<tasks_dir>/<id>.json`, ids "1", "2", ... in creation order. Ids are
never reused, even after a task is deleted: the highest id ever given is kept in
`<tasks_dir>/.highwatermark`, so an old reference can never point at a new task. Every
change happens under a lock (a threading.Lock for this process, an flock on
`<tasks_dir>/.lock` for others) and every file is replaced atomically.

The task tools do not ask for permission: the store is the agent's own bookkeeping, not the
user's files (Claude Code does not prompt for its task tools either).
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from . import args as a
from .fsutil import atomic_write
from .result import Handler, ToolResult, failed

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: the thread lock alone serialises writes.
    fcntl = None  # type: ignore[assignment]

Task = dict[str, Any]
_ID = re.compile(r"[1-9][0-9]*")
_HIGHWATERMARK = ".highwatermark"


class TaskStore:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._thread_lock = threading.Lock()

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        with self._thread_lock:
            self.directory.mkdir(parents=True, exist_ok=True)
            with open(self.directory / ".lock", "a") as lock_file:
                if fcntl is not None:
                    fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX)
                yield  # closing the file releases the flock

    def path(self, task_id: str) -> Path | None:
        """The file of a task id; None for anything that is not an id (no path tricks)."""
        return self.directory / f"{task_id}.json" if _ID.fullmatch(task_id) else None

    def get(self, task_id: str) -> Task | None:
        path = self.path(task_id)
        if path is None:
            return None
        try:
            data = path.read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            return None  # also a task deleted between listing and reading
        task: Task = json.loads(data)
        return task

    def ids(self) -> list[str]:
        if not self.directory.is_dir():
            return []
        found = [p.stem for p in self.directory.glob("*.json") if _ID.fullmatch(p.stem)]
        return sorted(found, key=int)

    def put(self, task: Task) -> None:
        path = self.path(task["id"])
        assert path is not None
        atomic_write(path, (json.dumps(task, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))

    def delete(self, task_id: str) -> None:
        path = self.path(task_id)
        assert path is not None
        path.unlink()

    def next_id(self) -> str:
        """Call under the lock: one more than any id the folder has ever held."""
        mark = self.directory / _HIGHWATERMARK
        highest = max([int(i) for i in self.ids()] + [_read_int(mark)], default=0)
        new = str(highest + 1)
        atomic_write(mark, new.encode("ascii"))
        return new


def _read_int(path: Path) -> int:
    try:
        return int(path.read_text("ascii").strip())
    except (OSError, ValueError):
        return 0


def _not_found(task_id: str) -> ToolResult:
    return failed(f"Task #{task_id} not found")


def _drop_nulls(metadata: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in metadata.items() if v is not None}


def task_create(store: TaskStore) -> Handler:
    """TaskCreate: a new 'pending' task; metadata keys whose value is null are not stored."""

    def handler(args: Mapping[str, object]) -> ToolResult | str:
        task: Task = {
            "subject": a.text(args, "subject"),
            "description": a.text(args, "description"),
        }
        active_form = a.optional_text(args, "activeForm")
        if active_form is not None:
            task["activeForm"] = active_form
        task.update(status="pending", blocks=[], blockedBy=[])
        task["metadata"] = _drop_nulls(a.optional_object(args, "metadata"))
        with store.locked():
            task = {"id": store.next_id(), **task}
            store.put(task)
        return f"Task #{task['id']} created successfully: {task['subject']}"

    return handler


def task_get(store: TaskStore) -> Handler:
    def handler(args: Mapping[str, object]) -> ToolResult | str:
        task_id = a.text(args, "taskId")
        task = store.get(task_id)
        return _not_found(task_id) if task is None else _details(task)

    return handler


def _refs(ids: list[str]) -> str:
    return ", ".join(f"#{i}" for i in ids)


def _details(task: Task) -> str:
    lines = [f"Task #{task['id']}: {task['subject']}", f"Status: {task['status']}"]
    lines.append(f"Description: {task['description']}")
    optional = [
        ("Active form", task.get("activeForm")),
        ("Owner", task.get("owner")),
        ("Blocks", _refs(task["blocks"])),
        ("Blocked by", _refs(task["blockedBy"])),
        ("Metadata", json.dumps(task["metadata"], ensure_ascii=False) if task["metadata"] else None),
    ]
    lines.extend(f"{label}: {value}" for label, value in optional if value)
    return "\n".join(lines)


def task_list(store: TaskStore) -> Handler:
    def handler(args: Mapping[str, object]) -> ToolResult | str:
        tasks = [t for t in (store.get(i) for i in store.ids()) if t is not None]
        return "\n".join(_summary(t) for t in tasks) if tasks else "No tasks found"

    return handler


def _summary(task: Task) -> str:
    line = f"#{task['id']} [{task['status']}] {task['subject']}"
    if task.get("owner"):
        line += f" (owner: {task['owner']})"
    if task["blockedBy"]:
        line += f" [blocked by {_refs(task['blockedBy'])}]"
    return line


# Fields TaskUpdate overwrites with the given value, in declaration order.
_REPLACED = ("subject", "description", "activeForm", "status", "owner")
# addBlocks on A makes A block B, so B gets A in its blockedBy, and the other way round.
_LINKS = (("addBlocks", "blocks", "blockedBy"), ("addBlockedBy", "blockedBy", "blocks"))


def task_update(store: TaskStore) -> Handler:
    """TaskUpdate: change only the fields given; the file is rewritten only when one changes.

    `status: "deleted"` deletes the task's file (other fields of that call are ignored) and
    takes its id out of every other task's `blocks`/`blockedBy`. `addBlocks`/`addBlockedBy`
    append ids not yet listed and keep both ends of each link in step; an id that names no
    task, or the task itself, fails the whole call with nothing written. `metadata` merges
    key by key; a null value deletes that key.
    """

    def handler(args: Mapping[str, object]) -> ToolResult | str:
        task_id = a.text(args, "taskId")
        with store.locked():
            task = store.get(task_id)
            if task is None:
                return _not_found(task_id)
            if a.optional_text(args, "status") == "deleted":
                _delete(store, task)
                return f"Task #{task_id} deleted"
            before = json.dumps(task, sort_keys=True)
            _replace_fields(args, task)
            problem = _link(store, args, task)
            if problem is not None:
                return problem
            _merge_metadata(task, a.optional_object(args, "metadata"))
            if json.dumps(task, sort_keys=True) == before:
                return f"Task #{task_id} unchanged: nothing to update"
            store.put(task)
        return f"Updated task #{task_id}"

    return handler


def _replace_fields(args: Mapping[str, object], task: Task) -> None:
    for field in _REPLACED:
        value = a.optional_text(args, field)
        if value is not None:
            task[field] = value


def _link(store: TaskStore, args: Mapping[str, object], task: Task) -> ToolResult | None:
    """Add the requested links to `task` and write the other ends; fail before any write."""
    others: dict[str, Task] = {}
    for argument, _, _ in _LINKS:
        for other_id in a.optional_texts(args, argument):
            other = store.get(other_id) if other_id != task["id"] else None
            if other is None:
                why = "a task cannot block itself" if other_id == task["id"] else "no such task"
                return failed(f"Task #{task['id']} not updated: `{argument}` names #{other_id}: {why}")
            others[other_id] = other
    changed: dict[str, Task] = {}
    for argument, mine, theirs in _LINKS:
        for other_id in a.optional_texts(args, argument):
            _append(task[mine], other_id)
            if _append(others[other_id][theirs], task["id"]):
                changed[other_id] = others[other_id]
    for other in changed.values():
        store.put(other)
    return None


def _append(ids: list[str], task_id: str) -> bool:
    if task_id in ids:
        return False
    ids.append(task_id)
    return True


def _merge_metadata(task: Task, changes: dict[str, object]) -> None:
    for key, value in changes.items():
        if value is None:
            task["metadata"].pop(key, None)
        else:
            task["metadata"][key] = value


def _delete(store: TaskStore, task: Task) -> None:
    for other_id in task["blocks"] + task["blockedBy"]:
        other = store.get(other_id)
        if other is None:
            continue
        other["blocks"] = [i for i in other["blocks"] if i != task["id"]]
        other["blockedBy"] = [i for i in other["blockedBy"] if i != task["id"]]
        store.put(other)
    store.delete(task["id"])
