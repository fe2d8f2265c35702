"""Edits cost what they change (issue 22.1, 22.2): a package regenerated after edits is, byte
for byte, the package a cold generate of the same declarations writes, serially and with the
format pool; unchanged declaration files are taken from the package's headers (their
warnings too); a declaration change shows as that tool's own declaration module; a refused
declaration writes nothing, not even a temp file."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.base import pool
from generator.cli.commands import main
from generator.emit import format as format_stage
from generator.ir.names import module_name
from tests.genpkg import ROOT

TOOLS = ("Read.json", "Write.json", "Edit.json", "WebFetch.json")


def listing(names: list[str]) -> dict[str, object]:
    """An MCP `tools/list` result: many tools in one file."""
    return {
        "tools": [
            {
                "name": n,
                "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "default": ""}}},
            }
            for n in names
        ]
    }


def generate(schemas: Path, out: Path, *extra: str) -> Result:
    args = ["generate", "--schemas", str(schemas), "--out", str(out), *extra]
    return CliRunner().invoke(main, args, prog_name="toolgen")


def tree(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def edit(path: Path, change: str) -> None:
    declaration = json.loads(path.read_text("utf-8"))
    declaration["function"]["description"] += change
    path.write_text(json.dumps(declaration), encoding="utf-8")


def cold(schemas: Path, out: Path) -> tuple[dict[str, bytes], str]:
    """A cold generate of the same declarations into the same folder (every header names it)."""
    saved = out.with_name(out.name + "_saved")
    out.rename(saved)
    done = generate(schemas, out)
    assert done.exit_code == 0, done.output
    files = tree(out)
    shutil.rmtree(out)
    saved.rename(out)
    return files, done.stderr


@pytest.fixture(params=["serial", "pooled"])
def jobs(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "serial":
        monkeypatch.setenv("TOOLGEN_JOBS", "1")
    else:
        monkeypatch.setenv("TOOLGEN_JOBS", "2")
        monkeypatch.setattr(pool, "cores", lambda: 2)
        monkeypatch.setattr(format_stage, "PARALLEL_MIN_CHARS", 0)  # a pool for any run
    return str(request.param)


def some_declarations(tmp_path: Path) -> Path:
    """A declarations folder holding copies of this repository's TOOLS."""
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    for name in TOOLS:
        shutil.copyfile(ROOT / "tool_schemas" / name, schemas / name)
    return schemas


def test_every_kind_of_edit_gives_the_bytes_of_a_cold_generate(tmp_path: Path, jobs: str) -> None:
    schemas = some_declarations(tmp_path)
    (schemas / "server.json").write_text(json.dumps(listing(["alpha", "beta"])), encoding="utf-8")
    out = tmp_path / "pkg"
    assert generate(schemas, out).exit_code == 0
    steps = ["description", "added", "removed", "listing"]
    for step in steps:
        if step == "description":  # one declaration module
            edit(schemas / "Read.json", " (edited)")
        elif step == "added":
            shutil.copyfile(ROOT / "tool_schemas" / "Glob.json", schemas / "Glob.json")
        elif step == "removed":  # its two modules are orphans
            (schemas / "Edit.json").unlink()
        else:  # a many-tools file: a tool added, the order changed
            (schemas / "server.json").write_text(json.dumps(listing(["beta", "gamma", "alpha"])))
        done = generate(schemas, out)
        assert done.exit_code == 0, done.output
        expected, warnings = cold(schemas, out)
        assert tree(out) == expected
        assert done.stderr == warnings  # reused tools' warnings, read back from their headers
        assert "not enforced" in warnings
        assert generate(schemas, out, "--check").exit_code == 0


def test_a_description_edit_rewrites_that_tools_declaration_module_and_the_index_header(
    tmp_path: Path,
) -> None:
    schemas = some_declarations(tmp_path)
    out = tmp_path / "pkg"
    assert generate(schemas, out).exit_code == 0
    before = tree(out)
    edit(schemas / "Write.json", " Mind the newline.")
    drift = generate(schemas, out, "--check")
    assert drift.exit_code == 1
    done = generate(schemas, out)
    assert done.stdout.startswith("4 tools: 1 changed, 3 unchanged, 0 removed (+1 package file) in ")
    after = tree(out)
    write = module_name("Write")
    assert sorted(n for n in after if after[n] != before.get(n)) == [
        "__init__.py",
        f"{write}.py",
        f"{write}_declaration.py",
    ]
    # The validator's header names the new source sha256; the description is one line.
    assert changed_lines(before, after, f"{write}.py") == ["# Source sha256: " + sha(schemas / "Write.json")]
    changed = changed_lines(before, after, f"{write}_declaration.py")
    assert [line.split(":")[0] for line in changed[:2]] == ["# Source sha256", "# Body sha256"]
    assert len(changed) == 3 and "Mind the newline." in changed[2]
    assert "+++ b/" + (out / f"{write}_declaration.py").as_posix().lstrip("/") in drift.stdout


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def changed_lines(before: dict[str, bytes], after: dict[str, bytes], name: str) -> list[str]:
    old = before[name].decode().splitlines()
    return [line for line in after[name].decode().splitlines() if line not in old]


def test_a_refused_declaration_writes_nothing_not_even_a_temp_file(tmp_path: Path) -> None:
    schemas = some_declarations(tmp_path)
    out = tmp_path / "pkg"
    assert generate(schemas, out).exit_code == 0
    before = tree(out)
    edit(schemas / "Read.json", " (edited)")
    (schemas / "Bad.json").write_text(
        '{"name": "Bad", "inputSchema": {"type": "object", "properties": {"a": {"type": "wat"}}}}'
    )
    done = generate(schemas, out)
    assert done.exit_code == 2
    assert tree(out) == before
    missing = tmp_path / "never"
    assert generate(schemas, missing).exit_code == 2 and not missing.exists()
    (schemas / "Bad.json").unlink()
    strict = generate(schemas, missing, "--strict")  # Edit's warnings: staged, then dropped
    assert strict.exit_code != 0 and "nothing written" in strict.output
    assert not missing.exists()
    assert generate(schemas, out, "--strict").exit_code != 0 and tree(out) == before


def test_a_header_naming_another_tool_is_not_believed(tmp_path: Path) -> None:
    schemas = some_declarations(tmp_path)
    out = tmp_path / "pkg"
    assert generate(schemas, out).exit_code == 0
    expected = tree(out)
    declaration = out / f"{module_name('Read')}_declaration.py"
    text = declaration.read_text("utf-8")
    declaration.write_text(text.replace("# Tool: 'Read'\n", "# Tool: 'Raed'\n"), "utf-8")
    done = generate(schemas, out)
    assert done.exit_code == 0, done.output
    assert "Raed" not in generate(schemas, out, "--check").output
    assert tree(out) == expected
