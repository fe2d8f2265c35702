"""Regenerate the golden copies in tests/golden/ from tool_schemas/.

Run from anywhere: `python -m tests.update_golden` (from the project root), then review the
diff with `git diff tests/golden` before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

from generator.build import build
from generator.names import module_name

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
GOLDEN_TOOLS = ("TaskUpdate", "AskUserQuestion", "Read")
COMMAND = "python -m tests.update_golden"


def golden_names() -> tuple[str, ...]:
    return (*(f"{module_name(tool)}.py" for tool in GOLDEN_TOOLS), "_support.py")


def golden_path(name: str) -> Path:
    # A suffix that keeps pytest, ruff and mypy away from copies of generated code.
    return GOLDEN / f"{name}.golden"


def current() -> dict[str, str]:
    """What the generator produces now for the golden files (source names relative to ROOT)."""
    previous = Path.cwd()
    os.chdir(ROOT)
    try:
        files = build(Path("tool_schemas")).files
    finally:
        os.chdir(previous)
    return {name: files[name] for name in golden_names()}


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, content in current().items():
        golden_path(name).write_bytes(content.encode("utf-8"))
        print(f"wrote {golden_path(name).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
