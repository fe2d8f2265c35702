"""`module.path:attribute` to the object it names, imported as uvicorn and gunicorn import
`module:app`: with the project root first on sys.path."""

from __future__ import annotations

import importlib
import sys
import sysconfig
import traceback
from pathlib import Path
from typing import Any

from .tool import SourceError


def split(source: str) -> tuple[str, str]:
    """`pkg.tools:server` -> ("pkg.tools", "server"); SourceError for any other spelling."""
    module, colon, attribute = source.partition(":")
    names = module.split(".")
    if not colon or not all(n.isidentifier() for n in names) or not attribute:
        raise SourceError(source, "expected module.path:attribute (e.g. pkg.tools:server)")
    if not all(part.isidentifier() for part in attribute.split(".")):
        raise SourceError(source, f"{attribute!r} is not an attribute name")
    return module, attribute


def resolve(source: str, root: Path) -> Any:
    """The object a source names (its module imported afresh unless it is installed)."""
    module_name, attribute = split(source)
    folder = str(root.resolve())
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        _forget_project_modules(module_name)
        importlib.invalidate_caches()
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:  # the user's code may raise anything while importing
            raise SourceError(source, f"cannot import {module_name}: {_exception(exc)}") from None
    finally:
        if added:
            sys.path.remove(folder)
    found: Any = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            where = module_name if found is module else f"{module_name}:{attribute}"
            raise SourceError(source, f"{where} has no attribute {part!r}")
        found = getattr(found, part)
    return found


def _forget_project_modules(module_name: str) -> None:
    """Drop the named module and its parent packages from sys.modules unless they are
    installed packages (or the standard library), so a second import in one process reads
    the code as it is now, from the project it is run in."""
    installed = {Path(sysconfig.get_path(key)).resolve() for key in ("purelib", "platlib", "stdlib")}
    parts = module_name.split(".")
    for depth in range(len(parts), 0, -1):
        name = ".".join(parts[:depth])
        file = getattr(sys.modules.get(name), "__file__", None)
        if file and not installed & set(Path(file).resolve().parents):
            del sys.modules[name]


def _exception(exc: BaseException) -> str:
    """`ModuleNotFoundError: No module named 'x'`: the exception as Python's last line says it."""
    return traceback.format_exception_only(type(exc), exc)[-1].strip()


def not_generated(reason: str, root: Path, out: Path) -> str | None:
    """Why importing the code failed, when it failed on the package `toolgen generate` writes
    into `out` before its first generate (a server module that imports its own validators):
    that package's name, else None. Read from the message (the import's own, or a `--stdio`
    server's stderr), which names the module Python could not find."""
    if (out / "__init__.py").exists():
        return None
    try:
        parts = out.resolve().relative_to(root.resolve()).parts
    except ValueError:
        return None
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    package = ".".join(parts)
    parent, _, last = package.rpartition(".")
    missing = f"No module named '{package}'" in reason or f"No module named '{package}." in reason
    if missing or (parent and f"cannot import name '{last}' from '{parent}'" in reason):
        return package
    return None
