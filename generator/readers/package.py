"""Import a generated package from its folder, under a private name, for the inspecting commands.

The package is relocatable (relative imports only), so any import name works; a fresh
private name per load means a package regenerated in the same folder is never served from
a stale module cache, and an installed `generated` is never shadowed or confused with it.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType
from typing import Protocol, cast

_LOADS = itertools.count()


class IssueLike(Protocol):
    """What the commands read of a generated package's `Issue`."""

    @property
    def kind(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def line(self) -> str: ...


class Package(Protocol):
    """The interface of docs/spec/validation.md §8 that the commands use."""

    TOOL_NAMES: frozenset[str]

    def validate(self, tool_name: str, args: object) -> str | None: ...
    def issues(self, tool_name: str, args: object) -> tuple[IssueLike, ...]: ...


class PackageError(Exception):
    """The folder holds no importable generated package."""


class NoPackage(PackageError):
    """The folder holds no package at all; what to do depends on where (generator/cli/commands.py)."""


def import_package(folder: Path) -> Package:
    init = folder / "__init__.py"
    if not init.is_file():
        raise NoPackage(f"{folder.as_posix()}: no generated package here")
    name = f"_toolgen_package_{next(_LOADS)}"
    # An absolute location, and fresh finder caches: the same folder name may mean another
    # folder after a change of directory, and a module may have been generated a moment ago.
    importlib.invalidate_caches()
    location = folder.resolve()
    spec = importlib.util.spec_from_file_location(
        name, location / "__init__.py", submodule_search_locations=[str(location)]
    )
    if spec is None or spec.loader is None:
        raise PackageError(f"{folder.as_posix()}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise PackageError(f"{folder.as_posix()}: import failed: {type(exc).__name__}: {exc}") from exc
    return cast(Package, _checked(module, folder))


def support_of(package: Package) -> ModuleType | None:
    """The package's own `_support` module (loaded with it), for the names it defines."""
    return sys.modules.get(getattr(package, "__name__", "") + "._support")


def _checked(module: ModuleType, folder: Path) -> ModuleType:
    for attribute in ("TOOL_NAMES", "validate", "issues"):
        if not hasattr(module, attribute):
            raise PackageError(f"{folder.as_posix()}: not a toolgen package (no {attribute})")
    return module
