"""The reference interpreter agrees with the specs' own worked examples, in each vocabulary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.reference import EXTENDED, SUBSET, VOCABULARIES, message

ROOT = Path(__file__).resolve().parent.parent


def parameters(tool: str) -> dict[str, Any]:
    declaration = json.loads((ROOT / "tool_schemas" / f"{tool}.json").read_text("utf-8"))
    found: dict[str, Any] = declaration["function"]["parameters"]
    return found


@pytest.mark.parametrize("mode", VOCABULARIES)
def test_reference_reproduces_spec_example(mode: str) -> None:
    """docs/spec/validation.md §6; extended mode keeps it (TaskUpdate declares no extended keyword there)."""
    args = {"id": "2", "status": "done", "owner": 3}
    assert message("TaskUpdate", parameters("TaskUpdate"), args, VOCABULARIES[mode]) == (
        "TaskUpdate failed due to the following issues:\n"
        "The required parameter `taskId` is missing\n"
        "An unexpected parameter `id` was provided\n"
        "The parameter `owner` type is expected as `string` but provided as `number`\n"
        'The parameter `status` is invalid: expected one of "pending", "in_progress", "completed", "deleted"'
    )


def test_reference_reproduces_extended_spec_example() -> None:
    """docs/spec/extended.md E7: five questions, one header 14 characters long; subset mode reads no bound."""
    question = {"question": "q?", "header": "h", "options": [{"label": "a"}, {"label": "b"}]}
    questions = [question, question, {**question, "header": "fourteen chars"}, question, question]
    args = {"questions": questions}
    assert message("AskUserQuestion", parameters("AskUserQuestion"), args, EXTENDED) == (
        "AskUserQuestion failed due to the following issues:\n"
        "The parameter `questions` is invalid: expected at most 4 items\n"
        "The parameter `questions[2].header` is invalid: expected at most 12 characters"
    )
    assert message("AskUserQuestion", parameters("AskUserQuestion"), args, SUBSET) is None


def test_open_keywords_are_those_the_specs_list() -> None:
    """EXTENDED is SUBSET with more keywords interpreted; what that leaves open is E2's list."""
    assert EXTENDED.open_keywords == {
        "patternProperties", "dependentSchemas", "dependencies", "if", "then", "else",
        "unevaluatedProperties", "$dynamicRef", "$recursiveRef",
    }  # fmt: skip
    assert SUBSET.interpreted < EXTENDED.interpreted
    assert SUBSET.open_keywords - EXTENDED.open_keywords == {"allOf", "anyOf", "oneOf", "$ref"}


def test_the_vocabularies_differ_on_non_str_keys_and_depth() -> None:
    """docs/spec/validation.md §3 vs E4 4c: a non-str key in a free-form map; E4: the depth limit."""
    free = {"type": "object", "additionalProperties": True}
    assert message("T", free, {1: "x"}, SUBSET) is None
    assert message("T", free, {1: "x"}, EXTENDED) == (
        "T failed due to the following issue:\nAn unexpected parameter `1` was provided"
    )
    deep: dict[str, Any] = {"type": "object", "additionalProperties": True}
    for _ in range(257):
        deep = {"type": "object", "properties": {"k": deep}}
    value: dict[str, Any] = {}
    for _ in range(257):
        value = {"k": value}
    assert message("T", deep, value, SUBSET) is None
    assert message("T", deep, value, EXTENDED) == (
        "T failed due to the following issue:\n"
        f"The parameter `{'.'.join(['k'] * 257)}` is invalid: nested more than 256 levels deep"
    )
