"""Running toolgen commands in tests: in-process with click's runner, or as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner, Result

from generator.cli.commands import main

ROOT = Path(__file__).resolve().parent.parent


def invoke(*args: str, stdin: str | None = None, color: bool = False) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, prog_name="toolgen", color=color)


def run_process(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m generator ARGS` from the project root, as CI and users run it."""
    command = [sys.executable, "-m", "generator", *args]
    return subprocess.run(command, cwd=ROOT, input=stdin, capture_output=True, text=True, check=False)


def run_in(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m generator ARGS` as a real process in `cwd` (a user's project), this checkout
    importable."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "generator", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
