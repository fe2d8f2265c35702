"""The record of files already verified: what lets an edit of one of 10,000 tools skip reading
and parsing the other 9,999 tools' files (docs/scale.md, "The record of verified files").

A run reads each declaration file to hash it, parses the changed ones, and reads each
generated file to check its body against its header. The record keeps, for each declaration
file, one flat entry: the file's identity as `stat` gives it (size, mtime_ns, ctime_ns,
inode, device), its sha256, and its tools as pass 1 accepted them (name, module, position,
whether listed, warnings), each with the identity (`lstat`) and body sha256 of its two
generated files as a run found them: intact, and exactly the files a run writes for that tool
of that source. The package's own files (`_support.py`, `_paths.py`, `_declarations.py`:
names that start with an underscore, as no tool module's does, generator/ir/names.py) are kept
by name with their parsed header. A later run that finds a file with exactly the identity
recorded takes the finding without opening it; any other identity, or no entry, is read as
before. A hand edit changes the ctime, which no user can set back (`os.utime` sets mtime and
atime only), so an edited file never matches its entry, whatever its size and mtime. A tool's
file is taken only on the word of the entry of that very tool of that very declaration file
(generator/package/build.py). A declaration file's tools depend only on its bytes (and the generator,
which the record names): an entry whose sha256 is the one read gives them even when its
identity changed.

Only files whose ctime is older than the run's start by MARGIN_NS have their identity
recorded: a change in the same clock tick as the stat the record keeps would give the same
ctime (file timestamps come from a coarse clock; some file systems keep whole seconds), so a
file changed that recently is read again next time instead (git's "racy clean" problem,
solved the cautious way). Files this run writes are therefore read once more by the next run.

The record lives beside the package, `<parent>/.toolgen-cache/<package>.record`: never
inside the package, so it is in no diff, no package digest, no wheel and no listing of the
package; marshal data in chunks, each behind its sha256 and length, each naming the format
(and the Python version, whose marshal it is), the generator's fingerprint, the package
folder and the command headers name. A run that only learned new entries appends them as one
chunk (an edit of one of 10,000 tools adds one entry: rewriting them all would cost more
than the rest of the edit's reads); the record is written whole (temp file, then rename)
when none could be read, when its appended chunks or its entries of files gone grow past a
quarter of it (`_SLACK`), or when a chunk is damaged. A chunk that is missing, unreadable,
corrupt, from another generator or for another folder or command is ignored, with every
chunk after it, as is an entry of another shape: the record can only spare reading a file,
never make one trusted that reading would not trust.
"""

from __future__ import annotations

import gc
import hashlib
import marshal
import os
import stat
import struct
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Final

from ..emit.header import Header
from ..front.errors import NoticeKind
from .write import atomic_write

# The record is chunks of marshal data (fast to load: it is read by every run, 10,000
# entries and more), each after the sha256 of its bytes and their length, checked before
# anything is unmarshalled: a truncated or damaged chunk is ignored, never loaded. The
# format names the Python version, whose marshal it is.
FORMAT = f"toolgen verified 3 marshal {marshal.version} python {sys.version_info[0]}.{sys.version_info[1]}"
_SHA = 32  # a chunk: sha256 of its payload, its payload's length (8 bytes, little-endian), its payload
_LENGTH = 8
# Written whole rather than appended to once what it holds past the run's own entries
# (appended chunks, entries of files replaced or gone) reaches this share of it.
_SLACK = 4
CACHE = ".toolgen-cache"
IGNORE_ALL = "# Created by toolgen: a cache, never committed.\n*\n"
MARGIN_NS = 2_000_000_000  # older than this when recorded: see the module docstring

