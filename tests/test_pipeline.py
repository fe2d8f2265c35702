"""The pipeline as a reader meets it (issue 37.2): `compile_tool` gives a tool's files as the
package holds them, and `generate_package` is the run that `generate` and `check` print."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.emit import header
from generator.emit.format import format_source
from generator.emit.render import environment
from generator.front.load import read_all
from generator.front.vocabulary import VOCABULARIES
from generator.ir.names import module_name
from generator.package.pipeline import ToolJob, compile_job, compile_tool, job_files
from generator.package.run import Result, Settings, generate_package
from generator.package.write import OutputError
from tests.toolgen_cli import ROOT

TOOLS = ("Write", "WebFetch")  # WebFetch warns: its url's `format` is not enforced


def test_compile_tool_gives_the_bodies_the_checked_in_package_holds() -> None:
    env, subset = environment(), VOCABULARIES["subset"]
    for declaration in read_all(ROOT / "tool_schemas"):
        files = compile_tool(declaration, subset, env, lambda name, body: (name, format_source(name, body)))
        both = ToolJob(declaration, ("validator", "declaration"))
        assert [name for name, _ in files] == list(job_files(both))
        for name, body in files:
            on_disk = (ROOT / "generated" / name).read_text("utf-8")
            assert header.split(on_disk)[1] == body, name


def test_a_tool_whose_validator_is_on_disk_compiles_its_declaration_module_alone() -> None:
    (declaration,) = [d for d in read_all(ROOT / "tool_schemas") if d.name == "Write"]
    job = ToolJob(declaration, ("declaration",))
    finished: list[str] = []
    bodies = compile_job(job, VOCABULARIES["subset"], environment(), lambda name, body: finished.append(name))
    assert finished == [f"{module_name('Write')}_declaration.py"] == list(job_files(job))
    assert bodies == [None]


def _project(tmp_path: Path) -> Path:
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    for name in TOOLS:
        shutil.copy(ROOT / "tool_schemas" / f"{name}.json", schemas)
    return schemas


def test_generate_package_writes_the_package_and_says_what_it_did(tmp_path: Path) -> None:
    schemas, out = _project(tmp_path), tmp_path / "out"
    result = generate_package(Settings(schemas, out, "subset", "toolgen generate"))
    assert isinstance(result, Result) and result.plan is not None and not result.refused_strict
    assert [t.tool for t in result.build.tools] == ["WebFetch", "Write"]
    assert [w.kind for w in result.shown] == ["not-enforced"] and result.hidden == 0
    assert set(result.plan.missing) == {p.name for p in out.iterdir() if p.suffix == ".py"}
    assert result.diff == ""
    checked = generate_package(Settings(schemas, out, "subset", "toolgen generate", check=True))
    assert checked.plan is not None and checked.plan.in_sync and checked.diff == ""


def test_generate_package_check_diffs_and_strict_writes_nothing(tmp_path: Path) -> None:
    schemas, out = _project(tmp_path), tmp_path / "out"
    told: list[tuple[int, int]] = []
    strict = Settings(schemas, out, "subset", "toolgen generate", strict=True)
    refused = generate_package(strict, warned=lambda shown, hidden: told.append((len(shown), hidden)))
    assert refused.refused_strict and refused.plan is None and told == [(1, 0)]
    assert not out.exists()
    allowed = generate_package(strict._replace(allow=frozenset({"format"})))
    assert allowed.plan is not None and allowed.shown == () and allowed.hidden == 1
    (schemas / "Write.json").unlink()
    drift = generate_package(Settings(schemas, out, "subset", "toolgen generate", check=True))
    write = module_name("Write")
    assert drift.plan is not None and drift.plan.orphans == (f"{write}.py", f"{write}_declaration.py")
    drifted = {line.rpartition("/")[2] for line in drift.diff.splitlines() if line.startswith("--- a/")}
    assert drifted == {"__init__.py", "_declarations.py", *drift.plan.orphans}
    assert not drift.plan.missing and drift.plan.changed == ("__init__.py", "_declarations.py")


def test_generate_package_refuses_an_empty_folder_and_an_unimportable_name(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = r"empty: no \*\.json declarations in this folder; nothing written$"
    with pytest.raises(OutputError, match=nothing):
        generate_package(Settings(empty, tmp_path / "out", "subset", "toolgen generate"))
    with pytest.raises(OutputError, match="the package folder's name 'my-tools' is not a Python identifier"):
        generate_package(Settings(_project(tmp_path), tmp_path / "my-tools", "subset", "toolgen generate"))
    assert not (tmp_path / "my-tools").exists()
