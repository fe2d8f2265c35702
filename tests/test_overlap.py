"""The renderer started before pass 1 (generator/package/overlap.py): what its worker renders is, byte
for byte, what a serial run writes (an edit, a tool added and one removed); more files than
its share are rendered here; a package in sync is checked without the compiler; a `--check`
reports the same drift; a refusal, a worker that dies or fails, an exception, ^C or a kill of
the parent all end as a serial run does, with no worker left running.

Each run is `toolgen` in a fresh interpreter (a worker is only forked by a process that has not
imported black, which the test process may have), with TOOLGEN_JOBS=2 for the worker and 1 for
the serial run; a prelude records the worker's process and what the parent imported."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.genpkg import ROOT

TOOLS = ("Read.json", "Write.json", "Edit.json")

# Run before `toolgen`: writes to $LOG the worker's pid and start time (0 0: none started) and,
# at exit, whether the parent imported black and jinja2. $PRELUDE adds a test's own changes.
PRELUDE = """
import atexit, os, sys
from generator.package import overlap
log = open(os.environ["LOG"], "a")
start = overlap.Service.start
def recorded(keywords):
    service = start(keywords)
    pid = service._process.pid if service is not None else 0
    stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split() if pid else [0] * 20
    print("worker", pid, stat[19], file=log, flush=True)
    return service
