"""Shared by the `toolgen import` tests: a scratch project as the working directory, and the
commands run in process (click's runner) as a user types them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.toolgen_cli import invoke

# The run's elapsed time ends the summary line: it depends on the machine's load, so the
# tests read it as "in N.Ns" (that it is there, in that form, is still checked).
_ELAPSED = re.compile(r" in \d+\.\ds$", re.MULTILINE)


@dataclass(frozen=True)
class Result:
    exit_code: int
    stdout: str
    stderr: str


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")


def declaration(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


def toolgen(*args: str) -> Result:
    result = invoke(*args)
    return Result(result.exit_code, _ELAPSED.sub(" in N.Ns", result.stdout), result.stderr)


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
