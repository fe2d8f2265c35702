"""This repository's file tools (Read, Write, Edit) over one working directory.

Paths may be absolute or relative to the working directory; either way they must resolve
(symbolic links followed) inside it, or the call fails before touching anything. Write and
Edit check everything they can first, then ask for permission, and only then change the
file, atomically (temp file + os.replace, permissions kept). Text is UTF-8, bytes kept as
they are (no newline translation).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from . import args as a
from .fsutil import atomic_write
from .result import Handler, ToolResult, failed

# (tool name, args) -> None when allowed, else the reason for the denial.
Ask = Callable[[str, object], "str | None"]
DEFAULT_READ_LIMIT = 2000


class Workspace:
    def __init__(self, root: Path) -> None:
        self.root = root

    def resolve(self, raw: str) -> Path | str:
        """The real path of `raw` inside the working directory, else why it is refused."""
        try:
            root = Path(os.path.realpath(self.root))
            path = Path(os.path.realpath(root / raw))
        except (OSError, ValueError) as exc:
            return f"{raw!r} is not a usable path: {exc}"
        if path != root and root not in path.parents:
            return f"{raw} is outside the working directory {root}"
        return path


def _target(workspace: Workspace, tool: str, args: Mapping[str, object]) -> Path | ToolResult:
    path = workspace.resolve(a.text(args, "file_path"))
    return failed(f"{tool} failed: {path}") if isinstance(path, str) else path


def _read_text(tool: str, path: Path) -> str | ToolResult:
    if not path.exists():
        return failed(f"{tool} failed: file does not exist: {path}")
    if not path.is_file():
        return failed(f"{tool} failed: not a regular file: {path}")
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return failed(f"{tool} failed: {path} is not UTF-8 text")
    except OSError as exc:
        return failed(f"{tool} failed: cannot read {path}: {exc.strerror}")


def _write(tool: str, ask: Ask, args: Mapping[str, object], path: Path, text: str) -> ToolResult | None:
    """Ask, then write; None on success, else the failed result. Nothing changes before `ask`."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        return failed(f"{tool} failed: the new content is not valid Unicode text (a lone surrogate)")
    denial = ask(tool, args)
    if denial is not None:
        return failed(f"{tool} was not allowed to change {path}: {denial}; nothing was written")
    try:
        atomic_write(path, data)
    except OSError as exc:
        return failed(f"{tool} failed: cannot write {path}: {exc.strerror}")
    return None


def read(workspace: Workspace) -> Handler:
    """Read: lines numbered like `cat -n`. offset is 1-based (values below 1 read from the
    start); limit (default 2000) must be at least 1; both must be whole numbers."""

    def handler(args: Mapping[str, object]) -> ToolResult | str:
        path = _target(workspace, "Read", args)
        if isinstance(path, ToolResult):
            return path
        try:
            offset, limit = a.whole_number(args, "offset"), a.whole_number(args, "limit")
        except a.BadArgument as exc:
            return failed(f"Read failed: {exc}")
        start = max(1, offset if offset is not None else 1)
        count = limit if limit is not None else DEFAULT_READ_LIMIT
        if count < 1:
            return failed("Read failed: `limit` must be at least 1")
        text = _read_text("Read", path)
        if isinstance(text, ToolResult):
            return text
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()  # the newline that ends the last line does not start another
        if not lines:
            return f"The file {path} exists but is empty."
        if start > len(lines):
            return f"The file {path} has {len(lines)} lines; offset {start} is past its end."
        shown = lines[start - 1 : start - 1 + count]
        return "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(shown, start))

    return handler


def write(workspace: Workspace, ask: Ask) -> Handler:
    """Write: create or replace a file; its folder must already exist."""

    def handler(args: Mapping[str, object]) -> ToolResult | str:
        path = _target(workspace, "Write", args)
        if isinstance(path, ToolResult):
            return path
        content = a.text(args, "content")
        if path.is_dir():
            return failed(f"Write failed: {path} is a directory")
        if not path.parent.is_dir():
            return failed(f"Write failed: the folder {path.parent} does not exist")
        existed = path.exists()
        problem = _write("Write", ask, args, path, content)
        if problem is not None:
            return problem
        return f"The file {path} has been updated." if existed else f"File created successfully at: {path}"

    return handler


def edit(workspace: Workspace, ask: Ask) -> Handler:
    """Edit: replace old_string, which must occur exactly once unless replace_all is true.

    An empty old_string is refused (Write creates files); old_string equal to new_string is
    refused as a change that changes nothing.
    """

    def handler(args: Mapping[str, object]) -> ToolResult | str:
        path = _target(workspace, "Edit", args)
        if isinstance(path, ToolResult):
            return path
        old, new = a.text(args, "old_string"), a.text(args, "new_string")
        replace_all = a.flag(args, "replace_all")
        if old == "":
            return failed("Edit failed: old_string is empty; use Write to create or replace a whole file")
        if old == new:
            return failed("Edit failed: old_string and new_string are the same; there is nothing to change")
        text = _read_text("Edit", path)
        if isinstance(text, ToolResult):
            return text
        found = text.count(old)
        if found == 0:
            return failed(f"Edit failed: old_string was not found in {path}")
        if found > 1 and not replace_all:
            return failed(
                f"Edit failed: old_string occurs {found} times in {path}; add surrounding lines to "
                "make it unique, or set replace_all to true to replace every occurrence"
            )
        problem = _write("Edit", ask, args, path, text.replace(old, new))
        if problem is not None:
            return problem
        return f"The file {path} has been updated ({found} replacement{'s' if found > 1 else ''})."

    return handler
