"""Names from JSON names: module names for tools, and the words of generated identifiers."""

from __future__ import annotations

import hashlib
import re
import unicodedata

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
