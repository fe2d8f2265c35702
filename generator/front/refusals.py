"""The keyword refusals of docs/spec/validation.md §7 that both modes apply wherever they read a schema.

Each function returns the (JSON pointer, reason) to refuse, or None: the schema graph
(generator/front/schema_graph.py) raises them with the file and base pointer, the same texts in
every vocabulary.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import pointer_join

TYPE_NAMES = ("string", "number", "integer", "boolean", "object", "array", "null")

Refusal = tuple[str, str]


def type_refusal(schema: dict[str, Any], pointer: str) -> Refusal | None:
    """`type`: a type name or a non-empty list of distinct type names."""
    if "type" not in schema:
        return None
    where = pointer_join(pointer, "type")
    declared = schema["type"]
    names = [declared] if isinstance(declared, str) else declared
    if not isinstance(names, list) or not names:
        return where, "expected a type name or a non-empty list of type names"
    for i, name in enumerate(names):
        if name not in TYPE_NAMES:
            at = where if isinstance(declared, str) else pointer_join(where, i)
            return at, f"unknown type {json.dumps(name)}; expected one of {', '.join(TYPE_NAMES)}"
    if len(set(names)) != len(names):
        return where, "type list names a type more than once"
    return None


def required_refusal(schema: dict[str, Any], pointer: str) -> Refusal | None:
    """`required`: a list of distinct property names."""
    names = schema.get("required", [])
    where = pointer_join(pointer, "required")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return where, "expected a list of property names (strings)"
    if len(set(names)) != len(names):
        return where, "required names a property more than once"
    return None
