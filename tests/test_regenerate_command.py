"""Issue 13.8: every generated file's header names the command that regenerates its package,
and `check` advises that same command (generator/package/command.py) when the package drifted."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.emit.header import HEADER
from tests.toolgen_cli import ROOT, invoke


def _first_lines(out: Path) -> set[str]:
    return {p.read_text("utf-8").split("\n", 1)[0] for p in sorted(out.glob("*.py"))}


def _run(command: str) -> str:
    return f"{HEADER} DO NOT EDIT: change the source and run `{command}`."


def _project(tmp_path: Path, schemas: str = "decls", table: str = "") -> Path:
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "pyproject.toml").write_text(f'[project]\nname = "x"\n{table}', "utf-8")
    (project / schemas).mkdir()
    for name in ("Read.json", "Write.json"):
        shutil.copyfile(ROOT / "tool_schemas" / name, project / schemas / name)
    return project


def _edit(schemas: Path) -> None:
    path = schemas / "Read.json"
    data = json.loads(path.read_text("utf-8"))
    data["function"]["description"] = "Changed."
    path.write_text(json.dumps(data), "utf-8")


def test_the_checked_in_package_names_make_generate() -> None:
    assert _first_lines(ROOT / "generated") == {_run("make generate")}


def test_another_package_names_its_options_from_the_root_and_check_advises_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path)
    options = ["--schemas", "decls", "--out", "pkg", "--keywords", "extended"]
    monkeypatch.chdir(project)
    assert invoke("generate", *options).exit_code == 0
    command = "toolgen generate --schemas decls --out pkg --keywords extended"
    assert _first_lines(project / "pkg") == {_run(command)}
    # From a subfolder, the same package is in sync: the header does not depend on the cwd.
    monkeypatch.chdir(project / "sub")
    here = ["--schemas", "../decls", "--out", "../pkg", "--keywords", "extended"]
    synced = invoke("check", *here)
    assert (synced.exit_code, synced.stdout) == (0, "../pkg: in sync (2 tools)\n")
    _edit(project / "decls")
    drift = invoke("check", *here)
    assert drift.exit_code == 1
    assert drift.stderr.splitlines()[-1] == (
        "generated code is out of sync; run: "
        "toolgen generate --schemas ../decls --out ../pkg --keywords extended"
    )
    monkeypatch.chdir(project)
    assert (
        invoke("check", *options).stderr.splitlines()[-1] == f"generated code is out of sync; run: {command}"
    )


def test_make_generate_only_where_the_projects_makefile_has_that_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, schemas="tool_schemas")
    monkeypatch.chdir(project)
    assert invoke("generate").exit_code == 0
    assert _first_lines(project / "generated") == {_run("toolgen generate")}  # no Makefile here
    (project / "Makefile").write_text("test:\n\tpytest\n", "utf-8")  # one without the target
    assert invoke("generate").exit_code == 0
    assert _first_lines(project / "generated") == {_run("toolgen generate")}
    (project / "Makefile").write_text("test:\n\tpytest\n\ngenerate: setup\n\ttoolgen generate\n", "utf-8")
    assert invoke("generate").exit_code == 0
    assert _first_lines(project / "generated") == {_run("make generate")}
    _edit(project / "tool_schemas")
    drift = invoke("check")
    assert (drift.exit_code, drift.stderr.splitlines()[-1]) == (
        1,
        "generated code is out of sync; run: make generate",
    )
    # Below the root, make is told where the Makefile is; the header stays `make generate`.
    monkeypatch.chdir(project / "sub")
    below = invoke("check")
    assert (below.exit_code, below.stderr.splitlines()[-1]) == (
        1,
        "generated code is out of sync; run: make -C .. generate",
    )
    # An option that differs from the project's defaults is not what `make generate` runs.
    monkeypatch.chdir(project)
    assert invoke("generate", "--keywords", "extended").exit_code == 0
    assert _first_lines(project / "generated") == {_run("toolgen generate --keywords extended")}
    configured = _project(tmp_path / "other", table='[tool.toolgen]\nschemas = "decls"\nout = "pkg"\n')
    monkeypatch.chdir(configured)
    assert invoke("generate").exit_code == 0
    assert _first_lines(configured / "pkg") == {_run("toolgen generate")}
    # Options that differ from the table are named; a path with a space is quoted.
    shutil.copytree(configured / "decls", configured / "my decls")
    assert invoke("generate", "--schemas", "my decls").exit_code == 0
    assert _first_lines(configured / "pkg") == {_run("toolgen generate --schemas 'my decls'")}


def test_bare_commands_follow_the_mode_of_the_package_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package generated with --keywords extended, in a project with no table and no
    Makefile: bare check, explain, validate and generate keep its mode."""
    project = _project(tmp_path, schemas="tool_schemas")
    read = json.loads((project / "tool_schemas" / "Read.json").read_text("utf-8"))
    read["function"]["parameters"]["properties"]["limit"]["minimum"] = 1
    (project / "tool_schemas" / "Read.json").write_text(json.dumps(read), "utf-8")
    monkeypatch.chdir(project)
    assert invoke("generate", "--keywords", "extended").exit_code == 0
    assert _first_lines(project / "generated") == {_run("toolgen generate --keywords extended")}
    synced = invoke("check")
    assert (synced.exit_code, synced.stdout) == (0, "generated: in sync (2 tools)\n")
    call = invoke("validate", "Read", '{"file_path": "a", "limit": 0}')
    assert (call.exit_code, call.stdout) == (
        1,
        "Read failed due to the following issue:\n"
        "The parameter `limit` is invalid: expected a number greater than or equal to 1\n",
    )
    explained = invoke("explain", "Read")
    assert explained.stdout.splitlines()[1] == "keywords: extended"
    _edit(project / "tool_schemas")
    drift = invoke("check")
    assert drift.stderr.splitlines()[-1] == (
        "generated code is out of sync; run: toolgen generate --keywords extended"
    )
    regenerated = invoke("generate")
    # A description: Read's declaration module and __init__'s header (the index names no text).
    assert regenerated.stdout.startswith("2 tools: 1 changed, 1 unchanged, 0 removed (+1 package file) in ")
    # (The extended vocabulary's `message`, docs/spec/extended.md E7, named in each module's docstring.)
    assert "extended.md E7" in next((project / "generated").glob("read_*[0-9a-f].py")).read_text("utf-8")
    # The command line and the table still win.
    assert invoke("check", "--keywords", "subset").exit_code == 1


def test_the_header_in_a_real_process(tmp_path: Path) -> None:
    project = _project(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "generator", "generate", "--schemas", "decls", "--out", "pkg"]
    done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert _first_lines(project / "pkg") == {_run("toolgen generate --schemas decls --out pkg")}
    _edit(project / "decls")
    check = [sys.executable, "-m", "generator", "check", "--schemas", "decls", "--out", "pkg"]
    drift = subprocess.run(check, cwd=project, env=env, capture_output=True, text=True, check=False)
    assert drift.returncode == 1
    assert drift.stderr.splitlines()[-1] == (
        "generated code is out of sync; run: python -m generator generate --schemas decls --out pkg"
    )
