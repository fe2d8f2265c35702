"""The semantic IR: what one tool's validator must check, and nothing about how.

A `Schema` is the ordered tuple of checks that apply to one value, in the order of spec
section 5 (type, enum, object, array). Each check is a frozen dataclass of a small closed
union, and names the macro of `templates/checks.j2` that renders it (`macro`): adding a
keyword is adding one check class here, one branch in `generator/lower.py` and one macro
pair there. No message text, no generated names, no render strategy lives here: wording is
in `templates/_support.py`, names and the fast-path form in `generator/plan.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from generator.vocabulary import EXTENDED, Keyword, Vocabulary

# What happens to the keys an object schema does not declare (spec section 2).
# "keys": additionalProperties is a schema that constrains no value, yet a key that is not a str
# is unexpected (spec section 3).
Extra = Literal["forbid", "allow", "check", "keys", "unchecked"]


@dataclass(frozen=True)
class TypeCheck:
    """`type`: the value's JSON type is one of `names` (declared order, for the message)."""

    macro: ClassVar[str] = "type"
    names: tuple[str, ...]


@dataclass(frozen=True)
class EnumCheck:
    """`enum`: the value is JSON-equal to one of `members` (as declared, duplicates kept)."""

    macro: ClassVar[str] = "enum"
    members: tuple[Any, ...]


@dataclass(frozen=True)
class Member:
    """One declared name of an object: `properties` (with its schema) or `required` only."""

    name: str
    schema: Schema  # Schema(()) for a name listed in `required` alone
    required: bool


@dataclass(frozen=True)
class ObjectCheck:
    """The object keywords, applied when the value is a dict (spec section 5, step 3)."""

    macro: ClassVar[str] = "object"
    members: tuple[Member, ...]  # properties in declared order, then required-only names
    required: tuple[str, ...]  # declared order: the order of "missing" issues
    extra: Extra
    extra_schema: Schema | None  # the additionalProperties schema when extra == "check"

    @property
    def properties(self) -> tuple[Member, ...]:
        """The members whose value has something to check."""
        return tuple(m for m in self.members if m.schema.checks)

    @property
    def optional(self) -> tuple[Member, ...]:
        return tuple(m for m in self.members if not m.required)


@dataclass(frozen=True)
class ArrayCheck:
    """`items`: every element is visited against `items` (spec section 5, step 4)."""

    macro: ClassVar[str] = "array"
    items: Schema


Check = TypeCheck | EnumCheck | ObjectCheck | ArrayCheck


@dataclass(frozen=True)
class Schema:
    """The checks applied to one value. Equal content, equal schema: helpers are shared."""

    checks: tuple[Check, ...]

    def find(self, kind: type[Any]) -> Any:
        """The check of that class, or None."""
        return next((c for c in self.checks if isinstance(c, kind)), None)


@dataclass(frozen=True)
class NotEnforced:
    pointer: str
    keywords: tuple[str, ...]


@dataclass(frozen=True)
class ToolModule:
    """One tool: its semantic IR and what its docstring says; no generated names."""

    tool: str
    module: str  # Python module name inside the generated package
    source_file: str  # relative to the project root
    sha256: str
    root: Schema  # always holds an ObjectCheck
    not_enforced: tuple[NotEnforced, ...]
    unchecked: tuple[str, ...]  # pointers of objects whose undeclared keys go unchecked

    @property
    def root_object(self) -> ObjectCheck:
        found = self.root.find(ObjectCheck)
        assert isinstance(found, ObjectCheck)
        return found


# ---------- extended mode (extended.md): one node per interpreted schema ----------


@dataclass(frozen=True)
class Bound:
    """One bound of a schema (a step-3 keyword of its vocabulary), in E4 step 3's order.

    `spec` says everything about the keyword (generator/vocabulary.py); `python` is the
    Python `re` spelling of an enforced `pattern` (generator/patterns.py)."""

    spec: Keyword
    value: Any
    python: str | None = None

    @property
    def keyword(self) -> str:
        return self.spec.name

    @property
    def text(self) -> str:
        """The line after "is invalid: " when the value breaks it."""
        return self.spec.line(self.value)


@dataclass(frozen=True)
class Choice:
    """One `anyOf` / `oneOf` (E5): its branches (schema pointers) and what E5 reads from them."""

    keyword: str
    branches: tuple[str, ...]
    names: tuple[str, ...]  # declared by any branch, at any depth
    tag: str | None  # discriminator property (E5 rule 2)
    tags: tuple[Any, ...]
    accepts: tuple[tuple[str, ...] | None, ...]  # Ti per branch (E5 rule 3)


@dataclass(frozen=True)
class Node:
    """One schema extended mode interprets, named by its JSON pointer from `parameters`."""

    pointer: str
    types: tuple[str, ...] | None
    const: tuple[Any, ...]  # () or (the const value,)
    enum: tuple[Any, ...] | None
    bounds: tuple[Bound, ...]
    required: tuple[str, ...]
    properties: tuple[tuple[str, str], ...]  # name -> subschema pointer, declared order
    extra: bool | str | None  # additionalProperties: absent, true/false, or a schema pointer
    items: str | None
    open: bool  # carries an open keyword (E2)
    object_like: bool
    group: tuple[str, ...]  # E4: itself, its $ref target's group, its allOf branches' groups
    choices: tuple[Choice, ...]  # its own anyOf then oneOf
    content: str = ""  # the schema's own JSON text: equal content, equal code (generator/collector.py)
    content_resolved: str = ""  # the same without its anyOf / oneOf


@dataclass(frozen=True)
class ExtendedTool:
    """One tool in extended mode: its nodes (the root is pointer "") and what is not enforced."""

    tool: str
    module: str
    source_file: str
    sha256: str
    nodes: tuple[Node, ...]
    not_enforced: tuple[NotEnforced, ...]
    unchecked: tuple[str, ...]
    recursive: tuple[str, ...]  # pointers of groups reached recursively (a tree, a list)
    vocabulary: Vocabulary = EXTENDED

    def node(self, pointer: str) -> Node:
        return next(n for n in self.nodes if n.pointer == pointer)
