"""Stage 2: check one declaration's schema against spec section 7 and lower it to the IR."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from generator.errors import DeclarationError, Warning, pointer_join
from generator.ir import (
    EnumRule,
    Extra,
    Lines,
    Macro,
    Node,
    NotEnforced,
    ObjectRule,
    Prop,
    ToolModule,
    TypeRule,
)
from generator.load import Declaration
from generator.naming import module_name

TYPE_NAMES = ("string", "number", "integer", "boolean", "object", "array", "null")
INTERPRETED = frozenset({"type", "required", "enum", "properties", "additionalProperties", "items"})
# Keywords that describe rather than constrain: never reported as "not enforced".
ANNOTATIONS = frozenset({"title", "description", "examples", "$comment", "$schema", "$id"})
# Keywords able to admit keys this subset cannot see: such an object's extra keys go unchecked.
OPENING = frozenset(
    {
        "patternProperties", "allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "$recursiveRef",
        "dependentSchemas", "dependencies", "if", "then", "else", "unevaluatedProperties",
    }
)  # fmt: skip
OBJECT_KEYWORDS = ("properties", "required", "additionalProperties")


def enum_text(members: list[Any]) -> str:
    """Members as the message lists them: compact JSON, joined by ", "."""
    return ", ".join(json.dumps(m, ensure_ascii=False, separators=(", ", ": ")) for m in members)


@dataclass
class _Lowering:
    """Walks one schema once, numbering nodes in preorder; collects warnings as it goes."""

    file: str
    warnings: list[Warning] = field(default_factory=list)
    functions: list[Node] = field(default_factory=list)
    enums: list[EnumRule] = field(default_factory=list)
    objects: list[ObjectRule] = field(default_factory=list)
    not_enforced: list[NotEnforced] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    next_id: int = 0

    def refuse(self, pointer: str, reason: str) -> DeclarationError:
        return DeclarationError(self.file, pointer, reason)

    def warn(self, pointer: str, reason: str) -> None:
        self.warnings.append(Warning(self.file, pointer, reason))

    def subschema(self, schema: Any, pointer: str) -> Node:
        """A subschema where one is expected: booleans constrain nothing (spec section 2)."""
        if isinstance(schema, bool):
            self.warn(pointer, f"boolean subschema {json.dumps(schema)} constrains nothing here")
            schema = {}
        if not isinstance(schema, dict):
            raise self.refuse(pointer, "expected a schema (an object or a boolean)")
        return self.node(schema, pointer, root=False)

    def node(self, schema: dict[str, Any], pointer: str, root: bool) -> Node:
        node_id = self.next_id
        self.next_id += 1
        ignored = sorted(k for k in schema if k not in INTERPRETED and k not in ANNOTATIONS)
        if ignored:
            self.not_enforced.append(NotEnforced(pointer, tuple(ignored)))
        types = self.type_rule(schema, pointer)
        enum = self.enum_rule(schema, pointer, node_id)
        object_like = any(k in schema for k in OBJECT_KEYWORDS) or (
            types is not None and "object" in types.declared
        )
        # A declared type that excludes object (or array) makes those rules unreachable.
        obj = None
        if object_like and (types is None or "object" in types.declared):
            obj = self.object_rule(schema, pointer, node_id, root)
            if not obj.checks and not root:  # a free-form map: only its type is checked
                obj = None
        elif object_like:
            self.check_object_keywords(schema, pointer)
        items = self.items_node(schema, pointer)
        if items is not None and types is not None and "array" not in types.declared:
            items = None
        macro: Macro = "none"
        if obj is not None or items is not None:
            macro = "call"
        elif types is not None or enum is not None:
            macro = "inline"
        inline_array = (
            obj is None
            and enum is None
            and items is not None
            and not items.inline_array  # one loop variable: no array of such arrays
            and types is not None
            and types.simple == ("array",)
            and not types.integer
        )
        node = Node(node_id, pointer, macro, types, enum, obj, items, inline_array)
        if macro == "call" and not root:
            self.functions.append(node)
        return node

    def type_rule(self, schema: dict[str, Any], pointer: str) -> TypeRule | None:
        if "type" not in schema:
            return None
        where = pointer_join(pointer, "type")
        declared = schema["type"]
        names = [declared] if isinstance(declared, str) else declared
        if not isinstance(names, list) or not names:
            raise self.refuse(where, "expected a type name or a non-empty list of type names")
        for i, name in enumerate(names):
            if name not in TYPE_NAMES:
                at = where if isinstance(declared, str) else pointer_join(where, i)
                raise self.refuse(
                    at, f"unknown type {json.dumps(name)}; expected one of {', '.join(TYPE_NAMES)}"
                )
        if len(set(names)) != len(names):
            raise self.refuse(where, "type list names a type more than once")
        integer = "integer" in names and "number" not in names
        simple = tuple(n for n in TYPE_NAMES if n in names and n != "integer")
        return TypeRule(tuple(names), " | ".join(names), simple, integer)

    def enum_rule(self, schema: dict[str, Any], pointer: str, node_id: int) -> EnumRule | None:
        if "enum" not in schema:
            return None
        members = schema["enum"]
        if not isinstance(members, list) or not members:
            raise self.refuse(pointer_join(pointer, "enum"), "expected a non-empty list")
        rule = EnumRule(
            const=f"_ENUM_{node_id}",
            strings=_unique(m for m in members if isinstance(m, str)),
            numbers=_unique(m for m in members if isinstance(m, (int, float)) and not isinstance(m, bool)),
            true=any(m is True for m in members),
            false=any(m is False for m in members),
            null=any(m is None for m in members),
            containers=tuple(m for m in members if isinstance(m, (list, dict))),
            text=enum_text(members),
        )
        self.enums.append(rule)
        return rule

    def check_object_keywords(self, schema: dict[str, Any], pointer: str) -> None:
        """Refuse malformed object keywords even where they cannot apply."""
        self.required(schema, pointer)
        self.properties(schema, pointer)
        self.extra_kind(schema, pointer)

    def required(self, schema: dict[str, Any], pointer: str) -> tuple[str, ...]:
        names = schema.get("required", [])
        where = pointer_join(pointer, "required")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise self.refuse(where, "expected a list of property names (strings)")
        if len(set(names)) != len(names):
            raise self.refuse(where, "required names a property more than once")
        return tuple(names)

    def properties(self, schema: dict[str, Any], pointer: str) -> dict[str, Any]:
        properties = schema.get("properties", {})
        where = pointer_join(pointer, "properties")
        if not isinstance(properties, dict):
            raise self.refuse(where, "expected an object mapping property names to schemas")
        for name, sub in properties.items():
            if not isinstance(sub, (dict, bool)):
                raise self.refuse(pointer_join(where, name), "expected a schema (an object or a boolean)")
        return properties

    def extra_kind(self, schema: dict[str, Any], pointer: str) -> Any:
        extra = schema.get("additionalProperties", False)
        if not isinstance(extra, (bool, dict)):
            raise self.refuse(pointer_join(pointer, "additionalProperties"), "expected a boolean or a schema")
        return extra

    def object_rule(self, schema: dict[str, Any], pointer: str, node_id: int, root: bool) -> ObjectRule:
        required = self.required(schema, pointer)
        properties = self.properties(schema, pointer)
        extra_schema = self.extra_kind(schema, pointer)
        props = tuple(
            _with_lines(
                _prop(
                    name,
                    self.subschema(sub, pointer_join(pointer_join(pointer, "properties"), name)),
                    name in required,
                ),
                i,
                root,
            )
            for i, (name, sub) in enumerate(properties.items())
        )
        required_only = tuple(n for n in required if n not in properties)
        for name in required_only:
            self.warn(
                pointer_join(pointer, "required"),
                f"{json.dumps(name)} is required but has no property schema",
            )
        extra: Extra
        extra_node = None
        opening = sorted(k for k in schema if k in OPENING)
        if opening:
            extra = "unchecked"
            self.unchecked.append(pointer)
            self.warn(pointer, f"undeclared keys go unchecked because of {', '.join(opening)}")
        elif extra_schema is True:
            extra = "allow"
        elif extra_schema is False:
            extra = "forbid"
            if not properties and not required and not root and "additionalProperties" not in schema:
                self.warn(
                    pointer,
                    'this object accepts only {}; say "additionalProperties": true for a free-form map',
                )
        else:
            extra_node = self.subschema(extra_schema, pointer_join(pointer, "additionalProperties"))
            extra = "allow" if extra_node.macro == "none" else "check"
            extra_node = extra_node if extra == "check" else None
        checked = any(p.node.macro != "none" for p in props)
        rule = ObjectRule(
            id=node_id,
            checks=bool(required) or checked or extra in ("forbid", "check"),
            required=required,
            required_only=required_only,
            properties=props,
            optional_count=sum(1 for p in props if not p.required),
            extra=extra,
            extra_node=extra_node,
            keys_const=f"_KEYS_{node_id}",
            keys=tuple(properties) + required_only,
            missing_lines=tuple(f"The required parameter `{n}` is missing" for n in required) if root else (),
            scan=_scan_types(props, required_only, extra),
        )
        lone = extra == "forbid" and rule.optional_count == 1 and not rule.scan
        rule = replace(rule, lone_optional=lone, flat=_flat(rule))
        if rule.checks or root:
            self.objects.append(rule)
        return rule

    def items_node(self, schema: dict[str, Any], pointer: str) -> Node | None:
        if "items" not in schema:
            return None
        items = schema["items"]
        where = pointer_join(pointer, "items")
        if isinstance(items, list):  # the tuple form is not interpreted
            self.not_enforced.append(NotEnforced(where, ("items (tuple form)",)))
            return None
        if not isinstance(items, (dict, bool)):
            raise self.refuse(where, "expected a schema (an object or a boolean) or a list of schemas")
        node = self.subschema(items, where)
        return None if node.macro == "none" else node


# Python's exact types for a JSON type name in the fast path (bool is not a number).
_EXACT = {"string": ("str",), "number": ("int", "float"), "boolean": ("bool",), "object": ("dict",),
          "array": ("list",)}  # fmt: skip
# From this many optional members on, one pass over the call's own keys beats a membership
# test per declared member (measured on Grep: few of its 13 optional members are ever sent).
SCAN_MIN_OPTIONAL = 6


def _scan_types(
    props: tuple[Prop, ...], required_only: tuple[str, ...], extra: Extra
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Member -> exact Python type names, when the fast path can check the object in one pass
    over its keys: undeclared keys forbidden, and every member a plain type check (strings
    may carry an enum), so the type map alone decides each key. Else ()."""
    optional = sum(1 for p in props if not p.required)
    if extra != "forbid" or required_only or optional < SCAN_MIN_OPTIONAL:
        return ()
    found: list[tuple[str, tuple[str, ...]]] = []
    for prop in props:
        node, types = prop.node, prop.node.types
        if node.macro != "inline" or types is None or types.integer or "null" in types.simple:
            return ()
        if node.enum is not None and (types.simple != ("string",) or len(node.enum.strings) == 0):
            return ()
        found.append((prop.name, tuple(t for name in types.simple for t in _EXACT[name])))
    return tuple(found)


