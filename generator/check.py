"""Stage 2: check one declaration's schema against spec section 7.

Refuses (raises DeclarationError naming the file and the JSON pointer) or records structured
notices (warnings) and what is declared but not enforced. Nothing here builds code or IR:
`generator/lower.py` reads only schemas this stage has accepted.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from generator import errors
from generator.errors import DeclarationError, Notice, pointer_join
from generator.ir import NotEnforced
from generator.load import Declaration
from generator.patterns import translate
from generator.refusals import required_refusal, type_refusal
from generator.schema_graph import DEFINITIONS, PatternCheck, SchemaGraph, analyse
from generator.vocabulary import EXTENDED, SUBSET, Vocabulary

# What subset mode reads (validation.md section 2); annotations are never "not enforced", and
# an opening keyword may admit keys this subset cannot see: such an object's extra keys go
# unchecked.
_KNOWN = SUBSET.interpreted | SUBSET.annotations
OPENING = SUBSET.opening
OBJECT_KEYWORDS = ("properties", "required", "additionalProperties")


@dataclass(frozen=True)
class Checked:
    """What checking found in one declaration that was not refused."""

    notices: tuple[Notice, ...]
    not_enforced: tuple[NotEnforced, ...]  # preorder
    unchecked: tuple[str, ...]  # pointers of objects whose undeclared keys go unchecked


def declared_types(schema: dict[str, Any]) -> list[str] | None:
    """The type names of an accepted schema, or None when it declares no type."""
    if "type" not in schema:
        return None
    declared = schema["type"]
    return [declared] if isinstance(declared, str) else list(declared)


def object_like(schema: dict[str, Any]) -> bool:
    types = declared_types(schema)
    return any(k in schema for k in OBJECT_KEYWORDS) or (types is not None and "object" in types)


def applies(schema: dict[str, Any], json_type: str) -> bool:
    """Rules for objects (arrays) apply unless a declared type excludes that type."""
    types = declared_types(schema)
    return types is None or json_type in types


@dataclass
class _Checker:
    file: str
    notices: list[Notice] = field(default_factory=list)
    not_enforced: list[NotEnforced] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)

    def refuse(self, pointer: str, reason: str) -> DeclarationError:
        return DeclarationError(self.file, pointer, reason)

    def warn(self, pointer: str, kind: str, reason: str) -> None:
        self.notices.append(Notice(self.file, pointer, kind, reason))

    def subschema(self, schema: Any, pointer: str) -> None:
        """A subschema where one is expected: booleans constrain nothing (spec section 2)."""
        if isinstance(schema, bool):
            self.warn(
                pointer,
                errors.BOOLEAN_SUBSCHEMA,
                f"boolean subschema {json.dumps(schema)} constrains nothing here",
            )
            schema = {}
        if not isinstance(schema, dict):
            raise self.refuse(pointer, "expected a schema (an object or a boolean)")
        self.schema(schema, pointer, root=False)

    def schema(self, schema: dict[str, Any], pointer: str, root: bool) -> None:
        ignored = sorted(k for k in schema if k not in _KNOWN)
        if ignored:
            self.not_enforced.append(NotEnforced(pointer, tuple(ignored)))
        self.type_keyword(schema, pointer)
        self.enum_keyword(schema, pointer)
        if object_like(schema) and applies(schema, "object"):
            self.object_keywords(schema, pointer, root)
        elif object_like(schema):  # malformed object keywords are refused even where they cannot apply
            self.required(schema, pointer)
            self.properties(schema, pointer)
            self.extra(schema, pointer)
        self.items(schema, pointer)

    def type_keyword(self, schema: dict[str, Any], pointer: str) -> None:
        found = type_refusal(schema, pointer)
        if found is not None:
            raise self.refuse(*found)

    def enum_keyword(self, schema: dict[str, Any], pointer: str) -> None:
        if "enum" in schema and (not isinstance(schema["enum"], list) or not schema["enum"]):
            raise self.refuse(pointer_join(pointer, "enum"), "expected a non-empty list")

    def required(self, schema: dict[str, Any], pointer: str) -> list[str]:
        found = required_refusal(schema, pointer)
        if found is not None:
            raise self.refuse(*found)
        return cast(list[str], schema.get("required", []))

    def properties(self, schema: dict[str, Any], pointer: str) -> dict[str, Any]:
        properties = schema.get("properties", {})
        where = pointer_join(pointer, "properties")
        if not isinstance(properties, dict):
            raise self.refuse(where, "expected an object mapping property names to schemas")
        for name, sub in properties.items():
            if not isinstance(sub, (dict, bool)):
                raise self.refuse(pointer_join(where, name), "expected a schema (an object or a boolean)")
        return properties

    def extra(self, schema: dict[str, Any], pointer: str) -> Any:
        extra = schema.get("additionalProperties", False)
        if not isinstance(extra, (bool, dict)):
            raise self.refuse(pointer_join(pointer, "additionalProperties"), "expected a boolean or a schema")
        return extra

    def object_keywords(self, schema: dict[str, Any], pointer: str, root: bool) -> None:
        required = self.required(schema, pointer)
        properties = self.properties(schema, pointer)
        extra = self.extra(schema, pointer)
        for name, sub in properties.items():
            self.subschema(sub, pointer_join(pointer_join(pointer, "properties"), name))
        for name in required:
            if name not in properties:
                self.warn(
                    pointer_join(pointer, "required"),
                    errors.REQUIRED_WITHOUT_SCHEMA,
                    f"{json.dumps(name)} is required but has no property schema",
                )
        opening = sorted(k for k in schema if k in OPENING)
        if opening:
            self.unchecked.append(pointer)
            reason = f"undeclared keys go unchecked because of {', '.join(opening)}"
            self.warn(pointer, errors.UNCHECKED_KEYS, reason)
        elif extra is False:
            if not properties and not required and not root and "additionalProperties" not in schema:
                self.warn(
                    pointer,
                    errors.ACCEPTS_ONLY_EMPTY,
                    'this object accepts only {}; say "additionalProperties": true for a free-form map',
                )
        elif extra is not True:
            self.subschema(extra, pointer_join(pointer, "additionalProperties"))

    def items(self, schema: dict[str, Any], pointer: str) -> None:
        if "items" not in schema:
            return
        items = schema["items"]
        where = pointer_join(pointer, "items")
        if isinstance(items, list):  # the tuple form is not interpreted
            self.not_enforced.append(NotEnforced(where, ("items (tuple form)",)))
            return
        if not isinstance(items, (dict, bool)):
            raise self.refuse(where, "expected a schema (an object or a boolean) or a list of schemas")
        self.subschema(items, where)


def check(declaration: Declaration) -> Checked:
    """Refuse the declaration's parameters per spec section 7, or say what to warn about."""
    pointer = declaration.pointer
    schema = declaration.parameters
    checker = _Checker(declaration.file)
    if not isinstance(schema, dict):
        raise checker.refuse(pointer, "parameters must be an object schema")
    if "type" in schema and schema["type"] != "object":
        raise checker.refuse(pointer_join(pointer, "type"), 'parameters must have type "object"')
    if "enum" in schema:
        raise checker.refuse(pointer_join(pointer, "enum"), "parameters must not have an enum")
    if "type" not in schema and not any(k in schema for k in OBJECT_KEYWORDS):
        raise checker.refuse(
            pointer,
            "parameters is not object-like (no type object, properties, required or additionalProperties)",
        )
    checker.schema(schema, pointer, root=True)
    if checker.not_enforced:
        checker.notices.append(_not_enforced(checker.file, pointer, checker.not_enforced, SUBSET))
    return Checked(tuple(checker.notices), tuple(checker.not_enforced), tuple(checker.unchecked))


