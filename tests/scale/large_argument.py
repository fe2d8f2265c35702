"""`make scale`, part 2: validation time grows linearly with the size of the argument object.

Arguments of 125 KB to 2 MB (JSON size) for built-in tools, valid (fast path) and with one bad
element at the very end (the collector walks everything). Prints ns per JSON byte for each
size: constant means linear. Measures, never asserts a time.
"""

from __future__ import annotations

import json
import timeit
from collections.abc import Callable
from typing import Any

import generated
from tests import reference
from tests.reliability import SCHEMAS

SIZES = (125_000, 250_000, 500_000, 1_000_000, 2_000_000)


def _blocks(size: int, bad: bool) -> dict[str, Any]:
    ids = [f"task-{i:06d}" for i in range(size // 15)]
    if bad:
        ids[-1] = None  # type: ignore[call-overload]
    return {"taskId": "1", "addBlocks": ids}


def _questions(size: int, bad: bool) -> dict[str, Any]:
    item = {"question": "Which one?", "header": "Pick", "options": [{"label": "a", "description": "first"}]}
    count = size // len(json.dumps(item))
    questions: list[Any] = [dict(item) for _ in range(count)]
    if bad:
        questions[-1] = {**item, "multiSelect": "yes"}
    return {"questions": questions}


def _answers(size: int, bad: bool) -> dict[str, Any]:
    answers: dict[str, Any] = {f"question {i:07d}": "yes" for i in range(size // 25)}
    if bad:
        answers["question 0000000"] = 1
    return {"questions": [], "answers": answers}


CASES: tuple[tuple[str, str, Callable[[int, bool], dict[str, Any]]], ...] = (
    ("TaskUpdate", "array of strings", _blocks),
    ("AskUserQuestion", "array of objects", _questions),
    ("AskUserQuestion", "map of strings", _answers),
)


def main() -> None:
    print(f"{'tool':<16} {'argument':<18} {'valid':<6} " + " ".join(f"{s // 1000:>7} KB" for s in SIZES))
    for tool, label, make in CASES:
        for bad in (False, True):
            row = []
            for size in SIZES:
                args = make(size, bad)
                real = len(json.dumps(args))
                message = generated.validate(tool, args)
                assert (message is None) == (not bad) and message == reference.message(
                    tool, _parameters(tool), args
                )
                seconds = _best_of_five(tool, args)
                row.append(f"{seconds / real * 1e9:>5.1f} ns/B")
            print(f"{tool:<16} {label:<18} {'no' if bad else 'yes':<6} " + " ".join(row))
    print("(per JSON byte: a constant row means time linear in the argument's size)")


def _best_of_five(tool: str, args: dict[str, Any]) -> float:
    return min(timeit.repeat(lambda: generated.validate(tool, args), number=1, repeat=5))


def _parameters(tool: str) -> Any:
    for path in SCHEMAS.glob("*.json"):
        function = json.loads(path.read_text("utf-8"))["function"]
        if function["name"] == tool:
            return function.get("parameters", {})
    raise KeyError(tool)


if __name__ == "__main__":
    main()
