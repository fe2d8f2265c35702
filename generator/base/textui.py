"""Plain-text output shared by the commands: aligned tables and a coloured unified diff."""

from __future__ import annotations

from collections.abc import Sequence

import click


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], numeric: Sequence[bool] = ()) -> str:
    """Columns padded to their widest cell; numeric columns right-aligned. No trailing spaces."""
    cells = [[str(h) for h in headers], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    right = list(numeric) + [False] * (len(headers) - len(numeric))
    lines = []
    for row in cells:
        padded = [c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right, strict=True)]
        lines.append("  ".join(padded).rstrip())
    lines[0] = click.style(lines[0], bold=True)
    return "\n".join(lines)


def coloured_diff(text: str) -> str:
    """Style a unified diff the way git does; click strips the styles when not on a terminal."""
    return "".join(_styled(line) for line in text.splitlines(keepends=True))


def _styled(line: str) -> str:
    body = line.rstrip("\n")
    end = line[len(body) :]
    if line.startswith(("+++", "---")):
        return click.style(body, bold=True) + end
    for prefix, colour in (("@@", "cyan"), ("+", "green"), ("-", "red")):
        if line.startswith(prefix):
            return click.style(body, fg=colour) + end
    return line


def counted(n: int, noun: str) -> str:
    """`1 call`, `2 calls`: a count with its noun agreeing."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def percent(part: int, whole: int) -> str:
    """`73.3%` of whole; `0.0%` of nothing."""
    return f"{100 * part / whole:.1f}%" if whole else "0.0%"
