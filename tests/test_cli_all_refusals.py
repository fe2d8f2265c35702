"""Issue 13.5: every refusal of a run is reported (file and JSON pointer each), then exit 2
with nothing written: generate and --check, subset and extended keywords."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.toolgen_cli import ROOT, invoke


def _tool(name: str, parameters: object) -> str:
    return json.dumps({"type": "function", "function": {"name": name, "parameters": parameters}})


def _schemas(folder: Path) -> Path:
    folder.mkdir()
    (folder / "a.json").write_text(_tool("a", {"type": "object", "properties": {"x": {"type": "strin"}}}))
    (folder / "b.json").write_text(_tool("a", {"type": "object"}))  # the name of a.json again
    (folder / "c.json").write_text("{nope")
    both = [
        {"name": "d", "input_schema": {"type": "object", "required": "x"}},
        {"name": "e", "input_schema": {"type": "object", "properties": {"q": {"enum": []}}}},
    ]
    (folder / "d.json").write_text(json.dumps(both))
    (folder / "e.json").write_text(_tool("fine", {"type": "object", "properties": {"y": {"type": "string"}}}))
    return folder


EXPECTED = (
    'error: a.json: /function/parameters/properties/x/type: unknown type "strin"; expected one of '
    "string, number, integer, boolean, object, array, null\n"
    "error: b.json: /function/name: tool name 'a' is already declared in a.json\n"
    "error: c.json: /: not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)\n"
    "error: d.json: tool d: /0/input_schema/required: expected a list of property names (strings)\n"
    "error: d.json: tool e: /1/input_schema/properties/q/enum: expected a non-empty list\n"
    "error: 5 refusals in 4 files; nothing written\n"
)


@pytest.mark.parametrize("keywords", ["subset", "extended"])
@pytest.mark.parametrize("command", [["generate"], ["generate", "--check"], ["check"]])
def test_every_refusal_is_reported_and_nothing_is_written(
    tmp_path: Path, command: list[str], keywords: str
) -> None:
    schemas, out = _schemas(tmp_path / "schemas"), tmp_path / "out"
    result = invoke(*command, "--schemas", str(schemas), "--out", str(out), "--keywords", keywords)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", EXPECTED)
    assert not out.exists()


def test_a_single_refusal_reads_as_before(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    (schemas / "a.json").write_text(_tool("a", {"type": "object", "required": "x"}))
    result = invoke("generate", "--schemas", str(schemas), "--out", str(tmp_path / "out"))
    assert (result.exit_code, result.stderr) == (
        2,
        "error: a.json: /function/parameters/required: expected a list of property names (strings)\n",
    )


def test_refusals_leave_an_earlier_package_byte_identical(tmp_path: Path) -> None:
    schemas, out = tmp_path / "schemas", tmp_path / "out"
    schemas.mkdir()
    (schemas / "e.json").write_text(_tool("fine", {"type": "object"}))
    assert invoke("generate", "--schemas", str(schemas), "--out", str(out)).exit_code == 0
    before = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
    for name in ("a.json", "c.json"):
        (schemas / name).write_text("[]" if name == "a.json" else "{nope")
    result = invoke("generate", "--schemas", str(schemas), "--out", str(out))
    assert (result.exit_code, result.stderr) == (
        2,
        "error: a.json: /: expected a non-empty list of tools\n"
        "error: c.json: /: not valid JSON: "
        "Expecting property name enclosed in double quotes (line 1, column 2)\n"
        "error: 2 refusals in 2 files; nothing written\n",
    )
    assert {p.name: p.read_bytes() for p in sorted(out.iterdir())} == before


def test_every_refusal_in_a_real_process(tmp_path: Path) -> None:
    schemas, out = _schemas(tmp_path / "schemas"), tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "generator", "generate", "--schemas", str(schemas), "--out", str(out)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", EXPECTED)
    assert not out.exists()
