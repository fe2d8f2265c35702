"""`toolgen import`'s files: exact bytes, what a re-run rewrites and removes (only its own
files, recorded in the manifest), --check's diffs, refusals, the configuration keys and the
pre-commit hook."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.cli.snapshot import file_names
from tests.import_support import files, toolgen, write
from tests.test_cli_generate import hook

MODELS = '''\
from pydantic import BaseModel


class Greet(BaseModel):
    """Greet someone."""

    name: str


class Wave(BaseModel):
    """Wave."""

    hand: str
'''

GREET = """\
{
  "name": "Greet",
  "description": "Greet someone.",
  "inputSchema": {
    "description": "Greet someone.",
    "properties": {
      "name": {
        "title": "Name",
        "type": "string"
      }
    },
    "required": [
      "name"
    ],
    "title": "Greet",
    "type": "object"
  }
}
"""

MANIFEST = (
    "# Written by `toolgen import`: the declaration files it owns, each with its source.\n"
    "# A re-run rewrites or removes only these files. Do not edit.\n"
    "[files]\n"
)

HAND_WRITTEN = '{"name": "Shout", "description": "Shout.", "inputSchema": {"type": "object"}}\n'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    write(tmp_path, {"pyproject.toml": '[project]\nname = "app"\n', "tools.py": MODELS})
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    sys.modules.pop("tools", None)


SOURCES = ("tools:Greet", "tools:Wave")


def test_the_files_and_the_manifest_exactly(project: Path) -> None:
    result = toolgen("import", *SOURCES)
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "2 tools imported into tool_schemas: 0 changed, 2 new, 0 unchanged, 0 removed in N.Ns\n",
        "",
    )
    written = files(project / "tool_schemas")
    assert written["Greet.json"] == GREET.encode()
    assert written["toolgen-import.toml"] == (
        MANIFEST + '"Greet.json" = "tools:Greet"\n"Wave.json" = "tools:Wave"\n'
    ).encode()
    again = toolgen("import", *SOURCES)
    assert again.stdout == (
        "2 tools imported into tool_schemas: "
        "0 changed, 0 new, 2 unchanged, 0 removed in N.Ns\n"
    )
    assert files(project / "tool_schemas") == written


def test_drift_is_shown_by_check_and_repaired_by_import(project: Path) -> None:
    assert toolgen("import", *SOURCES).exit_code == 0
    wave = project / "tool_schemas" / "Wave.json"
    before = wave.stat()
    write(project, {"tools.py": MODELS.replace("    name: str\n", "    name: str\n    loud: bool = False\n")})
    check = toolgen("import", *SOURCES, "--check")
    assert check.exit_code == 1
    assert check.stdout == (
        "--- a/tool_schemas/Greet.json\n"
        "+++ b/tool_schemas/Greet.json\n"
        "@@ -7,6 +7,11 @@\n"
        '       "name": {\n'
        '         "title": "Name",\n'
        '         "type": "string"\n'
        "+      },\n"
        '+      "loud": {\n'
        '+        "default": false,\n'
        '+        "title": "Loud",\n'
        '+        "type": "boolean"\n'
        "       }\n"
        "     },\n"
        '     "required": [\n'
    )
    assert check.stderr == (
        "changed: tool_schemas/Greet.json\n"
        "declarations are out of sync with the code; run: toolgen import tools:Greet tools:Wave\n"
    )
    assert b"loud" not in (project / "tool_schemas" / "Greet.json").read_bytes()  # --check writes nothing
    fixed = toolgen("import", *SOURCES)
    assert fixed.stdout == (
        "2 tools imported into tool_schemas: "
        "1 changed, 0 new, 1 unchanged, 0 removed in N.Ns\n"
    )
    after = wave.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # not rewritten
    ok = toolgen("import", *SOURCES, "--check")
    assert (ok.exit_code, ok.stdout) == (0, "tool_schemas: in sync with the code (2 tools)\n")


def test_check_before_any_import_shows_new_files(project: Path) -> None:
    check = toolgen("import", "tools:Greet", "--check")
    assert check.exit_code == 1
    assert check.stdout.startswith("--- /dev/null\n+++ b/tool_schemas/Greet.json\n@@ -0,0 +1,18 @@\n+{\n")
    assert check.stderr == (
        "new: tool_schemas/Greet.json\n"
        "new: tool_schemas/toolgen-import.toml\n"
        "declarations are out of sync with the code; run: toolgen import tools:Greet\n"
    )
    assert not (project / "tool_schemas").exists()


def test_a_tool_deleted_in_code_is_removed_and_a_hand_written_file_is_kept(project: Path) -> None:
    write(project, {"tool_schemas/shout.json": HAND_WRITTEN})
    assert toolgen("import", *SOURCES).exit_code == 0
    check = toolgen("import", "tools:Greet", "--check")
    assert check.exit_code == 1
    assert check.stdout.startswith("--- a/tool_schemas/Wave.json\n+++ /dev/null\n")
    assert "removed: tool_schemas/Wave.json\n" in check.stderr
    result = toolgen("import", "tools:Greet")
    assert result.stdout == (
        "1 tool imported into tool_schemas: "
        "0 changed, 0 new, 1 unchanged, 1 removed in N.Ns\n"
    )
    assert sorted(files(project / "tool_schemas")) == ["Greet.json", "shout.json", "toolgen-import.toml"]
    assert (project / "tool_schemas" / "shout.json").read_text("utf-8") == HAND_WRITTEN
    assert (project / "tool_schemas" / "toolgen-import.toml").read_text("utf-8").endswith(
        '[files]\n"Greet.json" = "tools:Greet"\n'
    )


def test_a_tool_a_hand_written_file_declares_is_refused(project: Path) -> None:
    write(project, {"tool_schemas/greeting.json": HAND_WRITTEN.replace("Shout", "Greet")})
    result = toolgen("import", *SOURCES)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "error: tool_schemas/greeting.json: declares tool 'Greet' by hand, which tools:Greet also gives; "
        "a hand-written declaration is never overwritten: remove one of the two\n"
    )
    assert sorted(files(project / "tool_schemas")) == ["greeting.json"]  # nothing written


def test_a_hand_written_file_with_a_tools_file_name_is_refused(project: Path) -> None:
    write(project, {"tool_schemas/Wave.json": HAND_WRITTEN})
    result = toolgen("import", *SOURCES)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "error: tool_schemas/Wave.json: a hand-written file (not written by toolgen import) has the "
        "file name of tool 'Wave' from tools:Wave; rename or remove one of them\n"
    )
    assert (project / "tool_schemas" / "Wave.json").read_text("utf-8") == HAND_WRITTEN


def test_two_sources_giving_one_tool_name_are_refused(project: Path) -> None:
    write(project, {"other.py": "from tools import Greet as Hello\nALL = [Hello]\n"})
    result = toolgen("import", "tools:Greet", "other:ALL")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "error: tool 'Greet' is given by both tools:Greet and other:ALL\n"
    same = toolgen("import", "other:ALL", "tools:Wave", "tools:Wave")
    assert same.stderr == "error: tools:Wave: gives two tools named 'Wave'\n"
    assert not (project / "tool_schemas").exists()
    sys.modules.pop("other", None)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("missing.module:thing", "cannot import missing.module: ModuleNotFoundError: No module named 'missing'"),  # noqa: E501
        ("tools:Nope", "tools has no attribute 'Nope'"),
        ("tools", "expected module.path:attribute (e.g. pkg.tools:server)"),
        ("broken:x", "cannot import broken: RuntimeError: the database is down"),
    ],
)
def test_a_source_that_cannot_be_read_is_refused(project: Path, source: str, message: str) -> None:
    write(project, {"broken.py": "raise RuntimeError('the database is down')\n"})
    result = toolgen("import", "tools:Greet", source)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"error: {source}: {message}\n")
    assert not (project / "tool_schemas").exists()


def test_the_configured_sources_and_the_command_line_winning(project: Path) -> None:
    write(
        project,
        {"pyproject.toml": '[tool.toolgen]\nschemas = "decls"\nimport = ["tools:Greet", "tools:Wave"]\n'},
    )
    check = toolgen("import", "--check")
    assert check.exit_code == 1
    assert check.stderr.endswith("declarations are out of sync with the code; run: toolgen import\n")
    result = toolgen("import")
    assert result.stdout == (
        "2 tools imported into decls: "
        "0 changed, 2 new, 0 unchanged, 0 removed in N.Ns\n"
    )
    assert toolgen("import", "--check").stdout == "decls: in sync with the code (2 tools)\n"
    # The command line replaces the table's sources: Wave's file goes.
    only = toolgen("import", "tools:Greet")
    assert only.stdout == (
        "1 tool imported into decls: "
        "0 changed, 0 new, 1 unchanged, 1 removed in N.Ns\n"
    )
    assert sorted(files(project / "decls")) == ["Greet.json", "toolgen-import.toml"]


def test_no_sources_and_bad_tables_are_refused(project: Path) -> None:
    none = toolgen("import")
    assert (none.exit_code, none.stderr) == (
        2,
        "error: no sources: give module.path:attribute or --stdio COMMAND, or list them in "
        "[tool.toolgen] import / import-stdio of pyproject.toml; nothing written\n",
    )
    write(project, {"pyproject.toml": '[tool.toolgen]\nimport = "tools:Greet"\n'})
    table = "error: pyproject.toml: [tool.toolgen]"
    assert toolgen("import").stderr == f"{table} import: expected a list of strings\n"
    write(project, {"pyproject.toml": '[tool.toolgen]\nimport-stdio = [""]\n'})
    assert toolgen("import").stderr == f"{table} import-stdio: an empty string in the list\n"


def test_a_manifest_that_is_not_one_is_refused(project: Path) -> None:
    write(project, {"tool_schemas/toolgen-import.toml": '[files]\n"../setup.json" = "x:y"\n'})
    result = toolgen("import", "tools:Greet")
    assert (result.exit_code, result.stderr) == (
        2,
        "error: tool_schemas/toolgen-import.toml: [files] '../setup.json': "
        'expected "FILE.json" = "SOURCE"\n',
    )


def test_file_names_of_unsafe_and_case_clashing_tool_names() -> None:
    assert file_names(["get_weather", "list.v2", "a/b c", "Get", "get", ".hidden"]) == {
        "get_weather": "get_weather.json",
        "list.v2": "list.v2.json",
        "a/b c": "a_b_c-0af99a60.json",
        "Get": "Get-5fb9c3ab.json",
        "get": "get-2998b323.json",
        ".hidden": "_hidden-16924190.json",
    }


def test_the_pre_commit_hook_runs_import_check(project: Path) -> None:
    found = hook("toolgen-import-check")
    assert (found["entry"], found["language"], found["pass_filenames"], found["always_run"]) == (
        "toolgen import --check",
        "python",
        "false",
        "true",
    )
    write(project, {"pyproject.toml": '[tool.toolgen]\nimport = ["tools:Greet"]\n'})
    command = found["entry"].split()[1:]
    assert toolgen(*command).exit_code == 1
    assert toolgen("import").exit_code == 0
    assert (toolgen(*command).exit_code, toolgen(*command).stdout) == (
        0,
        "tool_schemas: in sync with the code (1 tool)\n",
    )
