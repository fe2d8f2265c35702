"""Issue 13: the CLI as a new user meets it. Each point driven through the real CLI (click's
runner, exact output and exit status), and each command once as a real process."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import Result

from tests.genpkg import ROOT, declaration
from tests.toolgen_cli import invoke

TOOLGEN = Path(sys.executable).parent / "toolgen"  # where `make setup` installs the command
LIST_ISSUES = declaration(
    "list_issues",
    {
        "type": "object",
        "properties": {
            "repo": {"type": "string"},
            "limit": {"type": "integer", "minimum": 1},
            "state": {"type": "string", "enum": ["open", "closed"], "default": "open"},
        },
        "required": ["repo"],
        "additionalProperties": False,
    },
)
TABLE = '[tool.toolgen]\nschemas = "decls"\nout = "pkg"\n'
NOT_ENFORCED = (
    "warning: decls/list_issues.json: /function/parameters: not enforced: "
    "/function/parameters/properties/limit: minimum (--keywords extended would check minimum)"
)


def _write_project(folder: Path, table: str = TABLE) -> Path:
    (folder / "decls").mkdir(parents=True)
    (folder / "decls" / "list_issues.json").write_text(json.dumps(LIST_ISSUES), "utf-8")
    (folder / "pyproject.toml").write_text(f'[project]\nname = "agent"\n\n{table}', "utf-8")
    (folder / "src" / "agent").mkdir(parents=True)
    return folder


def _process(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command, run by its path as the README writes it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [str(TOOLGEN), *args], cwd=cwd, env=env, input=stdin, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with [tool.toolgen], generated once by a real `toolgen generate`."""
    folder = _write_project(tmp_path_factory.mktemp("newuser"))
    done = _process(folder, "generate")
    assert (done.returncode, done.stderr) == (0, NOT_ENFORCED + "\n")
    assert re.fullmatch(
        r"1 tools: 1 changed, 0 unchanged, 0 removed \(\+4 package files\) in \d+\.\ds\n", done.stdout
    )
    return folder