def _flat(rule: ObjectRule) -> tuple[tuple[str, str, str], ...] | None:
    """See ObjectRule.flat: the members' one-test checks, or None when some member needs more."""
    if rule.extra != "forbid" or rule.optional_count or rule.required_only:
        return None
    found: list[tuple[str, str, str]] = []
    for prop in rule.properties:
        node, types = prop.node, prop.node.types
        if not prop.fast_get or node.macro != "inline" or types is None or types.integer:
            return None
        if len(types.simple) != 1 or (node.enum is not None and types.simple != ("string",)):
            return None
        if node.enum is not None and not node.enum.strings:
            return None
        python = "" if types.simple[0] == "number" else _EXACT[types.simple[0]][0]
        found.append(
            (
                prop.name,
                prop.exact if prop.exact is not None else python,
                node.enum.const if node.enum else "",
            )
        )
    return tuple(found)


def _prop(name: str, node: Node, required: bool) -> Prop:
    types = node.types
    rejects_none = types is not None and "null" not in types.declared
    exact = None
    plain = node.macro == "inline" and types is not None and node.enum is None and not types.integer
    if plain and types is not None and len(types.simple) == 1 and types.simple[0] != "null":
        exact = "" if types.simple[0] == "number" else _EXACT[types.simple[0]][0]
    fast_get = required and rejects_none and node.macro != "none"
    return Prop(name, node, required, fast_get=fast_get, exact=exact)


