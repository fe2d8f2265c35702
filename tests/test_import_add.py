"""`toolgen import --add SOURCE` / `--stdio-add COMMAND` (issue 36.4): a source imported as well
as the configured ones, nothing imported removed; `--save` writes the run's sources to
[tool.toolgen] (generator/table_edit.py); the plain form keeps replacing the configured sources."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.cli.table_edit import TableError, edited, prepare
from generator.front.load import read_toml
from tests.import_support import files, toolgen, write

MODELS = '''\
from pydantic import BaseModel


class Greet(BaseModel):
    """Greet someone."""

    name: str


class Wave(BaseModel):
    """Wave."""

    hand: str = "left"


class Shout(BaseModel):
    """Shout."""

    words: str
'''

SERVER = '''\
from mcp.server.mcpserver import MCPServer

server = MCPServer("clock")


@server.tool()
def now(zone: str = "UTC") -> str:
    """The time in a zone."""
    return "12:00"


if __name__ == "__main__":
    server.run()
'''

# The project's own pyproject.toml: comments and other tables, which --save leaves as they are.
PYPROJECT = """\
[project]
name = "app"  # the agent

[tool.toolgen]
schemas = "decls"
# the models the agent's tools take
import = ["tools:Greet"]

[tool.ruff]
line-length = 100
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    write(tmp_path, {"pyproject.toml": PYPROJECT, "tools.py": MODELS, "clock.py": SERVER})
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    sys.modules.pop("tools", None)


def _manifest(*entries: tuple[str, str]) -> str:
    lines = [f'"{name}" = "{source}"\n' for name, source in entries]
    return (
        "# Written by `toolgen import`: the declaration files it owns, each with its source.\n"
        "# A re-run rewrites or removes only these files. Do not edit.\n"
        "[files]\n" + "".join(lines)
    )


NOTE = (
    "note: [tool.toolgen] in pyproject.toml does not list {missing}: a bare `toolgen import` (and "
    "the pre-commit hook) would remove what they gave; add --save to list them there\n"
)


def test_add_imports_a_source_as_well_and_removes_nothing(project: Path) -> None:
    assert toolgen("import").exit_code == 0
    write(project, {"decls/by_hand.json": '{"name": "Lookup", "inputSchema": {"type": "object"}}\n'})
    greet = (project / "decls" / "Greet.json").read_bytes()

    added = toolgen("import", "--add", "tools:Wave")
    assert (added.exit_code, added.stdout, added.stderr) == (
        0,
        "2 tools imported into decls: 0 changed, 1 new, 1 unchanged, 0 removed in N.Ns\n",
        NOTE.format(missing="tools:Wave"),
    )
    found = files(project / "decls")
    assert sorted(found) == ["Greet.json", "Wave.json", "by_hand.json", "toolgen-import.toml"]
    assert found["Greet.json"] == greet
    assert found["by_hand.json"] == b'{"name": "Lookup", "inputSchema": {"type": "object"}}\n'
    assert found["toolgen-import.toml"].decode() == _manifest(
        ("Greet.json", "tools:Greet"), ("Wave.json", "tools:Wave")
    )
    assert (project / "pyproject.toml").read_text("utf-8") == PYPROJECT  # not asked to save

    # Not saved, the table still names Greet alone: --check says so, with its fix.
    check = toolgen("import", "--check")
    assert check.exit_code == 1
    assert check.stderr == (
        "changed: decls/toolgen-import.toml\n"
        "removed: decls/Wave.json\n"
        "declarations are out of sync with the code; run: toolgen import\n"
    )


