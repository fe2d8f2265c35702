"""`toolgen explain TOOL`: what a tool's validator checks, and what its declaration says that is
not checked, straight from the IR the validator was generated from, in the package's vocabulary."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base.textui import table
from ..emit.support import support_module
from ..front.check import check
from ..front.errors import NOT_ENFORCED, DeclarationError
from ..front.load import Declaration, read_all
from ..front.vocabulary import SUBSET, VOCABULARIES, Vocabulary
from ..ir.lower import lower
from ..ir.nodes import Bound, Choice, Node, ToolModule
from .didyoumean import suggest as suggest

DEFAULT = next(iter(VOCABULARIES.values()))  # not named on the table's second line


@dataclass(frozen=True)
class Row:
    parameter: str
    type: str
    required: bool
    values: str  # enum members or const
    enforced: str  # bounds and branches


@dataclass(frozen=True)
class Explanation:
    declaration: Declaration
    tool: ToolModule
    rows: tuple[Row, ...]
    not_enforced: tuple[tuple[str, str, str], ...]  # parameter, keyword with value, reason
    notes: tuple[str, ...]  # the generator's other warnings about this tool
    closed: bool  # other top-level parameters are rejected


class UnknownTool(Exception):
    pass


def explain(schemas: Path, tool_name: str, vocabulary: Vocabulary = SUBSET) -> Explanation:
    declarations = read_all(schemas)
    found = next((d for d in declarations if d.name == tool_name), None)
    if found is None:
        close = suggest(tool_name, [d.name for d in declarations])
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownTool(f"no tool named {tool_name!r} in {schemas.as_posix()}{hint}")
    graph, checked = check(found, vocabulary)
    tool = lower(found, graph, checked)
    nodes = {n.pointer: n for n in tool.nodes}
    not_enforced = tuple(
        (
            parameter_path(entry.pointer, found.pointer),
            _with_value(keyword, _resolve(found, entry.pointer)) if "(" not in keyword else keyword,
            vocabulary.reason(keyword),
        )
        for entry in tool.not_enforced
        for keyword in entry.keywords
    )
    notes = tuple(
        f"{parameter_path(w.pointer, found.pointer)}: {w.reason}"
        for w in checked.notices
        if w.kind != NOT_ENFORCED
    )
    unchecked = frozenset(p.removeprefix(found.pointer) for p in tool.unchecked)  # as node pointers
    walk = _Walk(nodes, unchecked)
    rows = tuple(walk.rows(nodes[""], "", True, (), top=True))
    root = [nodes[p] for p in nodes[""].group]
    closed = "" not in unchecked and not _open(root)
    return Explanation(found, tool, rows, not_enforced, notes, closed)


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


def _members_text(members: tuple[Any, ...]) -> str:
    text: str = support_module().members_text(members)
    return text


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


@dataclass(frozen=True)
class _Walk:
    nodes: dict[str, Node]
    unchecked: frozenset[str]  # objects whose undeclared keys go unchecked

    def rows(
        self, node: Node, path: str, required: bool, seen: tuple[str, ...], top: bool = False
    ) -> Iterator[Row]:
        """One row per value: its group and, flattened one level, the groups of its branches;
        then its members, its other keys (`*`) and its elements (`[]`)."""
        nodes = self.nodes
        static = [nodes[p] for p in node.group]
        choices = [c for g in static for c in g.choices]
        branches = [nodes[p] for c in choices for b in c.branches for p in nodes[b].group]
        group = static + [b for b in branches if b not in static]
        if not top:
            recursive = node.group[-1] in seen
            yield self._row(static, group, choices, path, required, recursive)
            if recursive:
                return
        seen = (*seen, node.group[-1])
        required_names = [r for g in static for r in g.required]
        done: set[tuple[str, str]] = set()
        declared: set[str] = set()
        for g in group:
            for name, sub in g.properties:
                declared.add(name)
                if (name, sub) in done:
                    continue
                done.add((name, sub))
                is_required = name in required_names or name in g.required
                yield from self.rows(nodes[sub], _join(path, name), is_required, seen)
        for name in dict.fromkeys(required_names):  # required, but no property schema
            if name not in declared:
                yield Row(_join(path, name), "any", True, "", "")
        yield from self._others(group, path, seen, top)
        for g in group:
            if g.items is not None:
                yield from self.rows(nodes[g.items], f"{path}[]", False, seen)

    def _row(
        self,
        static: list[Node],
        group: list[Node],
        choices: list[Choice],
        path: str,
        required: bool,
        recursive: bool,
    ) -> Row:
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
        enforced += [_branch_text(self.nodes, c) for c in choices]
        if recursive:
            enforced.append("recursive")
        return Row(
            path, " | ".join(types) if types else "any", required, "; ".join(values), "; ".join(enforced)
        )

    def _others(self, group: list[Node], path: str, seen: tuple[str, ...], top: bool) -> Iterator[Row]:
        """The row of an object's other keys: what their schema says, `any` when nothing
        constrains them, `any (unchecked)` when an open keyword may admit them unseen."""
        if not any(g.object_like for g in group):
            return
        other = _join(path, "*")
        if any(g.pointer in self.unchecked for g in group):
            yield Row(other, "any (unchecked)", False, "", "")
            return
        if not _open(group):
            return
        extras = [g.extra for g in group if isinstance(g.extra, str)]
        if extras:
            for extra in dict.fromkeys(extras):
                yield from self.rows(self.nodes[extra], other, False, seen)
        elif not top:
            yield Row(other, "any", False, "", "")


def _open(group: list[Node]) -> bool:
    """Undeclared keys are accepted: some schema of the group says additionalProperties true,
    or gives them a schema (docs/spec/extended.md E4 4c); absent everywhere, they are rejected."""
    return any(g.extra is True or isinstance(g.extra, str) for g in group)


def render(explanation: Explanation) -> str:
    d = explanation.declaration
    vocabulary = explanation.tool.vocabulary
    lines = [f"{d.name}  ({d.file}, module {explanation.tool.module}.py)"]
    if vocabulary is not DEFAULT:
        lines.append(f"keywords: {vocabulary.name}")
    lines.append("")
    # A column for what the vocabulary interprets: const beside enum, bounds and branches.
    head = ["parameter", "type", "required", "enum / const" if "const" in vocabulary.interpreted else "enum"]
    wide = bool(vocabulary.bounds) or bool({"anyOf", "oneOf"} & vocabulary.interpreted)
    if wide:
        head.append("bounds and branches")
    if explanation.rows:
        rows = [
            (r.parameter, r.type, "yes" if r.required else "", r.values, *([r.enforced] if wide else []))
            for r in explanation.rows
        ]
        lines.append(table(tuple(head), rows))
    else:
        lines.append("(no parameters)")
    lines.append("other top-level parameters: " + ("rejected" if explanation.closed else "accepted"))
    lines.append("")
    return "\n".join(lines + _unenforced_and_notes(explanation.not_enforced, explanation.notes))


def _unenforced_and_notes(not_enforced: Sequence[tuple[str, str, str]], notes: Sequence[str]) -> list[str]:
    """The closing lines of an explanation: what is not enforced and why, then notes."""
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


__all__ = ["DeclarationError", "Explanation", "UnknownTool", "explain", "render"]
