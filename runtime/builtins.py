"""The built-in implementations shipped with the runtime, bound to one workdir and task folder."""

from __future__ import annotations

from pathlib import Path

from runtime import files, tasks
from runtime.result import Handler


def shipped_handlers(workdir: Path, tasks_dir: Path, ask: files.Ask) -> dict[str, Handler]:
    """Tool name -> handler for every built-in this runtime implements."""
    store = tasks.TaskStore(tasks_dir)
    workspace = files.Workspace(workdir)
    return {
        "TaskCreate": tasks.task_create(store),
        "TaskGet": tasks.task_get(store),
        "TaskUpdate": tasks.task_update(store),
        "TaskList": tasks.task_list(store),
        "Read": files.read(workspace),
        "Write": files.write(workspace, ask),
        "Edit": files.edit(workspace, ask),
    }