def test_add_with_save_writes_the_table_and_a_bare_import_agrees(project: Path) -> None:
    assert toolgen("import").exit_code == 0
    saved = toolgen("import", "--add", "tools:Wave", "--save")
    assert (saved.exit_code, saved.stdout, saved.stderr) == (
        0,
        "2 tools imported into decls: 0 changed, 1 new, 1 unchanged, 0 removed in N.Ns\n"
        'pyproject.toml: [tool.toolgen] import = ["tools:Greet", "tools:Wave"]\n',
        "",
    )
    # Only the key's line changed: the comments and the other tables are as they were.
    assert (project / "pyproject.toml").read_text("utf-8") == PYPROJECT.replace(
        'import = ["tools:Greet"]', 'import = ["tools:Greet", "tools:Wave"]'
    )
    assert toolgen("import", "--check").stdout == "decls: in sync with the code (2 tools)\n"
    again = toolgen("import", "--add", "tools:Wave", "--save")
    assert again.stdout == (
        "2 tools imported into decls: 0 changed, 0 new, 2 unchanged, 0 removed in N.Ns\n"
        "pyproject.toml: [tool.toolgen] already lists these sources\n"
    )


def test_add_keeps_what_a_run_that_named_its_sources_imported(project: Path) -> None:
    # The plain form keeps today's meaning: the sources named replace the configured ones.
    only = toolgen("import", "tools:Wave")
    assert only.stdout == "1 tool imported into decls: 0 changed, 1 new, 0 unchanged, 0 removed in N.Ns\n"
    # --add: the configured Greet, Wave (from the manifest: imported before) and Shout.
    added = toolgen("import", "--add", "tools:Shout", "--save")
    assert (added.exit_code, added.stdout, added.stderr) == (
        0,
        "3 tools imported into decls: 0 changed, 2 new, 1 unchanged, 0 removed in N.Ns\n"
        'pyproject.toml: [tool.toolgen] import = ["tools:Greet", "tools:Wave", "tools:Shout"]\n',
        "",
    )
    assert sorted(files(project / "decls")) == [
        "Greet.json",
        "Shout.json",
        "Wave.json",
        "toolgen-import.toml",
    ]
    replaced = toolgen("import", "tools:Greet")
    assert replaced.stdout == "1 tool imported into decls: 0 changed, 0 new, 1 unchanged, 2 removed in N.Ns\n"


def test_stdio_add_imports_a_server_as_well(project: Path) -> None:
    assert toolgen("import").exit_code == 0
    command = f"{shlex.quote(sys.executable)} clock.py"
    added = toolgen("import", "--stdio-add", command, "--save")
    label = f"--stdio {shlex.quote(command)}"
    assert (added.exit_code, added.stdout, added.stderr) == (
        0,
        "2 tools imported into decls: 0 changed, 1 new, 1 unchanged, 0 removed in N.Ns\n"
        f'pyproject.toml: [tool.toolgen] import = ["tools:Greet"]; import-stdio = ["{command}"]\n',
        "",
    )
    assert files(project / "decls")["toolgen-import.toml"].decode() == _manifest(
        ("Greet.json", "tools:Greet"), ("now.json", label.replace('"', '\\"'))
    )
    assert read_toml(project / "pyproject.toml")["tool"]["toolgen"] == {
        "schemas": "decls",
        "import": ["tools:Greet"],
        "import-stdio": [command],
    }
    # A module source added later keeps the server's tool: it is in the manifest and the table.
    more = toolgen("import", "--add", "tools:Wave")
    assert more.stdout == "3 tools imported into decls: 0 changed, 1 new, 2 unchanged, 0 removed in N.Ns\n"
    assert more.stderr == NOTE.format(missing="tools:Wave")


def test_save_in_the_plain_form_and_in_a_project_without_a_table(project: Path) -> None:
    write(project, {"pyproject.toml": '[project]\nname = "app"\n'})
    saved = toolgen("import", "tools:Greet", "--save")
    assert saved.stdout == (
        "1 tool imported into tool_schemas: 0 changed, 1 new, 0 unchanged, 0 removed in N.Ns\n"
        'pyproject.toml: [tool.toolgen] import = ["tools:Greet"]\n'
    )
    assert (project / "pyproject.toml").read_text("utf-8") == (
        '[project]\nname = "app"\n\n[tool.toolgen]\nimport = ["tools:Greet"]\n'
    )
    assert toolgen("import").stdout == (
        "1 tool imported into tool_schemas: 0 changed, 0 new, 1 unchanged, 0 removed in N.Ns\n"
    )


