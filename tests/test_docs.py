"""The examples of the README and of every page of docs/ run, in order, so they cannot rot.

The README (the landing page) runs in an empty folder, as in a user's own project; each page
of docs/ runs on its own in a fresh copy of this project (tool_schemas/, generated/,
examples/), the working directory in both cases.

Fenced blocks, by info string:
* `json file=PATH` (or `jsonl file=PATH`): the block is written to PATH (a declaration the
  next commands see, or lines to feed a command);
* `python file=PATH`: the block is written to PATH, not executed here: a script a later
  `$ .venv/bin/python PATH` line runs in its own process, as a user runs it (its folder first
  on `sys.path`, so it imports the project's own generated package), or a module a later
  command imports; `toml file=PATH` likewise (a pyproject.toml);
* `console`: `$ .venv/bin/toolgen ...` lines, the command as `make setup` installs it and a
  user types it, are run (click's runner, program name `toolgen`, `sys.argv[0]` as typed;
  `< FILE` feeds FILE to standard input), and `$ .venv/bin/python ...` lines run this
  interpreter in a real process; what they print (standard output and error, as a terminal
  shows them) must equal the lines below the command; a line `...` stands for any number of
  lines, and a timing `in 0.4s` for any timing;
* `python`: executed; `pycon`: run as a doctest, outputs compared.
Other blocks (yaml, text) are shown, not run.
"""

from __future__ import annotations

import doctest
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.cli.commands import main

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ".venv/bin/toolgen"  # where `make setup` (and so `make generate`, `make test`) installs it
PYTHON = ".venv/bin/python"  # the same environment's interpreter
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))
# A toolgen command a shell would look up on PATH, or the generator run by a bare `python`
# (`python -m toolgen generate` is the latter: its `toolgen generate` is not a command):
# neither is found after the README's two set-up commands.
BARE = re.compile(
    r"(?<![\w/.-])(?:(?<!-m )toolgen (?:generate|check|validate|explain|audit|-)"
    r"|python3? -m (?:generator|toolgen))"
)
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
TIMING = re.compile(r" in \d+\.\ds$", re.MULTILINE)


@dataclass(frozen=True)
class Block:
    kind: str
    options: str
    text: str
    line: int  # where the block starts in its file, for failure messages


def blocks(readme: str) -> list[Block]:
    return [
        Block(m.group(1), m.group(2).strip(), m.group(3), readme.count("\n", 0, m.start()) + 1)
        for m in FENCE.finditer(readme)
    ]


