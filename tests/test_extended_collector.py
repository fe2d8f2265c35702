"""The extended-mode collector is generated code (generator/plan/collector.py), not an interpreter.

What the other extended-mode tests cannot see from messages alone: the package reads no
schema table at run time and never touches the interpreter's recursion limit; a value at
the depth limit is answered exactly even with little stack left (a visit costs at most two
frames per level of nesting, so docs/spec/extended.md E4's 256 levels fit in Python's
default limit); identical schemas share one collector function; and the generated modules
are lint-clean.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests import reference
from tests.extended_backends import generate_extended
from tests.genpkg import ROOT, lint_findings, shared_package
from tests.reference import EXTENDED

LIST: dict[str, Any] = {
    "$ref": "#/$defs/L",
    "$defs": {
        "L": {
            "type": "object",
            "properties": {
                "v": {"type": "integer", "minimum": 0},
                "next": {"anyOf": [{"$ref": "#/$defs/L"}, {"type": "null"}]},
            },
            "required": ["v"],
            "additionalProperties": False,
        }
    },
}
TREE: dict[str, Any] = {
    "$ref": "#/$defs/N",
    "$defs": {
        "N": {
            "type": "object",
            "properties": {
                "kids": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/N"}}, {"type": "null"}]},
                "tag": {
                    "oneOf": [
                        {"type": "object", "properties": {"k": {"const": "a"}}, "required": ["k"]},
                        {
                            "type": "object",
                            "properties": {"k": {"const": "b"}, "n": {"$ref": "#/$defs/N"}},
                            "required": ["k"],
                        },
                    ]
                },
            },
        }
    },
}
SAME: dict[str, Any] = {
    "type": "object",
    "properties": {
        "a": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}], "description": "one"},
        "b": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}], "title": "two"},
        "c": {"$ref": "#/$defs/Code"},
        "d": {"$ref": "#/$defs/Code"},
    },
    "$defs": {"Code": {"type": ["string", "integer"], "maxLength": 3}},
}
UNIQUE: dict[str, Any] = {"type": "object", "properties": {"u": {"type": "array", "uniqueItems": True}}}
# `a`'s one keyword, `items: {}`, finds nothing, which is known only once the call on the
# items is dropped: then `a`'s visit finds nothing either, and both branches drop its call.
EMPTIED: dict[str, Any] = {
    "type": "object",
    "anyOf": [
        {"properties": {"a": {"items": {}}, "b": {"type": "string"}}, "required": ["b"]},
        {"properties": {"a": {"items": {}}}, "required": ["c"]},
    ],
}
TOOLS = {"Chain": LIST, "Tree": TREE, "Same": SAME, "Unique": UNIQUE, "Emptied": EMPTIED}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return shared_package(
        tmp_path_factory, "extended_collector", lambda: TOOLS, generate_with=generate_extended
    )


def _chain(levels: int, value: int = -1) -> dict[str, Any]:
    link: dict[str, Any] = {"v": value}
    for _ in range(levels):
        link = {"v": 0, "next": link}
    return link


def _tree(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"kids": [], "tag": {"k": "c"}}
    for _ in range(levels):
        node = {"kids": [node], "tag": {"k": "b", "n": {"kids": None}}}
    return node


def _nested_lists(levels: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(levels):
        value = [value]
    return value


def _with_frames(frames: int, call: Callable[[], Any]) -> Any:
    """`call()` made `frames` frames deeper than here: the stack a caller may already use."""
    if frames == 0:
        return call()
    return _with_frames(frames - 1, call)


CALLS = [
    *(("Chain", _chain(n)) for n in (100, 255, 256, 257, 400)),
    *(("Tree", _tree(n)) for n in (64, 127, 128, 129, 300)),
    ("Tree", {"kids": _nested_lists(10_000)}),
    ("Chain", {"v": 0, "next": _nested_lists(10_000)}),
]


@pytest.mark.parametrize(("tool", "args"), CALLS)
def test_the_depth_limit_with_300_frames_already_used(package: ModuleType, tool: str, args: Any) -> None:
    limit = sys.getrecursionlimit()
    found = _with_frames(300, lambda: package.validate(tool, args))
    issues = _with_frames(300, lambda: package.issues(tool, args))
    assert sys.getrecursionlimit() == limit
    assert found is not None and "could not be read" not in found
    assert found == reference.message(tool, TOOLS[tool], args, EXTENDED)
    assert [tuple(i) for i in issues] == reference.issues(TOOLS[tool], args, EXTENDED)


def test_the_limit_line_at_257_segments(package: ModuleType) -> None:
    assert package.validate("Chain", _chain(255, 0)) is None
    deep = ".".join(["next"] * 256)
    assert package.validate("Chain", _chain(256)) == (
        "Chain failed due to the following issue:\n"
        f"The parameter `{deep}.v` is invalid: nested more than 256 levels deep"
    )


def test_unique_items_compares_values_nested_100000_deep(package: ModuleType) -> None:
    one, other = _nested_lists(100_000), _nested_lists(100_000)
    assert package.validate("Unique", {"u": [one, other]}) == (
        "Unique failed due to the following issue:\n"
        "The parameter `u` is invalid: expected unique items, but [1] repeats [0]"
    )
    other_leaf: list[Any] = [1]
    for _ in range(100_000):
        other_leaf = [other_leaf]
    assert package.validate("Unique", {"u": [one, other_leaf]}) is None


def _sources(package: ModuleType) -> dict[str, str]:
    """The package's files but the tools' declaration modules (data, no code)."""
    folder = Path(package.__file__ or "").parent
    return {
        path.name: path.read_text("utf-8")
        for path in sorted(folder.glob("*.py"))
        if not path.name.endswith("_declaration.py")
    }


def test_no_schema_is_read_at_run_time(package: ModuleType) -> None:
    sources = _sources(package)
    engine = sources["_paths.py"]
    for word in ("class ", "link(", "pointer", "combinator", "getrecursionlimit", "setrecursionlimit"):
        assert word not in engine
    for name, text in sources.items():
        assert "setrecursionlimit" not in text, name
        if name.startswith(("chain_", "tree_", "same_", "unique_")):
            assert "_x.Node" not in text and "_x.link" not in text
            # the arguments' visit: a list visit, or the direct one that is `_collect` itself
            assert "def _visit_args(" in text or re.search(r"def _collect\(\s*x: Any", text)


def test_a_shared_visit_is_named_where_its_schema_is_declared(package: ModuleType) -> None:
    (text,) = [t for n, t in _sources(package).items() if n.startswith("same_")]
    # `c` and `d` refer to one model: one visit, named after it, never after its first user
    assert len(re.findall(r"(?<!def )_collect_code\(", text)) == 2
    assert "def _collect_c(" not in text and "def _collect_d(" not in text
    # `a` and `b` each declare the same schema: each is checked by a visit of its own name
    assert len(re.findall(r"(?<!def )_collect_a\(", text)) == 1
    assert len(re.findall(r"(?<!def )_collect_b\(", text)) == 1
    assert package.validate("Same", {"c": "abcd", "d": 5.5}) == (
        "Same failed due to the following issues:\n"
        "The parameter `d` type is expected as `string | integer` but provided as `number`\n"
        "The parameter `c` is invalid: expected at most 3 characters"
    )
    assert package.validate("Same", {"a": "abcd", "b": 5}) == (
        "Same failed due to the following issues:\n"
        "The parameter `b` type is expected as `string | null` but provided as `number`\n"
        "The parameter `a` is invalid: expected at most 3 characters"
    )


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        ({"a": [1], "b": 3}, ["The parameter `b` type is expected as `string` but provided as `number`"]),
        ({"a": 5, "b": 3, "c": 1}, ["An unexpected parameter `b` was provided"]),
        ({"a": [[1]], "c": 3}, []),
    ],
)
def test_a_visit_left_finding_nothing_is_not_called(
    package: ModuleType, args: dict[str, Any], lines: list[str]
) -> None:
    (text,) = [t for n, t in _sources(package).items() if n.startswith("emptied_")]
    assert not re.search(r"_(visit|collect)_a\b", text)
    expected = f"Emptied failed due to the following issue:\n{lines[0]}" if lines else None
    assert package.validate("Emptied", args) == expected
    assert reference.message("Emptied", EMPTIED, args, EXTENDED) == expected


def test_generated_extended_modules_are_lint_clean(tmp_path: Path) -> None:
    for schemas in (
        ROOT / "tests" / "data" / "real-tools",
        ROOT / "tool_schemas",
        ROOT / "benchmarks" / "extended_schemas",
    ):
        out = tmp_path / schemas.name.replace("-", "_")
        generate_extended(schemas, out)
        assert lint_findings(out) == ""
