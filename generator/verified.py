"""The record of files already verified: what lets an edit of one of 10,000 tools skip reading
the other 29,999 files (docs/scale.md, "The record of verified files").

A run reads each declaration file to hash it and each generated file to check its body
against its header. The record remembers, for each file it read, the file's identity as
`lstat`/`stat` gives it (size, mtime_ns, ctime_ns, inode, device) and what reading it found
(a declaration file's sha256; a generated file's parsed header). A later run that finds a
file with exactly that identity takes the finding without opening the file; any other
identity, or no record, is read and hashed as before. A hand edit changes the ctime, which
no user can set back (`os.utime` sets mtime and atime only), so an edited file never
matches its entry, whatever its size and mtime.

Only files whose ctime is older than the run's start by MARGIN_NS are recorded: a change in
the same clock tick as the stat the record keeps would give the same ctime (file timestamps
come from a coarse clock; some file systems keep whole seconds), so a file changed that
recently is read again next time instead (git's "racy clean" problem, solved the cautious
way). Files this run writes are therefore read once more by the next run.

The record lives beside the package, `<parent>/.toolgen-cache/<package>.record`: never
inside the package, so it is in no diff, no package digest, no wheel and no listing of the
package; marshal data in chunks, each behind its sha256 and length. A run that only learned
new entries appends them as one chunk (an edit of one of 10,000 tools adds a few entries to
a record of 30,000: rewriting it all would cost more than the rest of the edit's reads); the
record is written whole (temp file, then rename) when none could be read, when its appended
chunks or its entries of files gone grow past a quarter of it, or when a chunk is damaged.
A chunk that is missing, unreadable, corrupt, from another generator or for another folder
is ignored, with every chunk after it: it can only spare reading a file, never make one
trusted that reading would not trust.
"""

from __future__ import annotations

import gc
import hashlib
import marshal
import os
import stat
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from generator.header import Header

# The record is chunks of marshal data (fast to load: it is read by every run, 10,000
# entries and more), each after the sha256 of its bytes and their length, checked before
# anything is unmarshalled: a truncated or damaged chunk is ignored, never loaded. The
# format names the Python version, whose marshal it is.
FORMAT = f"toolgen verified 2 marshal {marshal.version} python {sys.version_info[0]}.{sys.version_info[1]}"
_SHA = 32  # a chunk: sha256 of its payload, its payload's length (8 bytes, little-endian), its payload
_LENGTH = 8
# Written whole rather than appended to once what it holds past the run's own entries
# (appended chunks, entries of files replaced or gone) reaches this share of it.
_SLACK = 4
CACHE = ".toolgen-cache"
IGNORE_ALL = "# Created by toolgen: a cache, never committed.\n*\n"
MARGIN_NS = 2_000_000_000  # older than this when recorded: see the module docstring

Identity = tuple[int, int, int, int, int]  # size, mtime_ns, ctime_ns, inode, device


def identity(status: os.stat_result) -> Identity:
    return (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino, status.st_dev)


def record_path(out: Path) -> Path:
    """Where the record of the package `out` lives: beside it, never inside it."""
    resolved = out.resolve()
    return resolved.parent / CACHE / f"{resolved.name}.record"