# A file's identity: size, mtime_ns, ctime_ns, inode and device, packed (one object in the
# record rather than six: loading 30,000 of them is a third of the time it takes to read it).
Identity = bytes
_IDENTITY = struct.Struct("<QqqQQ")
# A declaration file's entry: (identity or None, sha256, its tools). A package file's:
# (identity, source, header fields). Plain tuples, not named ones: marshal writes only exact
# tuples, and loading 10,000 entries a run is the record's whole point. So a tool is a plain
# tuple read at these named offsets:
NAME: Final = 0  # the tool's name
MODULE: Final = 1  # its module's name (generator/ir/names.py)
POSITION: Final = 2  # among the tools of its file, from 0
LISTED: Final = 3  # one of many tools in its file
WARNINGS: Final = 4  # each (pointer, kind, reason, keywords)
VALIDATOR_SEEN: Final = 5  # its validator module's identity as recorded, or None
VALIDATOR_SHA: Final = 6  # that module's body sha256 when it is this run's, else None
SERVED_SEEN: Final = 7  # its declaration module's identity as recorded, or None
SERVED_SHA: Final = 8  # that module's body sha256 when it is this run's, else None
Note = tuple[str, NoticeKind, str, tuple[str, ...]]  # a warning as headers and the record keep it
Tool = tuple[str, str, int, bool, tuple[Note, ...], Identity | None, str | None, Identity | None, str | None]
# What pass 1 learns of a tool before it looks at the disk (NAME to WARNINGS), and what it finds
# there for its two files (VALIDATOR_SEEN to SERVED_SHA).
Accepted = tuple[str, str, int, bool, tuple[Note, ...]]
Found = tuple[Identity | None, str | None, Identity | None, str | None]
UNSEEN: Found = (None, None, None, None)  # neither file found on disk as this run writes it
_HEADED = {"Source sha256", "Body sha256"}  # the fields every header has
_SEEN = (bytes, type(None))
_NOTE = (str, str, str, tuple)


def identity(status: os.stat_result) -> Identity | None:
    """None for a clock past what 64 bits of nanoseconds hold: such a file is never recorded,
    never taken from the record (an entry's identity is compared only when it is not None)."""
    try:
        return _IDENTITY.pack(
            status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino, status.st_dev
        )
    except struct.error:
        return None


