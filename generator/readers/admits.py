"""What a parameter's schema admits, read from a declaration at audit time (`audit --suggest`).

The repairs of generator/readers/repairs.py ask a schema three questions: which JSON types
does it admit, which strings does its enum list, and what is the schema of a member or an
element below it. The answers come from the declaration as the package serves it (its
`openai_tools()`), so they describe exactly what the validators were generated from.
Subset-mode declarations are plain; extended ones may use `$ref` (local, `#/...`), `anyOf`,
`oneOf` and `allOf`, which are followed here: a union admits what any branch admits, an
intersection what every branch does. The answers only choose where a repair is tried; the
package's own validator decides whether the repaired call is valid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..front.schema_graph import json_type as schema_json_type

JSON_TYPES: frozenset[str] = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
_UNIONS = ("anyOf", "oneOf")
_OBJECT_WORDS = frozenset({"properties", "required", "additionalProperties"})
# Keywords that leave an object's undeclared keys unchecked in both modes (docs/spec/validation.md §2,
# docs/spec/extended.md E2).
_OPEN_WORDS = frozenset(
    {
        "patternProperties",
        "dependentSchemas",
        "dependencies",
        "if",
        "then",
        "else",
        "unevaluatedProperties",
        "$dynamicRef",
        "$recursiveRef",
    }
)
_MAX_REFS = 32  # a $ref chain longer than this is a cycle: treated as admitting anything


@dataclass(frozen=True, eq=False)
class Schema:
    """A schema inside a declaration's parameters, with that root for its `$ref`s. The answers
    are computed once per schema (a Schema is built once per place, below its tool's)."""

    node: Any
    root: Any

    @cached_property
    def _resolved(self) -> Any:
        return self.resolved()

    def resolved(self) -> Any:
        """The node with local `$ref`s followed (a missing or cyclic one: an empty schema)."""
        node = self.node
        for _ in range(_MAX_REFS):
            if not isinstance(node, dict) or not isinstance(node.get("$ref"), str):
                return node
            node = _pointer(self.root, node["$ref"])
        return {}

    def _at(self, node: Any) -> Schema:
        return Schema(node, self.root)

    def branches(self) -> tuple[tuple[str, tuple[Schema, ...]], ...]:
        """The schema's combinators: ("anyOf", (branches...)), ..."""
        return self._branches

    @cached_property
    def _branches(self) -> tuple[tuple[str, tuple[Schema, ...]], ...]:
        node = self._resolved
        if not isinstance(node, dict):
            return ()
        return tuple(
            (word, tuple(self._at(b) for b in node[word]))
            for word in ("anyOf", "oneOf", "allOf")
            if isinstance(node.get(word), list) and node[word]
        )

    def types(self) -> frozenset[str]:
        """The JSON types a value may have here; `number` admits integers too."""
        return self._types

    @cached_property
    def _types(self) -> frozenset[str]:
        node = self._resolved
        if node is False:
            return frozenset()
        if not isinstance(node, dict):
            return JSON_TYPES
        found = _own_types(node)
        for word, branches in self.branches():
            inner = [b.types() for b in branches]
            found &= frozenset.union(*inner) if word in _UNIONS else frozenset.intersection(*inner)
        return found

    def admits(self, type_name: str) -> bool:
        return type_name in self.types()

    def admits_value(self, value: Any) -> bool:
        """Is `value`'s JSON type one this schema admits (an integral float counts as an integer)?"""
        types, kind = self.types(), json_type(value)
        if kind == "integer":
            return bool({"integer", "number"} & types)
        if kind == "number" and "integer" in types:
            return "number" in types or value.is_integer()
        return kind in types

    def string_enum(self) -> tuple[str, ...] | None:
        """The string members of the schema's `enum` (or `const`), or None when it has none."""
        return self._string_enum

    @cached_property
    def _string_enum(self) -> tuple[str, ...] | None:
        node = self._resolved
        if isinstance(node, dict):
            members = node.get("enum", [node["const"]] if "const" in node else None)
            if isinstance(members, list):
                return tuple(m for m in members if isinstance(m, str))
        for word, branches in self.branches():
            if word in _UNIONS:
                found = [m for b in branches for m in (b.string_enum() or ())]
                if found:
                    return tuple(dict.fromkeys(found))
        return None

    def objects(self) -> tuple[dict[str, Any], ...]:
        """The object schemas this schema is made of (itself, and its combinators' branches)."""
        return self._objects

    @cached_property
    def _objects(self) -> tuple[dict[str, Any], ...]:
        node = self._resolved
        if not isinstance(node, dict):
            return ()
        return (node, *(o for _, branches in self.branches() for b in branches for o in b.objects()))

    def properties(self) -> dict[str, Schema]:
        """The declared members, first declaration of a name winning."""
        return self._properties

    @cached_property
    def _properties(self) -> dict[str, Schema]:
        found: dict[str, Schema] = {}
        for node in self.objects():
            members = node.get("properties")
            if isinstance(members, dict):
                for name, schema in members.items():
                    found.setdefault(name, self._at(schema))
        return found

    def required(self) -> frozenset[str]:
        return self._required

    @cached_property
    def _required(self) -> frozenset[str]:
        names: set[str] = set()
        for node in self.objects():
            if isinstance(node.get("required"), list):
                names.update(n for n in node["required"] if isinstance(n, str))
        return frozenset(names)

    def closed(self) -> bool:
        """Members other than the declared ones are refused (`additionalProperties: false`)."""
        return self._closed

    @cached_property
    def _closed(self) -> bool:
        # docs/spec/validation.md §2 and §5 step 3c, docs/spec/extended.md E2 and E4 4c: an
        # object-like schema (or group) refuses undeclared keys
        # when `additionalProperties` is false or absent, unless a keyword that can admit keys
        # the validator does not see is there.
        nodes = self.objects()
        object_like = any(_OBJECT_WORDS & node.keys() or _typed_object(node) for node in nodes)
        opened = any(
            _OPEN_WORDS & node.keys() or node.get("additionalProperties", False) is not False
            for node in nodes
        )
        return object_like and not opened

    def member(self, name: str) -> Schema | None:
        """The schema a member `name` is validated against, or None when nothing is known."""
        declared = self.properties().get(name)
        return declared if declared is not None else self._extra

    @cached_property
    def _extra(self) -> Schema | None:
        """The schema of members not declared (`additionalProperties` as a schema)."""
        for node in self.objects():
            extra = node.get("additionalProperties")
            if isinstance(extra, dict):
                return self._at(extra)
        return None

    def items(self) -> Schema | None:
        """The schema each element of an array is validated against (the single-schema form)."""
        return self._items

    @cached_property
    def _items(self) -> Schema | None:
        for node in self.objects():
            if isinstance(node.get("items"), dict):
                return self._at(node["items"])
        return None


def _typed_object(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind)


def _own_types(node: Mapping[str, Any]) -> frozenset[str]:
    kind = node.get("type")
    if isinstance(kind, str):
        return frozenset({kind}) & JSON_TYPES
    if isinstance(kind, list):
        return frozenset(k for k in kind if isinstance(k, str)) & JSON_TYPES
    members = node.get("enum", [node["const"]] if "const" in node else None)
    if isinstance(members, list):
        return frozenset(json_type(m) for m in members)
    return JSON_TYPES


def json_type(value: Any) -> str:
    """The JSON type name of a decoded value, as the schema graph names it, except that an int
    is an `integer` (a repair asks whether `integer` alone would admit it)."""
    kind = schema_json_type(value)
    return "integer" if kind == "number" and isinstance(value, int) else kind


def _pointer(root: Any, ref: str) -> Any:
    """A local `$ref` (`#/$defs/Item`) inside root; an empty schema when it leads nowhere."""
    if not ref.startswith("#"):
        return {}
    node = root
    for token in ref[1:].split("/")[1:]:
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return {}
    return node