@pytest.fixture
def inside(project: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The working directory is a folder deep inside the project."""
    monkeypatch.chdir(project / "src" / "agent")
    yield project


def _out(result: Result) -> tuple[int, str, str]:
    return result.exit_code, result.stdout, result.stderr


# ---------- 1: the command the README writes is the one set-up installs ----------


def test_1_advice_names_the_command_as_typed(project: Path) -> None:
    (project / "decls" / "list_issues.json").write_text(json.dumps(LIST_ISSUES, indent=1), "utf-8")
    try:
        drift = _process(project, "check")
        assert drift.returncode == 1
        assert drift.stderr.splitlines()[-1] == f"generated code is out of sync; run: {TOOLGEN} generate"
    finally:
        (project / "decls" / "list_issues.json").write_text(json.dumps(LIST_ISSUES), "utf-8")
    assert _process(project, "check").returncode == 0


# ---------- 2 and beyond: the project root, --package, and the advice when none is found ----------


def test_2_every_command_works_from_a_folder_inside_the_project(inside: Path) -> None:
    assert _out(invoke("validate", "list_issues", '{"repo": "a"}')) == (0, "list_issues: valid\n", "")
    assert _out(invoke("check")) == (0, "../../pkg: in sync (1 tools)\n", NOT_ENFORCED + "\n")
    explained = invoke("explain", "list_issues")
    assert explained.stdout.startswith("list_issues  (decls/list_issues.json, module list_issues_")


def test_2_the_nearest_table_wins_over_a_nearer_pyproject_without_one(inside: Path) -> None:
    nested = inside / "src" / "agent" / "pyproject.toml"  # e.g. a sub-package's own metadata
    nested.write_text('[project]\nname = "sub"\n', "utf-8")
    try:
        assert _out(invoke("validate", "list_issues", "{}")) == (
            1,
            "list_issues failed due to the following issue:\nThe required parameter `repo` is missing\n",
            "",
        )
    finally:
        nested.unlink()


def test_2_package_points_at_a_vendored_copy(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(project / "pkg", tmp_path / "vendored")
    monkeypatch.chdir(tmp_path)
    assert _out(invoke("validate", "list_issues", '{"repo": 1}', "--package", "vendored")) == (
        1,
        "list_issues failed due to the following issue:\n"
        "The parameter `repo` type is expected as `string` but provided as `number`\n",
        "",
    )


def test_2_no_package_and_no_declarations_does_not_advise_generate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other"\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    expected = (
        "error: generated: the package folder does not exist (from the default, generated); "
        "no declarations to generate it from either "
        f"(tool_schemas: not found; project root {tmp_path}, {tmp_path}/pyproject.toml); "
        "run inside a toolgen project, or give --package DIR\n"
    )
    assert _out(invoke("validate", "Write", "{}")) == (2, "", expected)
    assert _out(invoke("audit", str(ROOT / "examples/audit/openai.jsonl"))) == (2, "", expected)


def test_2_no_package_but_declarations_advises_generate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_project(tmp_path)
    monkeypatch.chdir(tmp_path / "src")
    assert _out(invoke("validate", "list_issues", "{}")) == (
        2,
        "",
        "error: ../pkg: the package folder does not exist (from [tool.toolgen] out in pyproject.toml); "
        "run: toolgen generate\n",
    )


# ---------- 3: a misspelt tool name fails; an unknown one passes through ----------


@pytest.mark.parametrize("name", ["List_Issues", "list-issues", "list_isues"])
def test_3_a_misspelt_name_fails_with_a_suggestion(inside: Path, name: str) -> None:
    assert _out(invoke("validate", name, "{}")) == (
        1,
        f"{name}: no validator in ../../pkg/; did you mean `list_issues`?\n",
        "",
    )


def test_3_a_genuinely_unknown_name_passes_through(inside: Path) -> None:
    assert _out(invoke("validate", "mcp__github__create_issue", "{}")) == (
        0,
        "mcp__github__create_issue: no validator in ../../pkg/ (not a built-in tool); "
        "passes through unvalidated\n",
        "",
    )


# ---------- 4: arguments are strict JSON ----------


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ('{"repo": "a", "limit": NaN}', "NaN is not a JSON number"),
        ('{"repo": "a", "limit": Infinity}', "Infinity is not a JSON number"),
        ('{"repo": "a", "limit": -Infinity}', "-Infinity is not a JSON number"),
        ('{"repo": "a", "limit": 1e999}', "1e999 is out of range for a JSON number"),
    ],
)
def test_4_non_finite_numbers_are_not_json(inside: Path, arguments: str, reason: str) -> None:
    assert _out(invoke("validate", "list_issues", arguments)) == (
        2,
        "",
        f"error: the arguments are not JSON: {reason}\n",
    )


# ---------- 6: --allow ----------


def test_6_allowed_kinds_do_not_fail_strict(inside: Path) -> None:
    assert _out(invoke("check", "--strict")) == (
        2,
        "",
        NOT_ENFORCED + "\nerror: 1 warning(s) under --strict; nothing written\n",
    )
    # format does not cover the tool's unchecked minimum: the warning stays.
    assert invoke("check", "--strict", "--allow", "format").exit_code == 2
    assert _out(invoke("check", "--strict", "--allow", "format, minimum")) == (
        0,
        "../../pkg: in sync (1 tools)\n",
        "(1 warning(s) of the allowed kinds not shown: format, minimum)\n",
    )
    kind = invoke("check", "--strict", "--allow", "not-enforced")
    assert (kind.exit_code, kind.stderr) == (
        0,
        "(1 warning(s) of the allowed kinds not shown: not-enforced)\n",
    )


def test_6_allow_in_the_table_and_unknown_names_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `default` is never reported (an annotation), but a table that allowed it still works.
    _write_project(tmp_path, TABLE + 'allow = ["default", "minimum"]\n')
    monkeypatch.chdir(tmp_path)
    done = invoke("generate", "--strict")
    assert (
        done.exit_code == 0
        and done.stderr == "(1 warning(s) of the allowed kinds not shown: default, minimum)\n"
    )
    valid = (
        "expected a warning kind (not-enforced, unchecked-keys, accepts-only-empty, "
        "required-without-schema, boolean-subschema, one-of, nested-quantifier, unsatisfiable) "
        "or a keyword reported as not enforced (format, pattern, minimum, "
    )
    refused = invoke("check", "--allow", "default,defualt")
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert refused.stderr.startswith(f"error: --allow: unknown warning kind 'defualt'; {valid}")
    (tmp_path / "pyproject.toml").write_text(TABLE + 'allow = ["dflt"]\n', "utf-8")
    table = invoke("check")
    assert (table.exit_code, table.stdout) == (2, "")
    assert table.stderr.startswith(
        f"error: pyproject.toml: [tool.toolgen] allow: unknown warning kind 'dflt'; {valid}"
    )
    (tmp_path / "pyproject.toml").write_text(TABLE + 'allow = "default"\n', "utf-8")
    assert (
        invoke("check").stderr == "error: pyproject.toml: [tool.toolgen] allow: expected a list of strings\n"
    )


# ---------- 7: folders that cannot give a usable package ----------


def test_7_a_schemas_folder_without_json_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "Tool.JSON").write_text("{}", "utf-8")
    for command in ("generate", "check"):
        assert _out(invoke(command, "--schemas", "empty", "--out", "pkg")) == (
            2,
            "",
            "error: empty: no *.json declarations in this folder; nothing written\n",
        )
    assert not (tmp_path / "pkg").exists()


@pytest.mark.parametrize(
    ("out", "suggested"), [("out-pkg", "out_pkg"), ("2pkg", "_2pkg"), ("class", "_class")]
)
def test_7_an_out_folder_that_cannot_be_imported_is_refused(
    inside: Path, tmp_path: Path, out: str, suggested: str
) -> None:
    target = tmp_path / out
    assert _out(invoke("generate", "--out", str(target))) == (
        2,
        "",
        f"error: {target}: the package folder's name {out!r} is not a Python identifier, so the package "
        f"could not be imported; choose a name like {suggested!r}; nothing written\n",
    )
    assert not target.exists()


# ---------- 9: readable explain, diff names, help, version ----------


def test_9_explain_shows_a_long_value_indented() -> None:
    result = invoke("explain", "fm_create_order", "--schemas", "tests/data/real-tools")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) < 120
    start = lines.index("  (top level)       $defs:  (combinators and references are not interpreted)")
    assert lines[start + 1 : start + 3] == ["                      {", '                        "Address": {']
    assert '  coupon            anyOf: [{"type": "string"}, {"type": "null"}]  ' in result.stdout


def test_9_diff_names_an_absolute_path_without_a_double_slash(project: Path, tmp_path: Path) -> None:
    shutil.copytree(project / "pkg", tmp_path / "pkg")
    init = tmp_path / "pkg" / "__init__.py"
    init.write_text(init.read_text("utf-8") + "# edited\n", "utf-8")
    result = invoke("check", "--schemas", str(project / "decls"), "--out", str(tmp_path / "pkg"))
    assert result.exit_code == 1
    names = re.findall(r"^(?:---|\+\+\+) .*$", result.stdout, re.MULTILINE)
    assert names[:2] == [f"--- a{tmp_path}/pkg/__init__.py", f"+++ b{tmp_path}/pkg/__init__.py"]
    assert not [name for name in names if "//" in name]


def test_9_top_level_help_shows_whole_descriptions_and_the_version() -> None:
    top = invoke("--help")
    commands = top.stdout.split("Commands:\n")[1]
    assert "..." not in commands
    assert commands.splitlines() == [
        "  audit     Replay recorded tool calls, running nothing.",
        "  check     Check that the generated package is up to date.",
        "  explain   Show what a tool's validator checks, and what not.",
        "  generate  Generate one validator module per tool declaration.",
        "  import    Write declarations from the code that defines the tools.",
        "  validate  Validate a call (or JSON Lines of calls) with the package.",
    ]
    for flag in ("--version", "-V"):
        assert _out(invoke(flag)) == (0, "toolgen 0.1.0\n", "")


# ---------- beyond: JSON Lines on standard input ----------


def test_json_lines_one_result_per_call(inside: Path) -> None:
    lines = "\n".join(
        [
            '{"tool": "list_issues", "args": {"repo": "a"}}',
            '["list_issues", {"repo": 1, "state": "all"}]',
            "",
            '["List_Issues", {}]',
            '["Read", {}]',
            '{"tool": "list_issues"}',
            "[1, {}]",
            "{oops",
        ]
    )
    assert _out(invoke("validate", stdin=lines + "\n")) == (
        1,
        "1: list_issues: valid\n"
        "2: list_issues: invalid: The parameter `repo` type is expected as `string` but provided as "
        '`number`; The parameter `state` is invalid: expected one of "open", "closed"\n'
        "4: List_Issues: no validator; did you mean `list_issues`?\n"
        "5: Read: no validator (not a built-in tool); passes through unvalidated\n"
        '6: error: expected {"tool": NAME, "args": {...}} or [NAME, {...}]\n'
        "7: error: the tool name is not a string\n"
        "8: error: not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)\n",
        "5 call(s) failed\n",
    )
    assert _out(invoke("validate", stdin='["list_issues", {"repo": "a"}]\n["x", {}]\n')) == (
        0,
        "1: list_issues: valid\n2: x: no validator (not a built-in tool); passes through unvalidated\n",
        "",
    )


# ---------- each command once as a real process (generate: the project fixture) ----------


def test_real_processes_from_inside_the_project(project: Path) -> None:
    deep = project / "src" / "agent"
    checked = _process(deep, "check", "--strict", "--allow", "default,minimum")
    assert (checked.returncode, checked.stdout) == (0, "../../pkg: in sync (1 tools)\n")
    lines = _process(deep, "validate", stdin='["list_issues", {}]\n')
    assert (lines.returncode, lines.stdout, lines.stderr) == (
        1,
        "1: list_issues: invalid: The required parameter `repo` is missing\n",
        "1 call(s) failed\n",
    )
    typo = _process(deep, "validate", "List_Issues", "{}")
    assert (typo.returncode, typo.stdout) == (
        1,
        "List_Issues: no validator in ../../pkg/; did you mean `list_issues`?\n",
    )
    nan = _process(deep, "validate", "list_issues", '{"repo": NaN}')
    assert (nan.returncode, nan.stderr) == (
        2,
        "error: the arguments are not JSON: NaN is not a JSON number\n",
    )
    explained = _process(deep, "explain", "list_issues")
    assert explained.returncode == 0 and explained.stdout.startswith("list_issues  (decls/list_issues.json")
    log = deep / "calls.jsonl"
    log.write_text('{"name": "list_issues", "arguments": "{}"}\n', "utf-8")
    audited = _process(deep, "audit", "calls.jsonl", "--json", "--package", "../../pkg")
    assert audited.returncode == 0, audited.stderr
    assert json.loads(audited.stdout)["calls"] == 1
    version = _process(deep, "--version")
    assert (version.returncode, version.stdout) == (0, "toolgen 0.1.0\n")


def test_2_this_project_without_a_table_from_a_subfolder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT / "tests")
    assert _out(invoke("validate", "TaskGet", '{"taskId": "1"}')) == (0, "TaskGet: valid\n", "")
    checked = invoke("check")
    assert (checked.exit_code, checked.stdout) == (0, "../generated: in sync (25 tools)\n")


def test_a_lone_surrogate_in_a_call_is_shown_escaped_not_a_crash(inside: Path) -> None:
    one = _process(inside, "validate", "list_issues", '{"repo": "a", "\\ud800": 1}')
    assert (one.returncode, one.stdout, one.stderr) == (
        1,
        "list_issues failed due to the following issue:\nAn unexpected parameter `\\ud800` was provided\n",
        "",
    )
    lines = _process(inside, "validate", stdin='["\\udc00", {}]\n')
    assert (lines.returncode, lines.stdout) == (
        0,
        "1: \\udc00: no validator (not a built-in tool); passes through unvalidated\n",
    )


def test_1_on_path_the_advice_is_the_bare_name(project: Path) -> None:
    (project / "decls" / "list_issues.json").write_text(json.dumps(LIST_ISSUES, indent=2), "utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT), PATH=f"{TOOLGEN.parent}{os.pathsep}{os.environ['PATH']}")
    try:
        drift = subprocess.run(
            ["toolgen", "check"], cwd=project, env=env, capture_output=True, text=True, check=False
        )
    finally:
        (project / "decls" / "list_issues.json").write_text(json.dumps(LIST_ISSUES), "utf-8")
    assert drift.returncode == 1
    assert drift.stderr.splitlines()[-1] == "generated code is out of sync; run: toolgen generate"
