"""The incremental build: the package's files from the declarations, reusing what is on disk.

Each tool goes through the stages in generator/package/pipeline.py `compile_tool` (check ->
lower -> plan -> render -> format, then its header here). `build` hands every file the output
package should hold, in order, to a sink: in memory (Build.files) or
generator/package/write.py's Staging, which compares each with the disk as it comes and streams
the changed ones to temp files. Pass 1 (`_accepted`) reads and checks the declarations that
changed and raises every refusal before anything is rendered; pass 2 (`_emit`) compiles only
the files it cannot take from the disk.

With `reuse` (the output folder), a file already there is taken as it is, unrendered, only
when all of these hold; anything else is rendered again, so reuse never keeps a stale or
edited file:

* the package is trusted (`_on_disk`): its `__init__.py` is a regular file whose header is
  intact (generator/emit/header.py `parse`: our first line, the fields up to a `Body sha256` that
  the body hashes to, the header exactly as written for them) and names this generator's
  fingerprint, and its `Package sha256` is the digest of the (name, body sha256) of exactly
  the generated files found in the folder. A file that starts like our header but is not
  intact (edited by hand, truncated, CRLF) makes the whole package render again;
* the file is the one this run would write: vouched for by the record of verified files
  (generator/package/verified.py) in the entry of this very tool of this very declaration file, its
  identity (size, mtime, ctime, inode, device, `lstat`) unchanged since it was recorded, or
  read with exactly the header this run would write: the same source, source sha256 and
  regenerate command and, for a declaration module, the same tool, position and warnings,
  for the index `_declarations.py` the same import command (its `Import` field: a package
  whose declarations are imported from elsewhere now, or no longer, is written again, so
  the fix commands a guard prints are the project's). (A tool moved to another declaration
  file is written again: its old entry vouches for the bytes, not for the new source.)

`__init__.py`'s body depends only on the keyword mode and the generator, which the
fingerprint names: in a trusted package it is taken from the disk and only its header (the
package digests) is made again. A declaration file whose bytes are the ones the record or
its modules' headers name is not even parsed: its tools' names, places and warnings come from
the record's entry of it, else from the headers of its declaration modules, read only from a
trusted package and naming this command. A declaration file that pass 2 renders from is read
again, and refused (nothing written) if its sha256 is no longer the one pass 1 accepted.
docs/scale.md explains the record and the costs; docs/how-it-works.md ("Headers and reuse")
shows the headers.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import gc
import hashlib
import io
import os
import re
import stat
import tokenize
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ..emit import header as hdr
from ..emit.literal import py_literal
from ..emit.render import PATHS, REPAIR, SUPPORT, TEMPLATES, environment
from ..front.check import check
from ..front.errors import DeclarationError, Notice, NoticeKind, Refusals
from ..front.load import (
    Declaration,
    declarations_in,
    display_name,
    labeller,
    name_refusal,
    project_root,
    read_source,
    schema_files,
)
from ..front.vocabulary import VOCABULARIES, Vocabulary
from ..ir.names import module_name
from ..plan.repairs import Adoption, AdoptionError, ToolAdoption, toml_key
from .command import BUILT_IN, Target, regenerate_command
from .pipeline import (
    DECLARATION,
    TOOL_FILES,
    Job,
    PackageJob,
    ToolJob,
    compile_job,
    tool_files,
)
from .verified import (
    MODULE,
    NAME,
    POSITION,
    SERVED_SEEN,
    SERVED_SHA,
    UNSEEN,
    VALIDATOR_SEEN,
    VALIDATOR_SHA,
    Identity,
    Note,
    Record,
    Tool,
    identity,
)
from .verified import Accepted as AcceptedTool

if TYPE_CHECKING:  # jinja2 and black are imported by the stages that render (pass 2), only when
    # a run renders here: pass 1 never needs them, so it can run while a worker imports them.
    import jinja2

    from ..emit.format import Formatter

GENERATOR = Path(__file__).resolve().parent.parent
# The modules whose code does not decide the bytes of a generated file: the CLI, the writer and
# the record, the worker plumbing, the reading commands, `toolgen import`'s sources, and the
# packages' `__init__.py` files (docstrings only: tests/test_layering.py). Every other module
# under generator/ is an output stage, digested into the fingerprint (so a new module can only
# make it stricter). A path ending in "/" is a whole folder; templates/ is digested as bytes.
# Installed, the run-time pipeline is toolgen/runtime/, inside this folder: it is no stage
# either, and a wheel's fingerprint must be the one this checkout computes.
NOT_OUTPUT = (
    "__main__.py", "base/pool.py", "base/textui.py", "cli/", "package/overlap.py", "package/verified.py",
    "package/write.py", "readers/", "runtime/", "sources/", "templates/",
)  # fmt: skip


def output_stage(name: str) -> bool:
    """Does the module at `name` (relative to generator/, "/"-separated) decide output bytes?"""
    if name.rpartition("/")[2] == "__init__.py":
        return False
    return not any(name.startswith(p) if p.endswith("/") else name == p for p in NOT_OUTPUT)


OUTPUT_STAGES = tuple(
    sorted(
        name
        for name in (p.relative_to(GENERATOR).as_posix() for p in GENERATOR.rglob("*.py"))
        if output_stage(name)
    )
)


def _code(text: str) -> str:
    """Python source without its comments and blank lines: comment-only edits do not count."""
    comments = [
        (token.start, token.end)
        for token in tokenize.generate_tokens(io.StringIO(text).readline)
        if token.type == tokenize.COMMENT
    ]
    lines = text.splitlines()
    for (row, start), (_, end) in reversed(comments):
        line = lines[row - 1]
        lines[row - 1] = line[:start] + line[end:]
    return "\n".join(line.rstrip() for line in lines if line.strip())


KEYWORDS = tuple(VOCABULARIES)
NO_ADOPTION = Adoption()  # docs/spec/extended.md E1; the first is the default


def black_style() -> int:
    """The year of the installed black's stable style: its major version (black numbers its
    releases YY.M.x). black changes its stable style only in the first release of a calendar
    year (its stability policy), so every black of one year formats a file to the same bytes."""
    return int(version("black").split(".")[0])


# The `Generator:` field ends with the style year its fingerprint was made with, so that a
# package made with another year's black can be named as such (the digest alone cannot say).
_STYLE = re.compile(r" \(black (\d+)\.x\)$")


def style_of(field: str) -> int | None:
    """The black style year a `Generator:` field names (None: a field without one)."""
    found = _STYLE.search(field)
    return int(found.group(1)) if found else None


@functools.cache
def fingerprint(keywords: str = "subset", repairs: str = "") -> str:
    """What decides a file's bytes besides its source: the keyword mode (docs/spec/extended.md E1), the
    output stages' code (comments left out, black's pinned mode among it), every template,
    black's style year (named after the digest), and the repairs the project adopted (`repairs`:
    generator/plan/repairs.py `Adoption.key`, "" for none: then the digest is as before the
    table existed), so that a package is rendered again when its adoption changes."""
    # black's mode is pinned in format.py (digested below with the other stages' code) and the
    # settings it leaves to black are black's defaults, fixed by its style year: so black need
    # not be imported to know the fingerprint, and pass 1 can run before (or while) it is.
    style = black_style()
    digest = hashlib.sha256(f"keywords {keywords}\0black style {style}\0".encode())
    if repairs:
        digest.update(f"repairs {repairs}\0".encode())
    for name in OUTPUT_STAGES:
        digest.update(name.encode() + b"\0" + _code((GENERATOR / name).read_text("utf-8")).encode() + b"\0")
    for path in sorted(TEMPLATES.iterdir()):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{digest.hexdigest()[:16]} (black {style}.x)"


class Entry(NamedTuple):
    """One accepted tool, as pass 1 leaves it: what the index and the headers need, no IR.
    (A named tuple rather than a frozen dataclass: a run makes one per tool, and 10,000 of
    them cost 17 ms made and freed as dataclasses, 4 ms as tuples.)"""

    tool: str
    module: str
    source: str  # its file, as headers name it
    source_sha: str
    position: int  # among the tools of its file, from 0
    listed: bool  # one of many tools in its file
    notices: tuple[Notice[NoticeKind], ...]
    # For each of `files`, its body sha256 when the file on disk is the one this run would
    # write (taken as it is, unrendered), else None.
    kept: tuple[str | None, str | None]

    @property
    def files(self) -> tuple[str, str]:
        return tool_files(self.module)


class Sink(Protocol):
    """Where build() puts the package's files, in order, as they come."""

    def put(self, name: str, text: str) -> None: ...

    def keep(self, name: str) -> None: ...  # reused: the file on disk is what it should be


