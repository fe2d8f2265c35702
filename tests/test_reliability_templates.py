"""Every template places user values through the `py` filter (or `doc` inside a docstring),
never pasted between quotes or into a comment; a scanner proves it and catches broken copies."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.emit.render import TEMPLATES, environment

# IR fields and template variables that carry text from a declaration.
USER_VALUES = re.compile(
    r"\b(tool\.tool|source|source_file|name|text|strings|numbers|containers|keys|pointer|keywords|expected|declared)\b"
)
SAFE_IN_COMMENTS = {"sha256"}  # computed hex digests
# Filters that make a value safe in code: a Python literal (one line or one element a line),
# or a name the generator made from a JSON name and checked to be [A-Za-z0-9_] (`ident`).
# `code` spells the code model (generator/emit/python.py), whose declared values go through the
# same literal function and whose names are checked the same way (tests/test_code_model.py).
SAFE_IN_CODE = {"py", "pyml", "ident", "code"}


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    problem: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.problem}"


class _PythonText:
    """Tracks, through the literal text of a template, whether we are inside a Python string
    literal (and which quote opened it) or a comment."""

    def __init__(self) -> None:
        self.quote = ""  # "", "'", '"', "'''", '"""', or "#" for a comment

    def feed(self, text: str) -> None:
        i = 0
        while i < len(text):
            c = text[i]
            if self.quote == "#":
                if c == "\n":
                    self.quote = ""
            elif self.quote:
                if c == "\\":
                    i += 1
                elif text.startswith(self.quote, i):
                    i += len(self.quote) - 1
                    self.quote = ""
                elif c == "\n" and len(self.quote) == 1:
                    self.quote = ""  # an unterminated one-line string: the parser would refuse it
            elif c == "#":
                self.quote = "#"
            elif text.startswith(('"""', "'''"), i):
                self.quote = text[i : i + 3]
                i += 2
            elif c in "'\"":
                self.quote = c
            i += 1


def _final_filter(tokens: list[tuple[str, str]]) -> str:
    """The filter applied last at the top level of an expression ('' when none)."""
    depth, last = 0, ""
    for i, (kind, value) in enumerate(tokens):
        if kind == "operator" and value in "([{":
            depth += 1
        elif kind == "operator" and value in ")]}":
            depth -= 1
        elif kind == "operator" and value == "|" and depth == 0 and i + 1 < len(tokens):
            last = tokens[i + 1][1]
        elif kind == "name" and value in ("if", "else") and depth == 0:
            last = ""  # a conditional expression: each branch must end filtered
    return last


def _branches_filtered(tokens: list[tuple[str, str]], wanted: set[str]) -> bool:
    """Every top-level branch of `a if c else b` ends with a wanted filter (or no user value)."""
    branches: list[list[tuple[str, str]]] = [[]]
    for token in tokens:
        if token[0] == "name" and token[1] in ("if", "else"):
            branches.append([])
        else:
            branches[-1].append(token)
    values = branches[:1] + branches[2::2] if len(branches) > 1 else branches
    return all(_final_filter(b) in wanted or not USER_VALUES.search("".join(v for _, v in b)) for b in values)


def _unbalanced_quotes(literal: str) -> bool:
    """A Jinja string literal that opens a Python string it does not close: whatever is joined
    to it with `~` lands between quotes."""
    text = ast.literal_eval(literal)
    state = _PythonText()
    state.feed(text.replace("#", ""))
    return state.quote not in ("", "#")


def scan(folder: Path) -> list[Finding]:
    env = environment()
    findings: list[Finding] = []
    for path in sorted(folder.glob("*.j2")):
        state = _PythonText()
        expression: list[tuple[str, str]] | None = None
        where = ""
        for line, kind, value in env.lexer.tokeniter(path.read_text("utf-8"), path.name):
            if kind == "string" and _unbalanced_quotes(value):
                findings.append(Finding(path.name, line, f"Jinja string {value} leaves a Python quote open"))
            if kind == "data":
                state.feed(value)
            elif kind == "variable_begin":
                expression, where = [], state.quote
            elif kind == "variable_end" and expression is not None:
                problem = _placement_problem(expression, where)
                if problem:
                    findings.append(Finding(path.name, line, problem))
                expression = None
            elif expression is not None and kind not in ("whitespace",):
                expression.append((kind, value))
    return findings