overlap.Service.start = recorded
imported = lambda: print("parent", "black" in sys.modules, "jinja2" in sys.modules, file=log, flush=True)
atexit.register(imported)
exec(os.environ.get("PRELUDE", ""))
from generator.cli.commands import main
main(sys.argv[1:], prog_name="toolgen")
"""


class Run:
    """One `toolgen` run: its outcome, and what its log says."""

    def __init__(self, done: subprocess.CompletedProcess[str], log: Path) -> None:
        self.code, self.stdout, self.stderr = done.returncode, done.stdout, done.stderr
        lines = dict(line.split(" ", 1) for line in log.read_text().splitlines())
        pid, started = lines.get("worker", "0 0").split()  # (none asked for)
        self.worker = (int(pid), started)
        self.parent_imported = lines.get("parent", "")  # "black? jinja2?" at exit


def popen(folder: Path, *args: str, jobs: str = "2", prelude: str = "") -> tuple[subprocess.Popen[str], Path]:
    log = folder / f"run{time.monotonic_ns()}.log"
    env = {**os.environ, "TOOLGEN_JOBS": jobs, "PYTHONPATH": str(ROOT), "LOG": str(log), "PRELUDE": prelude}
    command = [sys.executable, "-c", PRELUDE, *args, "--schemas", "s", "--out", "gen"]
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    return process, log


def run(folder: Path, *args: str, jobs: str = "2", prelude: str = "") -> Run:
    process, log = popen(folder, "generate", *args, jobs=jobs, prelude=prelude)
    out, err = process.communicate(timeout=120)
    return Run(subprocess.CompletedProcess(process.args, process.returncode, out, err), log)


def alive(worker: tuple[int, str]) -> bool:
    """Whether that very process (pid and start time) still runs (a zombie does not)."""
    pid, started = worker
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[19] == started and fields[0] != "Z"


def gone(worker: tuple[int, str], within: float = 0.0) -> bool:
    deadline = time.monotonic() + within
    while alive(worker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def tree(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def catalogue(folder: Path, tools: tuple[str, ...] = TOOLS) -> Path:
    (folder / "s").mkdir(parents=True)
    for name in tools:
        shutil.copy(ROOT / "tool_schemas" / name, folder / "s" / name)
    return folder


def edit(path: Path) -> None:
    declaration = json.loads(path.read_text("utf-8"))
    declaration["function"]["description"] += " Edited."
    path.write_text(json.dumps(declaration), "utf-8")


def generated(tmp_path: Path) -> Path:
    """A catalogue and its package (a cold run: no package yet, so no worker)."""
    folder = catalogue(tmp_path / "edit")
    first = run(folder)
    assert first.code == 0, first.stderr
    assert first.worker == (0, "0") and first.parent_imported == "True True"
    return folder


def serial(tmp_path: Path, tools: tuple[str, ...], change: str = "") -> dict[str, bytes]:
    """The package a serial cold generate writes (no worker: TOOLGEN_JOBS=1)."""
    folder = catalogue(tmp_path / f"serial{time.monotonic_ns()}", tools)
    if change:
        edit(folder / "s" / change)
    done = run(folder, jobs="1")
    assert done.code == 0 and done.worker == (0, "0") and done.parent_imported == "True True"
    return tree(folder / "gen")


def test_an_edit_rendered_by_the_worker_is_the_serial_package(tmp_path: Path) -> None:
    folder = generated(tmp_path)
    edit(folder / "s" / "Write.json")
    edited = run(folder)
    assert edited.code == 0, edited.stderr
    assert edited.stdout.startswith("3 tools: 1 changed, 2 unchanged, 0 removed")
    assert edited.worker[0] and edited.parent_imported == "False False"  # the worker rendered Write's modules
    assert gone(edited.worker)
    assert tree(folder / "gen") == serial(tmp_path, TOOLS, change="Write.json")


def test_a_tool_added_and_one_removed_render_the_index_as_a_cold_run_does(tmp_path: Path) -> None:
    folder = generated(tmp_path)
    (folder / "s" / "Edit.json").unlink()
    shutil.copy(ROOT / "tool_schemas" / "Glob.json", folder / "s" / "Glob.json")
    changed = run(folder)
    assert changed.code == 0, changed.stderr
    assert changed.stdout.startswith("3 tools: 1 changed, 2 unchanged, 1 removed")
    assert changed.worker[0] and changed.parent_imported == "False False"
    assert tree(folder / "gen") == serial(tmp_path, ("Read.json", "Write.json", "Glob.json"))


def test_past_the_worker_s_share_the_files_are_rendered_here(tmp_path: Path) -> None:
    """Five tools edited are ten files, more than SERVICE_MAX_FILES: the worker started for the
    edit is left unused and the parent renders them (with the formatter pool when it pays)."""
    tools = ("Read.json", "Write.json", "Edit.json", "Glob.json", "Grep.json", "Bash.json")
    folder = catalogue(tmp_path / "many", tools)
    assert run(folder).code == 0
    expected = catalogue(tmp_path / "serial", tools)
    for name in tools[:5]:
        edit(folder / "s" / name)
        edit(expected / "s" / name)
    done = run(folder)
    assert done.code == 0, done.stderr
    assert done.stdout.startswith("6 tools: 5 changed, 1 unchanged, 0 removed")
    assert done.worker[0] and done.parent_imported == "True True"
    assert gone(done.worker)
    assert run(expected, jobs="1").code == 0
    assert tree(folder / "gen") == tree(expected / "gen")


def test_a_package_in_sync_is_checked_without_the_compiler(tmp_path: Path) -> None:
    """Nothing to render: __init__.py's body is the one on disk, so nothing imports jinja2 or
    black; no worker is started while no declaration is newer than the package, and one
    started for a declaration touched but unchanged is not waited for."""
    folder = generated(tmp_path)
    for jobs, touch in (("2", False), ("1", False), ("2", True)):
        if touch:
            os.utime(folder / "s" / "Read.json")
        checked = run(folder, "--check", jobs=jobs)
        assert (checked.code, checked.stdout, checked.stderr) == (0, "gen: in sync (3 tools)\n", "")
        assert checked.parent_imported == "False False"
        assert bool(checked.worker[0]) is touch
        assert gone(checked.worker)


def test_check_reports_the_same_drift_through_the_worker_as_serially(tmp_path: Path) -> None:
    folder = generated(tmp_path)
    before = tree(folder / "gen")
    edit(folder / "s" / "Write.json")
    pooled, alone = run(folder, "--check"), run(folder, "--check", jobs="1")
    assert pooled.worker[0] and pooled.parent_imported == "False False"
    assert alone.worker == (0, "0") and alone.parent_imported == "True True"
    assert pooled.code == alone.code == 1
    assert (pooled.stdout, pooled.stderr) == (alone.stdout, alone.stderr)
    assert '+# Source sha256: ' in pooled.stdout and "Edited." in pooled.stdout
    assert tree(folder / "gen") == before
    assert gone(pooled.worker)


def test_a_refusal_while_the_worker_starts_writes_nothing_and_leaves_no_worker(tmp_path: Path) -> None:
    folder = generated(tmp_path)
    before = tree(folder / "gen")
    (folder / "s" / "Bad.json").write_text('{"name": "Bad", "input_schema": {"type": "list"}}', "utf-8")
    (folder / "s" / "Broken.json").write_text("{", "utf-8")
    edit(folder / "s" / "Write.json")
    refused, alone = run(folder), run(folder, jobs="1")
    assert refused.worker[0] and refused.code == alone.code == 2
    assert refused.stderr == alone.stderr
    assert refused.stderr.splitlines() == [
        'error: s/Bad.json: /input_schema/type: parameters must have type "object"',
        "error: s/Broken.json: /: not valid JSON: Expecting property name enclosed in double quotes "
        "(line 1, column 2)",
        "error: 2 refusals in 2 files; nothing written",
    ]
    assert tree(folder / "gen") == before
    assert gone(refused.worker)


# The worker's renderer fails (the parent's, generator/package/build.py's own, does not).
FAILING_WORKER = """
def failing(job, vocabulary, env, finish):
    raise RuntimeError("worker failed")
