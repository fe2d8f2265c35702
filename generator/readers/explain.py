"""`toolgen explain TOOL`: what a tool's validator checks, and what its declaration says that is
not checked, straight from the IR the validator was generated from."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.check import check, check_extended
from generator.errors import NOT_ENFORCED, DeclarationError
from generator.ir import (
    ArrayCheck,
    Bound,
    Choice,
    EnumCheck,
    ExtendedTool,
    Node,
    ObjectCheck,
    Schema,
    ToolModule,
    TypeCheck,
)
from generator.load import Declaration, read_all
from generator.lower import lower, lower_extended
from generator.readers.didyoumean import suggest as suggest
from generator.support import support_module
from generator.textui import table

# Why each keyword outside the subset of spec section 2 is not enforced; the reader's
# question is "can I rely on this?", so the reason says what is (not) checked.
_REASONS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"default"}), "no default is filled in: arguments are never changed"),
    (
        frozenset({"format", "pattern", "contentEncoding", "contentMediaType"}),
        "string formats and patterns are not checked",
    ),
    (frozenset({"minLength", "maxLength"}), "string lengths are not checked"),
    (
        frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
        "numeric ranges are not checked",
    ),
    (
        frozenset(
            {"minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "prefixItems"}
        ),
        "array sizes and contents beyond `items` are not checked",
    ),
    (
        frozenset(
            {"minProperties", "maxProperties", "propertyNames", "patternProperties", "dependentRequired"}
        ),
        "object constraints beyond properties, required and additionalProperties are not checked",
    ),
    (
        frozenset({"oneOf", "anyOf", "allOf", "not", "if", "then", "else", "$ref", "$defs", "definitions"}),
        "combinators and references are not interpreted",
    ),
    (frozenset({"const"}), "const is not checked (a one-member enum is)"),
    (frozenset({"items (tuple form)"}), "tuple-form items are not interpreted"),
)
_OTHER = "outside the keyword subset of the spec (section 2)"


@dataclass(frozen=True)
class Row:
    parameter: str
    type: str
    required: bool
    enum: str


@dataclass(frozen=True)
class Explanation:
    declaration: Declaration
    tool: ToolModule
    rows: tuple[Row, ...]
    not_enforced: tuple[tuple[str, str, str], ...]  # parameter, keyword with value, reason
    notes: tuple[str, ...]  # the generator's other warnings about this tool


class UnknownTool(Exception):
    pass


def reason(keyword: str) -> str:
    return next((text for names, text in _REASONS if keyword in names), _OTHER)


def explain(schemas: Path, tool_name: str) -> Explanation:
    declarations = read_all(schemas)
    found = next((d for d in declarations if d.name == tool_name), None)
    if found is None:
        close = suggest(tool_name, [d.name for d in declarations])
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownTool(f"no tool named {tool_name!r} in {schemas.as_posix()}{hint}")
    checked = check(found)
    tool = lower(found, checked)
    not_enforced = tuple(
        (
            parameter_path(entry.pointer, found.pointer),
            _with_value(keyword, _resolve(found, entry.pointer)),
            reason(keyword),
        )
        for entry in tool.not_enforced
        for keyword in entry.keywords
    )
    notes = tuple(
        f"{parameter_path(w.pointer, found.pointer)}: {w.reason}"
        for w in checked.notices
        if w.kind != NOT_ENFORCED
    )
    return Explanation(found, tool, tuple(_object_rows(tool.root_object, "")), not_enforced, notes)


def parameter_path(pointer: str, parameters_pointer: str) -> str:
    """A JSON pointer inside the parameters schema, as a parameter path: `questions[].options`."""
    tokens = [
        t.replace("~1", "/").replace("~0", "~") for t in pointer[len(parameters_pointer) :].split("/")[1:]
    ]
    path = ""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token == "properties" and i + 1 < len(tokens):
            path = _join(path, tokens[i + 1])
            i += 2
            continue
        path += {"items": "[]", "additionalProperties": ".*"}.get(token, "")  # keywords: the reason says
        i += 1
    return path or "(top level)"


def _resolve(declaration: Declaration, pointer: str) -> Any:
    value: Any = declaration.parameters
    for token in pointer[len(declaration.pointer) :].split("/")[1:]:
        key = token.replace("~1", "/").replace("~0", "~")
        value = value[int(key)] if isinstance(value, list) else value[key]
    return value


# A keyword's value up to this long is shown on its line; a longer one (a whole `$defs`) is
# shown indented below it, one member a line, so it can be read.
_INLINE_VALUE = 60


def _with_value(keyword: str, schema: Any) -> str:
    if isinstance(schema, dict) and keyword in schema:
        text = json.dumps(schema[keyword], ensure_ascii=False)
        if len(text) <= _INLINE_VALUE:
            return f"{keyword}: {text}"
        return f"{keyword}:\n" + json.dumps(schema[keyword], ensure_ascii=False, indent=2)
    return keyword


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _object_rows(rule: ObjectCheck, path: str) -> Iterator[Row]:
    for member in rule.members:
        yield from _schema_rows(member.schema, _join(path, member.name), member.required)
    other = _join(path, "*")
    if rule.extra == "check" and rule.extra_schema is not None:
        yield from _schema_rows(rule.extra_schema, other, False)
    elif rule.extra in ("allow", "keys") and path:
        yield Row(other, "any", False, "")
    elif rule.extra == "unchecked":
        yield Row(other, "any (unchecked)", False, "")


def _members_text(members: tuple[Any, ...]) -> str:
    text: str = support_module().members_text(members)
    return text


def _schema_rows(schema: Schema, path: str, required: bool) -> Iterator[Row]:
    types = schema.find(TypeCheck)
    enum = schema.find(EnumCheck)
    yield Row(
        path,
        " | ".join(types.names) if types else "any",
        required,
        _members_text(enum.members) if enum else "",
    )
    obj = schema.find(ObjectCheck)
    if obj is not None:
        yield from _object_rows(obj, path)
    array = schema.find(ArrayCheck)
    if array is not None:
        yield from _schema_rows(array.items, f"{path}[]", False)


def render(explanation: Explanation) -> str:
    d = explanation.declaration
    lines = [f"{d.name}  ({d.file}, module {explanation.tool.module}.py)", ""]
    if explanation.rows:
        rows = [(r.parameter, r.type, "yes" if r.required else "", r.enum) for r in explanation.rows]
        lines.append(table(("parameter", "type", "required", "enum"), rows))
    else:
        lines.append("(no parameters)")
    closed = explanation.tool.root_object.extra == "forbid"
    lines.append("other top-level parameters: " + ("rejected" if closed else "accepted"))
    lines.append("")
    return "\n".join(lines + _unenforced_and_notes(explanation.not_enforced, explanation.notes))


# ---------- extended mode (extended.md): the same table, plus bounds and branches ----------

@dataclass(frozen=True)
class ExtendedRow:
    parameter: str
    type: str
    required: bool
    values: str  # enum members or const
    enforced: str  # bounds and branches


@dataclass(frozen=True)
class ExtendedExplanation:
    declaration: Declaration
    tool: ExtendedTool
    rows: tuple[ExtendedRow, ...]
    not_enforced: tuple[tuple[str, str, str], ...]
    notes: tuple[str, ...]


_EXTENDED_REASONS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"default"}), "no default is filled in: arguments are never changed"),
    (
        frozenset({"format", "contentEncoding", "contentMediaType", "pattern"}),
        "string formats (and patterns outside ECMA-262's E6 syntax) are not checked",
    ),
    (
        frozenset({"not", "if", "then", "else", "dependentSchemas", "dependencies"}),
        "conditionals are not interpreted",
    ),
)


def _extended_reason(keyword: str) -> str:
    found = next((text for names, text in _EXTENDED_REASONS if keyword in names), None)
    return found or "outside the keywords extended mode interprets (extended.md E2)"


def explain_extended(schemas: Path, tool_name: str) -> ExtendedExplanation:
    declarations = read_all(schemas)
    found = next((d for d in declarations if d.name == tool_name), None)
    if found is None:
        close = suggest(tool_name, [d.name for d in declarations])
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownTool(f"no tool named {tool_name!r} in {schemas.as_posix()}{hint}")
    graph, checked = check_extended(found)
    tool = lower_extended(found, graph, checked)
    nodes = {n.pointer: n for n in tool.nodes}
    not_enforced = tuple(
        (
            parameter_path(entry.pointer, found.pointer),
            _with_value(keyword, _resolve(found, entry.pointer)) if "(" not in keyword else keyword,
            _extended_reason(keyword),
        )
        for entry in tool.not_enforced
        for keyword in entry.keywords
    )
    notes = tuple(
        f"{parameter_path(w.pointer, found.pointer)}: {w.reason}"
        for w in checked.notices
        if w.kind != NOT_ENFORCED
    )
    rows = list(_extended_rows(nodes, nodes[""], "", True, (), top=True))
    return ExtendedExplanation(found, tool, tuple(rows), not_enforced, notes)


def _bound_text(bound: Bound) -> str:
    return bound.spec.shown(bound.value)


def _branch_text(nodes: dict[str, Node], choice: Choice) -> str:
    kinds = []
    for accepts, branch in zip(choice.accepts, choice.branches, strict=True):
        ref = next((p for p in nodes[branch].group[1:]), "")
        name = (
            ref.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~") if ref.startswith("/$defs/") else ""
        )
        kinds.append(name or (" | ".join(accepts) if accepts else "any"))
    return f"{choice.keyword}: {', '.join(kinds)}" + (f" (by {choice.tag})" if choice.tag else "")


def _extended_rows(
    nodes: dict[str, Node], node: Node, path: str, required: bool, seen: tuple[str, ...], top: bool = False
) -> Iterator[ExtendedRow]:
    """One row per value: its group and, flattened one level, the groups of its branches."""
    static = [nodes[p] for p in node.group]
    choices = [c for g in static for c in g.choices]
    branches = [nodes[p] for c in choices for b in c.branches for p in nodes[b].group]
    group = static + [b for b in branches if b not in static]
    if not top:
        types = next((g.types for g in static if g.types is not None), None)
        if types is None and choices:
            union: list[str] = []
            for c in choices:
                for accepts in c.accepts:
                    union += [t for t in (accepts or ("any",)) if t not in union]
            types = tuple(union)
        values = [_members_text(g.enum) for g in group if g.enum is not None]
        values += [f"const {_members_text(g.const)}" for g in group if g.const]
        enforced = [_bound_text(b) for g in group for b in g.bounds]
        enforced += [_branch_text(nodes, c) for c in choices]
        recursive = node.group[-1] in seen
        if recursive:
            enforced.append("recursive")
        yield ExtendedRow(
            path, " | ".join(types) if types else "any", required, "; ".join(values), "; ".join(enforced)
        )
        if recursive:
            return
    seen = (*seen, node.group[-1])
    required_names = {r for g in static for r in g.required}
    done: set[tuple[str, str]] = set()
    for g in group:
        for name, sub in g.properties:
            if (name, sub) in done:
                continue
            done.add((name, sub))
            is_required = name in required_names or name in g.required
            yield from _extended_rows(nodes, nodes[sub], _join(path, name), is_required, seen)
        if isinstance(g.extra, str):
            yield from _extended_rows(nodes, nodes[g.extra], _join(path, "*"), False, seen)
        if g.items is not None:
            yield from _extended_rows(nodes, nodes[g.items], f"{path}[]", False, seen)


def render_extended(explanation: ExtendedExplanation) -> str:
    d = explanation.declaration
    lines = [f"{d.name}  ({d.file}, module {explanation.tool.module}.py)", "keywords: extended", ""]
    if explanation.rows:
        rows = [
            (r.parameter, r.type, "yes" if r.required else "", r.values, r.enforced) for r in explanation.rows
        ]
        lines.append(table(("parameter", "type", "required", "enum / const", "bounds and branches"), rows))
    else:
        lines.append("(no parameters)")
    lines.append("")
    return "\n".join(lines + _unenforced_and_notes(explanation.not_enforced, explanation.notes))


def _unenforced_and_notes(not_enforced: Sequence[tuple[str, str, str]], notes: Sequence[str]) -> list[str]:
    """The closing lines of both modes' explanations: what is not enforced and why, then notes."""
    if not not_enforced:
        lines = ["declared but not enforced: nothing"]
    else:
        width = max(len(p) for p, _, _ in not_enforced)
        lines = ["declared but not enforced (never blocks a call):"]
        for p, k, why in not_enforced:
            head, *value = k.split("\n")
            lines.append(f"  {p.ljust(width)}  {head}  ({why})")
            lines.extend(" " * (width + 6) + line for line in value)
    if notes:
        lines += ["", "notes:", *(f"  {note}" for note in notes)]
    return lines


__all__ = [
    "DeclarationError",
    "Explanation",
    "ExtendedExplanation",
    "UnknownTool",
    "explain",
    "explain_extended",
    "render",
    "render_extended",
]
