"""`toolgen explain TOOL`: what a tool's validator checks, and what its declaration says that is
not checked, straight from the IR the validator was generated from."""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.check import check
from generator.errors import NOT_ENFORCED, DeclarationError
from generator.ir import ArrayCheck, EnumCheck, ObjectCheck, Schema, ToolModule, TypeCheck
from generator.load import Declaration, read_all
from generator.lower import lower
from generator.render import support_module
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
        close = difflib.get_close_matches(tool_name, [d.name for d in declarations], n=3)
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


def _with_value(keyword: str, schema: Any) -> str:
    if isinstance(schema, dict) and keyword in schema:
        return f"{keyword}: {json.dumps(schema[keyword], ensure_ascii=False)}"
    return keyword


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _object_rows(rule: ObjectCheck, path: str) -> Iterator[Row]:
    for member in rule.members:
        yield from _schema_rows(member.schema, _join(path, member.name), member.required)
    other = _join(path, "*")
    if rule.extra == "check" and rule.extra_schema is not None:
        yield from _schema_rows(rule.extra_schema, other, False)
    elif rule.extra == "allow" and path:
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
    if explanation.not_enforced:
        lines.append("declared but not enforced (never blocks a call):")
        width = max(len(p) for p, _, _ in explanation.not_enforced)
        lines.extend(f"  {p.ljust(width)}  {k}  ({why})" for p, k, why in explanation.not_enforced)
    else:
        lines.append("declared but not enforced: nothing")
    if explanation.notes:
        lines.append("")
        lines.append("notes:")
        lines.extend(f"  {note}" for note in explanation.notes)
    return "\n".join(lines)


__all__ = ["DeclarationError", "Explanation", "UnknownTool", "explain", "render"]
