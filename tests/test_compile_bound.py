"""Issue 37.7: a declaration compiles in bounded time, or is refused naming the file, the
pointer and the limit. The anyOf / oneOf selections of one visit are compiled as a decision
tree whose cases multiply (generator/front/schema_graph.py, `cases`): past CASES_LIMIT they are
refused in pass 1, before anything is planned. (Speed is measured by `make compile-bound`,
benchmarks/compile_bound.py, never timed here.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from generator.front.load import declarations_in
from generator.front.schema_graph import CASES_LIMIT, Combinator, Group, analyse, cases
from tests.toolgen_cli import ROOT, invoke

HOSTILE = ROOT / "tests" / "data" / "hostile"
LIMIT_TEXT = (
    f"its anyOf / oneOf selections combine into more than {CASES_LIMIT:,} cases to compile (the limit); "
    "split it into fewer combinators in place"
)


def stacked(count: int) -> dict[str, Any]:
    """Parameters whose group holds `count` oneOfs of two branches side by side (allOf)."""
    one_of = [
        {
            "oneOf": [
                {"properties": {f"a{i}": {"type": "string"}}},
                {"properties": {f"b{i}": {"type": "integer"}}},
            ]
        }
        for i in range(count)
    ]
    return {"type": "object", "allOf": one_of}


def root_cases(parameters: dict[str, Any]) -> int:
    text = json.dumps({"type": "function", "function": {"name": "t", "parameters": parameters}})
    [declaration] = declarations_in(text.encode(), "t.json")
    graph = analyse("t.json", declaration.parameters, base=declaration.pointer)
    return cases(graph.groups[""].combinators, {})


def test_cases_follow_the_decision_tree() -> None:
    # k oneOfs of two branches without combinators of their own: each one selects either
    # branch or none, and each branch has a candidate: C(k) = 3 C(k-1) + 2, C(0) = 1.
    assert [root_cases(stacked(k)) for k in range(1, 5)] == [5, 17, 53, 161]


def test_counting_stops_one_past_the_limit() -> None:
    leaf = Group("/b", ("/b",), (), "/b", False, (), None)
    one_of = Combinator("oneOf", "", (leaf, leaf), None, ())
    assert [cases((one_of,) * k, {}) for k in (4, 5, 40)] == [161, CASES_LIMIT + 1, CASES_LIMIT + 1]
    # a branch that brings the same combinator again, as a $ref to a shared definition does
    nested = Combinator(
        "oneOf", "", (Group("/n", ("/n",), (one_of,) * 3, "/n", False, (), None), leaf), None, ()
    )
    assert cases((nested,) * 3, {}) == CASES_LIMIT + 1


@pytest.mark.parametrize("name", ["slow-oneof.json", "slow-oneof-2.json"])
def test_the_hostile_declarations_are_refused_at_once(tmp_path: Path, name: str) -> None:
    schemas, out = tmp_path / "schemas", tmp_path / "out"
    schemas.mkdir()
    shutil.copy(HOSTILE / name, schemas / name)
    pointer = {
        "slow-oneof.json": "/function/parameters",
        "slow-oneof-2.json": "/function/parameters",
    }
    result = invoke("generate", "--keywords", "extended", "--schemas", str(schemas), "--out", str(out))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: {name}: {pointer[name]}: {LIMIT_TEXT}\n"
    assert not out.exists()


@pytest.mark.parametrize("name", ["slow-oneof.json", "slow-oneof-2.json"])
def test_the_hostile_declarations_compile_in_subset_mode(tmp_path: Path, name: str) -> None:
    # subset mode reads no anyOf / oneOf: nothing multiplies
    schemas, out = tmp_path / "schemas", tmp_path / "out"
    schemas.mkdir()
    shutil.copy(HOSTILE / name, schemas / name)
    result = invoke("generate", "--schemas", str(schemas), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert (out / "__init__.py").is_file()


def test_the_limit_is_between_four_and_five_stacked_oneofs(tmp_path: Path) -> None:
    schemas, out = tmp_path / "schemas", tmp_path / "out"
    schemas.mkdir()
    for count in (4, 5):
        text = json.dumps(
            {"type": "function", "function": {"name": f"t{count}", "parameters": stacked(count)}}
        )
        (schemas / f"t{count}.json").write_text(text)
    result = invoke("generate", "--keywords", "extended", "--schemas", str(schemas), "--out", str(out))
    assert (result.exit_code, result.stderr) == (2, f"error: t5.json: /function/parameters: {LIMIT_TEXT}\n")
    (schemas / "t5.json").unlink()
    result = invoke("generate", "--keywords", "extended", "--schemas", str(schemas), "--out", str(out))
    assert result.exit_code == 0, result.stderr
