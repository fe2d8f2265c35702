"""This repository's own file and task tools (Read, Write, Edit; TaskCreate, TaskGet,
TaskUpdate, TaskList), for its agent and examples: bound to one executor, a working folder
and a task folder, each set only by whoever uses those tools.

    executor = ToolExecutor(generated, permission=ask_the_user)
    register_file_tools(executor, "work")
    register_task_tools(executor, "tasks")

Each is registered as a declared tool, so the package passed to the executor must declare it
(this repository's `generated/` does); tools the package does not declare are left out.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import files, tasks
from .check import package_name
from .executor import ToolExecutor
from .result import Handler

FILE_TOOLS = ("Read", "Write", "Edit")
TASK_TOOLS = ("TaskCreate", "TaskGet", "TaskUpdate", "TaskList")


def file_handlers(workdir: str | os.PathLike[str], ask: files.Ask) -> dict[str, Handler]:
    """Read, Write and Edit inside `workdir`; `ask` is asked before a change (None allows)."""
    workspace = files.Workspace(Path(workdir))
    return {
        "Read": files.read(workspace),
        "Write": files.write(workspace, ask),
        "Edit": files.edit(workspace, ask),
    }


def task_handlers(tasks_dir: str | os.PathLike[str]) -> dict[str, Handler]:
    """TaskCreate, TaskGet, TaskUpdate and TaskList over one task folder (created when needed)."""
    store = tasks.TaskStore(Path(tasks_dir))
    return {
        "TaskCreate": tasks.task_create(store),
        "TaskGet": tasks.task_get(store),
        "TaskUpdate": tasks.task_update(store),
        "TaskList": tasks.task_list(store),
    }


def register_file_tools(executor: ToolExecutor, workdir: str | os.PathLike[str]) -> tuple[str, ...]:
    """Bind the file tools the executor's package declares to `workdir`; their names."""
    return _register(executor, file_handlers(workdir, executor.permission_denial), "file")


def register_task_tools(executor: ToolExecutor, tasks_dir: str | os.PathLike[str]) -> tuple[str, ...]:
    """Bind the task tools the executor's package declares to `tasks_dir`; their names."""
    return _register(executor, task_handlers(tasks_dir), "task")


def _register(executor: ToolExecutor, handlers: dict[str, Handler], kind: str) -> tuple[str, ...]:
    declared = tuple(name for name in handlers if name in executor.validators.TOOL_NAMES)
    if not declared:
        # Registering nothing silently would leave the agent without the tools it was promised.
        raise ValueError(
            f"{package_name(executor.validators)} declares none of the {kind} tools ({', '.join(handlers)})"
        )
    for name in declared:
        executor.register_declared(name, handlers[name])
    return declared
