"""Generate a package from a folder of declarations in a given keyword mode, through the CLI.

The one place the measuring instruments (the extended-mode benchmark, the real-tools
coverage report) ask the generator for a mode: `build_package(schemas, out, mode)`. The
mode is passed as `--keywords MODE` (docs/spec/extended.md, E1). While the generator's `generate`
has no such option, subset mode (its default) is asked for by giving no flag, and any
other mode raises ModeUnavailable, which both instruments report as "n/a". Nothing else
needs to change when the option lands; if it lands under another spelling, this function
is the one line to adapt. The imported package's `KEYWORDS` must then name the mode.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
MODES = ("subset", "extended")


class ModeUnavailable(Exception):
    """The generator cannot generate in this mode (yet): its `generate` has no `--keywords`."""


@cache
def available_modes() -> tuple[str, ...]:
    """The modes the generator in this tree accepts: subset always, others once `--keywords` exists."""
    result = subprocess.run(
        [sys.executable, "-m", "generator", "generate", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"`python -m generator generate --help` failed:\n{result.stderr}")
    return MODES if "--keywords" in result.stdout else ("subset",)


def build_package(schemas: Path, out: Path, mode: str) -> Path:
    """Generate `schemas` into the package folder `out` (emptied first) in `mode`.

    Raises ModeUnavailable when the generator has no such mode; SystemExit when it refuses
    the declarations (its own message is shown).
    """
    if mode not in available_modes():
        raise ModeUnavailable(f"{mode} mode not available")
    shutil.rmtree(out, ignore_errors=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "generator", "generate", "--schemas", str(schemas), "--out", str(out)]
    if available_modes() != ("subset",):  # explicit even for subset: a [tool.toolgen] keywords loses
        command += ["--keywords", mode]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"generating {schemas} in {mode} mode failed:\n{result.stdout}{result.stderr}")
    return out


def import_folder(folder: Path, mode: str) -> ModuleType:
    """Import a package generated in `mode` under the folder's own name (unique in this process)."""
    name = folder.name
    if name in sys.modules:
        raise SystemExit(f"a package named {name} is already imported")
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"{folder}: not an importable package")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    declared = getattr(module, "KEYWORDS", "subset")  # E1: the package says its mode
    if declared != mode:
        raise SystemExit(f"{folder}: generated in {mode} mode, but its KEYWORDS says {declared!r}")
    return module