class Record:
    """The record of one package folder, as read at the start of a run and kept by it.

    `generated` and `source` answer from the record read; `note_*` keep what this run read
    (if old enough) for the record it writes. Entries of files not seen this run are dropped.
    """

    def __init__(self, out: Path, generator: str, started_ns: int | None = None) -> None:
        self.path = record_path(out)
        self.generator = generator
        self.folder = str(out.resolve())
        self.cutoff = (time.time_ns() if started_ns is None else started_ns) - MARGIN_NS
        self._old_generated: dict[str, Any] = {}
        self._old_sources: dict[str, Any] = {}
        self._commands: list[Any] = []  # the commands headers name (one, nearly always)
        self._command_index: dict[str, int] = {}  # command -> its index in _commands
        self._generated: dict[str, Any] = {}  # the record this run writes
        self._sources: dict[str, Any] = {}
        self._added: set[str] = set()  # names whose entries this run made or changed
        self._added_sources: set[str] = set()
        self._changed = False
        self._whole = False  # write the record whole, not one more chunk
        self._size = 0  # bytes read
        self._appended = 0  # of which in chunks past the first
        self._load()

    def _load(self) -> None:
        try:
            raw = self.path.read_bytes()
        except OSError:
            self._changed = self._whole = True
            return
        collecting = gc.isenabled()
        gc.disable()  # tens of thousands of plain objects, no cycle among them
        try:
            position = 0
            while position < len(raw):
                data = _chunk(raw, position)
                if data is None or not self._valid(data):
                    # Damaged from here on (a run killed while appending, a disk error):
                    # what came before holds; the next save writes the record whole.
                    self._changed = self._whole = True
                    break
                self._merge(data, first=not position)
                length = raw[position + _SHA : position + _SHA + _LENGTH]
                size = _SHA + _LENGTH + int.from_bytes(length, "little")
                if position:
                    self._appended += size
                position += size
        finally:
            if collecting:
                gc.enable()
        self._size = len(raw)
        if not raw:
            self._changed = self._whole = True

    def _valid(self, data: Any) -> bool:
        return (
            isinstance(data, tuple)
            and len(data) == 6
            and data[:3] == (FORMAT, self.generator, self.folder)
            and isinstance(data[3], list)
            and isinstance(data[4], dict)
            and isinstance(data[5], dict)
        )

    def _merge(self, data: tuple[Any, ...], first: bool) -> None:
        """One chunk's entries into the record read; later chunks' entries win (newer)."""
        commands, generated, sources = data[3], data[4], data[5]
        known = len(self._commands)
        if commands[:known] == self._commands[: len(commands)]:  # the same numbering, or more of it
            for command in commands[known:]:
                if isinstance(command, str):
                    self._command_index.setdefault(command, len(self._commands))
                self._commands.append(command)
        else:  # its command indexes are its own: renumber its entries against this record's
            mapping: dict[int, int | None] = {}
            for i, command in enumerate(commands):
                if isinstance(command, str) and command not in self._command_index:
                    self._command_index[command] = len(self._commands)
                    self._commands.append(command)
                mapping[i] = self._command_index.get(command) if isinstance(command, str) else None
            generated = {
                name: (e[0], mapping.get(e[1]), *e[2:])
                for name, e in generated.items()
                if isinstance(e, tuple) and len(e) == 5 and isinstance(e[1], int)
            }
        if first:
            self._old_generated, self._old_sources = generated, sources
        else:
            self._old_generated.update(generated)
            self._old_sources.update(sources)

    # A generated file's entry: (identity, command index, source, {header field: value},
    # memo); a declaration file's: (identity, sha256). The memo is what build() derived from
    # the header the last time (generator/build.py `_recorded`), or None.

    def generated(self, name: str, status: os.stat_result) -> Header | None:
        """The header of the package file `name` as the record found it, if its identity is
        the one recorded."""
        entry = self._old_generated.get(name)
        try:  # (its checksum holds, so only a record written on purpose could fail here)
            if entry is None or entry[0] != identity(status):
                return None
            command, source, fields = self._commands[entry[1]], entry[2], entry[3]
        except (TypeError, IndexError, KeyError):
            return None
        if not (isinstance(command, str) and isinstance(source, str) and isinstance(fields, dict)):
            return None
        self._generated[name] = entry
        return Header(fields, source, command)

    def note_generated(self, name: str, status: os.stat_result, header: Header) -> None:
        """`name` was read this run and found to be `header` (its body hashing as it says)."""
        if not stat.S_ISREG(status.st_mode) or status.st_ctime_ns >= self.cutoff:
            return
        index = self._command_index.get(header.command)
        if index is None:
            index = self._command_index[header.command] = len(self._commands)
            self._commands.append(header.command)
        self._generated[name] = (identity(status), index, header.source, header.fields, None)
        self._added.add(name)
        self._changed = True

    def memo(self, name: str) -> Any:
        """What was derived from the header of `name` when it was recorded (None: nothing),
        for a file taken from the record this run."""
        entry = self._generated.get(name)
        return entry[4] if entry is not None else None

    def note_memo(self, name: str, memo: Any) -> None:
        """What this run derived from the header of `name` (plain data: tuples, str, int)."""
        entry = self._generated.get(name)
        if entry is not None and entry[4] != memo:
            self._generated[name] = (*entry[:4], memo)
            self._added.add(name)
            self._changed = True

    def source(self, path: str, status: os.stat_result) -> str | None:
        """The sha256 of the declaration file `path` as the record found it, if its identity
        is the one recorded."""
        entry = self._old_sources.get(path)
        try:
            if entry is None or entry[0] != identity(status) or not isinstance(entry[1], str):
                return None
        except (TypeError, IndexError, KeyError):
            return None
        self._sources[path] = entry
        sha: str = entry[1]
        return sha

    def note_source(self, path: str, status: os.stat_result, sha: str) -> None:
        """The declaration file `path` was read this run (before `status` could change) and
        hashed to `sha`."""
        if not stat.S_ISREG(status.st_mode) or status.st_ctime_ns >= self.cutoff:
            return
        self._sources[path] = (identity(status), sha)
        self._added_sources.add(path)
        self._changed = True

    def forget(self, names: Iterable[str]) -> None:
        """Package files this run replaced or removed: their entries name files gone."""
        for name in names:
            self._generated.pop(name, None)

    def _folder(self) -> None:
        """The cache folder, made with a .gitignore that ignores it all (as pytest, mypy and
        ruff make theirs): a project need not list it in its own .gitignore."""
        folder = self.path.parent
        if not folder.is_dir():
            folder.mkdir()
            (folder / ".gitignore").write_text(IGNORE_ALL, encoding="utf-8")

    def save(self) -> None:
        """Keep what this run found: one more chunk of the entries it made, or the record
        written whole (see the module docstring). Nothing when this run found nothing new.
        A failure is ignored: the record is only a way to spare reads."""
        if not self._changed:
            return
        stale = len(self._old_generated) + len(self._old_sources) - len(self._generated) - len(self._sources)
        entries = len(self._old_generated) + len(self._old_sources)
        whole = self._whole or self._appended * _SLACK > self._size or stale * _SLACK > entries
        with suppress(OSError, ValueError):  # ValueError: a value marshal cannot write
            if whole:
                self._write_whole()
                return
            generated = {n: self._generated[n] for n in self._added if n in self._generated}
            sources = {p: self._sources[p] for p in self._added_sources if p in self._sources}
            data = (FORMAT, self.generator, self.folder, self._commands, generated, sources)
            payload = _sealed(marshal.dumps(data))
            # One write in append mode: a run killed meanwhile leaves a short chunk at the
            # end, which the next run ignores and then writes the record whole.
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
            try:
                os.write(fd, payload)
            finally:
                os.close(fd)

    def _write_whole(self) -> None:
        data = (FORMAT, self.generator, self.folder, self._commands, self._generated, self._sources)
        payload = _sealed(marshal.dumps(data))
        self._folder()
        handle, temp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(payload)
            os.replace(temp, self.path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


def _sealed(payload: bytes) -> bytes:
    """A chunk: the payload after its sha256 and its length."""
    return hashlib.sha256(payload).digest() + len(payload).to_bytes(_LENGTH, "little") + payload


def _chunk(raw: bytes, position: int) -> Any:
    """The data of the chunk at `position`, or None when it is short or damaged."""
    start = position + _SHA + _LENGTH
    if start > len(raw):
        return None
    end = start + int.from_bytes(raw[position + _SHA : start], "little")
    if end > len(raw) or hashlib.sha256(raw[start:end]).digest() != raw[position : position + _SHA]:
        return None
    try:
        return marshal.loads(raw[start:end])
    except (ValueError, EOFError, TypeError):
        return None


@contextmanager
def long_lived() -> Iterator[None]:
    """The objects alive now (the imported compiler, the record read) left out of the cycle
    collector's scans until the block ends: they outlive the run, and a collection that
    walks a record of 30,000 entries again and again costs an edit of a large package more
    than the edit (gc.freeze). Nothing is frozen when something else froze objects."""
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