class Record:
    """The record of one package folder, as read at the start of a run and kept by it.

    `source` and `package_file` answer from the record read; `keep` and `note_package_file`
    keep what this run found for the record it writes. Entries of files not seen this run
    are dropped when the record is written whole.
    """

    def __init__(self, out: Path, generator: str, command: str) -> None:
        package = out.resolve()
        self.path = package.parent / CACHE / f"{package.name}.record"  # beside the package, never in it
        self.command = command
        self._key = (FORMAT, generator, str(package), command)
        self.cutoff = time.time_ns() - MARGIN_NS
        self._old: tuple[dict[str, Any], dict[str, Any]] = ({}, {})  # declaration files, package files
        self._new: tuple[dict[str, Any], dict[str, Any]] = ({}, {})  # the record this run writes
        try:
            raw = self.path.read_bytes()
        except OSError:
            raw = b""
        self._whole = not raw  # write the record whole, not one more chunk
        self._size = len(raw)  # bytes read
        self._appended = 0  # of which in chunks past the first
        collecting = gc.isenabled()
        gc.disable()  # tens of thousands of plain objects, no cycle among them
        try:
            position = 0
            while position < len(raw):
                data, end = _chunk(raw, position)
                if not (isinstance(data, tuple) and len(data) == 6 and data[:4] == self._key):
                    # Damaged from here on (a run killed while appending, a disk error):
                    # what came before holds; the next save writes the record whole.
                    self._whole = True
                    break
                for old, entries in zip(self._old, data[4:], strict=True):
                    if isinstance(entries, dict):  # a later chunk's entries are newer
                        old.update(entries)
                if position:
                    self._appended += end - position
                position = end
        finally:
            if collecting:
                gc.enable()

    def source(self, path: str) -> Any:
        """The entry of the declaration file `path` (see Identity), if the record has one of
        the shape this module writes (its checksum holds: only a record written on purpose
        could fail that)."""
        entry: Any = self._old[0].get(path)
        try:
            seen, sha, tools = entry
            if not (isinstance(seen, _SEEN) and type(sha) is str and type(tools) is tuple):
                return None
            for tool in tools:  # (a loop: all() over a generator costs an edit of 10,000 tools 20 ms)
                if len(tool) != 9 or type(tool[NAME]) is not str or type(tool[MODULE]) is not str:
                    return None
                if type(tool[POSITION]) is not int or type(tool[WARNINGS]) is not tuple:
                    return None
                for note in tool[WARNINGS]:
                    if len(note) != 4 or not all(map(isinstance, note, _NOTE)):
                        return None
        except (TypeError, ValueError):
            return None
        return entry

    def keep(self, path: str, entry: tuple[Identity | None, str, tuple[Tool, ...]]) -> None:
        """The entry of the declaration file `path` as this run found it."""
        self._new[0][path] = entry

    def seen(self, status: os.stat_result) -> Identity | None:
        """The identity to record of a file read this run (before `status` could change);
        None when it changed too recently to be told from a change still to come."""
        if not stat.S_ISREG(status.st_mode) or status.st_ctime_ns >= self.cutoff:
            return None
        return identity(status)

    def package_file(self, name: str, status: os.stat_result) -> Header | None:
        """The header of the package file `name` as the record found it, if its identity is
        the one recorded."""
        entry: Any = self._old[1].get(name)
        try:
            seen, source, fields = entry
            if seen is None or seen != identity(status) or type(source) is not str:
                return None
            if type(fields) is not dict or not fields.keys() >= _HEADED:
                return None
        except (TypeError, ValueError):
            return None
        self._new[1][name] = entry
        return Header(fields, source, self.command)

    def note_package_file(self, name: str, status: os.stat_result, header: Header) -> None:
        """`name` was read this run and found to be `header` (its body hashing as it says)."""
        seen = self.seen(status)
        if seen is not None and header.command == self.command:
            self._new[1][name] = (seen, header.source, header.fields)

    def save(self) -> None:
        """Keep what this run found: one more chunk of the entries it made or changed, or the
        record written whole (see the module docstring). Nothing when this run found nothing
        new. A failure is ignored: the record is only a way to spare reads."""
        added = tuple(
            # (`is` first: most entries a run keeps are the very ones it read)
            {n: e for n, e in new.items() if (was := old.get(n)) is not e and was != e}
            for old, new in zip(self._old, self._new, strict=True)
        )
        if not (self._whole or added[0] or added[1]):
            return
        entries = len(self._old[0]) + len(self._old[1])
        stale = entries - len(self._new[0]) - len(self._new[1])
        whole = self._whole or self._appended * _SLACK > self._size or stale * _SLACK > entries
        with suppress(OSError, ValueError):  # ValueError: a value marshal cannot write
            payload = _sealed(marshal.dumps((*self._key, *(self._new if whole else added))))
            if whole:
                # The cache folder is made with a .gitignore that ignores it all (as pytest, mypy
                # and ruff make theirs): a project need not list it in its own .gitignore.
                if not self.path.parent.is_dir():
                    self.path.parent.mkdir()
                    (self.path.parent / ".gitignore").write_text(IGNORE_ALL, encoding="utf-8")
                atomic_write(self.path, payload)
                return
            # One write in append mode: a run killed meanwhile leaves a short chunk at the
            # end, which the next run ignores and then writes the record whole.
            flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
            with open(os.open(self.path, flags), "wb", buffering=0) as file:  # one write(2)
                file.write(payload)


def _sealed(payload: bytes) -> bytes:
    """A chunk (what `_chunk` reads): the payload after its sha256 and its length."""
    return hashlib.sha256(payload).digest() + len(payload).to_bytes(_LENGTH, "little") + payload


def _chunk(raw: bytes, position: int) -> tuple[Any, int]:
    """The data of the chunk at `position` and where it ends; None when short or damaged."""
    start = position + _SHA + _LENGTH
    end = start + int.from_bytes(raw[position + _SHA : start], "little")
    if end > len(raw) or hashlib.sha256(raw[start:end]).digest() != raw[position : position + _SHA]:
        return None, end
    try:
        return marshal.loads(raw[start:end]), end
    except (ValueError, EOFError, TypeError):
        return None, end


@contextmanager
def long_lived() -> Iterator[None]:
    """The objects alive now (the imported compiler, the record read) left out of the cycle
    collector's scans until the block ends: they outlive the run, and a collection that walks
    a record of 10,000 entries again and again costs an edit of a large package more than the
    edit (gc.freeze; docs/scale.md, "The cycle collector"). Nothing is frozen when something
    else froze objects."""
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
