"""A clone tests anywhere: nothing the tests, benchmarks, the generator, the runtime, the
Makefile or CI run reads a path outside the repository (a user's clone has no ../shared)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A path that leaves the repository: a parent of the root, an absolute path into this
# machine's workplace, or a sibling folder named as data usually is.
OUTSIDE = re.compile(r"""\.\./shared|["']shared["']|/work/|ROOT\.parent|parents\[\d\]\s*/""")
CHECKED = ("tests", "benchmarks", "generator", "runtime", "examples", "Makefile", ".ci", "pyproject.toml")


def _tracked() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files", "--", *CHECKED], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    return [ROOT / name for name in names if not name.startswith("tests/data/")]


def outside_references(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if OUTSIDE.search(line)]


def test_nothing_reads_outside_the_repository() -> None:
    found = {
        path.relative_to(ROOT).as_posix(): hits
        for path in _tracked()
        if path.is_file()
        and path != Path(__file__)
        and (hits := outside_references(path.read_bytes().decode("utf-8", "replace")))
    }
    assert found == {}


def test_a_path_outside_is_caught() -> None:
    # The planted lines are spelt from parts, so this file itself names no outside path.
    folder = "shared"
    parent = f'BFCL = ROOT.parent / "{folder}" / "reference"'
    assert outside_references(parent + "\nok = 1\n") == [parent]
    line = f'data = Path("../{folder}/reference/bfcl")'
    assert outside_references(line) == [line]
    assert outside_references('x = Path("/work/shared/x")') == ['x = Path("/work/shared/x")']
    assert outside_references('data = ROOT / "tests" / "data"') == []
