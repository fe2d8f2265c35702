"""The intermediate representation: what one tool's validator must check, nothing about syntax.

Lowering (generator/lower.py) builds these frozen dataclasses; every node names the template
macro that renders it, and templates only place the values computed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

# How a node is rendered at the place its value is reached:
# "none": nothing to check; "inline": type/enum checks written in place;
# "call": its own pair of functions (_fast_N, _visit_N), which keeps nesting flat
# however deep the schema goes (Python allows only 20 nested blocks).
Macro = Literal["none", "inline", "call"]

# What happens to keys an object schema does not declare (spec section 2).
Extra = Literal["forbid", "allow", "check", "unchecked"]


@dataclass(frozen=True)
class TypeRule:
    declared: tuple[str, ...]  # as written, for the message
    expected: str  # "string | null"
    simple: tuple[str, ...]  # JSON type names accepted as they are (number covers integer)
    integer: bool  # integer accepted without number: floats must be integral


@dataclass(frozen=True)
class EnumRule:
    const: str  # module-level constant prefix, e.g. "_ENUM_3"
    strings: tuple[str, ...]
    numbers: tuple[int | float, ...]
    true: bool
    false: bool
    null: bool
    containers: tuple[Any, ...]  # arrays and objects, compared with json_equal
    text: str  # 'expected one of ...' lists these, compact JSON joined by ", "


@dataclass(frozen=True)
class Lines:
    """The message lines of a member whose path is known at build time (a top-level one).

    Spelled out by lowering so that a failing call at the root costs no string building.
    """

    const: str  # module-level constant prefix, e.g. "_L_3"
    path: str
    type_head: str  # a "type" issue's line up to the provided type name
    invalid: str  # the whole line of an "invalid" issue ("" without an enum)


@dataclass(frozen=True)
class Prop:
    name: str
    node: Node
    required: bool
    lines: Lines | None = None  # at the root only
    # Required, and its fast check rejects None: one `.get` both finds and fetches it.
    fast_get: bool = False
    # The fast check is one exact-type test on the value, spelled without a variable: the
    # Python type's name, "" for a number (int or float); None when it takes more.
    exact: str | None = None


@dataclass(frozen=True)
class ObjectRule:
    id: int  # the id of the node it belongs to
    checks: bool  # False for a free-form map: nothing beyond the value's type to check
    required: tuple[str, ...]  # declared order: the order of "missing" issues
    required_only: tuple[str, ...]  # required names that have no property schema
    properties: tuple[Prop, ...]
    optional_count: int  # properties not required: the fast path counts the ones present
    extra: Extra
    extra_node: Node | None  # the additionalProperties schema when extra == "check"
    keys_const: str  # frozenset of declared names, e.g. "_KEYS_0"
    keys: tuple[str, ...]  # declared names: properties then required-only, first mention wins
    missing_lines: tuple[str, ...] = ()  # at the root: the "missing" line of each required name
    # Non-empty: the fast path checks the object in one pass over its keys, with this map of
    # member -> exact Python type names (see lower._scan_types); no per-member lookups.
    scan: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Undeclared keys forbidden and exactly one optional member: the fast path checks the
    # size in that member's two branches instead of counting the members present.
    lone_optional: bool = False
    # Undeclared keys forbidden, every member required and checked by one exact-type test
    # (a string one may carry an enum): the whole fast path is one condition, as a hand
    # writer would put it. Each entry: (member, Python type or "" for a number, enum const).
    flat: tuple[tuple[str, str, str], ...] | None = None


@dataclass(frozen=True)
class Node:
    id: int
    pointer: str
    macro: Macro
    types: TypeRule | None
    enum: EnumRule | None
    obj: ObjectRule | None
    items: Node | None
    # A plain array (of strings, of objects...): the fast path loops over it in place
    # instead of calling a function per array.
    inline_array: bool = False


@dataclass(frozen=True)
class NotEnforced:
    pointer: str
    keywords: tuple[str, ...]


@dataclass(frozen=True)
class ToolModule:
    """Everything the module template needs for one tool."""

    tool: str
    module: str  # Python module name inside the generated package
    source_file: str
    sha256: str
    root: ObjectRule
    functions: tuple[Node, ...]  # nodes rendered as functions, in preorder
    enums: tuple[EnumRule, ...]
    objects: tuple[ObjectRule, ...]  # every object rule, for its key-set constant
    not_enforced: tuple[NotEnforced, ...]
    unchecked: tuple[str, ...]  # pointers of objects whose undeclared keys go unchecked
