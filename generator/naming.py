"""Module names for tools: readable, valid identifiers, and never colliding."""

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
