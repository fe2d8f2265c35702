"""The command that regenerates a package, named in every generated file's header and in the
advice of `toolgen check` when the package drifted (docs/how-it-works.md, "Headers and reuse"),
and the command that imports its declarations, named in its index's header for a guard to
repeat when a server's tools drifted from the package (docs/mcp.md); and the program every
printed fix starts with (advised_program).

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
import shutil
from collections.abc import Callable, Mapping, Sequence
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


def import_command(
    schemas: Path,
    defaults: Target,
    base: Path,
    root: Path,
    sources: Sequence[str] | None,
    program: str = "toolgen",
) -> str | None:
    """The shell command, run from `base`, that imports the declarations in `schemas` from the
    code: `sources` named on it (as `toolgen import` takes them), none when they are the
    configured ones (`sources` empty); `--schemas` when the folder is not `defaults`'. None
    when nothing imports them (`sources` None: the declarations are written by hand)."""
    if sources is None:
        return None
    words = [program, "import", *sources]
    if not _same(schemas, defaults.schemas):
        words += ["--schemas", shlex.quote(_shown(schemas, base, root))]
    return " ".join(words)


def advised_program(
    name: str,
    argv0: str,
    environ: Mapping[str, str],
    executable: str,
    which: Callable[[str], str | None] = shutil.which,
) -> str:
    """The program a printed fix starts with, spelt for a shell: one that runs this same toolgen
    from where it was run. `name` is the program as click names it (`toolgen`, or `python -m
    generator`), `argv0` the path the system ran, `executable` this interpreter.

    Plain `toolgen` only when that is what PATH finds; else the path as typed
    (`.venv/bin/toolgen`). Inside pre-commit (which sets PRE_COMMIT for its hooks) PATH is the
    hook environment's, which the shell reading the advice does not have: the running program's
    absolute path (this interpreter's for `python -m generator`), which also formats with the
    hook's black."""
    hook = bool(environ.get("PRE_COMMIT"))
    if name.startswith("python -m "):
        # Run as a module, `python` is whatever the user's shell calls so (docs/decisions.md).
        return f"{shlex.quote(executable)} -m {name.removeprefix('python -m ')}" if hook else name
    if Path(argv0).name != name:  # not its console script (click's test runner, say)
        return name
    if hook:
        return shlex.quote(str(Path(argv0).absolute()))
    if "/" not in argv0:
        return name
    # A script found on PATH also gets its full path as argv[0]: then the bare name works.
    on_path = which(name)
    return name if on_path and Path(on_path).resolve() == Path(argv0).resolve() else shlex.quote(argv0)