@dataclass(frozen=True)
class Build:
    files: dict[str, str]  # file name inside the package -> its whole text (empty with a sink)
    tools: tuple[Entry, ...]
    warnings: tuple[Notice[NoticeKind], ...]
    rendered: tuple[str, ...] = ()  # the files rendered (not reused) by this build


class _Collect:
    """The in-memory sink: every file's text (a reused one read back from `out`)."""

    def __init__(self, out: Path | None) -> None:
        self.out = out
        self.files: dict[str, str] = {}

    def put(self, name: str, text: str) -> None:
        self.files[name] = text

    def keep(self, name: str) -> None:
        assert self.out is not None
        self.files[name] = (self.out / name).read_bytes().decode("utf-8")


# Every argument past `keywords` is something a caller may already hold and hands in to spare
# the run that work (a record read, a listing made, a render service started), each defaulted.
def build(  # noqa: PLR0913
    schemas_dir: Path,
    reuse: Path | None = None,
    keywords: str | Vocabulary = "subset",
    command: str | None = None,
    sink: Sink | None = None,
    record: Record | None = None,
    listing: dict[str, os.DirEntry[str]] | None = None,
    service: Renderer | None = None,
    declarations: dict[str, os.DirEntry[str]] | None = None,
    import_command: str | None = None,
    repairs: Adoption = NO_ADOPTION,
) -> Build:
    """Everything the output package should contain; raises DeclarationError on bad input.

    `keywords`: "subset", "extended" or a vocabulary of one's own (generator/front/vocabulary.py).
    `command`, which every header names, regenerates the package (generator/package/command.py).
    Pass 1 raises every refusal before anything is rendered; pass 2 hands each file to `sink`
    as soon as it is formatted (Build.files is then empty). `reuse`: the package folder on disk;
    `record`, its record of verified files (generator/package/verified.py, made for `command`);
    `listing` and `declarations`: its .py files and the declaration files, listed already;
    `service`: a renderer started in another process for an edit (generator/package/overlap.py);
    `import_command`: the command that imports the declarations from the code, which the
    package names when its tools drift (None: they are written by hand); `repairs`: the
    repair kinds the project adopted (`[tool.toolgen.repairs]`, generator/plan/repairs.py)."""
    vocabulary = keywords if isinstance(keywords, Vocabulary) else VOCABULARIES.get(keywords)
    if vocabulary is None:
        raise ValueError(f"unknown keyword mode {keywords!r}")
    keywords = vocabulary.name
    if command is None:
        root = project_root(Path.cwd().resolve())
        target = Target(schemas_dir, reuse if reuse is not None else BUILT_IN.out, keywords)
        command = regenerate_command(target, BUILT_IN, root, root)
    assert record is None or record.command == command
    made_by = fingerprint(keywords, repairs.key())
    accepted = _accepted(schemas_dir, vocabulary, reuse, made_by, command, record, listing, declarations)
    _adopted_tools(repairs, {entry.tool for entry in accepted.entries}, display_name(schemas_dir))
    collect = _Collect(reuse)  # (left empty when there is a sink)
    renderer = _renderer(accepted.entries, vocabulary, service)
    out = sink if sink is not None else collect
    # The import command is named in the index's header (the regenerate command in every header).
    imported = () if import_command is None else (("Import", py_literal(import_command)),)
    rendered = _emit(
        accepted, (command, imported), vocabulary, display_name(schemas_dir), out, renderer, repairs
    )
    return Build(collect.files, tuple(accepted.entries), tuple(accepted.warnings), rendered)


