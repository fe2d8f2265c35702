"""Kinds are types: a misspelt kind fails `mypy --strict`, and the templates, which no type
checker reads, compare kinds only with members of their types."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

import pytest
from mypy import api

from generator.plan.collector import BodyForm, ConstantKind, FunctionKind, ValueKind

ROOT = Path(__file__).resolve().parent.parent

# Each kind spelt right, then misspelt; the test expects an error on exactly the misspelt lines.
_SNIPPET = """\
from generator.package.pipeline import PackageJob, ToolJob
from generator.plan.collector import Constant, Function
from generator.front.errors import Notice, NoticeKind, WarningKind
from generator.plan.fast import FastObject
from generator.front.shapes import Shape
from generator.front.vocabulary import Keyword, Step

Constant(name="_X", kind="literal", value=1)
Function(name="_visit_x", kind="visit")
Keyword("minimum", Step.BOUNDS, macro="number", compare=">=", constrains="number")
FastObject(required=(), members=[], extra="allow", declared=(), extra_values=[])
job = ToolJob(None, ("validator",))  # type: ignore[arg-type]  # (the declaration is not the point)
index = PackageJob("_declarations.py", "index", {})
notice: Notice[NoticeKind] = Notice("f", "", "not-enforced", "r")
warning: Notice[WarningKind] = Notice("f", "", "not_interpreted", "r")
form: Shape = "openai-responses"
Constant(name="_X", kind="litteral", value=1)  # bad
Function(name="_visit_x", kind="vist")  # bad
Keyword("minimum", Step.BOUNDS, macro="numbr")  # bad
Keyword("minimum", 3)  # bad: a step by number
Keyword("minimum", Step.BOUNDS, compare="=>")  # bad
FastObject(required=(), members=[], extra="alow", declared=(), extra_values=[])  # bad
bad_index = PackageJob("_declarations.py", "indx", {})  # bad
bad_notice: Notice[NoticeKind] = Notice("f", "", "not_interpreted", "r")  # bad: the graph's spelling
bad_form: Shape = "openai_responses"  # bad
"""


def test_mypy_strict_refuses_a_misspelt_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snippet = tmp_path / "kinds_snippet.py"
    snippet.write_text(_SNIPPET, encoding="utf-8")
    monkeypatch.chdir(ROOT)  # where `generator` is found, and pyproject.toml's [tool.mypy]
    out, err, status = api.run([str(snippet), "--strict", "--cache-dir", str(tmp_path / "cache")])
    assert err == ""
    bad = [n for n, line in enumerate(_SNIPPET.splitlines(), start=1) if "# bad" in line]
    flagged = sorted({int(m) for m in re.findall(r"kinds_snippet\.py:(\d+): error:", out)})
    assert (status, flagged) == (1, bad), out


def _compared(template: str, subject: str) -> set[str]:
    """Every string literal `subject` is compared with (== or !=) in a template."""
    text = (ROOT / "templates" / template).read_text(encoding="utf-8")
    return set(re.findall(rf"(?<![\w.]){re.escape(subject)} [!=]= \"([^\"]*)\"", text))


@pytest.mark.parametrize(
    ("template", "subject", "kind"),
    [
        ("collector.j2", "k.kind", ConstantKind),
        ("collector.j2", "v.kind", ValueKind),
        ("collector.j2", "f.kind", FunctionKind),
        ("collector.j2", "then.form", BodyForm),
        ("collector.j2", "b.form", BodyForm),
    ],
)
def test_templates_compare_kinds_with_members_of_their_types(template: str, subject: str, kind: Any) -> None:
    compared = _compared(template, subject)
    assert compared, f"{template} no longer compares {subject}: update this test"
    assert compared <= set(get_args(kind))


def test_the_collector_template_spells_every_constant_kind() -> None:
    # The constants macro has one branch per kind: a kind added to the type needs its spelling.
    assert _compared("collector.j2", "k.kind") == set(get_args(ConstantKind))
