"""Helpers shared by the reliability tests: declaration files, throw-away packages, snapshots."""

from __future__ import annotations

import importlib
import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, settings

from generator.build import build
from generator.cli import main
from generator.write import write_locked

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "tool_schemas"

# Reproducible in CI: no example database, the same examples on every run.
PROFILE = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


def declaration(name: str, parameters: Any = None, description: str = "A tool.") -> dict[str, Any]:
    function: dict[str, Any] = {"name": name, "description": description}
    if parameters is not None:
        function["parameters"] = parameters
    return {"type": "function", "function": function}


def write_schemas(folder: Path, declarations: list[dict[str, Any]]) -> Path:
    """One file per declaration, named by position so that file order is declaration order."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, item in enumerate(declarations):
        (folder / f"t{i:04d}.json").write_text(json.dumps(item, indent=1), "utf-8")
    return folder


def generate_into(schemas: Path, out: Path) -> None:
    """The whole pipeline, in process: build in memory, then write under the lock."""
    write_locked(out, build(schemas).files)


_packages = 0


@contextmanager
def imported(out: Path) -> Iterator[ModuleType]:
    """Import a generated package from its folder, then forget it (and every module under it)."""
    sys.path.insert(0, str(out.parent))
    try:
        package = importlib.import_module(out.name)
        yield package
    finally:
        sys.path.remove(str(out.parent))
        for name in [n for n in sys.modules if n == out.name or n.startswith(out.name + ".")]:
            del sys.modules[name]


def fresh_package_dir(tmp: Path) -> Path:
    """A folder whose name is a package name never imported before in this process."""
    global _packages
    _packages += 1
    return tmp / f"pkg_{os.getpid()}_{_packages}"


def build_package(tmp: Path, declarations: list[dict[str, Any]]) -> Path:
    """Write the declarations and generate a package under a never-imported name; its folder."""
    out = fresh_package_dir(tmp)
    generate_into(write_schemas(tmp / f"{out.name}_schemas", declarations), out)
    return out


@contextmanager
def package_for(tmp: Path, declarations: list[dict[str, Any]]) -> Iterator[ModuleType]:
    with imported(build_package(tmp, declarations)) as package:
        yield package


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under a folder (relative name -> bytes); symlinks as their target text."""
    result: dict[str, bytes] = {}
    if not folder.exists():
        return result
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            result[name] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            result[name] = path.read_bytes()
    return result


def invoke(cwd: Path, *args: str) -> Result:
    """The command line in this process (fast: black is imported once), run from `cwd`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        return CliRunner().invoke(main, ["generate", *args])


def run_toolgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real command line in a child process, with this worktree's generator on the path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "generator", "generate", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def same_value(a: Any, b: Any) -> bool:
    """Structural equality that also compares exact types and treats NaN as equal to NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, (set, frozenset)):  # a copied NaN is another object, and NaN != NaN
        return sorted(map(repr, a)) == sorted(map(repr, b))
    return bool(a == b)