def _adopted_tools(repairs: Adoption, tools: set[str], schemas: str) -> None:
    """Every tool the adoption names is one the declarations declare (AdoptionError if not),
    checked before anything is rendered."""
    for table, tool in repairs.named_tools():
        if tool not in tools:
            raise AdoptionError(table, f"{toml_key(tool)}: no tool of that name is declared in {schemas}")


def _emit(  # noqa: PLR0913
    accepted: Accepted,
    commands: tuple[str, hdr.Extra],
    vocabulary: Vocabulary,
    index_source: str,
    sink: Sink,
    formatter: Renderer,
    repairs: Adoption = NO_ADOPTION,
) -> tuple[str, ...]:
    """Pass 2: every file of the package to `sink`, in order, rendering only what changed
    (`commands`: the regenerate command, every header's, and the index's header field naming
    the import command, if any; `accepted.init`: `__init__.py`'s body on disk when the
    generator is the same, which makes it the same; its header, naming every other file's
    digest, is written again)."""
    keywords, (command, imported) = vocabulary.name, commands
    entries, read = accepted.entries, accepted.read
    bodies: dict[str, str] = {}  # file name -> body sha256, for the package digest
    rendered: list[str] = []
    # Each file to render goes to the formatter as soon as it is rendered (with a process
    # pool, black runs while the next files are rendered), and each formatted file to the
    # sink as soon as it is back, in order: at most a window of texts is held at a time.
    waiting: deque[tuple[str, str, str, tuple[tuple[str, str], ...]] | tuple[str, None, None, None]] = deque()
    init = [accepted.init] if accepted.init is not None else []

    def drain(results: Iterator[str]) -> None:
        # (The queue never starts with a file kept: keep() queues one only behind a file
        # being formatted, and the files kept behind each formatted one go out with it.)
        for text in results:
            name, source, source_sha, extra = waiting.popleft()
            assert source is not None and source_sha is not None and extra is not None
            rendered.append(name)
            if name == "__init__.py":  # its header names every other file's digest: put last
                init.append(text)
            else:
                bodies[name] = hdr.sha256(text)
                sink.put(name, hdr.with_header(source, source_sha, text, extra, command))
            while waiting and waiting[0][1] is None:
                sink.keep(waiting.popleft()[0])

    def keep(name: str, body_sha: str) -> None:
        bodies[name] = body_sha
        if waiting:  # behind a file being formatted: in order
            waiting.append((name, None, None, None))
        else:
            sink.keep(name)

    def place(job: PackageJob, source: str, source_sha: str, extra: hdr.Extra = ()) -> None:
        found = read.get(job.name)
        if found is not None and found[0].matches(source, source_sha, command, extra):
            keep(job.name, found[0].body_sha256)
        else:
            formatter.submit(job)
            waiting.append((job.name, source, source_sha, extra))
        drain(formatter.ready())

    try:
        if not init:  # first: a formatter takes nothing after its finish(); its header is made last
            formatter.submit(PackageJob("__init__.py", "init", (keywords, bool(repairs))))
            waiting.append(("__init__.py", "", "", ()))
        declaration = _read_again(accepted.sources)
        for entry in entries:
            tool_file, declaration_file = entry.files
            tool_body, declaration_body = entry.kept
            if tool_body is not None:
                keep(tool_file, tool_body)
            # A file not kept is not on disk as this run writes it (pass 1 looked): compiled.
            # A file kept has no text of its own: the next file compiled or the end drains the queue.
            if None in entry.kept:
                job, headed = _tool_job(entry, declaration(entry), repairs.for_tool(entry.tool))
                formatter.submit(job)
                waiting.extend(headed)  # in job_files order
                drain(formatter.ready())
            if declaration_body is not None:
                keep(declaration_file, declaration_body)
        # Plain Python files copied as they are: the wording, and the list visits' helpers.
        # The repairs' routines only where some are adopted: a package without is as it was.
        for copied in (SUPPORT, PATHS, *((REPAIR,) if repairs else ())):
            text = copied.read_bytes()
            sha = hashlib.sha256(text).hexdigest()
            place(PackageJob(copied.name, "copied", text.decode("utf-8")), f"templates/{copied.name}", sha)
        modules = {e.tool: e.module for e in entries}
        index_sha = hdr.package_digest(modules)
        place(PackageJob("_declarations.py", "index", modules), index_source, index_sha, imported)
        drain(formatter.finish())
    finally:
        formatter.close()
    sink.put(
        "__init__.py",
        hdr.with_header(
            index_source,
            hdr.package_digest({e.module: e.source_sha for e in entries}),  # (modules are distinct)
            init[0],
            (
                ("Generator", fingerprint(keywords, repairs.key())),
                ("Package sha256", hdr.package_digest(bodies)),
            ),
            command,
        ),
    )
    return tuple(rendered)