def sessions(text: str) -> list[tuple[str, list[str]]]:
    """A console block as (command, expected lines) pairs."""
    found: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        else:
            assert found, f"output before any command: {line!r}"
            found[-1][1].append(line)
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line-wise equality, where a line `...` matches any run of lines (possibly none)."""
    pattern = "".join(r"(?:.*\n)*?" if line == "..." else re.escape(line) + r"\n" for line in expected)
    return re.fullmatch(pattern, "".join(f"{line}\n" for line in actual)) is not None


def run_console(command: str) -> list[str]:
    words = shlex.split(command)
    if words[0] == PYTHON:
        done = subprocess.run(
            [sys.executable, *words[1:]], capture_output=True, text=True, timeout=120, check=False
        )
        return (done.stdout + done.stderr).splitlines()
    assert words[0] == COMMAND, command
    stdin = None
    if "<" in words:
        at = words.index("<")
        stdin = Path(words[at + 1]).read_text("utf-8")
        words = words[:at] + words[at + 2 :]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "argv", [COMMAND])  # as the shell starts it: advice repeats the path
        result = CliRunner().invoke(main, words[1:], prog_name="toolgen", input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1, 2), (command, result.output)  # 2: a refusal shown on purpose
    return TIMING.sub(" in 0.4s", result.output).splitlines()


def run_block(block: Block, namespace: dict[str, Any], name: str = "README.md") -> None:
    where = f"{name} line {block.line}"
    if block.kind in ("json", "jsonl", "python", "toml") and block.options.startswith("file="):
        target = Path(block.options.removeprefix("file="))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.text, "utf-8")
    elif block.kind == "console":
        for command, expected in sessions(block.text):
            actual = run_console(command)
            expected = [TIMING.sub(" in 0.4s", line) for line in expected]
            assert matches(expected, actual), f"{where}: $ {command}\n" + "\n".join(actual)
    elif block.kind == "python":
        # dont_inherit: a block runs as a user runs it, without this file's `from __future__` imports.
        exec(compile(block.text, where, "exec", dont_inherit=True), namespace)
    elif block.kind == "pycon":
        test = doctest.DocTestParser().get_doctest(block.text, namespace, where, name, block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        report: list[str] = []
        runner.run(test, out=report.append, clear_globs=False)
        assert runner.failures == 0, "".join(report)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of this project (its declarations, package, examples and Makefile, whose `generate`
    target the headers name) as the working directory."""
    for folder in ("tool_schemas", "generated", "examples"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_page(path: Path) -> None:
    namespace: dict[str, Any] = {"__name__": path.stem}
    for block in blocks(path.read_text("utf-8")):
        run_block(block, namespace, path.relative_to(ROOT).as_posix())


def test_readme_examples_run_as_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The landing page's quick start is a user's own project: an empty folder.
    monkeypatch.chdir(tmp_path)
    run_page(README)


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_docs_examples_run_as_shown(page: Path, project: Path) -> None:
    run_page(page)


def test_the_docs_show_every_command_running() -> None:
    shown = {
        shlex.split(cmd)[1]
        for page in [README, *PAGES]
        for b in blocks(page.read_text("utf-8"))
        if b.kind == "console"
        for cmd, _ in sessions(b.text)
        if cmd.startswith(COMMAND)
    }
    assert {"generate", "check", "validate", "explain", "audit"} <= shown


def bare_commands(readme: str) -> list[str]:
    """Commands the README shows that a fresh shell would not find: in prose code spans,
    indented blocks and console command lines (a console block's output lines are what the
    program prints, such as its help, and are left alone)."""
    found: list[str] = []
    for block in blocks(readme):
        if block.kind == "console":
            found += [c for c, _ in sessions(block.text) if not c.startswith((f"{COMMAND} ", f"{PYTHON} "))]
    prose = FENCE.sub("", readme)
    spans = re.findall(r"`([^`\n]+)`", prose) + re.findall(r"^    (\S.*)$", prose, re.MULTILINE)
    return found + [text for text in spans if BARE.search(text)]


@pytest.mark.parametrize("page", [README, *PAGES], ids=["README", *(p.stem for p in PAGES)])
def test_no_page_shows_a_command_that_is_not_found_after_set_up(page: Path) -> None:
    assert bare_commands(page.read_text("utf-8")) == []


def test_the_set_up_installs_the_commands_the_docs_show() -> None:
    # The path the README writes is the one set-up installs: this interpreter's own bin.
    assert (Path(sys.executable).parent / "toolgen").is_file()
    makefile = (ROOT / "Makefile").read_text("utf-8")
    assert "VENV := .venv\n" in makefile and "$(BIN)/python -m pip install --quiet -e '.[dev]'" in makefile
    assert 'toolgen = "toolgen.cli.commands:main"' in (ROOT / "pyproject.toml").read_text("utf-8")


def test_a_bare_command_is_caught() -> None:
    readme = (
        "Run `toolgen check`, then:\n\n    python -m toolgen generate\n\n"
        "```console\n$ toolgen validate Write '{}'\nWrite: valid\n```\n"
        "`.venv/bin/toolgen check` and `toolgen-check` are fine.\n"
    )
    assert bare_commands(readme) == [
        "toolgen validate Write '{}'",
        "toolgen check",
        "python -m toolgen generate",
    ]


def test_the_ellipsis_matches_runs_of_lines_and_nothing_else() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a", "b"], ["a", "b", "c"])


@pytest.mark.parametrize(
    "block",
    [
        Block("pycon", "", ">>> 1 + 1\n3\n", 1),
        Block("console", "", "$ .venv/bin/toolgen validate Write '{}'\nWrite: valid\n", 1),
        Block("python", "", "assert False, 'executed'\n", 1),
    ],
)
def test_a_block_whose_output_differs_fails(block: Block) -> None:
    with pytest.raises(AssertionError):
        run_block(block, {})


def test_a_python_file_block_is_written_not_executed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    script = "raise SystemExit('not here')\n"
    run_block(Block("python", "file=scripts/agent.py", script, 1), {})
    assert (tmp_path / "scripts" / "agent.py").read_text("utf-8") == script
    assert run_console(f"{PYTHON} scripts/agent.py") == ["not here"]
