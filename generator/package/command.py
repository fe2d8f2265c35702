"""The command that regenerates a package, named in every generated file's header and in the
advice of `toolgen check` when the package drifted (docs/how-it-works.md, "Headers and reuse").

Only the options that differ from what a bare `toolgen generate` uses in this project (its
[tool.toolgen] table, else tool_schemas -> generated, subset keywords) are named, with paths
relative to `base` (the project root in headers, the working directory in advice); a path
outside the project is written absolute. Where nothing differs and the project root's
Makefile has a `generate` target (as this repository's, which also removes stale compiled
modules), the command is `make generate`: a project's own entry point, where it has one. The
header depends on nothing but the package, its sources and the root, never on where the run
started: a file whose header names another command is not reused (generator/emit/header.py).
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

_GENERATE_TARGET = re.compile(r"^generate\s*:(?!=)", re.MULTILINE)


@dataclass(frozen=True)
class Target:
    """What one run generates: declarations folder, package folder, keyword mode."""

    schemas: Path
    out: Path
    keywords: str


BUILT_IN = Target(Path("tool_schemas"), Path("generated"), "subset")


def _same(a: Path, b: Path) -> bool:
    return a.resolve() == b.resolve()


def _shown(path: Path, base: Path, root: Path) -> str:
    """Relative to `base` (`..` included) inside the project; absolute outside it."""
    resolved = path.resolve()
    if not resolved.is_relative_to(root.resolve()):
        return resolved.as_posix()
    return Path(os.path.relpath(resolved, base.resolve())).as_posix()


def regenerate_command(
    target: Target,
    defaults: Target,
    base: Path,
    root: Path,
    program: str = "toolgen",
    recorded: str | None = None,
) -> str:
    """The shell command, run from `base`, that regenerates `target`: only the options that differ
    from `defaults` (a bare generate's) or the `recorded` mode are named, paths relative to `base`
    inside the project `root`. With none, a root Makefile's `generate` target is preferred."""
    words = [program, "generate"]
    if not _same(target.schemas, defaults.schemas):
        words += ["--schemas", shlex.quote(_shown(target.schemas, base, root))]
    if not _same(target.out, defaults.out):
        words += ["--out", shlex.quote(_shown(target.out, base, root))]
    if target.keywords != defaults.keywords or (recorded and target.keywords != recorded):
        words += ["--keywords", target.keywords]
    if len(words) == 2 and has_make_target(root):
        # The Makefile is at the root: from a folder below it, make is told where it is.
        where = "" if _same(base, root) else f" -C {shlex.quote(_shown(root, base, root))}"
        return f"make{where} generate"
    return " ".join(words)


def has_make_target(root: Path) -> bool:
    """The project root's Makefile has a `generate` target (read as text, never run)."""
    try:
        text = (root / "Makefile").read_text("utf-8", errors="replace")
    except OSError:
        return False
    return _GENERATE_TARGET.search(text) is not None
