"""Scale in the default suite: 60 tools in one run, schemas nested 50 levels deep. (The
1,000-tool run and the 1 MB argument measurement are `make scale`, see tests/scale/.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests import reference
from tests.reliability import (
    WRONG,
    assert_agrees_with_reference,
    build_package,
    declaration,
    imported,
    random_tools,
)

DEPTH = 50


def test_sixty_tools_generate_and_agree_with_the_reference(tmp_path: Path) -> None:
    tools = random_tools(60, seed=60, depth=1)
    out = build_package(tmp_path, tools)
    # a validator and a declaration module a tool, _support, _paths, _declarations and __init__
    assert len(list(out.glob("*.py"))) == 124
    with imported(out) as package:
        assert assert_agrees_with_reference(package, tools, ("zz", "a.b", "")) > 60 * 5


def _nested_objects(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "enum": ["leaf"]}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"p": schema}, "required": ["p"]}
    return schema


def _nested_arrays(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer"}
    for _ in range(levels):
        schema = {"type": "array", "items": schema}
    return schema


def _mixed(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": ["boolean", "null"]}
    for i in range(levels):
        if i % 2:
            schema = {"type": "array", "items": schema}
        else:
            schema = {
                "type": "object",
                "properties": {"m": schema},
                "additionalProperties": {"type": "number"},
            }
    return schema


def _value(levels: int, leaf: Any, shape: str, start: int = 0) -> Any:
    """`leaf` wrapped in the containers of schema levels start .. start+levels-1 (0 innermost)."""
    value = leaf
    for i in range(start, start + levels):
        as_list = shape == "array" or (shape == "mixed" and i % 2)
        value = [value] if as_list else {("m" if shape == "mixed" else "p"): value}
    return value


@pytest.fixture(scope="module")
def deep_package(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tools = [
        declaration("Objects", {"type": "object", "properties": {"root": _nested_objects(DEPTH)}}),
        declaration("Arrays", {"type": "object", "properties": {"root": _nested_arrays(DEPTH)}}),
        declaration("Mixed", {"type": "object", "properties": {"root": _mixed(DEPTH)}}),
    ]
    with imported(build_package(tmp_path_factory.mktemp("deep"), tools)) as package:
        yield package, {t["function"]["name"]: t["function"]["parameters"] for t in tools}


P50 = ".p" * DEPTH
CASES: list[tuple[str, Any, str | None]] = [
    ("Objects", _value(50, "leaf", "object"), None),
    (
        "Objects",
        _value(50, "other", "object"),
        f'The parameter `root{P50}` is invalid: expected one of "leaf"',
    ),
    (
        "Objects",
        _value(50, 3, "object"),
        f"`root{P50}` type is expected as `string` but provided as `number`",
    ),
    ("Objects", _value(49, {}, "object", 1), f"The required parameter `root{P50}` is missing"),
    ("Objects", _value(49, {"p": "leaf", "q": 1}, "object", 1), f"parameter `root{P50[:-2]}.q` was provided"),
    ("Arrays", _value(50, 7, "array"), None),
    ("Arrays", _value(50, 7.0, "array"), None),
    ("Arrays", _value(50, 7.5, "array"), "type is expected as `integer` but provided as `number`"),
    ("Arrays", _value(49, [], "array", 1), None),
    ("Arrays", _value(50, "x", "array"), "`root" + "[0]" * 50 + "` type is expected as `integer`"),
    ("Mixed", _value(50, True, "mixed"), None),
    ("Mixed", _value(50, "x", "mixed"), "type is expected as `boolean | null` but provided as `string`"),
    ("Mixed", _value(49, {"m": None, "extra": "no"}, "mixed", 1), ".extra` type is expected as `number`"),
]


@pytest.mark.parametrize(("tool", "root", "expected"), CASES)
def test_schemas_nested_fifty_levels_deep(
    deep_package: Any, tool: str, root: Any, expected: str | None
) -> None:
    package, parameters = deep_package
    message = package.validate(tool, {"root": root})
    assert message == reference.message(tool, parameters[tool], {"root": root})
    if expected is None:
        assert message is None
    else:
        assert message is not None and expected in message


@pytest.mark.parametrize("tool", ["Objects", "Arrays", "Mixed"])
def test_a_wrong_value_at_every_depth(deep_package: Any, tool: str) -> None:
    package, parameters = deep_package
    shape = {"Objects": "object", "Arrays": "array", "Mixed": "mixed"}[tool]
    for depth in range(DEPTH + 1):
        for wrong in WRONG:
            args = {"root": _value(depth, wrong, shape, DEPTH - depth)}
            assert package.validate(tool, args) == reference.message(tool, parameters[tool], args)
