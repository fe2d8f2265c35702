"""Plan the repairs a project adopted (`[tool.toolgen.repairs]`) for one tool: where each
adopted kind applies, as data the module's `repair()` walks (templates/_repair.py).

The kinds are the seven `audit --suggest` measures (docs/audit-suggest.md); a kind applies at
a place exactly where the audit would try it (generator/readers/admits.py reads the same
facts from a served declaration): what JSON types the place's schema admits, its string enum,
an object's declared, required and nullable members and whether it refuses undeclared keys.
Here they are read from the semantic IR, following a node's group (`$ref`, `allOf`: what
every member admits) and choices (`anyOf`, `oneOf`: what any branch admits). A place is
named in the audit's notation (`questions[*].multiSelect`, `(input)` for the arguments); a
kind is planned at a place only when it was adopted there (for every tool, for the tool, or
for that parameter) and can apply there. The result is a tree of plain values, only along
the paths that lead to a planned kind; None when nothing is planned, and the module is then
the one a project without the table gets, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from ..ir.nodes import Node, ToolModule

# The repairs `audit --suggest` measures, in the order they are tried (docs/audit-suggest.md).
RepairKind = Literal[
    "number-from-string",
    "boolean-from-string",
    "json-from-string",
    "array-from-single",
    "enum-case",
    "renamed-parameter",
    "null-as-missing",
]
KINDS: tuple[RepairKind, ...] = get_args(RepairKind)
# The kinds that replace one value; the other two change an object's keys.
VALUE_KINDS: tuple[RepairKind, ...] = KINDS[:5]
RENAMED: RepairKind = "renamed-parameter"
NULLS: RepairKind = "null-as-missing"
INPUT = "(input)"  # the arguments as a whole, in the audit's notation
_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")

Kinds = tuple[RepairKind, ...]


class AdoptionError(ValueError):
    """An adoption that names what the declarations do not have: a tool, a parameter, or a
    kind at a parameter where it can never apply. `table` is the `[tool.toolgen.repairs...]`
    table it is in, `problem` names its key (the CLI prefixes the project's pyproject.toml)."""

    def __init__(self, table: str, problem: str) -> None:
        super().__init__(f"[{table}] {problem}")
        self.table = table
        self.problem = problem


@dataclass(frozen=True)
class ToolAdoption:
    """The kinds one tool adopted: at every parameter, and at named ones (audit notation)."""

    everywhere: Kinds = ()
    parameters: tuple[tuple[str, Kinds], ...] = ()

    def at(self, parameter: str) -> frozenset[RepairKind]:
        named = dict(self.parameters).get(parameter, ())
        return frozenset(self.everywhere) | frozenset(named)


@dataclass(frozen=True)
class Adoption:
    """A project's `[tool.toolgen.repairs]` table, read and checked (generator/cli/config.py):
    the kinds adopted for every tool (`all`), for a tool (`tools`) and for one parameter of a
    tool (`parameters`). The lists add up; none takes a kind away."""

    all: Kinds = ()
    tools: tuple[tuple[str, Kinds], ...] = ()
    parameters: tuple[tuple[str, tuple[tuple[str, Kinds], ...]], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.all or self.tools or self.parameters)

    def for_tool(self, tool: str) -> ToolAdoption | None:
        """What `tool` adopted, or None when nothing is adopted for it."""
        everywhere = _ordered(set(self.all) | set(dict(self.tools).get(tool, ())))
        named = dict(self.parameters).get(tool, ())
        if not everywhere and not named:
            return None
        return ToolAdoption(everywhere, named)

    def named_tools(self) -> tuple[tuple[str, str], ...]:
        """(table, tool) of every tool named under `tools` and `parameters`."""
        return (
            *(("tool.toolgen.repairs.tools", tool) for tool, _ in self.tools),
            *(("tool.toolgen.repairs.parameters", tool) for tool, _ in self.parameters),
        )

    def key(self) -> str:
        """The table as canonical JSON, for the generator's fingerprint; "" when empty, so that a
        project without the table keeps the fingerprint it had."""
        if not self:
            return ""
        parameters = {tool: dict(members) for tool, members in self.parameters}
        data = {"all": self.all, "tools": dict(self.tools), "parameters": parameters}
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def adoption(table: Mapping[str, Any]) -> Adoption:
    """An Adoption from a `[tool.toolgen.repairs]` table already checked (config.py): kinds in
    KINDS order, tools and parameters sorted."""
    tools = table.get("tools", {})
    parameters = table.get("parameters", {})
    return Adoption(
        _ordered(table.get("all", ())),
        tuple((tool, _ordered(tools[tool])) for tool in sorted(tools)),
        tuple(
            (tool, tuple((name, _ordered(kinds)) for name, kinds in sorted(parameters[tool].items())))
            for tool in sorted(parameters)
        ),
    )


def _ordered(kinds: Any) -> Kinds:
    listed = set(kinds)
    return tuple(kind for kind in KINDS if kind in listed)


class _View:
    """What the IR says a place admits, its group and choices followed (admits.py's answers,
    read from the nodes)."""

    def __init__(self, tool: ToolModule) -> None:
        self.nodes = {node.pointer: node for node in tool.nodes}

    def _parts(self, pointer: str) -> list[Node]:
        """The node, its group's members and, recursively, its choices' branches' parts."""
        found: list[Node] = []
        seen: set[str] = set()
        todo = [pointer]
        while todo:
            here = todo.pop(0)
            if here in seen or here not in self.nodes:
                continue
            seen.add(here)
            node = self.nodes[here]
            found.append(node)
            todo += [p for p in node.group if p != here]
            todo += [b for choice in node.choices for b in choice.branches]
        return found

    def types(self, pointer: str, above: frozenset[str] = frozenset()) -> frozenset[str]:
        """The JSON types a value may have here (`above`: the pointers this question came
        through, so that a schema reached again adds nothing)."""
        node = self.nodes.get(pointer)
        if node is None or pointer in above:
            return frozenset(_TYPES)
        above = above | {pointer}
        found = _own_types(node)
        for member in node.group:
            if member != pointer:
                found &= self.types(member, above)
        for choice in node.choices:
            found &= frozenset().union(*(self.types(b, above) for b in choice.branches))
        return found

    def string_enum(self, pointer: str) -> tuple[str, ...]:
        members: list[str] = []
        for node in self._parts(pointer):
            listed = node.enum if node.enum is not None else node.const
            members += [m for m in listed if isinstance(m, str)]
        return tuple(dict.fromkeys(members))

    def properties(self, pointer: str) -> dict[str, str]:
        found: dict[str, str] = {}
        for node in self._parts(pointer):
            for name, child in node.properties:
                found.setdefault(name, child)
        return found

    def required(self, pointer: str) -> frozenset[str]:
        return frozenset(name for node in self._parts(pointer) for name in node.required)

    def closed(self, pointer: str) -> bool:
        parts = self._parts(pointer)
        opened = any(node.open or node.extra not in (None, False) for node in parts)
        return any(node.object_like for node in parts) and not opened

    def items(self, pointer: str) -> str | None:
        return next((node.items for node in self._parts(pointer) if node.items is not None), None)


def _own_types(node: Node) -> frozenset[str]:
    if node.types is not None:
        return frozenset(node.types)
    listed = node.enum if node.enum is not None else (node.const or None)
    if listed is not None:
        return frozenset(_json_type(m) for m in listed)
    return frozenset(_TYPES)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    names = {float: "number", str: "string", list: "array", dict: "object"}
    return names.get(type(value), "object")


def applies(kind: RepairKind, types: frozenset[str], enum: tuple[str, ...]) -> bool:
    """Can the value kind `kind` ever repair a value where the schema admits `types`?"""
    if kind == "enum-case":
        return bool(enum)
    if kind == "array-from-single":
        return "array" in types
    if "string" in types:
        return False
    wanted = {"number-from-string": {"number", "integer"}, "boolean-from-string": {"boolean"}}
    return bool(wanted.get(kind, {"object", "array"}) & types)


def _child(parameter: str, key: str) -> str:
    return key if parameter == INPUT else f"{parameter}.{key}"


@dataclass
class _Planner:
    view: _View
    adopted: ToolAdoption
    seen: dict[str, frozenset[str]] = field(default_factory=dict)  # parameter -> types admitted
    planned: set[tuple[str, RepairKind]] = field(default_factory=set)  # (parameter, kind)
    repeated: set[str] = field(default_factory=set)  # first places of schemas reached again

    def place(self, pointer: str, parameter: str, trail: Mapping[str, str]) -> dict[str, Any]:
        """The tree at one place: empty when nothing is planned here or below. `trail`: the
        pointers above it, each with its parameter. A schema reached again below itself (a
        tree, a list) is planned once: the place where it repeats says `again`, naming the
        parameter of its first place, whose tree says `name` (the walk goes on with it). When a
        parameter at or below that first place is adopted by name, the repetition would not
        be the same tree, and the plan stops there."""
        if pointer in trail:
            return self._again(trail[pointer])
        trail = {**trail, pointer: parameter}
        types, enum = self.view.types(pointer), self.view.string_enum(pointer)
        self.seen.setdefault(parameter, types)
        here = self.adopted.at(parameter)
        tree: dict[str, Any] = {}
        kinds = [k for k in VALUE_KINDS if k in here and applies(k, types, enum)]
        if kinds:
            self.planned.update((parameter, kind) for kind in kinds)
            tree["kinds"] = tuple(kinds)
            tree["types"] = tuple(t for t in _TYPES if t in types)
            if "enum-case" in kinds:
                tree["enum"] = enum
        tree.update(self._object(pointer, parameter, trail))
        items = self.view.items(pointer)
        if items is not None and (below := self.place(items, f"{parameter}[*]", trail)):
            tree["items"] = below
        if parameter in self.repeated:
            return {"name": parameter, **tree} if _repairs_anything(tree) else {}
        return tree

    def _again(self, first: str) -> dict[str, Any]:
        inside = (first, first + ".", first + "[")
        if any(name == first or name.startswith(inside[1:]) for name, _ in self.adopted.parameters):
            return {}
        self.repeated.add(first)
        return {"again": first}

    def _object(self, pointer: str, parameter: str, trail: Mapping[str, str]) -> dict[str, Any]:
        declared = self.view.properties(pointer)
        if not declared:
            return {}
        tree: dict[str, Any] = {}
        closed, required = self.view.closed(pointer), self.view.required(pointer)
        into = [n for n in declared if closed and RENAMED in self.adopted.at(_child(parameter, n))]
        if into:
            self.planned.update((_child(parameter, name), RENAMED) for name in into)
            tree["renames"], tree["into"] = tuple(declared), tuple(into)
        nulls = [
            name
            for name, child in declared.items()
            if NULLS in self.adopted.at(_child(parameter, name))
            and name not in required
            and "null" not in self.view.types(child)
        ]
        if nulls:
            self.planned.update((_child(parameter, name), NULLS) for name in nulls)
            tree["nulls"] = tuple(nulls)
        members = {
            name: self.place(child, _child(parameter, name), trail) for name, child in declared.items()
        }
        members = {name: below for name, below in members.items() if below}
        if members:
            tree["members"] = members
        return tree


def plan_repairs(tool: ToolModule, adopted: ToolAdoption | None) -> dict[str, Any] | None:
    """The tree of the repairs `tool` adopted (module docstring), or None when none applies.
    A kind adopted for a named parameter must apply there: AdoptionError names the parameter
    the declaration does not have, or the kind that can never repair it. (Kinds adopted for
    every parameter apply where they can, silently.)"""
    if adopted is None:
        return None
    planner = _Planner(_View(tool), adopted)
    tree = planner.place("", INPUT, {})
    table = f"tool.toolgen.repairs.parameters.{toml_key(tool.tool)}"
    for parameter, kinds in adopted.parameters:
        if parameter not in planner.seen:
            known = ", ".join(p for p in planner.seen if p != INPUT)
            raise AdoptionError(table, f"{toml_key(parameter)}: {tool.tool} has no such parameter ({known})")
        for kind in kinds:
            if (parameter, kind) not in planner.planned:
                raise AdoptionError(table, f"{toml_key(parameter)}: {_never(kind, planner.seen[parameter])}")
    return tree or None


def _repairs_anything(tree: dict[str, Any]) -> bool:
    """Does a tree plan a repair at some place (a reference to a place above is none)?"""
    if {"kinds", "into", "nulls"} & tree.keys():
        return True
    below = [*tree.get("members", {}).values(), *([tree["items"]] if "items" in tree else [])]
    return any(_repairs_anything(place) for place in below)


def _never(kind: RepairKind, types: frozenset[str]) -> str:
    """Why `kind` can never repair a parameter whose schema admits `types`."""
    if kind == RENAMED:
        return f"{kind} never applies: its object admits undeclared keys, so no key is renamed into it"
    if kind == NULLS:
        return f"{kind} never applies: it is required or admits null"
    if kind == "enum-case":
        return f"{kind} never applies: its schema lists no string enum"
    admitted = ", ".join(t for t in _TYPES if t in types) or "nothing"
    return f"{kind} never applies: its schema admits {admitted}"


_BARE_KEY = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def toml_key(name: str) -> str:
    """A TOML key: bare when TOML allows it, else a basic string."""
    return name if name and set(name) <= _BARE_KEY else toml_string(name)


def toml_string(text: str) -> str:
    """A TOML basic string: every character as it is but those TOML wants escaped."""
    return '"' + "".join(_toml_character(c) for c in text) + '"'


def _toml_character(c: str) -> str:
    if c in '"\\':
        return "\\" + c
    if ord(c) < 0x20 or ord(c) == 0x7F:  # control characters (tab too: a key reads plainly)
        return f"\\u{ord(c):04X}"
    # Everything else as it is: TOML's \u escapes take no surrogate halves, so a character
    # beyond the Basic Multilingual Plane cannot be escaped as JSON would.
    return c
