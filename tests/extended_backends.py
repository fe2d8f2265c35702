"""Who answers the tests: the backend indirection.

The extended-mode spec tests (tests/test_extended_spec.py), the differential and the
conformance suites (tests/test_differential.py, tests/test_conformance.py) ask a `Backend`
for the message and the issues of a call. A backend is built once per session from the
tests' own declarations (tool name -> `parameters`):

    backend = make_backend(kind, tmp_path_factory, "spec_ext", lambda: TOOLS)
    backend.message(tool, args) -> str | None
    backend.issues(tool, args) -> [(kind, path, line), ...]

BACKENDS lists the kinds the extended-mode tests run against: "reference" (tests/reference.py
in a vocabulary, EXTENDED unless told) and "generated" (the declarations generated into a
throw-away package with `--keywords extended`, tests/genpkg.py conventions, one build per
session under xdist). GENERATE says how each keyword mode's package is written.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

import pytest

from tests import reference
from tests.genpkg import ROOT, generate, shared_package
from tests.reference import EXTENDED, Vocabulary

Tools = Mapping[str, Any]
Found = list[tuple[str, str, str]]


class Backend(Protocol):
    kind: str

    def message(self, tool: str, args: Any) -> str | None: ...

    def issues(self, tool: str, args: Any) -> Found: ...


class ReferenceBackend:
    """tests/reference.py over the declarations themselves."""

    kind = "reference"

    def __init__(self, tools: Tools, vocabulary: Vocabulary = EXTENDED) -> None:
        self.tools = dict(tools)
        self.vocabulary = vocabulary

    def message(self, tool: str, args: Any) -> str | None:
        return reference.message(tool, self.tools[tool], args, self.vocabulary)

    def issues(self, tool: str, args: Any) -> Found:
        return reference.issues(self.tools[tool], args, self.vocabulary)


class PackageBackend:
    """Any generated package: its `validate` and its structured `issues` (docs/spec/validation.md §8)."""

    def __init__(self, package: ModuleType, kind: str) -> None:
        self.package = package
        self.kind = kind

    def message(self, tool: str, args: Any) -> str | None:
        found: str | None = self.package.validate(tool, args)
        return found

    def issues(self, tool: str, args: Any) -> Found:
        return [(kind, path, line) for kind, path, line in self.package.issues(tool, args)]


def package_backend(package: ModuleType, kind: str = "generated") -> PackageBackend:
    return PackageBackend(package, kind)


def generate_extended(schemas: Path, out: Path) -> None:
    """`python -m generator generate --keywords extended` (E1), the product's own command line."""
    command = [sys.executable, "-m", "generator", "generate", "--keywords", "extended"]
    subprocess.run([*command, "--schemas", str(schemas), "--out", str(out)], cwd=ROOT, check=True)


# How each keyword mode's package is written: subset in process, extended through the CLI.
GENERATE: dict[str, Callable[[Path, Path], None]] = {"subset": generate, "extended": generate_extended}


def generated_backend(factory: pytest.TempPathFactory, name: str, make_tools: Callable[[], Tools]) -> Backend:
    """The generated package in extended mode. Not in BACKENDS until E1's flag exists."""
    package = shared_package(factory, name, make_tools, generate_with=generate_extended)
    assert package.KEYWORDS == "extended"
    return package_backend(package)


def reference_backend(factory: pytest.TempPathFactory, name: str, make_tools: Callable[[], Tools]) -> Backend:
    return ReferenceBackend(make_tools())


BUILDERS: dict[str, Callable[[pytest.TempPathFactory, str, Callable[[], Tools]], Backend]] = {
    "reference": reference_backend,
    "generated": generated_backend,
}
# The kinds every extended-mode test runs against. Add "generated" here (see the docstring).
BACKENDS: tuple[str, ...] = ("reference", "generated")


def make_backend(
    kind: str, factory: pytest.TempPathFactory, name: str, make_tools: Callable[[], Tools]
) -> Backend:
    """Backend `kind` for these declarations; `name` names a generated package (unique per file)."""
    return BUILDERS[kind](factory, f"{name}_{kind}", make_tools)