def _with_lines(prop: Prop, index: int, root: bool) -> Prop:
    """A top-level member's path is its name: its message lines are known at build time."""
    if not root:
        return prop
    path = prop.name
    invalid = ""
    if prop.node.enum is not None:
        invalid = f"The parameter `{path}` is invalid: expected one of {prop.node.enum.text}"
    expected = prop.node.types.expected if prop.node.types else ""
    head = f"The parameter `{path}` type is expected as `{expected}`"
    lines = Lines(
        const=f"_L_{index}",
        path=path,
        type_head=head + " but provided as `",
        invalid=invalid,
    )
    return replace(prop, lines=lines)


def _unique(values: Any) -> tuple[Any, ...]:
    result: list[Any] = []
    for value in values:
        if not any(type(value) is type(seen) and value == seen for seen in result):
            result.append(value)
    return tuple(result)


def lower(declaration: Declaration) -> tuple[ToolModule, list[Warning]]:
    """Check the declaration's parameters (refusing per spec section 7) and build its IR."""
    pointer = declaration.pointer
    schema = declaration.parameters
    lowering = _Lowering(declaration.file)
    if not isinstance(schema, dict):
        raise lowering.refuse(pointer, "parameters must be an object schema")
    if "type" in schema and schema["type"] != "object":
        raise lowering.refuse(pointer_join(pointer, "type"), 'parameters must have type "object"')
    if "enum" in schema:
        raise lowering.refuse(pointer_join(pointer, "enum"), "parameters must not have an enum")
    if "type" not in schema and not any(k in schema for k in OBJECT_KEYWORDS):
        raise lowering.refuse(
            pointer,
            "parameters is not object-like (no type object, properties, required or additionalProperties)",
        )
    root = lowering.node(schema, pointer, root=True)
    assert root.obj is not None
    if lowering.not_enforced:
        summary = "; ".join(f"{n.pointer}: {', '.join(n.keywords)}" for n in lowering.not_enforced)
        lowering.warn(pointer, f"not enforced: {summary}")
    module = ToolModule(
        tool=declaration.name,
        module=module_name(declaration.name),
        source_file=declaration.file,
        sha256=declaration.sha256,
        root=root.obj,
        functions=tuple(sorted(lowering.functions, key=lambda n: n.id)),
        enums=tuple(lowering.enums),
        objects=tuple(sorted(lowering.objects, key=lambda o: o.id)),
        not_enforced=tuple(lowering.not_enforced),
        unchecked=tuple(lowering.unchecked),
    )
    return module, lowering.warnings
