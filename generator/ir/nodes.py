"""The semantic IR: what one tool's validator must check, and nothing about how.

One `Node` per schema the vocabulary interprets, named by its JSON pointer: its own
keywords (types, const, enum, bounds, object and array keywords) and its group (E4 of
docs/spec/extended.md: itself, its `$ref` target's group, its `allOf` branches' groups) and
choices (`anyOf` / `oneOf`). A bound names its keyword's spec (generator/front/vocabulary.py),
which names the macro pair that writes it. No message text (a bound's line is its spec's to
word), no generated names and no render strategy live here: wording is in
`templates/_support.py`, names and the code's form in `generator/plan/fast.py` and
`generator/plan/collector.py` (docs/how-it-works.md, "The IR is semantic").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..front.errors import NotEnforced
from ..front.vocabulary import SUBSET, CombinatorKeyword, Keyword, Vocabulary


@dataclass(frozen=True)
class Bound:
    """One bound of a schema (a step-3 keyword of its vocabulary), in E4 step 3's order."""

    spec: Keyword  # everything about the keyword (generator/front/vocabulary.py)
    value: Any
    python: str | None = None  # an enforced `pattern` in Python `re` spelling (patterns.py)

    @property
    def text(self) -> str:
        """The line after "is invalid: " when the value breaks it."""
        return self.spec.text(self.value) if self.spec.text is not None else ""


@dataclass(frozen=True)
class Choice:
    """One `anyOf` / `oneOf` (E5): its branches (schema pointers) and what E5 reads from them."""

    keyword: CombinatorKeyword
    branches: tuple[str, ...]
    names: tuple[str, ...]  # declared by any branch, at any depth
    tag: str | None  # discriminator property (E5 rule 2)
    tags: tuple[Any, ...]
    accepts: tuple[tuple[str, ...] | None, ...]  # Ti per branch (E5 rule 3)


@dataclass(frozen=True)
class Node:
    """One schema its vocabulary interprets, named by its JSON pointer from `parameters`."""

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
    content: str = ""  # the schema's own JSON text: equal content, equal code (generator/plan/collector.py)
    content_resolved: str = ""  # the same without its anyOf / oneOf
    # Its `title` when a string: the name a schema gives itself, which names a combinator
    # branch's code (generator/ir/names.py, branch_word); an annotation, never checked.
    title: str = ""


@dataclass(frozen=True)
class ToolModule:
    """One tool: its nodes (the root is pointer "") and what is not enforced."""

    tool: str
    module: str
    nodes: tuple[Node, ...]
    not_enforced: tuple[NotEnforced, ...]
    unchecked: tuple[str, ...]
    recursive: tuple[str, ...]  # pointers of groups reached recursively (a tree, a list)
    vocabulary: Vocabulary = SUBSET