# A file pass 2 compiles, as its header will name it: (file name, source, source sha256, extra).
Headed = tuple[str, str, str, hdr.Extra]


def _tool_job(
    entry: Entry, declaration: Declaration, adopted: ToolAdoption | None = None
) -> tuple[ToolJob, list[Headed]]:
    """The files of `entry` not kept, to compile from its `declaration`, and what their headers
    name past the command: source, its sha256, and for the declaration module the tool, its
    place and its warnings."""
    files = tuple(f for f, body in zip(TOOL_FILES, entry.kept, strict=True) if body is None)
    validator, served = entry.files
    headed: list[Headed] = []
    if "validator" in files:
        headed.append((validator, entry.source, entry.source_sha, ()))
    if "declaration" in files:
        notes = tuple(_note(n) for n in entry.notices)
        extra = _declaration_fields((entry.tool, entry.module, entry.position, entry.listed, notes))
        headed.append((served, entry.source, entry.source_sha, extra))
    return ToolJob(declaration, files, adopted), headed


def _read_again(sources: dict[str, tuple[Path, str]]) -> Callable[[Entry], Declaration]:
    """An entry's declaration for pass 2, its file read again (a run holds no file's bytes;
    the last file read is kept, as a file's tools come one after another). `sources`: each
    file's path and the sha256 pass 1 accepted. A file that is not what pass 1 accepted is
    refused: nothing is written."""
    current: tuple[str, list[Declaration]] = ("", [])

    def declaration(entry: Entry) -> Declaration:
        nonlocal current
        if current[0] != entry.source:
            path, sha = sources[entry.source]
            data = read_source(path, entry.source)
            if hashlib.sha256(data).hexdigest() != sha:
                changed = "the file changed while toolgen was reading it; run it again"
                raise DeclarationError(entry.source, "", changed)
            current = (entry.source, declarations_in(data, entry.source))
        return current[1][entry.position]

    return declaration


# An edit renders a few files; past this many (a cold run) they are rendered here, with a pool
# of formatters, and a service started in case of an edit is left unused.
SERVICE_MAX_FILES = 8


