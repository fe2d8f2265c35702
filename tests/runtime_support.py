"""Helpers shared by the runtime tests: a journal of everything a call touched.

No tests here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import generated
from runtime import Handler, ToolExecutor, ToolResult
from runtime.builtins import shipped_handlers

Event = tuple[str, str]  # (what happened, tool name)


@dataclass
class Journal:
    """Records hooks, permission questions, handler runs and validation failures, in order."""

    allow: bool = True
    events: list[Event] = field(default_factory=list)
    handler_args: list[tuple[str, object]] = field(default_factory=list)
    failures: list[tuple[str, object, tuple[generated.Issue, ...]]] = field(default_factory=list)

    def permission(self, tool_name: str, args: object) -> bool:
        self.events.append(("permission", tool_name))
        return self.allow

    def pre(self, tool_name: str, args: object) -> str | None:
        self.events.append(("pre", tool_name))
        return None

    def post(self, tool_name: str, args: object, result: ToolResult) -> None:
        self.events.append(("post", tool_name))

    def on_failure(self, tool_name: str, args: object, issues: tuple[generated.Issue, ...]) -> None:
        self.failures.append((tool_name, args, issues))

    def spy(self, tool_name: str, handler: Handler | None = None) -> Handler:
        """A handler that records its run, then runs `handler` (or answers "ok")."""

        def run(args: dict[str, Any]) -> ToolResult | str:
            self.events.append(("run", tool_name))
            self.handler_args.append((tool_name, args))
            return "ok" if handler is None else handler(args)

        return run


def make_executor(
    root: Path, journal: Journal, *, spied: tuple[str, ...] = (), **options: Any
) -> ToolExecutor:
    """An executor over `root/work` and `root/tasks`, every hook and question journaled.

    Each built-in named in `spied` runs its shipped implementation through `journal.spy`.
    """
    workdir, tasks_dir = root / "work", root / "tasks"
    workdir.mkdir(exist_ok=True)
    executor = ToolExecutor(
        workdir, tasks_dir, journal.permission, on_validation_failure=journal.on_failure, **options
    )
    executor.add_hook("PreToolUse", journal.pre)
    executor.add_hook("PostToolUse", journal.post)
    shipped = shipped_handlers(workdir, tasks_dir, executor.permission_denial)
    for name in spied:
        executor.register_builtin(name, journal.spy(name, shipped[name]))
    return executor


def ok(result: ToolResult) -> str:
    """The content of a successful result (fails the test with the error otherwise)."""
    assert result.success, result.error
    assert result.error is None
    return result.content


def rejected(result: ToolResult) -> str:
    """The error of a failed result, which must carry no content."""
    assert not result.success
    assert result.content == ""
    assert result.error is not None
    return result.error


def create_tasks(executor: ToolExecutor, *subjects: str) -> None:
    for subject in subjects:
        ok(executor.execute("TaskCreate", {"subject": subject, "description": f"about {subject}"}))
