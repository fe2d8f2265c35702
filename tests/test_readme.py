"""The README's examples run, in order, in a copy of the project, so they cannot rot.

Fenced blocks, by info string:
* `json file=PATH`: the block is written to PATH (a declaration the next commands see);
* `console`: `$ toolgen ...` lines are run (click's runner, program name `toolgen`) and what
  they print (standard output and error, as a terminal shows them) must equal the lines
  below the command; a line `...` stands for any number of lines, and a timing `in 0.4s`
  for any timing;
* `python`: executed; `pycon`: run as a doctest, outputs compared.
Other blocks (yaml, text) are shown, not run.
"""

from __future__ import annotations

import doctest
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.cli import main

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
TIMING = re.compile(r" in \d+\.\ds$", re.MULTILINE)


@dataclass(frozen=True)
class Block:
    kind: str
    options: str
    text: str
    line: int  # where the block starts in README.md, for failure messages


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
    assert words[0] == "toolgen", command
    result = CliRunner().invoke(main, words[1:], prog_name="toolgen")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1), (command, result.output)
    return TIMING.sub(" in 0.4s", result.output).splitlines()


def run_block(block: Block, namespace: dict[str, Any]) -> None:
    where = f"README.md line {block.line}"
    if block.kind == "json" and block.options.startswith("file="):
        target = Path(block.options.removeprefix("file="))
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
        test = doctest.DocTestParser().get_doctest(block.text, namespace, where, "README.md", block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        report: list[str] = []
        runner.run(test, out=report.append, clear_globs=False)
        assert runner.failures == 0, "".join(report)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for folder in ("tool_schemas", "generated", "examples"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_readme_examples_run_as_shown(project: Path) -> None:
    namespace: dict[str, Any] = {"__name__": "readme"}
    for block in blocks((ROOT / "README.md").read_text("utf-8")):
        run_block(block, namespace)


def test_readme_shows_every_command_running() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    shown = {
        shlex.split(cmd)[1] for b in blocks(readme) if b.kind == "console" for cmd, _ in sessions(b.text)
    }
    assert {"generate", "check", "validate", "explain", "audit"} <= shown


def test_the_ellipsis_matches_runs_of_lines_and_nothing_else() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a", "b"], ["a", "b", "c"])


@pytest.mark.parametrize(
    "block",
    [
        Block("pycon", "", ">>> 1 + 1\n3\n", 1),
        Block("console", "", "$ toolgen validate Write '{}'\nWrite: valid\n", 1),
        Block("python", "", "assert False, 'executed'\n", 1),
    ],
)
def test_a_block_whose_output_differs_fails(block: Block) -> None:
    with pytest.raises(AssertionError):
        run_block(block, {})