class Renderer(Protocol):
    """Compiles pass 2's files (generator/package/pipeline.py `compile_job`): `submit` each job,
    take the formatted bodies of its files (`job_files`) in submission order with `ready()`
    (those done so far) and `finish()` (the rest); `close` stops whatever it started."""

    def submit(self, job: Job) -> None: ...

    def ready(self) -> Iterator[str]: ...

    def finish(self) -> Iterator[str]: ...

    def close(self) -> None: ...


class LocalRenderer:
    """Renders here and formats with generator/emit/format.py's Formatter (a pool on a cold run).
    The compiler (jinja2, black) is imported at the first file: a run with nothing to render
    never loads it."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self._vocabulary = vocabulary
        self._started: tuple[jinja2.Environment, Formatter] | None = None

    def submit(self, job: Job) -> None:
        if self._started is None:
            from ..emit.format import Formatter

            self._started = environment(), Formatter()
        env, formatter = self._started
        compile_job(job, self._vocabulary, env, formatter.submit)  # stage 5: the formatter's

    def ready(self) -> Iterator[str]:
        return self._started[1].ready() if self._started is not None else iter(())

    def finish(self) -> Iterator[str]:
        return self._started[1].finish() if self._started is not None else iter(())

    def close(self) -> None:
        if self._started is not None:
            self._started[1].close()


def _renderer(entries: list[Entry], vocabulary: Vocabulary, service: Renderer | None) -> Renderer:
    """The service when it was started and the tools' files to render are few (an edit),
    else a renderer here."""
    if service is not None:
        files = sum((e.kept[0] is None) + (e.kept[1] is None) for e in entries)
        if files <= SERVICE_MAX_FILES and VOCABULARIES.get(vocabulary.name) is vocabulary:
            return service
        service.close()  # now: its worker must not take a core from the pool's
    return LocalRenderer(vocabulary)


def _note(notice: Notice[NoticeKind]) -> Note:
    """A warning as headers and the record keep it (its file and tool are the entry's)."""
    return notice.pointer, notice.kind, notice.reason, notice.keywords


def _declaration_fields(tool: AcceptedTool | Tool) -> tuple[tuple[str, str], ...]:
    """The header fields of a declaration module past its source: enough to take the tool
    back from the disk without reading its declaration (name, place in its file, warnings)."""
    name, _, position, listed, notes = tool[:VALIDATOR_SEEN]
    fields = [("Tool", py_literal(name))]
    if listed:
        fields.append(("Position", str(position)))
    if notes:
        fields.append(("Warnings", py_literal(notes)))
    return tuple(fields)


Read = tuple[hdr.Header, os.stat_result]  # a package file's header, and its status when read


class Accepted(NamedTuple):
    """Pass 1's result, what pass 2 renders from."""

    entries: list[Entry]  # every tool, in file order
    warnings: list[Notice[NoticeKind]]
    # The path and sha256 of each file with a tool to render: pass 2 reads it again rather
    # than holding every changed file's bytes.
    sources: dict[str, tuple[Path, str]]
    read: dict[str, Read]  # the headers read of the package on disk (OnDisk.read)
    init: str | None  # the body of its `__init__.py` when it may be reused


class OnDisk(NamedTuple):
    """The files of the package on disk that a run may take as they are (see _on_disk)."""

    vouched: dict[str, Tool]  # file name -> the record's tool whose entry vouches for it, unread
    whole: set[int]  # the record's tools both of whose files it vouched for (by id: alive all run)
    read: dict[str, Read]  # the others' headers, read or taken from the record
    init: str | None  # the body of `__init__.py`


def _nothing_on_disk() -> OnDisk:
    """No file on disk may be taken as it is: every file is rendered."""
    return OnDisk(vouched={}, whole=set(), read={}, init=None)


# Pass 1 is one loop over the files, each file's identity, bytes, tools and files on disk
# deciding what the next step reads (the record's entry, the headers on disk, else the file);
# the stages it names are the pipeline's (generator/package/pipeline.py), not a lint fix.
def _accepted(  # noqa: C901, PLR0913
    schemas_dir: Path,
    vocabulary: Vocabulary,
    out: Path | None,
    current: str,
    command: str,
    record: Record | None,
    listing: dict[str, os.DirEntry[str]] | None,
    declarations: dict[str, os.DirEntry[str]] | None,
) -> Accepted:
    """Pass 1: every tool, checked and lowered where its file changed, else taken from the
    record of verified files or the package on disk; raises every refusal of the run at once.

    One refusal per file that cannot be read as declarations, else one per refused tool
    (its first: what the checker finds past it may only follow from it), in file order.
    Returns the tools, the warnings, the path and sha256 of each file with a tool to render
    (pass 2 reads it again rather than holding every changed file's bytes), the headers
    read of the package on disk and the body of its `__init__.py` when it may be reused."""
    files = _schema_files(schemas_dir, declarations)
    # The cycle collector paused while this makes tens of thousands of plain objects with no
    # cycle among them (the record's entries): it would scan them again and again.
    collecting = gc.isenabled()
    gc.disable()
    try:
        known = [record.source(label) if record is not None else None for _, label, _ in files]
        disk = _on_disk(out, current, known, record, listing)
    finally:
        if collecting:
            gc.enable()
    told = _recorded(disk.read, command)
    entries: list[Entry] = []
    warnings: list[Notice[NoticeKind]] = []
    sources: dict[str, tuple[Path, str]] = {}
    refusals: list[DeclarationError] = []
    names: dict[str, Declaration | str] = {}  # tool -> where it is (a file's name: a tool taken as it is)
    modules: dict[str, str] = {}
    for (file_name, file, item), entry in zip(files, known, strict=True):
        try:  # (before the read: a change after it is a new identity)
            status: os.stat_result | None = item.stat()
        except OSError:
            status = None
        data: bytes | None = None
        if entry is not None and entry[0] is not None and status is not None and entry[0] == identity(status):
            seen, sha = entry[0], entry[1]
        else:
            seen = record.seen(status) if record is not None and status is not None else None
            try:
                data = read_source(schemas_dir / file_name, file)
            except DeclarationError as exc:
                refusals.append(exc)
                continue
            sha = hashlib.sha256(data).hexdigest()
        tools: tuple[Tool, ...] | None = entry[2] if entry is not None and entry[1] == sha else None
        tools = tools if tools is not None else _told_tools(told.get(file), sha)
        # A name or module an earlier file took: the file is read, so the refusal has a cold run's words.
        if tools is None or any(t[NAME] in names or t[MODULE] in modules for t in tools):
            try:
                if data is None:  # known, but not kept: read it after all
                    data = read_source(schemas_dir / file_name, file)
                    read_sha = hashlib.sha256(data).hexdigest()
                    if read_sha != sha:  # changed since its stat: its identity is not recorded
                        seen, sha = None, read_sha
                found = declarations_in(data, file)
            except DeclarationError as exc:
                refusals.append(exc)
                continue
            tools = _checked(found, vocabulary, names, modules, refusals)
        del data
        kept: list[Tool] = []
        same = entry is not None and seen is entry[0] and tools is entry[2]  # the entry as it was
        for tool in tools:
            name, module, position, listed, notes = accepted = tool[:VALIDATOR_SEEN]
            if id(tool) not in disk.whole:  # (both its files vouched for by this very tool: as they are)
                validator, served = f"{module}.py", f"{module}{_DECLARATION_FILE}"
                source = (file, sha, command)  # what the headers of its files name
                on_disk = (
                    *_found(validator, tool, False, disk, source, record),
                    *_found(served, tool, True, disk, source, record),
                )
                same = same and on_disk == tool[VALIDATOR_SEEN:]
                tool = (*accepted, *on_disk)
            kept.append(tool)
            notices: tuple[Notice[NoticeKind], ...] = ()
            if notes:
                notices = tuple(Notice(file, p, k, r, w, name if listed else "") for p, k, r, w in notes)
                warnings.extend(notices)
            kept_bodies = (tool[VALIDATOR_SHA], tool[SERVED_SHA])
            entries.append(Entry(name, module, file, sha, position, listed, notices, kept_bodies))
            names.setdefault(name, file)
            modules[module] = file
            if None in kept_bodies:
                sources[file] = (schemas_dir / file_name, sha)
        if record is not None:
            record.keep(file, entry if same and entry is not None else (seen, sha, tuple(kept)))
    if len(refusals) == 1:
        raise refusals[0]
    if refusals:
        raise Refusals(refusals)
    return Accepted(entries=entries, warnings=warnings, sources=sources, read=disk.read, init=disk.init)


def _checked(
    found: list[Declaration],
    vocabulary: Vocabulary,
    names: dict[str, Declaration | str],
    modules: dict[str, str],
    refusals: list[DeclarationError],
) -> tuple[Tool, ...]:
    """The tools of a file read and parsed, checked (nothing is lowered: pass 2 does that when
    it renders a module, so a run never holds every tool's IR); refusals go to `refusals`."""
    tools: list[Tool] = []
    for position, declaration in enumerate(found):
        named = declaration.name if declaration.listed else ""
        try:
            earlier = names.get(declaration.name)
            if isinstance(earlier, str):  # a tool taken from the disk: all a refusal names is its file
                names[declaration.name] = Declaration(earlier, "", declaration.name, None, None)
            refusal = name_refusal(names, declaration)  # type: ignore[arg-type]  # (a Declaration for this name)
            if refusal is not None:
                raise refusal
            # Checked, not lowered: pass 2 lowers a module when it renders it, so a run never
            # holds every tool's IR.
            _, checked = check(declaration, vocabulary)
            module = module_name(declaration.name)
            clash = modules.setdefault(module, declaration.file)
            if clash != declaration.file:
                raise DeclarationError(
                    declaration.file, declaration.name_pointer, f"module name {module} clashes with {clash}"
                )
        except DeclarationError as exc:
            refusals.append(exc.of_tool(named))
            continue
        # Only its name and where it is are needed past here (a later clash names them).
        names[declaration.name] = dataclasses.replace(declaration, parameters=None, raw=None)
        notes = tuple(_note(n) for n in checked.notices)
        tools.append((declaration.name, module, position, declaration.listed, notes, *UNSEEN))
    return tuple(tools)


def _found(
    name: str,
    tool: Tool,
    served: bool,
    disk: OnDisk,
    source: tuple[str, str, str],
    record: Record | None,
) -> tuple[Identity | None, str | None]:
    """(identity to record, body sha256) of the file `name` of `tool` (its declaration module
    when `served`, else its validator) when it is the one this run would write for `source`
    (file, sha256, command): vouched for by the record's entry of this very tool, or read with
    that very header; else (None, None): it is rendered."""
    if disk.vouched.get(name) is tool:
        if served:
            return tool[SERVED_SEEN], tool[SERVED_SHA]
        return tool[VALIDATOR_SEEN], tool[VALIDATOR_SHA]
    found = disk.read.get(name)
    if found is None or not found[0].matches(*source, _declaration_fields(tool) if served else ()):
        return None, None
    return (record.seen(found[1]) if record is not None else None), found[0].body_sha256


def declaration_files(schemas_dir: Path) -> dict[str, os.DirEntry[str]]:
    """The `*.json` files of a declarations folder (name -> entry), from one listing. An entry
    keeps its status once taken: a caller that looks at them before `build` (the CLI) and
    pass 1 share one stat a file."""
    with os.scandir(schemas_dir) as listing:
        return {e.name: e for e in listing if e.name.endswith(".json") and e.is_file()}


def _schema_files(
    schemas_dir: Path, found: dict[str, os.DirEntry[str]] | None
) -> list[tuple[str, str, os.DirEntry[str]]]:
    """generator/front/load.py's schema_files, each with its label (load.labeller) and its
    directory entry (`found`: declaration_files, when listed already): one listing, no call
    per file but a stat when the record asks for one."""
    if found is None:
        if not schemas_dir.is_dir():
            schema_files(schemas_dir)  # raises its refusal: no such folder
        found = declaration_files(schemas_dir)
    label = labeller()
    root = project_root(Path.cwd().resolve())
    try:
        prefix = schemas_dir.resolve().relative_to(root).as_posix() + "/"
    except ValueError:
        prefix = ""  # outside the project: a file is named by its name
    prefix = "" if prefix == "./" else prefix
    # A symlink is named by what it points to (labeller); any other file by its folder's label.
    items = [(name, found[name]) for name in sorted(found)]
    return [(name, label(schemas_dir / name) if e.is_symlink() else prefix + name, e) for name, e in items]


def _recorded(read: dict[str, Read], command: str) -> dict[str, list[tuple[str, Tool]]]:
    """The tools of the package on disk by source file, from the headers of the declaration
    modules read this run: (the source sha256 named, the tool in the record's form)."""
    found: dict[str, list[tuple[str, Tool]]] = {}
    for name, (header, _) in read.items():
        if name.endswith(_DECLARATION_FILE) and header.command == command and "Tool" in header.fields:
            tool = _told(name[: -len(_DECLARATION_FILE)], header.fields)
            if tool is not None:
                found.setdefault(header.source, []).append((header.fields["Source sha256"], tool))
    return found


def _told_tools(told: list[tuple[str, Tool]] | None, sha: str) -> tuple[Tool, ...] | None:
    """The tools of a file with this sha256 as the headers on disk give them, or None when
    they cannot be all of them (another sha256 named, a place missing): the file is read."""
    if not told or any(s != sha for s, _ in told):
        return None
    tools = sorted((t for _, t in told), key=lambda t: t[POSITION])
    return tuple(tools) if [t[POSITION] for t in tools] == list(range(len(tools))) else None


_DECLARATION_FILE = f"{DECLARATION}.py"


def _told(module: str, fields: dict[str, str]) -> Tool | None:
    """A tool in the record's form as a declaration module's header fields give it, or None
    when they cannot be what a run wrote there (the file's declarations are read)."""
    try:
        tool = hdr.str_literal(fields["Tool"])
        notes = ast.literal_eval(fields["Warnings"]) if "Warnings" in fields else ()
        listed = "Position" in fields
        position = int(fields["Position"]) if listed else 0
        notes = tuple((p, k, r, tuple(w)) for p, k, r, w in notes)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    # A module's name is made from its tool's name (generator/ir/names.py): a header naming
    # another tool was edited, and the file's declarations are read instead.
    if not isinstance(tool, str) or module_name(tool) != module:
        return None
    return tool, module, position, listed, notes, *UNSEEN


def _read(path: Path) -> tuple[str, os.stat_result] | None:
    # Only a regular file can be reused: reading a FIFO in a module's place would hang, and
    # whatever else stands there is for write.py to refuse. Bytes, not text mode: a file
    # with CRLF line endings must not read as the LF file it is not. One open (never
    # following a symlink, never blocking) and one fstat, whose result the record of
    # verified files keeps (generator/package/verified.py).
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as stream:
            return stream.read().decode("utf-8"), status
    except (OSError, UnicodeDecodeError):
        return None
    finally:
        os.close(fd)


def _unchanged(name: str, listing: dict[str, os.DirEntry[str]], folder: int, seen: Identity) -> bool:
    """Whether the package file `name` is listed and has the identity `seen` (never through a
    symlink; `lstat` against the open folder: a sixth faster than DirEntry.stat's full path)."""
    try:
        return name in listing and identity(os.stat(name, dir_fd=folder, follow_symlinks=False)) == seen
    except OSError:
        return False


def _on_disk(
    out: Path | None,
    current: str,
    known: list[Any],
    record: Record | None,
    listing: dict[str, os.DirEntry[str]] | None,
) -> OnDisk:
    """The files of the package on disk that may be taken as they are (see the module
    docstring), or none: those the record's entries of declaration files (`known`) vouch
    for, unread (name -> body sha256 and the record's tool they are of), the headers of
    the others, read or taken from the record (name -> header and the status it was read
    with), and the body of `__init__.py`. The package's __init__.py must name this
    generator's fingerprint and the digest of exactly these files; a file that has our
    header but not an intact one (edited by hand) makes the whole package render again."""
    index = _read(out / "__init__.py") if out is not None else None
    parsed = hdr.parse(index[0]) if index is not None else None
    if out is None or index is None or parsed is None or parsed.fields.get("Generator") != current:
        return _nothing_on_disk()
    try:
        if listing is None:
            with os.scandir(out) as entries:
                listing = {e.name: e for e in entries if e.name.endswith(".py")}
        folder = os.open(out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return _nothing_on_disk()
    vouched: dict[str, Tool] = {}
    whole: set[int] = set()  # the record's tools both of whose files it vouched for (by id: alive all run)
    bodies: dict[str, str] = {}
    try:
        for entry in known:
            for tool in entry[2] if entry is not None else ():
                # (Written out for each of the two files: this runs 20,000 times an edit.)
                validator = f"{tool[MODULE]}.py"
                seen = tool[VALIDATOR_SEEN]
                if seen is not None and _unchanged(validator, listing, folder, seen):
                    vouched[validator] = tool
                    bodies[validator] = tool[VALIDATOR_SHA]
                served = f"{tool[MODULE]}{_DECLARATION_FILE}"
                seen = tool[SERVED_SEEN]
                if seen is not None and _unchanged(served, listing, folder, seen):
                    vouched[served] = tool
                    bodies[served] = tool[SERVED_SHA]
                    if validator in vouched:  # both: the tool is taken as it is without a lookup
                        whole.add(id(tool))
    finally:
        os.close(folder)
    read = _headers(out, listing, vouched, record)
    if read is None:
        return _nothing_on_disk()
    bodies.update((name, header.body_sha256) for name, (header, _) in read.items())
    if parsed.fields.get("Package sha256") != hdr.package_digest(bodies):
        return _nothing_on_disk()
    return OnDisk(vouched=vouched, whole=whole, read=read, init=hdr.split(index[0])[1])


def _headers(
    out: Path, listing: dict[str, os.DirEntry[str]], vouched: dict[str, Tool], record: Record | None
) -> dict[str, Read] | None:
    """The headers of the package's files with our header that the record did not vouch for
    (`__init__.py` aside): taken from the record when it knows the file as it is, else read.
    None when one has our header but not an intact one (a generated file edited by hand):
    the whole package renders again."""
    read: dict[str, Read] = {}
    for name, item in listing.items():
        if name in vouched or name == "__init__.py":
            continue
        try:
            status = item.stat(follow_symlinks=False)
        except OSError:
            continue
        known_file = record.package_file(name, status) if record is not None else None
        if known_file is not None:
            read[name] = (known_file, status)
            continue
        got = _read(out / name)
        if got is None or not got[0].startswith(hdr.HEADER):
            continue
        found = hdr.parse(got[0])
        if found is None:
            return None
        read[name] = (found, got[1])
        if record is not None and name.startswith("_"):  # a package file: no tool's module does
            record.note_package_file(name, got[1], found)
    return read


__all__ = [
    "DECLARATION", "Build", "Declaration", "Entry", "Sink", "black_style", "build", "fingerprint", "style_of",
]  # fmt: skip
