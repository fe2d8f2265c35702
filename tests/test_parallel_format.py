"""Formatting in a process pool: the same bytes as a serial run, in the same order, and the
same bytes as the checked-in package; errors and a pool that cannot start behave as serially."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.base import pool
from generator.emit import format as format_stage
from generator.emit import header as hdr
from generator.emit.format import Formatter, RenderError, _pool_size
from generator.emit.render import (
    PATHS,
    SUPPORT,
    environment,
    render_declaration,
    render_declarations,
    render_init,
    render_tool,
)
from generator.front.check import check
from generator.front.load import read_all
from generator.ir.lower import lower
from generator.package.build import build
from generator.plan.module import plan
from tests.genpkg import ROOT


def _jobs() -> list[tuple[str, str]]:
    """Every file of the built-in package, rendered and not yet formatted, as build() has them."""
    declarations = read_all(Path("tool_schemas"))
    tools = [lower(d, *check(d)) for d in declarations]
    env = environment()
    jobs = []
    for declaration, tool in zip(declarations, tools, strict=True):
        jobs.append((f"{tool.module}.py", render_tool(env, plan(tool))))
        jobs.append((f"{tool.module}_declaration.py", render_declaration(env, declaration)))
    jobs.append(("_support.py", SUPPORT.read_text("utf-8")))
    jobs.append(("_paths.py", PATHS.read_text("utf-8")))
    jobs.append(("_declarations.py", render_declarations(env, {t.tool: t.module for t in tools})))
    jobs.append(("__init__.py", render_init(env)))
    return jobs


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def _format_all(jobs: list[tuple[str, str]], workers: int) -> list[str]:
    """Every job through one Formatter (as build() uses it), in submission order."""
    formatter = Formatter(workers)
    for name, source in jobs:
        formatter.submit(name, source)
    return list(formatter.finish())


def _workers_for(jobs: list[tuple[str, str]]) -> int:
    return _pool_size(len(jobs), sum(len(source) for _, source in jobs))


def _checked_in() -> dict[str, str]:
    return {p.name: p.read_text("utf-8") for p in sorted((ROOT / "generated").glob("*.py"))}


def _checked_in_bodies() -> dict[str, str]:
    """The checked-in files below their headers: what the formatter is given to produce."""
    return {name: hdr.split(text)[1] for name, text in _checked_in().items()}


def test_pool_and_serial_give_the_checked_in_bytes_in_input_order(in_root: None) -> None:
    jobs = _jobs()
    assert len(jobs) == 54 and _workers_for(jobs) == min(pool.cores(), 54)
    serial = _format_all(jobs, workers=1)
    pooled = _format_all(jobs, workers=2)
    assert pooled == serial
    assert dict(zip([name for name, _ in jobs], pooled, strict=True)) == _checked_in_bodies()


def test_build_gives_the_same_files_in_the_same_order_serial_or_pooled(
    in_root: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLGEN_JOBS", "1")
    serial = build(Path("tool_schemas")).files
    monkeypatch.setenv("TOOLGEN_JOBS", "2")
    monkeypatch.setattr(pool, "cores", lambda: 2)
    pooled = build(Path("tool_schemas")).files
    assert list(pooled) == list(serial) and pooled == serial == _checked_in()


def _cli_generate(project: Path, jobs: str) -> Path:
    """`generate` with no options in a copy of this project, as `make generate` runs it (a whole
    process, one thread: the fork start method); the package's headers name `make generate`
    only for the project's own default folders in a project whose Makefile has that target, so
    the copy must have them too."""
    project.mkdir()
    shutil.copyfile(ROOT / "pyproject.toml", project / "pyproject.toml")
    shutil.copyfile(ROOT / "Makefile", project / "Makefile")
    shutil.copytree(ROOT / "tool_schemas", project / "tool_schemas")
    env = dict(os.environ, TOOLGEN_JOBS=jobs, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "generator", "generate"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("25 tools: 25 changed, 0 unchanged, 0 removed (+4 package files) in ")
    return project / "generated"


def test_cold_generate_from_the_cli_is_byte_identical_serial_or_parallel(tmp_path: Path) -> None:
    serial_out = _cli_generate(tmp_path / "serial", "1")
    parallel_out = _cli_generate(tmp_path / "parallel", "2")
    serial = {p.name: p.read_bytes() for p in sorted(serial_out.iterdir())}
    parallel = {p.name: p.read_bytes() for p in sorted(parallel_out.iterdir())}
    assert parallel == serial
    assert {name: data.decode("utf-8") for name, data in parallel.items()} == _checked_in()


def test_small_runs_and_one_core_stay_serial(monkeypatch: pytest.MonkeyPatch) -> None:
    small = [("a.py", "x = 1\n"), ("b.py", "y = 2\n")]
    big = [(f"m{i}.py", "x = 1\n" * 20_000) for i in range(3)]
    monkeypatch.setattr(pool, "cores", lambda: 2)
    monkeypatch.delenv("TOOLGEN_JOBS", raising=False)
    assert _workers_for(small) == 1
    assert _workers_for(big) == 2
    assert _workers_for(big[:1]) == 1
    for setting, expected in (("1", 1), ("8", 2), ("0", 2), ("many", 2), ("", 2)):
        monkeypatch.setenv("TOOLGEN_JOBS", setting)
        assert _workers_for(big) == expected
    monkeypatch.setattr(pool, "cores", lambda: 1)
    monkeypatch.delenv("TOOLGEN_JOBS")
    assert _workers_for(big) == 1


def test_a_file_that_does_not_parse_is_refused_alike_serial_or_pooled() -> None:
    jobs = [("ok.py", "x=1\n"), ("bad1.py", "def f(:\n"), ("ok2.py", "y=[1,\n2]\n"), ("bad2.py", "x = = 1\n")]
    for workers in (1, 2):
        with pytest.raises(RenderError) as caught:
            _format_all(jobs, workers=workers)
        assert str(caught.value).startswith("bad1.py: rendered code does not parse: ")
    assert _format_all(jobs[::2], workers=2) == ["x = 1\n", "y = [1, 2]\n"]


def test_a_pool_that_cannot_start_falls_back_to_serial(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_processes(*args: object, **kwargs: object) -> None:
        raise OSError("no more processes")

    monkeypatch.setattr(format_stage, "ProcessPoolExecutor", no_processes)
    jobs = [(f"m{i}.py", f"x{i}=[ {i} ]\n") for i in range(4)]
    assert _format_all(jobs, workers=2) == [f"x{i} = [{i}]\n" for i in range(4)]