def _outside_calls(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The expression without the arguments of calls: a value passed to a macro is placed
    (and filtered) by that macro, which the scan checks where it is defined."""
    kept: list[tuple[str, str]] = []
    calls: list[bool] = []
    previous = ("", "")
    for token in tokens:
        if token == ("operator", "("):
            calls.append(previous[0] == "name" or previous == ("operator", ")"))
            if not any(calls):
                kept.append(token)
        elif token == ("operator", ")") and calls:
            if not any(calls):
                kept.append(token)
            calls.pop()
            if not any(calls) and kept and kept[-1] != token:
                kept.append(("operator", "()"))  # marks a call whose arguments were dropped
        elif not any(calls):
            kept.append(token)
        previous = token
    return kept


def _placement_problem(expression: list[tuple[str, str]], where: str) -> str:
    text = " ".join(v for _, v in expression)
    if not where:
        expression = _outside_calls(expression)
    if where in ("'", "'''"):
        return f"{{{{ {text} }}}} inside a {where}-quoted string: no filter can make that safe"
    if where in ('"', '"""') and not _branches_filtered(expression, {"doc"}):
        return f"{{{{ {text} }}}} inside a {where}-quoted string without the doc filter"
    in_comment = SAFE_IN_CODE | {"doc"}
    if where == "#" and text not in SAFE_IN_COMMENTS and not _branches_filtered(expression, in_comment):
        return f"{{{{ {text} }}}} in a comment without the py filter"
    if not where and not _branches_filtered(expression, SAFE_IN_CODE):
        return f"{{{{ {text} }}}} places a declaration's text in code without the py filter"
    return ""


def test_every_template_places_user_values_safely() -> None:
    assert sorted(p.name for p in TEMPLATES.glob("*.j2"))  # the scan sees the real templates
    assert [str(f) for f in scan(TEMPLATES)] == []


BROKEN = [
    ("module.py.j2", "TOOL_NAME = {{ tool.tool|py }}", 'TOOL_NAME = "{{ tool.tool }}"', "quoted string"),
    ("module.py.j2", "TOOL_NAME = {{ tool.tool|py }}", "TOOL_NAME = '{{ tool.tool|doc }}'", "no filter can"),
    ("module.py.j2", "TOOL_NAME = {{ tool.tool|py }}", 'TOOL_NAME = """{{ tool.tool|py }}"""', "doc filter"),
    ("module.py.j2", "TOOL_NAME = {{ tool.tool|py }}", "TOOL_NAME = {{ tool.tool }}", "in code"),
    (
        "collector.j2",
        "{{ k.name|ident }} = _s.missing_line({{ k.value|py }})",
        "{{ k.name }} = _s.missing_line({{ k.value|py }})",
        "in code",
    ),
    (
        "module.py.j2",
        "    ({{ entry.pointer|py }}, {{ entry.keywords|pyml }}),",
        "    # {{ entry.pointer }}",
        "in a comment",
    ),
    ("module.py.j2", "- {{ entry.pointer|doc }}", "- {{ entry.pointer }}", "doc filter"),
    ("collector.j2", "if {{ name|py }} not in x:", "if '{{ name }}' not in x:", "quoted string"),
    (
        "collector.j2",
        '"(*path, " ~ name|py ~ ")"',
        '"(*path, \'" ~ name ~ "\')"',
        "leaves a Python quote open",
    ),
    ("collector.j2", "_x.missing((*path, {{ name|py }}))", "_x.missing((*path, {{ name }}))", "in code"),
    ("collector.j2", "skip and failed != {{ name|py }}", "skip and failed != {{ name }}", "in code"),
]


@pytest.mark.parametrize(("file", "good", "bad", "problem"), BROKEN)
def test_the_scan_catches_a_broken_copy(tmp_path: Path, file: str, good: str, bad: str, problem: str) -> None:
    for template in TEMPLATES.glob("*.j2"):
        (tmp_path / template.name).write_text(template.read_text("utf-8"), "utf-8")
    target = tmp_path / file
    source = target.read_text("utf-8")
    assert good in source
    target.write_text(source.replace(good, bad, 1), "utf-8")
    findings = scan(tmp_path)
    assert len(findings) >= 1 and all(f.file == file for f in findings), findings
    assert any(problem in f.problem for f in findings), findings
