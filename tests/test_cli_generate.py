"""`toolgen generate` and `toolgen check` (docs/spec/validation.md §8): summary line, drift diff (plain or
coloured), exit statuses 0/1/2, and that a check or a refusal writes nothing (bytes and
modification times are compared)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from generator.cli.commands import main
from generator.ir.names import module_name
from tests.toolgen_cli import ROOT, invoke, run_process

SUMMARY = re.compile(
    r"^(\d+ tools: \d+ changed, \d+ unchanged, \d+ removed(?: \(\+\d package files?\))?) in \d+\.\ds\n$"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    for name in ("Write", "TaskUpdate", "CronList"):
        shutil.copy(ROOT / "tool_schemas" / f"{name}.json", schemas)
    return tmp_path


toolgen = invoke


def generate(project: Path, *extra: str) -> Any:
    return toolgen("generate", "--schemas", str(project / "schemas"), "--out", str(project / "out"), *extra)


def summary(result: Any) -> str:
    found = SUMMARY.match(result.stdout)
    assert found, result.stdout
    return found.group(1)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def edit_description(project: Path, text: str) -> None:
    path = project / "schemas" / "Write.json"
    declaration = json.loads(path.read_text("utf-8"))
    declaration["function"]["parameters"]["properties"]["content"]["description"] = text
    path.write_text(json.dumps(declaration, indent=2), "utf-8")


def test_generate_prints_a_one_line_summary(project: Path) -> None:
    first = generate(project)
    assert (first.exit_code, summary(first)) == (
        0,
        "3 tools: 3 changed, 0 unchanged, 0 removed (+4 package files)",
    )
    again = generate(project)
    assert summary(again) == "3 tools: 0 changed, 3 unchanged, 0 removed"
    edit_description(project, "New text.")
    (project / "schemas" / "CronList.json").unlink()
    third = generate(project)
    assert summary(third) == "2 tools: 1 changed, 1 unchanged, 1 removed (+2 package files)"
    assert sorted(p.name for p in (project / "out").glob("cron*")) == []


def test_check_in_sync(project: Path) -> None:
    generate(project)
    result = toolgen("check", "--schemas", str(project / "schemas"), "--out", str(project / "out"))
    assert (result.exit_code, result.stdout) == (0, f"{project / 'out'}: in sync (3 tools)\n")


def test_check_prints_a_plain_diff_off_a_terminal_and_the_fixing_command(project: Path) -> None:
    generate(project)
    before = snapshot(project / "out")
    edit_description(project, "New text.")
    for command in (["check"], ["generate", "--check"]):
        result = toolgen(*command, "--schemas", str(project / "schemas"), "--out", str(project / "out"))
        assert result.exit_code == 1
        assert "\x1b[" not in result.output
        assert (
            f"--- a{project}/out/write_3f00927a.py\n+++ b{project}/out/write_3f00927a.py\n" in result.stdout
        )
        assert re.search(r'^\+ .*"description": "New text\."', result.stdout, re.MULTILINE)
        assert result.stderr.splitlines()[-1] == (
            "generated code is out of sync; run: "
            f"toolgen generate --schemas {project}/schemas --out {project}/out"
        )
        assert "changed: " + f"{project}/out/write_3f00927a.py" in result.stderr.splitlines()
    assert snapshot(project / "out") == before


def test_check_colours_the_diff_when_asked(project: Path) -> None:
    generate(project)
    edit_description(project, "New text.")
    args = ("check", "--schemas", str(project / "schemas"), "--out", str(project / "out"))
    coloured = toolgen(*args, "--color", color=True)
    assert coloured.exit_code == 1
    assert f"\x1b[1m--- a{project}/out/write_3f00927a.py\x1b[0m\n" in coloured.stdout
    assert re.search(r'^\x1b\[32m\+ .*"description": "New text\.".*\x1b\[0m$', coloured.stdout, re.MULTILINE)
    assert re.search(r"\x1b\[36m@@ -\d+,\d+ \+\d+,\d+ @@\x1b\[0m\n", coloured.stdout)
    assert "\x1b[31m-" in coloured.stdout
    assert "\x1b[" not in toolgen(*args, "--no-color", color=True).stdout


def test_refusals_and_strict_exit_2_and_write_nothing(project: Path) -> None:
    bad = '{"name": "Bad", "input_schema": {"properties": {"a": {"type": "list"}}}}'
    (project / "schemas" / "Bad.json").write_text(bad, "utf-8")
    refused = generate(project)
    assert refused.exit_code == 2
    assert refused.stderr == (
        'error: Bad.json: /input_schema/properties/a/type: unknown type "list"; '
        "expected one of string, number, integer, boolean, object, array, null\n"
    )
    (project / "schemas" / "Bad.json").write_text(
        '{"name": "Bad", "input_schema": {"properties": {"a": true}}}'
    )
    strict = generate(project, "--strict")
    assert strict.exit_code == 2
    assert strict.stderr.splitlines() == [
        "warning: Bad.json: /input_schema/properties/a: boolean subschema true constrains nothing here",
        "error: 1 warning(s) under --strict; nothing written",
    ]
    assert not (project / "out").exists()


def test_help_of_every_command_is_complete() -> None:
    top = toolgen("--help").stdout
    for command in ("generate", "check", "validate", "explain", "audit"):
        assert re.search(rf"^  {command}\s+\S", top, re.MULTILINE), command
    options = {
        "generate": ["--schemas DIR", "--out DIR", "--check", "--strict", "--allow KINDS", "--color /"],
        "check": ["--schemas DIR", "--out DIR", "--strict", "--color / --no-color"],
        "validate": ["[TOOL] [JSON | -]", "--package, --out DIR", "Exit 0 when the call"],
        "explain": ["TOOL", "--schemas DIR", "not enforced"],
        "audit": ["FILE...", "--package, --out DIR", "--json", "--progress / --no-progress", "tool_use"],
    }
    for command, expected in options.items():
        text = " ".join(toolgen(command, "--help").stdout.split())
        for fragment in expected:
            assert fragment in text, (command, fragment)


def test_generate_and_check_in_a_real_process(project: Path) -> None:
    out = ["--schemas", str(project / "schemas"), "--out", str(project / "out")]
    generated = run_process("generate", *out)
    assert (generated.returncode, SUMMARY.match(generated.stdout) is not None) == (0, True)
    checked = run_process("check", *out)
    assert (checked.returncode, checked.stdout) == (0, f"{project}/out: in sync (3 tools)\n")
    edit_description(project, "Other.")
    drift = run_process("check", *out)
    assert drift.returncode == 1 and "\x1b[" not in drift.stdout
    assert drift.stderr.endswith(f"run: python -m generator generate {' '.join(out)}\n")


def hooks(text: str) -> list[dict[str, str]]:
    """The flat list of mappings .pre-commit-hooks.yaml uses (no YAML library at run time)."""
    found: list[dict[str, str]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("- "):
            found.append({})
            line = line[2:]
        key, _, value = line.strip().partition(": ")
        found[-1][key] = value
    return found


def hook(hook_id: str) -> dict[str, str]:
    """The hook of that id in .pre-commit-hooks.yaml (the file offers more than one)."""
    [found] = [h for h in hooks((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8")) if h["id"] == hook_id]
    return found


def test_pre_commit_hook_runs_toolgen_check(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check = hook("toolgen-check")
    assert (check["id"], check["entry"], check["language"], check["pass_filenames"]) == (
        "toolgen-check",
        "toolgen check",
        "python",
        "false",
    )
    # Every commit: the folders it reads come from [tool.toolgen], so no file filter can know them.
    assert check["always_run"] == "true" and "files" not in check
    shutil.copytree(project / "schemas", project / "tool_schemas")
    monkeypatch.chdir(project)
    command = check["entry"].split()[1:]
    assert toolgen(*command).exit_code == 1  # nothing generated yet
    toolgen("generate")
    assert (toolgen(*command).exit_code, toolgen(*command).stdout) == (0, "generated: in sync (3 tools)\n")


def test_pre_commit_hook_reads_the_projects_table(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "pyproject.toml").write_text('[tool.toolgen]\nschemas = "schemas"\nout = "pkg"\n', "utf-8")
    monkeypatch.chdir(project)
    command = hook("toolgen-check")["entry"].split()[1:]
    missing = toolgen(*command)
    assert missing.exit_code == 1 and missing.stderr.endswith("run: toolgen generate\n")
    toolgen("generate")
    assert (toolgen(*command).exit_code, toolgen(*command).stdout) == (0, "pkg: in sync (3 tools)\n")


def run_on_terminal(*args: str) -> tuple[int, str]:
    """Run `python -m generator ARGS` with standard output on a pseudo-terminal."""
    master, slave = os.openpty()
    command = [sys.executable, "-m", "generator", *args]
    process = subprocess.Popen(command, cwd=ROOT, stdout=slave, stderr=subprocess.DEVNULL)
    os.close(slave)
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the terminal's other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return process.wait(), b"".join(chunks).decode("utf-8")


def test_diff_is_coloured_on_a_real_terminal_only(project: Path) -> None:
    out = ["--schemas", str(project / "schemas"), "--out", str(project / "out")]
    generate(project)
    edit_description(project, "Other.")
    status, text = run_on_terminal("check", *out)
    assert status == 1
    assert "\x1b[32m+" in text and "\x1b[31m-" in text
    plain = run_process("check", *out)  # standard output is a pipe here
    assert plain.returncode == 1 and "\x1b[" not in plain.stdout


# ---- generate --check and refusals in a project root (the working directory) ----

TOOLS = ("Read", "Grep")
READ = f"{module_name('Read')}.py"
OLD = 1_000_000_000_000_000_000  # an mtime in 2001: any write would change it


def run_cli(*args: str) -> Result:
    return CliRunner().invoke(main, ["generate", *args], prog_name="python -m generator")


def mtimes(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def age(folder: Path) -> None:
    for path in folder.iterdir():
        os.utime(path, ns=(OLD, OLD))


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rooted root holding two declarations and their package, generated once."""
    root = tmp_path_factory.mktemp("pristine")
    (root / "tool_schemas").mkdir()
    for tool in TOOLS:
        shutil.copy(ROOT / "tool_schemas" / f"{tool}.json", root / "tool_schemas")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        result = run_cli()
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("2 tools: 2 changed, 0 unchanged, 0 removed (+4 package files) in ")
    return root


