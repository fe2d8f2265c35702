"""`[tool.toolgen]` in a project's pyproject.toml: defaults for every command, the command
line winning, paths relative to the table's file, and a bad table refused with file and key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli.config import ConfigError, settings
from tests.genpkg import ROOT, declaration

WRITE = declaration(
    "Write",
    {
        "type": "object",
        "properties": {"file_path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["file_path", "content"],
    },
)


def _project(tmp_path: Path, table: str) -> Path:
    """A project with its declarations in decls/ and a pyproject.toml holding `table`."""
    (tmp_path / "decls").mkdir()
    (tmp_path / "decls" / "Write.json").write_text(json.dumps(WRITE), "utf-8")
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "agent"\n\n{table}', "utf-8")
    return tmp_path


def _toolgen(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "generator", *args]
    return subprocess.run(command, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, check=False)


def test_every_command_takes_its_folders_from_the_table(tmp_path: Path) -> None:
    project = _project(tmp_path, '[tool.toolgen]\nschemas = "decls"\nout = "src/validators"\n')
    (project / "src").mkdir()
    done = _toolgen(project, "generate")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("1 tools: 1 changed, 0 unchanged, 0 removed (+4 package files) in ")
    assert (project / "src" / "validators" / "__init__.py").is_file()
    assert not (project / "generated").exists()

    checked = _toolgen(project, "check")
    assert (checked.returncode, checked.stdout) == (0, "src/validators: in sync (1 tools)\n")
    valid = _toolgen(project, "validate", "Write", '{"file_path": "a", "content": ""}')
    assert (valid.returncode, valid.stdout) == (0, "Write: valid\n")
    invalid = _toolgen(project, "validate", "Write", '{"file_path": "a"}')
    assert (invalid.returncode, invalid.stdout) == (
        1,
        "Write failed due to the following issue:\nThe required parameter `content` is missing\n",
    )
    explained = _toolgen(project, "explain", "Write")
    assert explained.returncode == 0, explained.stderr
    assert explained.stdout.startswith("Write  (decls/Write.json, module write_3f00927a.py)\n")


def test_paths_are_relative_to_the_table_so_any_folder_of_the_project_works(tmp_path: Path) -> None:
    project = _project(tmp_path, '[tool.toolgen]\nschemas = "decls"\nout = "pkg"\n')
    assert _toolgen(project, "generate").returncode == 0
    deep = project / "src" / "agent"
    deep.mkdir(parents=True)
    checked = _toolgen(deep, "check")
    assert (checked.returncode, checked.stdout) == (0, "../../pkg: in sync (1 tools)\n")
    assert settings(cwd=deep).schemas == Path("../../decls")


def test_the_command_line_wins_and_the_fix_command_repeats_only_what_it_gave(tmp_path: Path) -> None:
    project = _project(tmp_path, '[tool.toolgen]\nschemas = "decls"\nout = "pkg"\n')
    assert _toolgen(project, "generate", "--out", "other").returncode == 0
    assert (project / "other" / "__init__.py").is_file() and not (project / "pkg").exists()
    drift = _toolgen(project, "check")  # pkg/ does not exist yet: every file is missing
    assert drift.returncode == 1
    assert drift.stderr.endswith("generated code is out of sync; run: python -m generator generate\n")
    given = _toolgen(project, "check", "--out", "elsewhere")
    fix = "generated code is out of sync; run: python -m generator generate --out elsewhere\n"
    assert given.stderr.endswith(fix)


def test_without_a_table_the_defaults_hold(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', "utf-8")
    found = settings(cwd=tmp_path)
    assert (found.schemas, found.out, found.keywords, found.explicit) == (
        Path("tool_schemas"),
        Path("generated"),
        "subset",
        frozenset(),
    )
    assert settings(out=Path("o"), cwd=tmp_path).explicit == frozenset({"out"})


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            '[tool.toolgen]\nschema = "decls"\n',
            "pyproject.toml: [tool.toolgen] schema: unknown key; "
            "expected one of schemas, out, keywords, allow, import, import-stdio, "
            "suggest-min-rescued, suggest-min-share, repairs",
        ),
        # The repair kinds a project adopts (docs/audit-suggest.md): each bad entry named by
        # the table it is in and its key.
        (
            '[tool.toolgen]\nrepairs = ["enum-case"]\n',
            "pyproject.toml: [tool.toolgen.repairs] must be a table",
        ),
        (
            '[tool.toolgen.repairs]\nal = ["enum-case"]\n',
            "pyproject.toml: [tool.toolgen.repairs] al: unknown key; expected one of all, tools, parameters",
        ),
        (
            '[tool.toolgen.repairs]\nall = "enum-case"\n',
            "pyproject.toml: [tool.toolgen.repairs] all: expected a list of repair kinds",
        ),
        (
            '[tool.toolgen.repairs.tools]\nTaskUpdate = ["enum-cas"]\n',
            "pyproject.toml: [tool.toolgen.repairs.tools] TaskUpdate: 'enum-cas' is not a repair kind; "
            "expected one of number-from-string, boolean-from-string, json-from-string, "
            "array-from-single, enum-case, renamed-parameter, null-as-missing",
        ),
        (
            '[tool.toolgen.repairs.parameters]\nRead = ["number-from-string"]\n',
            "pyproject.toml: [tool.toolgen.repairs.parameters] Read: expected a table of parameter = [kinds]",
        ),
        (
            '[tool.toolgen.repairs.parameters.AskUserQuestion]\n"questions[*].multiSelect" = [true]\n',
            'pyproject.toml: [tool.toolgen.repairs.parameters.AskUserQuestion] "questions[*].multiSelect": '
            "expected a list of repair kinds",
        ),
        (
            "[tool.toolgen]\nsuggest-min-rescued = 0\n",
            "pyproject.toml: [tool.toolgen] suggest-min-rescued: expected an integer of at least 1",
        ),
        (
            "[tool.toolgen]\nsuggest-min-rescued = 2.0\n",
            "pyproject.toml: [tool.toolgen] suggest-min-rescued: expected an integer of at least 1",
        ),
        (
            "[tool.toolgen]\nsuggest-min-share = 10\n",
            "pyproject.toml: [tool.toolgen] suggest-min-share: expected a number from 0 up to 1 "
            "(a share: 0.1 is 10%)",
        ),
        (
            "[tool.toolgen]\nsuggest-min-share = true\n",
            "pyproject.toml: [tool.toolgen] suggest-min-share: expected a number from 0 up to 1 "
            "(a share: 0.1 is 10%)",
        ),
        (
            "[tool.toolgen]\nsuggest-min-share = nan\n",
            "pyproject.toml: [tool.toolgen] suggest-min-share: expected a number from 0 up to 1 "
            "(a share: 0.1 is 10%)",
        ),
        ("[tool.toolgen]\nout = 3\n", "pyproject.toml: [tool.toolgen] out: expected a non-empty string"),
        ('[tool.toolgen]\nout = ""\n', "pyproject.toml: [tool.toolgen] out: expected a non-empty string"),
        (
            '[tool.toolgen]\nkeywords = "all"\n',
            "pyproject.toml: [tool.toolgen] keywords: 'all' is not one of subset, extended",
        ),
        ('[tool]\ntoolgen = "x"\n', "pyproject.toml: [tool.toolgen] must be a table"),
    ],
)
def test_a_table_that_cannot_be_used_is_refused_naming_file_and_key(
    tmp_path: Path, table: str, message: str
) -> None:
    project = _project(tmp_path, table)
    with pytest.raises(ConfigError) as info:
        settings(cwd=project)
    assert str(info.value) == message
    done = _toolgen(project, "generate")
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {message}\n")
    assert not (project / "generated").exists()


def test_a_pyproject_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.toolgen\n", "utf-8")
    done = _toolgen(tmp_path, "check")
    assert done.returncode == 2
    assert done.stderr.startswith("error: pyproject.toml: cannot be read: ")
