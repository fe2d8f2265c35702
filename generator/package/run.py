"""One run of `toolgen generate` (or `check`): `generate_package(settings) -> Result`.

The run, in order: list the declaration files (none: refused); start the renderer worker
when a declaration changed since the package was written (generator/package/overlap.py); refuse an
output folder that is unsafe or whose name cannot be imported; take the package's lock
(shared for a check) and read its record of verified files (generator/package/verified.py); build
the package into a staging area (generator/package/build.py: pass 1 checks every
declaration, pass 2 compiles each tool through generator/package/pipeline.py `compile_tool`);
sort the warnings into shown and allowed (and tell `warned`); under `strict`, a shown warning
writes nothing; else commit (or, for a check, plan and diff) and save the record. Refusals
raise `DeclarationError`, an output folder that cannot be used `OutputError`; nothing is
written by a run that raises.
"""

from __future__ import annotations

import keyword
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import NamedTuple

from ..front.errors import NOT_ENFORCED, Notice, NoticeKind
from ..plan.repairs import Adoption
from .build import NO_ADOPTION, Build, build, declaration_files, fingerprint
from .overlap import Service, edited
from .verified import Record, long_lived
from .write import OutputError, Plan, Staging, check_output_folder, diff, locked


class Settings(NamedTuple):
    """What a run is asked to do: the options in force, resolved (paths, mode, allowed kinds)."""

    schemas: Path
    out: Path
    keywords: str
    command: str  # the command every header names (generator/package/command.py)
    check: bool = False  # write nothing: plan, and diff what differs
    strict: bool = False  # a shown warning writes nothing
    allow: frozenset[str] = frozenset()  # warning kinds and keywords not shown
    # The command that imports the declarations again, when they were imported
    # (generator/package/command.py `import_command`): `_declarations.py`'s header names it.
    import_command: str | None = None
    # The repair kinds the project adopted (`[tool.toolgen.repairs]`): none by default.
    repairs: Adoption = NO_ADOPTION


class Result(NamedTuple):
    """What a run did (or, for a check, would do)."""

    build: Build  # the tools and every warning
    shown: tuple[Notice[NoticeKind], ...]  # the warnings not allowed: printed
    hidden: int  # how many warnings were of an allowed kind
    plan: Plan | None  # written (or to write); None: refused under --strict, nothing written
    diff: str  # a check's unified diff when out of sync, else ""
    seconds: float  # from the worker's start to the commit

    @property
    def refused_strict(self) -> bool:
        return self.plan is None


# The warnings of a build, shown and how many hidden, as soon as they are known: before a
# strict refusal and before the commit, whose own refusal (a file in the way) comes after them.
Warned = Callable[[tuple[Notice[NoticeKind], ...], int], None]


def generate_package(
    settings: Settings, warned: Warned | None = None, checked: Callable[[Path], None] | None = None
) -> Result:
    """Run generate (or check) once; see the module docstring for the steps. `warned` is
    told the warnings as soon as the build has them (a CLI prints them there); `checked` is
    told the output folder once it passed its checks, before anything is read from it (a CLI
    notes there a package made with another year's black)."""
    schemas, out, check = settings.schemas, settings.out, settings.check
    if not (declarations := declaration_files(schemas)):
        raise OutputError(f"{schemas.as_posix()}: no *.json declarations in this folder; nothing written")
    # When a declaration changed since the package was written (an edit to render), a worker
    # that imports the compiler and renders pass 2's files starts now, on two or more cores,
    # so that its start-up overlaps pass 1 (generator/package/overlap.py).
    service = Service.start(settings.keywords) if edited(schemas, declarations, out) else None
    started = time.perf_counter()
    try:
        check_output_folder(out, schemas)
        importable(out)  # after the safety checks, whose reasons matter more
        if checked is not None:
            checked(out)
        # --check reuses too: a file is reused only when its bytes are what its header says
        # and the package was written by this generator (generator/package/build.py). The lock is
        # held from the first read of the package to the last write (shared for --check).
        staging = Staging(out, write=not check)
        with ExitStack() as stack:
            if out.is_dir():
                if check:
                    stack.enter_context(locked(out, exclusive=False))
                else:
                    staging.begin()
            stack.callback(staging.abort)  # temp files of a run that does not commit
            # What this run reads it records (beside the package, generator/package/verified.py), so
            # the next run need not read it again unless it changed.
            record = Record(out, fingerprint(settings.keywords, settings.repairs.key()), settings.command)
            stack.enter_context(long_lived())  # the record's entries: never scanned for cycles
            built = build(
                schemas,
                reuse=out,
                keywords=settings.keywords,
                command=settings.command,
                sink=staging,
                record=record,
                listing=staging.listing() if out.is_dir() else None,  # (under the lock)
                service=service,
                declarations=declarations,
                import_command=settings.import_command,
                repairs=settings.repairs,
            )
            shown = tuple(w for w in built.warnings if not is_allowed(w, settings.allow))
            hidden = len(built.warnings) - len(shown)
            if warned is not None:
                warned(shown, hidden)
            if settings.strict and shown:
                return Result(built, shown, hidden, None, "", time.perf_counter() - started)
            todo = staging.plan() if check else staging.commit()
            if out.is_dir():
                # Its entries are facts about files as identified, true in any order of saving.
                record.save()
        seconds = time.perf_counter() - started
        return Result(built, shown, hidden, todo, "" if not check or todo.in_sync else diff(todo), seconds)
    finally:  # the worker, on every way out
        if service is not None:
            service.close()


def importable(out: Path) -> None:
    """Refuse an output folder whose name cannot be imported: the package's import name."""
    name = out.resolve().name
    if not name.isidentifier() or keyword.iskeyword(name):
        like = "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "generated"
        if like[0].isdigit() or keyword.iskeyword(like):
            like = f"_{like}"
        raise OutputError(
            f"{out.as_posix()}: the package folder's name {name!r} is not a Python identifier, "
            f"so the package could not be imported; choose a name like {like!r}; nothing written"
        )


def is_allowed(warning: Notice[NoticeKind], allow: frozenset[str]) -> bool:
    """Its kind is allowed, or it is a not-enforced warning whose every keyword is."""
    keywords = set(warning.keywords) if warning.kind == NOT_ENFORCED else set()
    return warning.kind in allow or (bool(keywords) and keywords <= allow)
