"""Generate purpose-built declarations into a throw-away package and import it.

Tests that need validators for schemas of their own write declarations to a folder, run the
real pipeline (`generator.package.build.build`, then `generator.package.write.write_locked`) and import the
result under the output folder's own name, exactly as a user of the package would.
"""

from __future__ import annotations

import dataclasses
import fcntl
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from generator.package.build import build
from generator.package.write import AfterWrite, Plan, Staging

ROOT = Path(__file__).resolve().parent.parent


def declaration(name: str, parameters: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": "test", "parameters": parameters}}


def write_declarations(folder: Path, tools: Mapping[str, Any]) -> None:
    """One declaration file per tool, named by position so file order is declaration order."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, (name, parameters) in enumerate(tools.items()):
        text = json.dumps(declaration(name, parameters), ensure_ascii=False, indent=1)
        (folder / f"t{i:04d}.json").write_text(text, "utf-8")


def write_locked(out: Path, files: dict[str, str], after_write: AfterWrite | None = None) -> Plan:
    """Write a build's files as `toolgen generate` does: staged, then committed, under the
    folder's exclusive lock."""
    staging = Staging(out, write=True, after_write=after_write)
    staging.begin()
    try:
        for name, content in sorted(files.items()):
            staging.put(name, content)
    except BaseException:
        staging.abort()
        raise
    return staging.commit()


def plan(out: Path, files: dict[str, str]) -> Plan:
    """What writing a build's files would change (`toolgen generate --check`'s comparison)."""
    staging = Staging(out, write=False)
    for name, content in sorted(files.items()):
        staging.put(name, content)
    return dataclasses.replace(staging.plan(), files=files)


def generate(schemas: Path, out: Path) -> None:
    write_locked(out, build(schemas).files)


def import_package(out: Path) -> ModuleType:
    """Import the generated folder under its own name (which must be unique in this process)."""
    name = out.name
    spec = importlib.util.spec_from_file_location(
        name, out / "__init__.py", submodule_search_locations=[str(out)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def package_for(tmp: Path, name: str, tools: Mapping[str, Any]) -> ModuleType:
    """Declarations -> generated package `name` under `tmp` -> the imported package."""
    write_declarations(tmp / f"{name}_schemas", tools)
    generate(tmp / f"{name}_schemas", tmp / name)
    return import_package(tmp / name)


def user_package(tmp: Path, stem: str, tools: Mapping[str, Any]) -> Iterator[ModuleType]:
    """package_for under a name unique to `tmp` (a user's own package, for a fixture to yield),
    taken out of sys.modules again afterwards."""
    name = f"{stem}_{id(tmp)}"
    yield package_for(tmp, name, tools)
    for module in [n for n in sys.modules if n == name or n.startswith(name + ".")]:
        del sys.modules[module]


def shared_package(
    factory: pytest.TempPathFactory,
    name: str,
    make_tools: Callable[[], Mapping[str, Any]],
    generate_with: Callable[[Path, Path], None] = generate,
) -> ModuleType:
    """Like package_for, but built once per test session even when xdist runs several workers.

    Workers share the parent of their base temp folder; the first one to take the lock
    generates, the others import what it wrote. `make_tools` must be deterministic.
    `generate_with(schemas, out)` writes the package (default: the subset-mode pipeline).
    """
    base = factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    done = shared / f"{name}.done"
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            write_declarations(shared / f"{name}_schemas", make_tools())
            generate_with(shared / f"{name}_schemas", shared / name)
            done.touch()
    return import_package(shared / name)


# The lint every generated module passes (the developers' guide: generated modules are
# lint-clean), whatever the declarations.
GENERATED_LINT = "F,ARG,SIM,RET,PIE,C4,B"


def lint_findings(folder: Path) -> str:
    """ruff's findings on a generated package's modules ("" when it is clean)."""
    command = [sys.executable, "-m", "ruff", "check", "--isolated", "--select", GENERATED_LINT, str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    return "" if done.returncode == 0 else done.stdout[-3000:] or done.stderr[-3000:]
