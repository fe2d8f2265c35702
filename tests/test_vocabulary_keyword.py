"""A keyword is one spec: a vocabulary defined here, and nowhere else, adds minProperties and
maxProperties to extended mode, and the one pipeline compiles it (issue 21, point 6).

The vocabulary below is data: two `count` specs (the macro that reads `len` of a value of
the JSON type they constrain), placed in step 3 right after uniqueItems. Nothing in
generator/ or templates/ knows these keywords; the product's own modes still list them as
not enforced.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from benchmarks.cases import build_cases, load_declarations
from generator.front.check import check
from generator.front.errors import DeclarationError
from generator.front.load import declarations_in, read_source, schema_files
from generator.front.vocabulary import EXTENDED, SUBSET, Vocabulary, count
from generator.package.build import build
from tests.genpkg import import_package, write_declarations, write_locked

OBJECT_COUNTS = EXTENDED.extend(
    "extended+properties",
    (
        count("minProperties", "object", ">=", "expected at least ", "property", "properties"),
        count("maxProperties", "object", "<=", "expected at most ", "property", "properties"),
    ),
    after="uniqueItems",
)

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "labels": {
            "type": "object",
            "minProperties": 1,
            "maxProperties": 3,
            "additionalProperties": {"type": "string"},
        },
        "filter": {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "minProperties": 1,
        },
        "meta": {"maxProperties": 1, "additionalProperties": True},
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "minProperties": 5},
    },
    "required": ["labels"],
}

HEAD = "Tag failed due to the following issue:\n"
HEAD_MANY = "Tag failed due to the following issues:\n"

CASES: list[tuple[dict[str, Any], str | None]] = [
    ({"labels": {"x": "1"}}, None),
    ({"labels": {"a": "1", "b": "2", "c": "3"}, "filter": {"a": "x"}, "meta": {"k": [1]}}, None),
    ({"labels": {"x": "1"}, "meta": "not an object"}, None),  # a bound constrains one JSON type
    ({"labels": {"x": "1"}, "tags": ["a", "b"]}, None),  # minProperties on an array: nothing
    ({"labels": {}}, HEAD + "The parameter `labels` is invalid: expected at least 1 property"),
    (
        {"labels": {"a": "1", "b": "2", "c": "3", "d": "4"}},
        HEAD + "The parameter `labels` is invalid: expected at most 3 properties",
    ),
    (
        {"labels": {"x": "1"}, "filter": {}},
        HEAD + "The parameter `filter` is invalid: expected at least 1 property",
    ),
    (
        {"labels": {"x": "1"}, "meta": {"a": 1, "b": 2}},
        HEAD + "The parameter `meta` is invalid: expected at most 1 property",
    ),
    (
        {"labels": {}, "filter": {"c": "x"}, "tags": ["a", "a"]},
        HEAD_MANY
        + "An unexpected parameter `filter.c` was provided\n"
        + "The parameter `labels` is invalid: expected at least 1 property\n"
        + "The parameter `tags` is invalid: expected unique items, but [1] repeats [0]",
    ),
    (
        {"labels": {"a": 1}},
        HEAD + "The parameter `labels.a` type is expected as `string` but provided as `number`",
    ),
]


def _package(tmp_path: Path, vocabulary: Any, name: str) -> tuple[ModuleType, dict[str, str]]:
    schemas = tmp_path / f"{name}_schemas"
    write_declarations(schemas, {"Tag": PARAMETERS})
    result = build(schemas, keywords=vocabulary)
    out = tmp_path / name
    write_locked(out, result.files)
    return import_package(out), result.files


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, dict[str, str]]:
    return _package(tmp_path_factory.mktemp("vocab"), OBJECT_COUNTS, "counted_pkg")


@pytest.mark.parametrize(("args", "expected"), CASES, ids=[json.dumps(c[0]) for c in CASES])
def test_the_test_defined_keywords_give_their_exact_lines(
    counted: tuple[ModuleType, dict[str, str]], args: dict[str, Any], expected: str | None
) -> None:
    package, _ = counted
    assert package.validate("Tag", args) == expected
    # issues() runs the collector alone; validate() the fast path first.
    lines = [issue.line for issue in package.issues("Tag", args)]
    assert lines == ([] if expected is None else expected.split("\n")[1:])


def test_both_tiers_spell_the_new_bound_from_its_spec(counted: tuple[ModuleType, dict[str, str]]) -> None:
    _, files = counted
    module = next(
        text for name, text in files.items() if name.startswith("tag_") and "declaration" not in name
    )
    assert 'KEYWORDS = "extended+properties"' in module
    assert "Keywords: extended+properties." in module
    assert "minItems, maxItems, uniqueItems, minProperties, maxProperties." in module
    # the fast path: one chained test of len, as minItems / maxItems get
    assert "1 <= len(w) <= 3" in module
    # the collector: the line is a constant computed from the spec's text at build time
    assert '_LABELS_MIN_PROPERTIES = "expected at least 1 property"\n' in module
    assert '_LABELS_MAX_PROPERTIES = "expected at most 3 properties"\n' in module
    assert "size = dict.__len__(x)" in module and "dict.__len__(x) < 1" in module
    assert "NOT_ENFORCED: tuple[tuple[str, tuple[str, ...]], ...] = ()" in module
    # on an array the keyword constrains nothing and is not reported either: it is interpreted
    assert "minProperties" not in module.split('"""')[1].split("Declared but not enforced")[1]