@pytest.fixture
def rooted(pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(pristine, tmp_path, dirs_exist_ok=True)
    age(tmp_path / "generated")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_check_in_sync_exits_0_and_writes_nothing(rooted: Path) -> None:
    before = mtimes(rooted / "generated")
    result = run_cli("--check")
    assert (result.exit_code, result.stdout) == (0, "generated: in sync (2 tools)\n")
    assert mtimes(rooted / "generated") == before


def test_check_reports_drift_and_writes_nothing(rooted: Path) -> None:
    target = rooted / "generated" / READ
    target.write_text(target.read_text("utf-8").replace('"Read"', '"Reed"'), "utf-8")
    age(rooted / "generated")
    before = mtimes(rooted / "generated")
    result = run_cli("--check")
    assert result.exit_code == 1
    assert f"--- a/generated/{READ}\n+++ b/generated/{READ}\n" in result.stdout
    assert '-TOOL_NAME = "Reed"\n+TOOL_NAME = "Read"\n' in result.stdout
    assert result.stderr.splitlines() == [
        f"changed: generated/{READ}",
        "generated code is out of sync; run: python -m generator generate",
    ]
    assert mtimes(rooted / "generated") == before


def test_check_reports_an_orphan_module_and_writes_nothing(rooted: Path) -> None:
    orphan = rooted / "generated" / "old_tool_0badf00d.py"
    orphan.write_text("# Generated by toolgen. DO NOT EDIT.\nTOOL_NAME = 'Old'\n", "utf-8")
    (rooted / "generated" / "handwritten.py").write_text("VALUE = 1\n", "utf-8")
    age(rooted / "generated")
    before = mtimes(rooted / "generated")
    result = run_cli("--check")
    assert result.exit_code == 1
    assert "--- a/generated/old_tool_0badf00d.py\n+++ /dev/null\n" in result.stdout
    assert result.stderr.splitlines() == [
        "orphan: generated/old_tool_0badf00d.py",
        "generated code is out of sync; run: python -m generator generate",
    ]
    assert mtimes(rooted / "generated") == before


def test_check_reports_changed_missing_and_orphan_together(rooted: Path) -> None:
    generated = rooted / "generated"
    (generated / "__init__.py").write_text("# Generated by toolgen.\n", "utf-8")
    (generated / READ).unlink()
    (generated / "gone_12345678.py").write_text("# Generated by toolgen.\n", "utf-8")
    age(generated)
    before = mtimes(generated)
    result = run_cli("--check")
    assert result.exit_code == 1
    assert f"--- /dev/null\n+++ b/generated/{READ}\n" in result.stdout
    assert result.stderr.splitlines() == [
        "changed: generated/__init__.py",
        f"missing: generated/{READ}",
        "orphan: generated/gone_12345678.py",
        "generated code is out of sync; run: python -m generator generate",
    ]
    assert mtimes(generated) == before


def test_generate_rewrites_only_what_changed_and_deletes_only_marked_orphans(rooted: Path) -> None:
    generated = rooted / "generated"
    (generated / READ).write_text("# Generated by toolgen.\n", "utf-8")
    (generated / "gone_12345678.py").write_text("# Generated by toolgen.\n", "utf-8")
    (generated / "handwritten.py").write_text("VALUE = 1\n", "utf-8")
    age(generated)
    before = mtimes(generated)
    result = run_cli()
    assert result.exit_code == 0
    assert result.stdout.startswith("2 tools: 1 changed, 1 unchanged, 1 removed in ")
    after = mtimes(generated)
    assert set(after) == set(before) - {"gone_12345678.py"}
    assert after[READ][1] != OLD
    assert {k: v for k, v in after.items() if k != READ} == {
        k: v for k, v in before.items() if k not in (READ, "gone_12345678.py")
    }
    assert run_cli("--check").exit_code == 0


REFUSALS = [
    (
        {"type": "object", "properties": {"x": {"type": "strin"}}},
        "/function/parameters/properties/x/type",
    ),
    ({"type": "object", "properties": {"x": {"enum": []}}}, "/function/parameters/properties/x/enum"),
    ({"type": "object", "required": ["a", "a"]}, "/function/parameters/required"),
    ({"type": "array"}, "/function/parameters/type"),
]


@pytest.mark.parametrize(("parameters", "pointer"), REFUSALS)
@pytest.mark.parametrize("check", [False, True])
def test_refused_declaration_exits_2_with_one_line_and_writes_nothing(
    rooted: Path, parameters: object, pointer: str, check: bool
) -> None:
    declaration = {"type": "function", "function": {"name": "Bad", "parameters": parameters}}
    (rooted / "tool_schemas" / "Bad.json").write_text(json.dumps(declaration), "utf-8")
    (rooted / "generated" / READ).unlink()  # out of sync too: still nothing may be written
    before = mtimes(rooted / "generated")
    result = run_cli("--check") if check else run_cli()
    assert result.exit_code == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: tool_schemas/Bad.json: {pointer}: ")
    assert mtimes(rooted / "generated") == before


def test_refusal_of_non_json_numbers_names_the_pointer(rooted: Path) -> None:
    parameters = '{"properties": {"x": {"enum": [1, NaN]}}}'
    text = '{"type": "function", "function": {"name": "N", "parameters": ' + parameters + "}}"
    (rooted / "tool_schemas" / "N.json").write_text(text, "utf-8")
    shutil.rmtree(rooted / "generated")
    result = run_cli("--out", "fresh")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: tool_schemas/N.json: /function/parameters/properties/x/enum/1: NaN is not a JSON number\n"
    )
    assert not (rooted / "fresh").exists()


def test_default_run_from_the_project_root_leaves_generated_byte_identical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "tool_schemas", tmp_path / "tool_schemas")
    shutil.copytree(ROOT / "generated", tmp_path / "generated", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")  # the headers name its `make generate`
    age(tmp_path / "generated")
    before = mtimes(tmp_path / "generated")
    monkeypatch.chdir(tmp_path)
    result = run_cli()
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("25 tools: 0 changed, 25 unchanged, 0 removed in ")
    assert mtimes(tmp_path / "generated") == before
