"""The compiled tier: `python -m toolgen.cli.compile [PACKAGE]` builds the generated modules with mypyc.

Each module but `__init__` gets an extension (`name.cpython-*.so`) next to its `.py` file,
plus one shared library, `_compiled__mypyc`, inside the package; Python's import system
picks an extension over the source by itself (extension suffixes come first in its search
order). A Python whose ABI tag differs ignores the extensions and runs the `.py` files.
Compiled modules carry their full module name: a package moved under another name must be
compiled again (or cleaned); and they do not follow the `.py` files: `make generate`
cleans them first, since regenerated sources would otherwise sit behind stale extensions.
`--clean` removes them again; the `.py` files are never touched and remain the fallback.
Needs the `compile` extra (mypy, which ships mypyc, and setuptools) and a C compiler.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

# Run in a child process: setuptools keeps global state, and mypyc names each module after
# its path relative to the working directory, which must be the package's parent. A mypy
# config of its own makes that parent the only package base, whatever config lies above.
_SETUP = """
import os, sys
from mypyc.build import mypycify
from setuptools import setup

group, build_temp, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
config = build_temp + "/mypy.ini"
open(config, "w").write("[mypy]\\nexplicit_package_bases = True\\nmypy_path = " + os.getcwd())
setup(
    name="toolgen-compiled",
    ext_modules=mypycify(["--config-file", config, *sources], group_name=group, opt_level="3"),
    script_args=["build_ext", "--inplace", "--build-temp", build_temp],
)
"""


def extensions(package: Path) -> list[Path]:
    """The compiled modules present in `package`."""
    return sorted(p for p in package.iterdir() if any(p.name.endswith(s) for s in EXTENSION_SUFFIXES))


def clean(package: Path) -> list[Path]:
    found = extensions(package)
    for path in found:
        path.unlink()
    return found


def compile_package(package: Path) -> list[Path]:
    """Compile every module of `package` in place; returns the extension files written."""
    package = package.resolve()
    # __init__ stays Python: the modules' shared library lives inside the package, so the
    # package must be importable before any compiled module is.
    sources = sorted(p.name for p in package.glob("*.py") if p.name != "__init__.py")
    if not sources:
        raise SystemExit(f"error: no Python modules in {package}")
    clean(package)
    with tempfile.TemporaryDirectory(prefix="toolgen-mypyc-") as build_temp:
        env = dict(os.environ, MYPYC_OPT_LEVEL="3")
        # One shared library for all modules, named inside the package so that it moves with it.
        group = f"{package.name}._compiled"
        command = [sys.executable, "-c", _SETUP, group, build_temp, *(f"{package.name}/{s}" for s in sources)]
        result = subprocess.run(command, cwd=package.parent, env=env, capture_output=True, text=True)
        shutil.rmtree(package.parent / "build", ignore_errors=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
        raise SystemExit(f"error: mypyc failed on {package} (exit {result.returncode})")
    built = extensions(package)
    if len(built) != len(sources) + 1:
        raise SystemExit(f"error: expected {len(sources) + 1} extension modules, found {len(built)}")
    return built


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m toolgen.cli.compile", description=__doc__)
    parser.add_argument("package", nargs="?", default="generated", type=Path)
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args(argv)
    if args.clean:
        removed = clean(args.package)
        if removed:
            print(f"{args.package.as_posix()}: {len(removed)} compiled modules removed")
        return
    built = compile_package(args.package)
    print(f"{args.package.as_posix()}: {len(built)} modules compiled with mypyc")


if __name__ == "__main__":
    main()
