"""Extended names from the schema's own identity (issue 37.6): a combinator branch by its
`title`, its discriminator's value or its `$ref` target, never its position; a constant by
its role; a visit named where its schema is declared, never after its first user."""

from __future__ import annotations

import json
import re
from pathlib import Path

from generator.emit.format import format_source
from generator.emit.render import environment
from generator.front.load import Declaration, read_declarations
from generator.front.vocabulary import EXTENDED
from generator.package.pipeline import compile_tool

REAL = Path(__file__).resolve().parent / "data" / "real-tools"


def extended_module(declaration: Declaration) -> str:
    (module,) = compile_tool(declaration, EXTENDED, environment(), format_source, ("validator",))
    return module


def real(file: str) -> str:
    (declaration,) = read_declarations(REAL / file)
    return extended_module(declaration)


def defined(text: str) -> list[str]:
    """The names the module defines, functions and constants, in order."""
    return [a or b for a, b in re.findall(r"^(?:def (\w+)|(_[A-Z0-9_]+) =)", text, re.M)]


def test_a_discriminated_union_is_named_by_its_branches() -> None:
    names = defined(real("pydantic__pyd_draw_shape.json"))
    for name in ("_check_shape_circle", "_check_shape_rectangle"):
        assert name in names
    for name in ("_branch_shape_circle", "_branch_shape_rectangle"):
        assert name in names
    assert "_SHAPE_CIRCLE_DECLARED" in names and "_SHAPE_RECTANGLE_DECLARED" in names
    # each number's bound has its own line constant, named by its property
    lines = {"_RADIUS_EXCLUSIVE_MINIMUM", "_WIDTH_EXCLUSIVE_MINIMUM", "_HEIGHT_EXCLUSIVE_MINIMUM"}
    assert lines <= set(names)
    assert not [n for n in names if "choice" in n or re.search(r"_object(_\d+)?$", n)], names


def test_the_pydantic_order_is_named_by_its_models_and_roles() -> None:
    text = real("pydantic__pyd_create_order.json")
    names = defined(text)
    assert '_SKU_PATTERN = re.compile("^[\\\\-0-9A-Z]{4,20}\\\\Z")' in text
    assert '_SKU_PATTERN_LINE = "expected a string matching the pattern ^[A-Z0-9-]{4,20}$"' in text
    assert "_SKU_PATTERN_2" not in text
    # `$defs` models: their visits and key sets take the model's name, not the property's
    models = {"_collect_order_item", "_collect_address", "_ORDER_ITEM_DECLARED", "_ADDRESS_DECLARED"}
    assert models <= set(names)
    assert '_collect_address(w, "shipping_address", mis, une, typ, inv)' in text
    # `coupon` and `line2` declare the same schema: each is checked by a visit of its own name
    assert '_collect_coupon(w, "coupon", mis, une, typ, inv)' in text
    assert '_collect_line_2(w, p + ".line2", mis, une, typ, inv)' in text


def test_a_branch_is_named_by_title_then_ref_target_then_types(tmp_path: Path) -> None:
    parameters: dict[str, object] = {
        "type": "object",
        "properties": {
            "target": {
                "anyOf": [
                    {"title": "ByName", "type": "object", "properties": {"name": {"type": "string"}}},
                    {"$ref": "#/$defs/ById"},
                    {"type": "object", "properties": {"uri": {"type": "string"}}},
                ]
            }
        },
        "$defs": {"ById": {"type": "object", "properties": {"id": {"type": "integer"}}}},
    }
    path = tmp_path / "named.json"
    path.write_text(json.dumps({"name": "named", "description": "", "input_schema": parameters}))
    (declaration,) = read_declarations(path)
    names = defined(extended_module(declaration))
    for word in ("by_name", "by_id", "object"):
        assert f"_check_target_{word}" in names and f"_branch_target_{word}" in names, names
