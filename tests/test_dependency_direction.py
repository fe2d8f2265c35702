"""The dependency direction (issue 9.5): the generator imports neither runtime/ nor the package it
generates, so `generate` rebuilds a broken or missing output package; runtime/ imports lazily."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def python(code: str, cwd: Path = ROOT) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_no_generator_module_imports_runtime_or_generated() -> None:
    generator = ROOT / "generator"
    modules = sorted(
        ".".join(("generator", *p.relative_to(generator).with_suffix("").parts)).removesuffix(".__init__")
        for p in generator.rglob("*.py")
        if p.name != "__main__.py" and "templates" not in p.relative_to(generator).parts
    )
    assert "generator.readers.explain" in modules and "generator.sources.stdio" in modules
    code = (
        "import sys\n"
        f"for m in {modules!r}: __import__(m)\n"
        "print(sorted(n for n in sys.modules if n.split('.')[0] in ('runtime', 'generated')))\n"
    )
    assert python(code) == "[]"


def test_importing_runtime_does_not_import_the_generated_package() -> None:
    # The runtime works with the package the user passes (issue 20), never one of its own.
    code = (
        "import sys, runtime\n"
        "print('generated' in sys.modules)\n"
        "runtime.ToolExecutor, runtime.check_call\n"
        "print('generated' in sys.modules)\n"
    )
    assert python(code).splitlines() == ["False", "False"]


@pytest.mark.parametrize("damage", ["syntax error in _support", "no __init__", "no package"])
def test_generate_rebuilds_a_broken_or_missing_package(tmp_path: Path, damage: str) -> None:
    shutil.copytree(ROOT / "tool_schemas", tmp_path / "tool_schemas")
    # The headers name the project's own regenerate command: `make generate`, as here.
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    shutil.copytree(
        ROOT / "generated", tmp_path / "generated", ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    package = tmp_path / "generated"
    if damage == "syntax error in _support":
        support = package / "_support.py"
        support.write_text(support.read_text("utf-8") + "\ndef (:\n", "utf-8")
    elif damage == "no __init__":
        (package / "__init__.py").unlink()
    else:
        shutil.rmtree(package)
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    command = [sys.executable, "-m", "generator", "generate"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    for path in sorted((ROOT / "generated").glob("*.py")):
        assert (package / path.name).read_bytes() == path.read_bytes(), path.name
