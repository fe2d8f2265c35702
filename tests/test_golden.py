"""Golden copies of a few generated modules, and byte-for-byte determinism of the generator."""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.update_golden import COMMAND, ROOT, current, golden_names, golden_path


def test_golden_set_is_three_tool_modules_and_support() -> None:
    assert golden_names() == (
        "task_update_f13c2711.py",
        "ask_user_question_7aca79e9.py",
        "read_9b9a8d05.py",
        "_support.py",
    )
    assert sorted(p.name for p in golden_path("x").parent.iterdir()) == sorted(
        golden_path(name).name for name in golden_names()
    )


@pytest.fixture(scope="module")
def fresh() -> dict[str, str]:
    return current()


def mismatch(name: str, expected: str, actual: str) -> str | None:
    """None when equal; else the explanation: the command that regenerates, then the diff."""
    if actual == expected:
        return None
    diff = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        fromfile=f"tests/golden/{name}",
        tofile=f"generated/{name}",
    )
    return f"{name} differs from its golden copy; if intended, run `{COMMAND}`\n" + "".join(diff)


@pytest.mark.parametrize("name", golden_names())
def test_generated_module_matches_its_golden_copy(fresh: dict[str, str], name: str) -> None:
    problem = mismatch(name, golden_path(name).read_text("utf-8"), fresh[name])
    if problem is not None:
        pytest.fail(problem)


def test_a_mismatch_names_the_command_and_shows_the_diff(fresh: dict[str, str]) -> None:
    name = "read_9b9a8d05.py"
    changed = fresh[name].replace('TOOL_NAME = "Read"', 'TOOL_NAME = "Reader"')
    problem = mismatch(name, fresh[name], changed)
    assert problem is not None
    lines = problem.splitlines()
    assert lines[:3] == [
        f"{name} differs from its golden copy; if intended, run `python -m tests.update_golden`",
        f"--- tests/golden/{name}",
        f"+++ generated/{name}",
    ]
    assert lines[3].startswith("@@ ")
    assert '-TOOL_NAME = "Read"' in lines
    assert '+TOOL_NAME = "Reader"' in lines
    assert mismatch(name, fresh[name], fresh[name]) is None


def _generate(out: Path, hash_seed: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    subprocess.run(
        [sys.executable, "-m", "generator", "generate", "--out", str(out)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def test_two_runs_with_different_hash_seeds_give_identical_bytes(tmp_path: Path) -> None:
    first = _generate(tmp_path / "one", "1")
    second = _generate(tmp_path / "two", "2")
    assert len(first) == len(list((ROOT / "generated").glob("*.py")))
    assert first == second
