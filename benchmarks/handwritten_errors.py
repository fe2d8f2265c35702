"""Hand-written ALL-ERRORS collectors: the floor for a failing call that gets the whole message.

For the three tools issue 12 measured (Read, TaskUpdate, AskUserQuestion), written straight-line
the way a careful programmer would for JSON-decoded input (exact types, str keys): one pass over
the declared members, one over the call's keys, issues appended per kind in the spec's order,
then the exact message of docs/spec/validation.md §6. Unlike benchmarks/handwritten.py they answer with the
message, so on invalid calls they are a like-for-like comparison with ours; the bench refuses
to time them unless every message equals ours (tests/test_bench_collectors.py checks the same on
many generated calls).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_JSON = {
    str: "string",
    int: "number",
    float: "number",
    bool: "boolean",
    type(None): "null",
    dict: "object",
    list: "array",
}


def _message(tool: str, lines: list[str]) -> str | None:
    if not lines:
        return None
    if len(lines) == 1:
        return tool + " failed due to the following issue:\n" + lines[0]
    return tool + " failed due to the following issues:\n" + "\n".join(lines)


def _type(path: str, expected: str, value: Any) -> str:
    return f"The parameter `{path}` type is expected as `{expected}` but provided as `{_JSON[type(value)]}`"


def _not_object(args: Any) -> str:
    return f"The tool input type is expected as `object` but provided as `{_JSON[type(args)]}`"


_READ_KEYS = frozenset(("file_path", "offset", "limit"))


def read_errors(args: Any) -> str | None:
    if type(args) is not dict:
        return _message("Read", [_not_object(args)])
    missing: list[str] = []
    types: list[str] = []
    if "file_path" not in args:
        missing.append("The required parameter `file_path` is missing")
    elif type(args["file_path"]) is not str:
        types.append(_type("file_path", "string", args["file_path"]))
    for name in ("offset", "limit"):
        if name in args and type(args[name]) not in (int, float):
            types.append(_type(name, "number", args[name]))
    unexpected = [f"An unexpected parameter `{k}` was provided" for k in args if k not in _READ_KEYS]
    return _message("Read", missing + unexpected + types)


_TASK_KEYS = frozenset(
    (
        "taskId",
        "subject",
        "description",
        "activeForm",
        "status",
        "addBlocks",
        "addBlockedBy",
        "owner",
        "metadata",
    )
)
_STATUSES = frozenset(("pending", "in_progress", "completed", "deleted"))
_STATUS_INVALID = (
    'The parameter `status` is invalid: expected one of "pending", "in_progress", "completed", "deleted"'
)


def task_update_errors(args: Any) -> str | None:
    if type(args) is not dict:
        return _message("TaskUpdate", [_not_object(args)])
    missing: list[str] = []
    types: list[str] = []
    invalid: list[str] = []
    if "taskId" not in args:
        missing.append("The required parameter `taskId` is missing")
    for name in ("taskId", "subject", "description", "activeForm"):
        if name in args and type(args[name]) is not str:
            types.append(_type(name, "string", args[name]))
    if "status" in args:
        status = args["status"]
        if type(status) is not str:
            types.append(_type("status", "string", status))
        elif status not in _STATUSES:
            invalid.append(_STATUS_INVALID)
    for name in ("addBlocks", "addBlockedBy"):
        if name in args:
            ids = args[name]
            if type(ids) is not list:
                types.append(_type(name, "array", ids))
            else:
                for i, item in enumerate(ids):
                    if type(item) is not str:
                        types.append(_type(f"{name}[{i}]", "string", item))
    if "owner" in args and type(args["owner"]) is not str:
        types.append(_type("owner", "string", args["owner"]))
    if "metadata" in args and type(args["metadata"]) is not dict:
        types.append(_type("metadata", "object", args["metadata"]))
    unexpected = [f"An unexpected parameter `{k}` was provided" for k in args if k not in _TASK_KEYS]
    return _message("TaskUpdate", missing + unexpected + types + invalid)


_ASK_KEYS = frozenset(("questions", "answers", "metadata"))
_QUESTION_KEYS = frozenset(("question", "header", "options", "multiSelect"))
_OPTION_KEYS = frozenset(("label", "description"))


def ask_user_question_errors(args: Any) -> str | None:
    if type(args) is not dict:
        return _message("AskUserQuestion", [_not_object(args)])
    missing: list[str] = []
    unexpected: list[str] = []
    types: list[str] = []
    if "questions" not in args:
        missing.append("The required parameter `questions` is missing")
    else:
        questions = args["questions"]
        if type(questions) is not list:
            types.append(_type("questions", "array", questions))
        else:
            for i, question in enumerate(questions):
                at = f"questions[{i}]"
                if type(question) is not dict:
                    types.append(_type(at, "object", question))
                    continue
                for name in ("question", "header", "options"):
                    if name not in question:
                        missing.append(f"The required parameter `{at}.{name}` is missing")
                for name in ("question", "header"):
                    if name in question and type(question[name]) is not str:
                        types.append(_type(f"{at}.{name}", "string", question[name]))
                if "options" in question:
                    options = question["options"]
                    if type(options) is not list:
                        types.append(_type(f"{at}.options", "array", options))
                    else:
                        for j, option in enumerate(options):
                            here = f"{at}.options[{j}]"
                            if type(option) is not dict:
                                types.append(_type(here, "object", option))
                                continue
                            if "label" not in option:
                                missing.append(f"The required parameter `{here}.label` is missing")
                            for name in ("label", "description"):
                                if name in option and type(option[name]) is not str:
                                    types.append(_type(f"{here}.{name}", "string", option[name]))
                            for k in option:
                                if k not in _OPTION_KEYS:
                                    unexpected.append(f"An unexpected parameter `{here}.{k}` was provided")
                if "multiSelect" in question and type(question["multiSelect"]) is not bool:
                    types.append(_type(f"{at}.multiSelect", "boolean", question["multiSelect"]))
                for k in question:
                    if k not in _QUESTION_KEYS:
                        unexpected.append(f"An unexpected parameter `{at}.{k}` was provided")
    if "answers" in args:
        answers = args["answers"]
        if type(answers) is not dict:
            types.append(_type("answers", "object", answers))
        else:
            for k, value in answers.items():
                if type(value) is not str:
                    types.append(_type(f"answers.{k}", "string", value))
    if "metadata" in args:
        metadata = args["metadata"]
        if type(metadata) is not dict:
            types.append(_type("metadata", "object", metadata))
        else:  # the declared member first, then the others in the call's order
            if "source" in metadata and type(metadata["source"]) is not str:
                types.append(_type("metadata.source", "string", metadata["source"]))
            for k, value in metadata.items():
                if k != "source" and type(value) is not str:
                    types.append(_type(f"metadata.{k}", "string", value))
    for k in args:
        if k not in _ASK_KEYS:
            unexpected.append(f"An unexpected parameter `{k}` was provided")
    return _message("AskUserQuestion", missing + unexpected + types)


HANDWRITTEN_ERRORS: dict[str, Callable[[Any], str | None]] = {
    "Read": read_errors,
    "TaskUpdate": task_update_errors,
    "AskUserQuestion": ask_user_question_errors,
}
