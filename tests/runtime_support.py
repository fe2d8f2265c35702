"""Helpers shared by the runtime tests: a journal of everything a call touched.

No tests here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import generated
from runtime import Handler, Permission, ToolExecutor, ToolResult, Validators
from runtime.builtins import (
    FILE_TOOLS,
    TASK_TOOLS,
    file_handlers,
    register_file_tools,
    register_task_tools,
    task_handlers,
)
from runtime.check import Issue

Event = tuple[str, str]  # (what happened, tool name)


@dataclass
class Journal:
    """Records hooks, permission questions, handler runs and validation failures, in order."""

    allow: bool = True
    events: list[Event] = field(default_factory=list)
    handler_args: list[tuple[str, object]] = field(default_factory=list)
    failures: list[tuple[str, object, tuple[Issue, ...]]] = field(default_factory=list)

    def permission(self, tool_name: str, args: object) -> bool:
        self.events.append(("permission", tool_name))
        return self.allow

    def pre(self, tool_name: str, args: object) -> str | None:
        self.events.append(("pre", tool_name))
        return None

    def post(self, tool_name: str, args: object, result: ToolResult) -> None:
        self.events.append(("post", tool_name))

    def on_failure(self, tool_name: str, args: object, issues: tuple[Issue, ...]) -> None:
        self.failures.append((tool_name, args, issues))

    def spy(self, tool_name: str, handler: Handler | None = None) -> Handler:
        """A handler that records its run, then runs `handler` (or answers "ok")."""

        def run(args: dict[str, Any]) -> ToolResult | str:
            self.events.append(("run", tool_name))
            self.handler_args.append((tool_name, args))
            return "ok" if handler is None else handler(args)

        return run


def repo_executor(
    workdir: str | os.PathLike[str],
    tasks_dir: str | os.PathLike[str],
    permission: Permission | None = None,
    *,
    validators: Validators = generated,
    **options: Any,
) -> ToolExecutor:
    """This repository's own agent set-up: its package, its file tools over `workdir` and its
    task tools over `tasks_dir`."""
    executor = ToolExecutor(validators, permission=permission, **options)
    # A package built from a test's own declarations may declare only some of them.
    if validators.TOOL_NAMES & set(FILE_TOOLS):
        register_file_tools(executor, workdir)
    if validators.TOOL_NAMES & set(TASK_TOOLS):
        register_task_tools(executor, tasks_dir)
    return executor


def make_executor(
    root: Path, journal: Journal, *, spied: tuple[str, ...] = (), **options: Any
) -> ToolExecutor:
    """An executor over `root/work` and `root/tasks`, every hook and question journaled.

    Each repository tool named in `spied` runs its own implementation through `journal.spy`.
    """
    workdir, tasks_dir = root / "work", root / "tasks"
    workdir.mkdir(exist_ok=True)
    executor = repo_executor(
        workdir, tasks_dir, journal.permission, on_validation_failure=journal.on_failure, **options
    )
    executor.add_hook("PreToolUse", journal.pre)
    executor.add_hook("PostToolUse", journal.post)
    shipped = {**file_handlers(workdir, executor.permission_denial), **task_handlers(tasks_dir)}
    for name in spied:
        executor.register_declared(name, journal.spy(name, shipped[name]))
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
