"""The tight reference: validators written by hand in pure Python, the way a careful
programmer would for a hot path. They only decide valid / invalid (no messages), so their
numbers on invalid calls are a floor, not a like-for-like comparison.

Written for all 25 built-in tools.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_NUMBER = (int, float)


def _strings(x: Any) -> bool:
    if type(x) is not list:
        return False
    for e in x:  # noqa: SIM110 -- a loop is faster than all() over a generator
        if type(e) is not str:
            return False
    return True


def read(a: Any) -> bool:
    if type(a) is not dict or type(a.get("file_path")) is not str:
        return False
    n = 1
    if "offset" in a:
        if type(a["offset"]) not in _NUMBER:
            return False
        n += 1
    if "limit" in a:
        if type(a["limit"]) not in _NUMBER:
            return False
        n += 1
    return len(a) == n


def write(a: Any) -> bool:
    return (
        type(a) is dict and len(a) == 2 and type(a.get("file_path")) is str and type(a.get("content")) is str
    )


def edit(a: Any) -> bool:
    if (
        type(a) is not dict
        or type(a.get("file_path")) is not str
        or type(a.get("old_string")) is not str
        or type(a.get("new_string")) is not str
    ):
        return False
    if "replace_all" in a:
        return type(a["replace_all"]) is bool and len(a) == 4
    return len(a) == 3


def bash(a: Any) -> bool:
    if type(a) is not dict or type(a.get("command")) is not str:
        return False
    n = 1
    if "timeout" in a:
        if type(a["timeout"]) not in _NUMBER:
            return False
        n += 1
    if "description" in a:
        if type(a["description"]) is not str:
            return False
        n += 1
    if "run_in_background" in a:
        if type(a["run_in_background"]) is not bool:
            return False
        n += 1
    return len(a) == n


_GREP = {
    "pattern": str, "path": str, "glob": str, "output_mode": str, "-B": int, "-A": int, "-C": int,
    "-n": bool, "-i": bool, "type": str, "head_limit": int, "multiline": bool, "offset": int,
    "context": int,
}  # fmt: skip
_GREP_MODES = frozenset(("content", "files_with_matches", "count"))


def grep(a: Any) -> bool:
    # Many optional keys: one pass over the call beats a membership test per declared key.
    if type(a) is not dict or type(a.get("pattern")) is not str:
        return False
    for k, x in a.items():
        t = _GREP.get(k)
        if t is None or (type(x) is not t and not (t is int and type(x) is float)):
            return False
    mode = a.get("output_mode")
    return mode is None or mode in _GREP_MODES


def glob(a: Any) -> bool:
    if type(a) is not dict or type(a.get("pattern")) is not str:
        return False
    n = 1
    if "path" in a:
        if type(a["path"]) is not str:
            return False
        n += 1
    if "limit" in a:
        if type(a["limit"]) not in _NUMBER:
            return False
        n += 1
    return len(a) == n


_STATUS = frozenset(("pending", "in_progress", "completed", "deleted"))


def task_update(a: Any) -> bool:
    if type(a) is not dict or type(a.get("taskId")) is not str:
        return False
    n = 1
    for key in ("subject", "description", "activeForm", "owner"):
        if key in a:
            if type(a[key]) is not str:
                return False
            n += 1
    if "status" in a:
        if a["status"] not in _STATUS or type(a["status"]) is not str:
            return False
        n += 1
    for key in ("addBlocks", "addBlockedBy"):
        if key in a:
            if not _strings(a[key]):
                return False
            n += 1
    if "metadata" in a:
        if type(a["metadata"]) is not dict:
            return False
        n += 1
    return len(a) == n


def _option(o: Any) -> bool:
    if type(o) is not dict or type(o.get("label")) is not str:
        return False
    if "description" in o:
        return type(o["description"]) is str and len(o) == 2
    return len(o) == 1


def _question(q: Any) -> bool:
    if (
        type(q) is not dict
        or type(q.get("question")) is not str
        or type(q.get("header")) is not str
        or type(q.get("options")) is not list
    ):
        return False
    for o in q["options"]:
        if not _option(o):
            return False
    if "multiSelect" in q:
        return type(q["multiSelect"]) is bool and len(q) == 4
    return len(q) == 3


def _string_map(m: Any) -> bool:
    if type(m) is not dict:
        return False
    for x in m.values():  # noqa: SIM110 -- a loop is faster than all() over a generator
        if type(x) is not str:
            return False
    return True


def ask_user_question(a: Any) -> bool:
    if type(a) is not dict or type(a.get("questions")) is not list:
        return False
    for q in a["questions"]:
        if not _question(q):
            return False
    n = 1
    if "answers" in a:
        if not _string_map(a["answers"]):
            return False
        n += 1
    if "metadata" in a:
        if not _string_map(a["metadata"]):
            return False
        n += 1
    return len(a) == n


def exit_worktree(a: Any) -> bool:
    if type(a) is not dict or a.get("action") not in ("keep", "remove") or type(a["action"]) is not str:
        return False
    if "discard_changes" in a:
        return type(a["discard_changes"]) is bool and len(a) == 2
    return len(a) == 1


_OPERATIONS = frozenset(
    (
        "goToDefinition", "findReferences", "hover", "documentSymbol", "workspaceSymbol",
        "goToImplementation", "prepareCallHierarchy", "incomingCalls", "outgoingCalls",
    )
)  # fmt: skip


def lsp(a: Any) -> bool:
    return (
        type(a) is dict
        and len(a) == 4
        and type(a.get("operation")) is str
        and a["operation"] in _OPERATIONS
        and type(a.get("filePath")) is str
        and type(a.get("line")) in _NUMBER
        and type(a.get("character")) in _NUMBER
    )


def agent(a: Any) -> bool:
    if (
        type(a) is not dict
        or type(a.get("description")) is not str
        or type(a.get("prompt")) is not str
        or type(a.get("subagent_type")) is not str
    ):
        return False
    if "run_in_background" in a:
        return type(a["run_in_background"]) is bool and len(a) == 4
    return len(a) == 3


def artifact(a: Any) -> bool:
    if type(a) is not dict or type(a.get("file_path")) is not str:
        return False
    n = 1
    for key in ("favicon", "label", "url"):
        if key in a:
            if type(a[key]) is not str:
                return False
            n += 1
    if "force" in a:
        if type(a["force"]) is not bool:
            return False
        n += 1
    return len(a) == n


def cron_create(a: Any) -> bool:
    if type(a) is not dict or type(a.get("cron")) is not str or type(a.get("prompt")) is not str:
        return False
    n = 2
    if "recurring" in a:
        if type(a["recurring"]) is not bool:
            return False
        n += 1
    if "durable" in a:
        if type(a["durable"]) is not bool:
            return False
        n += 1
    return len(a) == n


def _one_string(name: str) -> Callable[[Any], bool]:
    def check(a: Any) -> bool:
        return type(a) is dict and len(a) == 1 and type(a.get(name)) is str

    return check


def _empty(a: Any) -> bool:
    return type(a) is dict and not a


def enter_worktree(a: Any) -> bool:
    if type(a) is not dict:
        return False
    if "name" in a:
        return type(a["name"]) is str and len(a) == 1
    return not a


def skill(a: Any) -> bool:
    if type(a) is not dict or type(a.get("skill_name")) is not str:
        return False
    if "args" in a:
        return type(a["args"]) is str and len(a) == 2
    return len(a) == 1


def task_create(a: Any) -> bool:
    if type(a) is not dict or type(a.get("subject")) is not str or type(a.get("description")) is not str:
        return False
    n = 2
    if "activeForm" in a:
        if type(a["activeForm"]) is not str:
            return False
        n += 1
    if "metadata" in a:
        if type(a["metadata"]) is not dict:
            return False
        n += 1
    return len(a) == n


def web_fetch(a: Any) -> bool:
    return type(a) is dict and len(a) == 2 and type(a.get("url")) is str and type(a.get("prompt")) is str


def workflow(a: Any) -> bool:
    if type(a) is not dict:
        return False
    n = 0
    for key in ("script", "scriptPath", "resumeFromRunId"):
        if key in a:
            if type(a[key]) is not str:
                return False
            n += 1
    if "args" in a:  # any JSON value
        n += 1
    return len(a) == n


HANDWRITTEN: dict[str, Callable[[Any], bool]] = {
    "Agent": agent,
    "Artifact": artifact,
    "CronCreate": cron_create,
    "CronDelete": _one_string("id"),
    "CronList": _empty,
    "EnterPlanMode": _empty,
    "EnterWorktree": enter_worktree,
    "ExitPlanMode": _empty,
    "Skill": skill,
    "TaskCreate": task_create,
    "TaskGet": _one_string("taskId"),
    "TaskList": _empty,
    "TaskStop": _one_string("task_id"),
    "WebFetch": web_fetch,
    "Workflow": workflow,
    "Read": read,
    "Write": write,
    "Edit": edit,
    "Bash": bash,
    "Grep": grep,
    "Glob": glob,
    "TaskUpdate": task_update,
    "AskUserQuestion": ask_user_question,
    "ExitWorktree": exit_worktree,
    "LSP": lsp,
}