overlap.compile_job = failing
"""

# The worker is killed as soon as it is started.
KILLED_WORKER = """
recorded_start = overlap.Service.start
def killed(keywords):
    service = recorded_start(keywords)
    service._process.kill()
    service._process.join()
    return service
overlap.Service.start = killed
"""


@pytest.mark.parametrize("prelude", [FAILING_WORKER, KILLED_WORKER], ids=["fails", "dies"])
def test_a_worker_that_fails_or_dies_leaves_its_files_to_the_parent(tmp_path: Path, prelude: str) -> None:
    folder = generated(tmp_path)
    edit(folder / "s" / "Write.json")
    done = run(folder, prelude=prelude)
    assert done.code == 0, done.stderr
    assert done.stdout.startswith("3 tools: 1 changed, 2 unchanged, 0 removed")
    assert done.worker[0] and done.parent_imported == "True True"  # rendered here
    assert tree(folder / "gen") == serial(tmp_path, TOOLS, change="Write.json")
    assert gone(done.worker)


def test_an_error_the_worker_reports_is_raised_by_the_parent_as_serially(tmp_path: Path) -> None:
    """A rendered module that does not parse (a bug in toolgen) is a RenderError in the worker,
    rendered again here and raised as a serial run raises it; nothing is written."""
    folder = generated(tmp_path)
    before = tree(folder / "gen")
    edit(folder / "s" / "Write.json")
    broken = "from generator.package import pipeline\npipeline.render_tool = lambda env, plan: 'del f()\\n'\n"
    pooled, alone = run(folder, prelude=broken), run(folder, jobs="1", prelude=broken)
    assert pooled.worker[0] and pooled.code == alone.code == 1
    assert pooled.stderr.splitlines()[-1] == alone.stderr.splitlines()[-1]
    assert pooled.stderr.splitlines()[-1].startswith(
        "generator.emit.format.RenderError: write_3f00927a.py: rendered code does not parse: "
    )
    assert tree(folder / "gen") == before
    assert gone(pooled.worker)


def test_the_parent_raising_leaves_no_worker(tmp_path: Path) -> None:
    folder = generated(tmp_path)
    edit(folder / "s" / "Write.json")
    raising = "from generator.package import write\nwrite.Staging.commit = lambda self: 1 / 0\n"
    done = run(folder, prelude=raising)
    assert done.code == 1 and done.stderr.splitlines()[-1] == "ZeroDivisionError: division by zero"
    assert gone(done.worker)


# The parent waits in pass 1 (its scan) until signalled: the worker is alive meanwhile.
WAITING = """
import time
from generator.package import build
def waiting(*args):
    print("waiting", file=log, flush=True)
    time.sleep(60)
build._schema_files = waiting
"""


def waiting_parent(folder: Path) -> tuple[subprocess.Popen[str], tuple[int, str], Path]:
    edit(folder / "s" / "Write.json")
    process, log = popen(folder, "generate", prelude=WAITING)
    deadline = time.monotonic() + 60
    while "waiting" not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    pid, started = log.read_text().splitlines()[0].split()[1:]
    worker = (int(pid), started)
    assert alive(worker)
    return process, worker, log


def test_ctrl_c_ends_the_worker_with_the_parent(tmp_path: Path) -> None:
    folder = generated(tmp_path)
    before = tree(folder / "gen")
    process, worker, _ = waiting_parent(folder)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's ^C: the whole process group
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1 and err == "\nAborted!\n"
    assert gone(worker)
    assert tree(folder / "gen") == before


def test_a_parent_killed_outright_leaves_no_worker_running(tmp_path: Path) -> None:
    """No handler of the parent runs: the worker reads the end of its pipe and exits."""
    folder = generated(tmp_path)
    process, worker, _ = waiting_parent(folder)
    process.kill()
    process.communicate(timeout=60)
    assert gone(worker, within=30)