def test_what_add_and_save_refuse(project: Path) -> None:
    both = toolgen("import", "tools:Wave", "--add", "tools:Shout")
    assert (both.exit_code, both.stdout, both.stderr) == (
        2,
        "",
        "error: --add and --stdio-add import as well as the configured sources; SOURCE and --stdio "
        "replace them: give one kind or the other; nothing written\n",
    )
    checked = toolgen("import", "--check", "--save")
    assert (checked.exit_code, checked.stderr) == (
        2,
        "error: --save writes pyproject.toml and --check writes nothing: give one or the other\n",
    )
    # A table spelt inline cannot be edited line by line: refused before anything is written.
    inline = 'tool = {toolgen = {schemas = "decls", import = ["tools:Greet"]}}\n[project]\nname = "app"\n'
    write(project, {"pyproject.toml": inline})
    refused = toolgen("import", "--add", "tools:Wave", "--save")
    assert (refused.exit_code, refused.stderr) == (
        2,
        "error: pyproject.toml: its [tool.toolgen] table is not written in a form this edit follows; "
        'set it by hand: import = ["tools:Greet", "tools:Wave"]; no import-stdio\n',
    )
    assert not (project / "decls").exists()
    assert (project / "pyproject.toml").read_text("utf-8") == inline
    # A source --add names that cannot be imported: exit 2, nothing written.
    write(project, {"pyproject.toml": PYPROJECT})
    missing = toolgen("import", "--add", "tools:Nope", "--save")
    assert (missing.exit_code, missing.stderr) == (2, "error: tools:Nope: tools has no attribute 'Nope'\n")
    assert (project / "pyproject.toml").read_text("utf-8") == PYPROJECT


def test_the_check_advice_repeats_add(project: Path) -> None:
    check = toolgen("import", "--check", "--add", "tools:Wave")
    assert check.exit_code == 1
    assert check.stderr.endswith(
        "declarations are out of sync with the code; run: toolgen import --add tools:Wave\n"
    )


# ---------- the edit itself: only the keys' lines ----------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (  # a list over several lines, a trailing comment, and a key that is not there yet
            '[tool.toolgen]\nimport = [\n  "a:b",  # first\n  "c:d",\n] # sources\nout = "pkg"\n'
            "\n[tool.x]\ny = 1\n",
            '[tool.toolgen]\nimport = ["a:b", "e:f"] # sources\nout = "pkg"\nimport-stdio = ["srv --x"]\n\n'
            "[tool.x]\ny = 1\n",
        ),
        (  # CRLF line endings stay, a quoted key is found, an empty list removes the key
            '[tool.toolgen]\r\n"import" = ["a:b"]\r\nimport-stdio = ["old"]\r\n',
            '[tool.toolgen]\r\nimport = ["a:b", "e:f"]\r\nimport-stdio = ["srv --x"]\r\n',
        ),
        ("", '[tool.toolgen]\nimport = ["a:b", "e:f"]\nimport-stdio = ["srv --x"]\n'),
    ],
)
def test_the_edit_changes_only_the_lists(before: str, after: str) -> None:
    assert edited(before, {"import": ("a:b", "e:f"), "import-stdio": ("srv --x",)}) == after


def test_a_long_list_is_written_one_source_a_line_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('[tool.toolgen]\nimport = ["a:b"]\n', "utf-8")
    sources = (*(f"agent.tools.module_{n}:server" for n in range(4)), 'odd "quoted" \\ é:x')
    edit = prepare(path, "pyproject.toml", {"import": sources, "import-stdio": ()})
    edit.write()
    text = path.read_text("utf-8")
    assert text.splitlines()[1:3] == ["import = [", '    "agent.tools.module_0:server",']
    assert text.splitlines()[-2:] == ['    "odd \\"quoted\\" \\\\ é:x",', "]"]
    assert read_toml(path)["tool"]["toolgen"] == {"import": list(sources)}
    with pytest.raises(TableError):
        path.write_text('[tool.toolgen]\nimport = "a:b"\n', "utf-8")  # not a list: left to a person
        prepare(path, "pyproject.toml", {"import": ("c:d",), "import-stdio": ()})
