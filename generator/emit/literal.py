"""Values from a declaration as Python literals: the renderer's `py` and `pyml` filters
(generator/emit/render.py) and the headers' source names (generator/emit/header.py). A module
of its own so that the writer, which reads and writes headers, never imports the renderer or
the planner behind it."""

from __future__ import annotations

import math
from typing import Any


def py_literal(value: Any, trailing: bool = False) -> str:
    """The only way user-supplied values reach generated code: as Python literals via repr.

    With `trailing`, every container of two or more elements ends with a comma, so black
    writes one element a line and a new element is a one-line diff (the `pyml` filter).
    """
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"non-finite number {value!r} cannot be a JSON literal")
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    if isinstance(value, (tuple, list, dict)):
        if isinstance(value, dict):
            parts = [f"{py_literal(k)}: {py_literal(v, trailing)}" for k, v in value.items()]
        else:
            parts = [py_literal(v, trailing) for v in value]
        inner = ", ".join(parts) + ("," if trailing and len(parts) > 1 else "")
        if isinstance(value, list):
            return f"[{inner}]"
        if isinstance(value, dict):
            return "{" + inner + "}"
        return f"({inner},)" if len(parts) == 1 else f"({inner})"
    raise TypeError(f"no Python literal for {type(value).__name__}")
