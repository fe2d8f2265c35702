"""Stage 4: format rendered source with black (mode pinned here) and prove it parses."""

from __future__ import annotations

import ast

import black
from black.mode import TargetVersion

# Pinned in code so that output never depends on a reader's black configuration.
MODE = black.Mode(
    target_versions={TargetVersion.PY310},
    line_length=88,
    string_normalization=True,
    is_pyi=False,
    magic_trailing_comma=True,
    preview=False,
)


class RenderError(Exception):
    """Generated source that does not parse: a bug in toolgen, never in a declaration."""


def format_source(name: str, source: str) -> str:
    try:
        ast.parse(source, filename=name)
    except SyntaxError as exc:
        raise RenderError(f"{name}: rendered code does not parse: {exc}") from exc
    formatted = black.format_str(source, mode=MODE)
    ast.parse(formatted, filename=name)
    return formatted
