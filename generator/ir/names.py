"""Names from JSON names: module names for tools, and the words of generated identifiers."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from itertools import pairwise

from ..front.schema_graph import tokens as pointer_tokens
from .nodes import Choice, Node

_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_MAX_SLUG = 40


def module_name(tool: str) -> str:
    """`TaskUpdate` -> `task_update_<8 hex>`.

    The suffix is the start of the sha256 of the exact tool name, so names differing only in
    case or punctuation get different modules (also on case-insensitive file systems), and a
    module's name never depends on which other tools exist.
    """
    ascii_name = unicodedata.normalize("NFKD", tool).encode("ascii", "ignore").decode("ascii")
    slug = "_".join(w.lower() for w in _WORDS.findall(ascii_name))[:_MAX_SLUG].strip("_")
    if not slug or not slug[0].isalpha():
        slug = f"tool_{slug}".rstrip("_")
    digest = hashlib.sha256(tool.encode("utf-8")).hexdigest()[:8]
    return f"{slug}_{digest}"


def identifier(text: str) -> str:
    """A JSON name as the words of a Python identifier: `addBlocks` -> `add_blocks`.

    Never empty, never starting with a digit; only [a-z0-9_]. Two names may give the same
    identifier: the planner adds a collision suffix (`_2`, `numbered` below) to the later one.
    """
    ascii_name = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = "_".join(w.lower() for w in _WORDS.findall(ascii_name))[:_MAX_SLUG].strip("_")
    if not words:
        return "member"
    return words if words[0].isalpha() else f"n{words}"


def numbered(base: str, taken: set[str], suffix: str = "") -> str:
    """`base`, else `base_2`, `base_3`... (each then `suffix`): the first not in `taken`, which
    takes it."""
    candidate, n = base + suffix, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}_{n}{suffix}"
    taken.add(candidate)
    return candidate


_KEYWORD_TOKENS = frozenset(
    {"properties", "items", "additionalProperties", "$defs", "definitions", "allOf", "anyOf", "oneOf"}
)


def json_name(pointer: str) -> str:
    """The JSON name a schema is reached by: the last token of its pointer that is a name
    (`/$defs/OrderItem/properties/sku` -> `sku`, `/$defs/OrderItem` -> `OrderItem`)."""
    for before, token in reversed(list(pairwise(["", *pointer_tokens(pointer)]))):
        keyword = token in _KEYWORD_TOKENS and before not in ("properties", "$defs", "definitions")
        if not keyword and not (token.isdigit() and before in ("allOf", "anyOf", "oneOf")):
            return token
    return "value"


def declaring_word(group: tuple[str, ...], site: str) -> str:
    """The word of a group's code: where its content is declared, never who reaches it first.

    `group[0]` is the schema at the place of use, reached as `site` (a property's name,
    `<parent>_item`); a member outside it is a `$ref` target (the group lists in-place
    `allOf` branches under their own schema), and its name (a `$defs` entry's, `args` for
    the root) is the word for every place that refers to it, so `items` and `backorder`
    both reach `OrderItem`'s visit as `order_item`. With no target, the site declares it.
    A recursive group always has a target, so the words of its descents never grow.
    """
    for member in group[1:]:
        if not member.startswith(group[0] + "/"):
            return json_name(member) if member else "args"
    return site


def branch_word(choice: Choice, index: int, nodes: Mapping[str, Node]) -> str:
    """The word of a combinator branch's code, from the branch's own identity, never its
    position: its `title`, else its discriminator's value (`circle`), else its `$ref`
    target's name (`Circle`), else the JSON types it admits (`string`, `null`; `any`).

    Two branches that give one word are told apart by the collision suffix, as any name."""
    branch = choice.branches[index]
    if title := nodes[branch].title:
        return title
    tag = choice.tags[index] if choice.tag is not None else None
    if isinstance(tag, str):
        return tag
    target = declaring_word(nodes[branch].group, "") if nodes[branch].group else ""
    if target:
        return target
    accepts = choice.accepts[index]
    return "_".join(accepts) if accepts is not None else "any"


def branch_words(choice: Choice, nodes: Mapping[str, Node]) -> list[str]:
    """Each branch's word (`branch_word`), in branch order."""
    return [branch_word(choice, i, nodes) for i in range(len(choice.branches))]
