"""The renderer started before pass 1 (generator/overlap.py): an edit rendered by the worker is,
byte for byte, what a cold serial generate writes; the parent then never imports jinja2 or
black; a worker that dies leaves its files to be rendered here, with the same bytes.

Each check runs in a fresh interpreter: a worker is only started by a process that has not
imported black yet, which the test process has."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.genpkg import ROOT

TOOLS = ("Read.json", "Write.json", "Edit.json")

# Runs `generate` as the CLI does and reports what the parent imported and whether a worker ran.
RUN = """
import sys
from generator import overlap
started = []
start = overlap.Service.start
def recorded(keywords):
    service = start(keywords)
    started.append(service is not None)
    if service is not None and KILL:
        service._process.kill()
        service._process.join()
    return service
overlap.Service.start = recorded
from generator.cli import main
try:
    main(["generate", "--schemas", "s", "--out", "gen"], standalone_mode=False)
finally:
    print(started, "black" in sys.modules, "jinja2" in sys.modules)
"""


def run(folder: Path, kill: bool = False, jobs: str = "2") -> str:
    env = {**os.environ, "TOOLGEN_JOBS": jobs, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", f"KILL = {kill}\n{RUN}"], cwd=folder, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1]


def tree(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.suffix == ".py"}


def catalogue(folder: Path) -> None:
    (folder / "s").mkdir(parents=True)
    for name in TOOLS:
        shutil.copy(ROOT / "tool_schemas" / name, folder / "s" / name)


def edit(path: Path) -> None:
    declaration = json.loads(path.read_text("utf-8"))
    declaration["function"]["description"] += " Edited."
    path.write_text(json.dumps(declaration), "utf-8")


def cold(tmp_path: Path) -> dict[str, bytes]:
    """A serial cold generate (TOOLGEN_JOBS=1: no worker) of the edited catalogue."""
    folder = tmp_path / "cold"
    catalogue(folder)
    edit(folder / "s" / "Write.json")
    assert run(folder, jobs="1") == "[False] True True"
    return tree(folder / "gen")


def test_an_edit_rendered_by_the_worker_is_the_cold_serial_package(tmp_path: Path) -> None:
    folder = tmp_path / "edit"
    catalogue(folder)
    run(folder)
    edit(folder / "s" / "Write.json")
    # The worker was started, and the parent imported neither jinja2 nor black.
    assert run(folder) == "[True] False False"
    assert tree(folder / "gen") == cold(tmp_path)


def test_a_worker_that_dies_leaves_its_files_to_be_rendered_here(tmp_path: Path) -> None:
    folder = tmp_path / "edit"
    catalogue(folder)
    run(folder)
    edit(folder / "s" / "Write.json")
    assert run(folder, kill=True) == "[True] True True"  # rendered here instead
    assert tree(folder / "gen") == cold(tmp_path)
