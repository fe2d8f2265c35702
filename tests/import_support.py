"""Shared by the `toolgen import` tests: a scratch project as the working directory, and the
commands run in process (click's runner) as a user types them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import Result

from tests.toolgen_cli import invoke


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")


def declaration(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


def toolgen(*args: str) -> Result:
    return invoke(*args)


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
