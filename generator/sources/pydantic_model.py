"""A pydantic `BaseModel` subclass: one tool named after the class, its docstring as the
description, `model_json_schema()` as the input schema."""

from __future__ import annotations

import inspect
from typing import Any

from .tool import ImportedTool


def tools(model: Any, source: str) -> list[ImportedTool]:
    # The class's own docstring only: inspect.getdoc would inherit BaseModel's.
    doc = model.__dict__.get("__doc__")
    description = inspect.cleandoc(doc) if isinstance(doc, str) else None
    return [ImportedTool(model.__name__, description, model.model_json_schema(), source)]