# ---------- extended mode (extended.md E8) ----------

_NOTICE_KINDS = {
    "not_interpreted": errors.NOT_ENFORCED,
    "keys_unchecked": errors.UNCHECKED_KEYS,
    "accepts_only_empty": errors.ACCEPTS_ONLY_EMPTY,
    "required_without_property": errors.REQUIRED_WITHOUT_SCHEMA,
    "boolean_subschema": errors.BOOLEAN_SUBSCHEMA,
}


def check_extended(
    declaration: Declaration, vocabulary: Vocabulary = EXTENDED
) -> tuple[SchemaGraph, Checked]:
    """Refuse per validation.md §7 and extended.md E8, or say what to warn about."""
    graph = analyse(
        declaration.file,
        declaration.parameters,
        base=declaration.pointer,
        pattern_check=cast(PatternCheck, translate),
        vocabulary=vocabulary,
    )
    not_enforced = tuple(NotEnforced(pointer, keywords) for pointer, keywords in graph.not_enforced)
    # What is not enforced is one notice per tool, worded as in subset mode; the rest as found.
    notices = [
        Notice(w.file, w.pointer, _NOTICE_KINDS.get(w.kind, w.kind.replace("_", "-")), w.reason)
        for w in graph.warnings
        if w.kind != "not_interpreted"
    ]
    if not_enforced:
        notices.append(_not_enforced(declaration.file, declaration.pointer, not_enforced, vocabulary))
    unchecked = tuple(w.pointer for w in graph.warnings if w.kind == "keys_unchecked")
    return graph, Checked(tuple(notices), not_enforced, unchecked)


def _not_enforced(
    file: str, pointer: str, not_enforced: Sequence[NotEnforced], vocabulary: Vocabulary
) -> Notice:
    """The one notice per tool of what is not enforced, naming what the opt-in mode would
    check of it (definitions hold nothing to check)."""
    summary = "; ".join(f"{n.pointer}: {', '.join(n.keywords)}" for n in not_enforced)
    listed = tuple(sorted({k for n in not_enforced for k in n.keywords}))
    unread = EXTENDED.interpreted - vocabulary.interpreted - set(DEFINITIONS)
    more = [k for k in listed if k in unread]
    if more:
        summary += f" (--keywords extended would check {', '.join(more)})"
    return Notice(file, pointer, errors.NOT_ENFORCED, f"not enforced: {summary}", listed)
