"""Stage 3: lower a checked declaration's schema to the semantic IR of generator/ir.py.

Only schemas that generator/check.py accepted get here. Lowering decides what is checked
(spec sections 2 and 5), never how it is spelled or named.
"""

from __future__ import annotations

from typing import Any

from generator.check import OPENING, Checked, applies, declared_types, object_like
from generator.ir import (
    ArrayCheck,
    Check,
    EnumCheck,
    Extra,
    Member,
    ObjectCheck,
    Schema,
    ToolModule,
    TypeCheck,
)
from generator.load import Declaration
from generator.names import module_name

NOTHING = Schema(())


def _sub(schema: Any) -> Schema:
    """A subschema where one is expected: booleans constrain nothing (spec section 2)."""
    return lower_schema(schema if isinstance(schema, dict) else {}, root=False)


def lower_schema(schema: dict[str, Any], root: bool = False) -> Schema:
    checks: list[Check] = []
    types = declared_types(schema)
    if types is not None:
        checks.append(TypeCheck(tuple(types)))
    if "enum" in schema:
        checks.append(EnumCheck(tuple(schema["enum"])))
    if object_like(schema) and applies(schema, "object"):
        obj = _object(schema)
        # A free-form map (nothing to check beyond its type) needs no object check, but the
        # top level always has one: it is what validate() looks at.
        if root or obj.required or obj.properties or obj.extra in ("forbid", "check"):
            checks.append(obj)
    items = schema.get("items")
    if isinstance(items, (dict, bool)) and applies(schema, "array"):
        lowered = _sub(items)
        if lowered.checks:
            checks.append(ArrayCheck(lowered))
    return Schema(tuple(checks))


def _object(schema: dict[str, Any]) -> ObjectCheck:
    required = tuple(schema.get("required", []))
    properties: dict[str, Any] = schema.get("properties", {})
    members = [Member(name, _sub(sub), name in required) for name, sub in properties.items()]
    members += [Member(name, NOTHING, True) for name in required if name not in properties]
    extra_schema: Schema | None = None
    declared = schema.get("additionalProperties", False)
    extra: Extra
    if any(k in schema for k in OPENING):
        extra = "unchecked"
    elif declared is True:
        extra = "allow"
    elif declared is False:
        extra = "forbid"
    else:
        extra_schema = _sub(declared)
        extra = "check" if extra_schema.checks else "allow"
        extra_schema = extra_schema if extra == "check" else None
    return ObjectCheck(tuple(members), required, extra, extra_schema)


def lower(declaration: Declaration, checked: Checked) -> ToolModule:
    """The IR of a declaration that generator.check.check accepted."""
    return ToolModule(
        tool=declaration.name,
        module=module_name(declaration.name),
        source_file=declaration.file,
        sha256=declaration.sha256,
        root=lower_schema(declaration.parameters, root=True),
        not_enforced=checked.not_enforced,
        unchecked=checked.unchecked,
    )
