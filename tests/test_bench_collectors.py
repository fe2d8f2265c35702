"""The bench's hand-written all-errors collectors give our exact messages on JSON input, so that
timing them against ours on failing calls compares like with like."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given

import generated
from benchmarks.cases import build_cases, load_declarations
from benchmarks.handwritten_errors import HANDWRITTEN_ERRORS
from tests.genpkg import ROOT
from tests.strategies import JSON_VALUES, reproducible, values_for

PARAMETERS = load_declarations(ROOT / "tool_schemas")


@pytest.mark.parametrize("tool", sorted(HANDWRITTEN_ERRORS))
def test_the_bench_cases_get_our_messages(tool: str) -> None:
    cases = [case for case in build_cases({tool: PARAMETERS[tool]}) if case.tool == tool]
    assert len(cases) == 4 and sum(not case.valid for case in cases) == 2
    for case in cases:
        assert HANDWRITTEN_ERRORS[tool](case.args) == generated.validate(tool, case.args)


@pytest.mark.parametrize("tool", sorted(HANDWRITTEN_ERRORS))
def test_near_valid_json_calls_get_our_messages(tool: str) -> None:
    @reproducible(300)
    @given(values_for(PARAMETERS[tool], JSON_VALUES))
    def run(args: Any) -> None:
        args = json.loads(json.dumps(args))  # JSON-decoded input, as a model's call arrives
        assert HANDWRITTEN_ERRORS[tool](args) == generated.validate(tool, args)

    run()


def test_a_message_with_every_kind_at_every_depth() -> None:
    args = {
        "questions": [{"question": 1, "options": [{"x": 1}, 2], "multiSelect": "no", "z": 0}, []],
        "answers": {"a": 1},
        "metadata": {"b": 2, "source": 3},
        "extra": True,
    }
    expected = """AskUserQuestion failed due to the following issues:
The required parameter `questions[0].header` is missing
The required parameter `questions[0].options[0].label` is missing
An unexpected parameter `questions[0].options[0].x` was provided
An unexpected parameter `questions[0].z` was provided
An unexpected parameter `extra` was provided
The parameter `questions[0].question` type is expected as `string` but provided as `number`
The parameter `questions[0].options[1]` type is expected as `object` but provided as `number`
The parameter `questions[0].multiSelect` type is expected as `boolean` but provided as `string`
The parameter `questions[1]` type is expected as `object` but provided as `array`
The parameter `answers.a` type is expected as `string` but provided as `number`
The parameter `metadata.source` type is expected as `string` but provided as `number`
The parameter `metadata.b` type is expected as `string` but provided as `number`"""
    assert HANDWRITTEN_ERRORS["AskUserQuestion"](args) == expected
    assert generated.validate("AskUserQuestion", args) == expected
