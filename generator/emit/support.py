"""Where the templates are, and `templates/_support.py` loaded as a module, without jinja2:
the reading commands (audit, explain) take the message wording and the failure sink's event
name from it, and should not import the compiler to do so."""

from __future__ import annotations

import functools
import importlib.resources
import importlib.util
from pathlib import Path
from types import ModuleType

# The templates are package data of the compiler's top package, whatever it is imported as:
# `toolgen` installed, `generator` in this repository (generator/templates links to templates/).
_TOP = __name__.partition(".")[0]
TEMPLATES = Path(str(importlib.resources.files(_TOP).joinpath("templates")))
SUPPORT = TEMPLATES / "_support.py"
REPAIR = TEMPLATES / "_repair.py"  # the adopted repairs' routines, copied only where adopted


def support_module() -> ModuleType:
    """`templates/_support.py` itself, loaded from its path (never the generated package)."""
    return _loaded(SUPPORT)


def repair_module() -> ModuleType:
    """`templates/_repair.py` itself, loaded from its path: `audit --suggest` tries the repair
    kinds with the very functions a package's `repair()` applies."""
    return _loaded(REPAIR)


@functools.cache
def _loaded(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("_toolgen" + path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
