"""`toolgen import --save`: the run's sources written to the `import` and `import-stdio` lists of
the project's `[tool.toolgen]` table, as a person edits pyproject.toml: only those keys' lines
change (comments, order, line endings and every other line are kept; a missing table is added
at the end). The edited text is read back before it is written: it must say exactly what the
old one said with those two lists replaced, else nothing is written and the error says what to
set by hand (a table spelt in a form this edit does not follow, such as an inline table).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..front.load import TOML_ERRORS, parse_toml
from ..package.write import atomic_write

_HEADER = re.compile(r"^\s*\[\s*tool\s*\.\s*toolgen\s*\]\s*(?:#.*)?$")
_ANY_HEADER = re.compile(r"^\s*\[")  # the next table (or array of tables) ends ours
_ONE_LINE = 100  # a longer list is written one string a line


class TableError(Exception):
    """pyproject.toml cannot be given the lists; the message names the file and what to set."""


@dataclass(frozen=True)
class Edit:
    """The file, its new text (None: it already says so), and the lists as written."""

    path: Path
    shown: str  # the file as messages name it
    text: str | None
    lists: dict[str, tuple[str, ...]]

    def write(self) -> None:
        if self.text is None:
            return
        try:
            atomic_write(self.path, self.text)
        except OSError as exc:
            raise TableError(f"{self.shown}: cannot write: {exc.strerror or exc}") from None

    def __str__(self) -> str:
        """What was done, as `toolgen import --save` says it."""
        if self.text is None:
            return f"{self.shown}: [tool.toolgen] already lists these sources"
        written = "; ".join(one_line(k, v) for k, v in self.lists.items() if v)
        return f"{self.shown}: [tool.toolgen] {written}"


def _string(value: str) -> str:
    # A TOML basic string: json.dumps escapes quotes, backslashes and control characters as TOML
    # does; non-ASCII stays itself (json's \ud83d surrogate pairs are not TOML), DEL is escaped.
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


def one_line(key: str, values: tuple[str, ...]) -> str:
    return f"{key} = [{', '.join(map(_string, values))}]"


def rendered(key: str, values: tuple[str, ...]) -> list[str]:
    """`key = [...]` on one line, or one string a line when that is long."""
    one = one_line(key, values)
    if len(one) <= _ONE_LINE:
        return [one]
    return [f"{key} = [", *(f"    {_string(v)}," for v in values), "]"]


def _value_end(lines: list[str], row: int, column: int) -> tuple[int, int] | None:
    """Where the array that starts after `=` at (row, column) ends: the line and the column just
    past its closing bracket; None when the value is not an array."""
    depth = 0
    quote = ""
    started = False
    while row < len(lines):
        line = lines[row]
        while column < len(line):
            char = line[column]
            if quote:
                if char == "\\" and quote == '"':
                    column += 1  # the escaped character
                elif char == quote:
                    quote = ""
            elif char in "\"'":
                quote = char
            elif char == "#":
                break  # a comment: the rest of the line
            elif char == "[":
                depth += 1
                started = True
            elif char == "]":
                depth -= 1
                if depth == 0:
                    return row, column + 1
            elif not started and not char.isspace():
                return None  # a string, a number ...: not a list
            column += 1
        row, column = row + 1, 0
    return None


def edited(text: str, lists: dict[str, tuple[str, ...]]) -> str:
    """`text` with each key of `lists` set in [tool.toolgen] (an empty list: the key removed)."""
    eol = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines()
    header = next((i for i, line in enumerate(lines) if _HEADER.match(line)), None)
    if header is None:
        added = [line for key, values in lists.items() if values for line in rendered(key, values)]
        gap = [""] if any(line.strip() for line in lines) else []
        return eol.join([*lines, *gap, "[tool.toolgen]", *added]) + eol
    end = next((i for i in range(header + 1, len(lines)) if _ANY_HEADER.match(lines[i])), len(lines))
    for key, values in lists.items():
        own = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*=")
        found = next((i for i in range(header + 1, end) if own.match(lines[i])), None)
        new = rendered(key, values) if values else []
        if found is None:
            at = end
            while at > header + 1 and not lines[at - 1].strip():
                at -= 1  # after the table's last line, before the blank lines that part it
            lines[at:at] = new
            end += len(new)
            continue
        stop = _value_end(lines, found, lines[found].index("=") + 1)
        if stop is None:
            continue  # not a list: the check of the result refuses it
        row, column = stop
        if new and lines[row][column:].strip():
            new[-1] += lines[row][column:]  # a comment after the value stays
        lines[found : row + 1] = new
        end += len(new) - (row + 1 - found)
    return eol.join(lines) + eol


def _table(data: dict[str, Any]) -> dict[str, Any]:
    tool = data.get("tool")
    found = tool.get("toolgen") if isinstance(tool, dict) else None
    return found if isinstance(found, dict) else {}


def prepare(path: Path, shown: str, lists: dict[str, tuple[str, ...]]) -> Edit:
    """The edit that gives pyproject.toml at `path` (created when missing) these lists, checked
    but not written; TableError when it cannot be done by editing those keys alone."""
    try:
        text = path.read_bytes().decode("utf-8") if path.exists() else ""
        before = parse_toml(text)
    except TOML_ERRORS as exc:
        raise TableError(f"{shown}: cannot be read: {exc}") from None
    wanted = copy.deepcopy(before)
    table = {k: v for k, v in _table(before).items() if k not in lists}
    table |= {key: list(values) for key, values in lists.items() if values}
    wanted.setdefault("tool", {})["toolgen"] = table
    if _table(before) == table:
        return Edit(path, shown, None, lists)
    new = edited(text, lists)
    try:
        after: dict[str, Any] | None = parse_toml(new)
    except TOML_ERRORS:
        after = None
    if after != wanted:
        keys = "; ".join(one_line(k, v) if v else f"no {k}" for k, v in lists.items())
        raise TableError(
            f"{shown}: its [tool.toolgen] table is not written in a form this edit follows; "
            f"set it by hand: {keys}"
        )
    return Edit(path, shown, new, lists)
