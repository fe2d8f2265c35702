"""Stage 3: lower a checked declaration's schema graph to the semantic IR of generator/ir/nodes.py.

Only schemas that generator/front/check.py accepted get here. Lowering decides what is checked
(docs/spec/validation.md §5, docs/spec/extended.md E4), never how it is spelled or named: one `Node` per
schema the vocabulary interprets.
"""

from __future__ import annotations

import json
from typing import Any

from ..front.check import Checked
from ..front.errors import pointer_join
from ..front.load import Declaration
from ..front.patterns import translate
from ..front.schema_graph import DEFINITIONS, SchemaGraph, declared_types, is_local, object_like
from ..front.vocabulary import EXTENDED, Vocabulary
from .names import module_name
from .nodes import Bound, Choice, Node, ToolModule


def _bounds(schema: dict[str, Any], vocabulary: Vocabulary) -> tuple[Bound, ...]:
    found: list[Bound] = []
    for spec in (s for s in vocabulary.bounds if s.name in schema):
        value = schema[spec.name]
        if spec.inert is not None and spec.inert(value):
            continue  # uniqueItems false; the draft-4 boolean form (warned about)
        # a pattern is checked in the Python spelling of its translation (None: not enforced)
        python = translate(value).python if spec.macro == "pattern" else None
        if spec.macro != "pattern" or python is not None:
            found.append(Bound(spec=spec, value=value, python=python))
    return tuple(found)


def _node(graph: SchemaGraph, pointer: str) -> Node:
    schema = graph.schemas[pointer]
    group = graph.groups[pointer]
    if not isinstance(schema, dict):  # a boolean schema: nothing of its own to check
        return Node(
            pointer=pointer,
            types=None,
            const=(),
            enum=None,
            bounds=(),
            required=(),
            properties=(),
            extra=None,
            items=None,
            open=False,
            object_like=False,
            group=(),
            choices=(),
            content=content_key(schema),
            content_resolved=content_key(schema, True),
        )
    types = declared_types(schema)
    opened = any(k in schema for k in graph.vocabulary.opening)
    properties = tuple(
        (name, pointer_join(pointer_join(pointer, "properties"), name))
        for name in schema.get("properties", {})
    )
    declared = schema.get("additionalProperties")  # absent, a boolean or a schema (the graph refuses others)
    extra = pointer_join(pointer, "additionalProperties") if isinstance(declared, dict) else declared
    items = pointer_join(pointer, "items") if isinstance(schema.get("items"), (dict, bool)) else None
    choices = tuple(
        Choice(
            keyword=c.keyword,
            branches=tuple(b.schema for b in c.branches),
            names=c.declared,
            tag=c.discriminator.name if c.discriminator is not None else None,
            tags=c.discriminator.tags if c.discriminator is not None else (),
            accepts=tuple(b.accepts for b in c.branches),
        )
        for c in group.combinators
        if c.schema == pointer
    )
    return Node(
        pointer=pointer,
        types=tuple(types) if types is not None else None,
        const=(schema["const"],) if "const" in schema and "const" in graph.vocabulary.interpreted else (),
        enum=tuple(schema["enum"]) if "enum" in schema else None,
        bounds=_bounds(schema, graph.vocabulary),
        required=tuple(schema.get("required", ())),
        properties=properties,
        extra=extra,
        items=items,
        open=opened or ("$ref" in schema and not is_local(schema["$ref"])),
        object_like=object_like(schema),
        group=group.members,
        choices=choices,
        content=content_key(schema),
        content_resolved=content_key(schema, True),
        title=schema["title"] if isinstance(schema.get("title"), str) else "",
    )


def lower(declaration: Declaration, graph: SchemaGraph, checked: Checked) -> ToolModule:
    """The nodes of a declaration that front.check.check accepted."""
    return ToolModule(
        tool=declaration.name,
        module=module_name(declaration.name),
        nodes=tuple(_node(graph, pointer) for pointer in graph.schemas),
        not_enforced=checked.not_enforced,
        unchecked=checked.unchecked,
        recursive=tuple(sorted(graph.recursive)),
        vocabulary=graph.vocabulary,
    )


# Keywords that decide nothing about a member's own visit: annotations, definitions, and the
# in-place links whose targets the group lists as members of their own.
_NOT_OWN = EXTENDED.annotations | {*DEFINITIONS, "allOf"}


def content_key(schema: Any, resolved: bool = False) -> str:
    """A schema's content as the key of the code it gets (same JSON, same behaviour). With
    `resolved`, its anyOf / oneOf are left out: they were resolved before."""
    if not isinstance(schema, dict):
        return json.dumps(schema)
    dropped = _NOT_OWN | ({"anyOf", "oneOf"} if resolved else frozenset())
    own = {k: v for k, v in schema.items() if k not in dropped and not (k == "$ref" and is_local(v))}
    return json.dumps(own, ensure_ascii=False)