def test_a_bound_no_object_can_meet_is_warned_about(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas"
    write_declarations(
        schemas, {"Tag": {"type": "object", "properties": {"o": {"minProperties": 3, "maxProperties": 2}}}}
    )
    warnings = build(schemas, keywords=OBJECT_COUNTS).warnings
    assert [w.reason for w in warnings] == ["no object can meet minProperties 3 and maxProperties 2"]
    assert [w.pointer for w in warnings] == ["/function/parameters/properties/o"]


def test_a_bad_count_is_refused_by_the_spec(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas"
    write_declarations(schemas, {"Tag": {"type": "object", "properties": {"o": {"maxProperties": -1}}}})
    with pytest.raises(DeclarationError) as info:
        build(schemas, keywords=OBJECT_COUNTS)
    assert str(info.value).endswith(
        "/function/parameters/properties/o/maxProperties: expected a non-negative integer"
    )


@pytest.mark.parametrize("mode", ["subset", "extended"])
def test_the_products_modes_do_not_interpret_them(tmp_path: Path, mode: str) -> None:
    assert "minProperties" not in EXTENDED.interpreted | SUBSET.interpreted
    package, files = _package(tmp_path, mode, f"plain_{mode}")
    assert package.validate("Tag", {"labels": {}}) is None
    module = next(
        text for name, text in files.items() if name.startswith("tag_") and "declaration" not in name
    )
    assert '"/function/parameters/properties/labels",\n        (\n            "maxProperties",\n' in module


# ---------- the subset vocabulary read by the one front end (issue 21, points 1 and 2) ----------

ROOT = Path(__file__).resolve().parent.parent
# A copy of SUBSET under another name: nothing in the compiler may tell the product's mode
# from a vocabulary with the same entries (no code path is a mode's).
SUBSET_GRAPH = replace(SUBSET, name="subset-graph")


@pytest.mark.parametrize("folder", ["tool_schemas", "tests/data/real-tools"])
def test_the_subset_vocabulary_warns_as_subset_mode_does_under_another_name(folder: str) -> None:
    # Warnings are the checker's (pass 1 of build): every declaration checked, none rendered.
    declarations = [
        declaration
        for path in schema_files(ROOT / folder)
        for declaration in declarations_in(read_source(path, path.name), path.name)
    ]

    def warned(vocabulary: Vocabulary) -> list[tuple[str, str, str, str]]:
        return [
            (n.file, n.pointer, n.kind, n.reason)
            for declaration in declarations
            for n in check(declaration, vocabulary)[1].notices
        ]

    subset = warned(SUBSET)
    assert warned(SUBSET_GRAPH) == subset
    assert len(subset) > 3


def test_the_subset_vocabulary_gives_subset_modes_lines_under_another_name(tmp_path: Path) -> None:
    import generated

    result = build(ROOT / "tool_schemas", keywords=SUBSET_GRAPH)
    write_locked(tmp_path / "subset_graph_pkg", result.files)
    package = import_package(tmp_path / "subset_graph_pkg")
    cases = build_cases(load_declarations(ROOT / "tool_schemas"))
    assert len(cases) == 100
    for case in cases:
        assert package.validate(case.tool, case.args) == generated.validate(case.tool, case.args), case
        assert package.issues(case.tool, case.args) == generated.issues(case.tool, case.args), case
