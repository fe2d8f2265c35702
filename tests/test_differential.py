"""Differential tests: random schemas of the subset, near-valid random inputs.

For every (schema, input) pair the generated validator's verdict must equal the jsonschema
library's (Draft 2020-12) on a rewrite with the same meaning (tests/strategies.py:
to_jsonschema), and its message and issues must equal tests/reference.py's. The schemas
are split into CHUNKS tests; each generates its share into one package with one build()
call (so two xdist workers build in parallel instead of one waiting for the other), then
hypothesis draws thousands of inputs.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests import reference
from tests.genpkg import package_for
from tests.strategies import JSON_VALUES, random_roots, reproducible, to_jsonschema, values_for

SEED = 20261202
SCHEMAS = 160
CHUNKS = 8
EXAMPLES = 130  # per chunk; each example checks PAIRS_PER_EXAMPLE pairs
PAIRS_PER_EXAMPLE = 5
ROOTS = random_roots(SEED, SCHEMAS)


# Tool names reach generated code and messages: some carry quotes, newlines and backslashes.
SUFFIXES = ("", ' "q"', "\n'x'", "`b`", " é", "\\", "'''")


def tool(i: int) -> str:
    return f"S{i:03d}{SUFFIXES[i % len(SUFFIXES)]}"


VALIDATORS = [Draft202012Validator(to_jsonschema(schema)) for schema in ROOTS]
INPUTS = [values_for(schema, JSON_VALUES) for schema in ROOTS]


def check_pair(pkg: ModuleType, i: int, args: Any) -> bool:
    """Check one (schema, input) pair; return the verdict (valid?)."""
    name = tool(i)
    message = pkg.validate(name, args)
    expected = VALIDATORS[i].is_valid(args) if isinstance(args, dict) else False
    assert (message is None) == expected, (ROOTS[i], args, message)
    assert message == reference.message(name, ROOTS[i], args), (ROOTS[i], args)
    assert [tuple(x) for x in pkg.issues(name, args)] == reference.issues(ROOTS[i], args)
    return expected


def members(chunk: int) -> range:
    return range(chunk, SCHEMAS, CHUNKS)


def pairs(chunk: int) -> st.SearchStrategy[list[tuple[int, Any]]]:
    pair = st.one_of([st.tuples(st.just(i), INPUTS[i]) for i in members(chunk)])
    return st.lists(pair, min_size=PAIRS_PER_EXAMPLE, max_size=PAIRS_PER_EXAMPLE)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_verdict_matches_jsonschema_and_message_matches_reference(tmp_path: Path, chunk: int) -> None:
    diff_pkg = package_for(tmp_path, f"differential_{chunk}", {tool(i): ROOTS[i] for i in members(chunk)})
    checked: list[bool] = []

    @reproducible(EXAMPLES)
    @given(pairs(chunk))
    def run(drawn: list[tuple[int, Any]]) -> None:
        for i, args in drawn:
            checked.append(check_pair(diff_pkg, i, args))

    run()
    # Thousands of pairs overall, and both verdicts well represented in every chunk.
    assert len(checked) >= EXAMPLES * PAIRS_PER_EXAMPLE
    assert checked.count(True) >= len(checked) // 10
    assert checked.count(False) >= len(checked) // 10


def test_random_schemas_cover_the_subset() -> None:
    """The schema sample exercises every feature the differential test claims to cover."""
    seen: set[str] = set()

    def walk(schema: Any) -> None:
        if isinstance(schema, bool):
            seen.add(f"boolean {schema}")
            return
        seen.update(k for k in schema if k != "additionalProperties")
        if isinstance(schema.get("type"), list):
            seen.add("type list")
        extra = schema.get("additionalProperties")
        if extra is not None:
            seen.add(
                f"additionalProperties {type(extra).__name__} {extra if isinstance(extra, bool) else ''}"
            )
        if set(schema.get("required", [])) - set(schema.get("properties", {})):
            seen.add("required without property")
        if isinstance(schema.get("enum"), list) and len({type(m) for m in schema["enum"]}) > 1:
            seen.add("mixed enum")
        for sub in schema.get("properties", {}).values():
            walk(sub)
        if isinstance(extra, dict):
            walk(extra)
        if isinstance(schema.get("items"), (dict, bool)):
            walk(schema["items"])

    for schema in ROOTS:
        walk(schema)
    wanted = {
        "type", "type list", "enum", "mixed enum", "properties", "required", "required without property",
        "items", "boolean True", "boolean False", "additionalProperties bool True",
        "additionalProperties bool False", "additionalProperties dict ", "patternProperties", "anyOf",
        "$ref", "if", "unevaluatedProperties", "minLength", "format",
    }  # fmt: skip
    assert wanted <= seen
