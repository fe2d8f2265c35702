"""Every shipped built-in reads only the parameters its declaration names.

The requirement's edge case: a tool that reads a parameter its declaration does not name
would only ever see it missing, since the validator rejects undeclared keys. Each handler
is run on a dict that records every key it asks for; iterating over the arguments counts
as reading an undeclared key (a handler must ask for what it needs by name).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from runtime import Handler, ToolResult
from runtime.builtins import file_handlers, task_handlers

ROOT = Path(__file__).resolve().parent.parent
ITERATED = "<all keys: the handler iterated over its arguments>"


class RecordingArgs(dict[str, Any]):
    """A dict that remembers every key read through it."""

    def __init__(self, data: dict[str, Any]) -> None:
        super().__init__(data)
        self.read: list[str] = []

    def __getitem__(self, key: str) -> Any:
        self.read.append(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.append(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.read.append(str(key))
        return super().__contains__(key)

    def __iter__(self) -> Iterator[str]:
        self.read.append(ITERATED)
        return super().__iter__()

    def keys(self) -> Any:
        self.read.append(ITERATED)
        return super().keys()

    def items(self) -> Any:
        self.read.append(ITERATED)
        return super().items()

    def values(self) -> Any:
        self.read.append(ITERATED)
        return super().values()

    def copy(self) -> dict[str, Any]:
        self.read.append(ITERATED)
        return super().copy()


def declared(tool: str) -> set[str]:
    declaration = json.loads((ROOT / "tool_schemas" / f"{tool}.json").read_text("utf-8"))
    parameters = declaration["function"].get("parameters", {})
    return set(parameters.get("properties", {})) | set(parameters.get("required", []))


def reads(handler: Handler, args: dict[str, Any]) -> tuple[list[str], ToolResult | str]:
    """The keys `handler` read from `args`, and what it returned; the arguments stay unchanged."""
    recording = RecordingArgs(copy.deepcopy(args))
    outcome = handler(recording)
    # dict.items bypasses the recording: this check is not the handler reading.
    assert dict(dict.items(recording)) == args, "a handler must not change its arguments"
    return recording.read, outcome


# Per tool, calls that together take every path that reads an argument.
CASES: dict[str, list[dict[str, Any]]] = {
    "TaskCreate": [
        {"subject": "s", "description": "d"},
        {"subject": "s", "description": "d", "activeForm": "doing", "metadata": {"k": 1, "gone": None}},
    ],
    "TaskGet": [{"taskId": "1"}, {"taskId": "99"}],
    "TaskList": [{}],
    "TaskUpdate": [
        {"taskId": "1"},
        {
            "taskId": "1",
            "subject": "s2",
            "description": "d2",
            "activeForm": "a2",
            "status": "in_progress",
            "addBlocks": ["2"],
            "addBlockedBy": ["3"],
            "owner": "me",
            "metadata": {"k": None, "j": 2},
        },
        {"taskId": "2", "status": "deleted"},
    ],
    "Read": [{"file_path": "f.txt"}, {"file_path": "f.txt", "offset": 2, "limit": 1}],
    "Write": [{"file_path": "w.txt", "content": "x"}],
    "Edit": [
        {"file_path": "f.txt", "old_string": "one", "new_string": "ONE"},
        {"file_path": "f.txt", "old_string": "line", "new_string": "LINE", "replace_all": True},
    ],
}


@pytest.fixture
def handlers(tmp_path: Path) -> dict[str, Handler]:
    (tmp_path / "f.txt").write_text("line one\nline two\n")
    shipped = {**file_handlers(tmp_path, lambda tool, args: None), **task_handlers(tmp_path / "tasks")}
    for i in range(3):
        shipped["TaskCreate"]({"subject": f"task {i}", "description": "seed"})
    return shipped


def test_every_shipped_implementation_has_read_cases(handlers: dict[str, Handler]) -> None:
    assert set(CASES) == set(handlers)


@pytest.mark.parametrize("tool", sorted(CASES))
def test_shipped_implementation_reads_only_declared_parameters(
    tool: str, handlers: dict[str, Handler]
) -> None:
    names = declared(tool)
    seen: set[str] = set()
    for args in CASES[tool]:
        assert set(args) <= names, "the cases themselves must be valid calls"
        read, outcome = reads(handlers[tool], args)
        assert set(read) <= names, f"{tool} read undeclared {sorted(set(read) - names)}"
        assert isinstance(outcome, str | ToolResult)
        seen.update(read)
    # And no declared parameter is silently ignored by the implementation.
    assert seen == names


def test_a_handler_reading_an_undeclared_parameter_is_caught() -> None:
    def sloppy_write(args: dict[str, Any]) -> str:
        return f"{args.get('path')}: {args['content']}"

    def iterating_write(args: dict[str, Any]) -> str:
        return ", ".join(sorted(args))

    names = declared("Write")
    probes: list[Callable[[dict[str, Any]], str]] = [sloppy_write, iterating_write]
    found = [set(reads(handler, {"file_path": "a", "content": "b"})[0]) - names for handler in probes]
    assert found == [{"path"}, {ITERATED}]
