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
package; one file of marshal data behind its sha256, written whole (temp file, then rename)
under the package's lock. A record that
is missing, unreadable, corrupt, from another generator or for another folder is ignored: it
can only spare reading a file, never make one trusted that reading would not trust.
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
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path
from typing import Any

from generator.header import Header

# The record is marshal data (fast to load: it is read by every run, 10,000 entries and
# more) after a sha256 of it, checked before anything is unmarshalled: a truncated or
# damaged record is ignored, never loaded. The format names the Python version, whose
# marshal it is.
FORMAT = f"toolgen verified 1 marshal {marshal.version} python {sys.version_info[0]}.{sys.version_info[1]}"
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
        self._changed = False
        self._load()

    def _load(self) -> None:
        try:
            raw = self.path.read_bytes()
        except OSError:
            self._changed = True
            return
        data: Any = None
        if raw[:32] == hashlib.sha256(raw[32:]).digest():
            collecting = gc.isenabled()
            gc.disable()  # tens of thousands of plain objects, no cycle among them
            try:
                data = marshal.loads(raw[32:])
            except (ValueError, EOFError, TypeError):
                data = None
            finally:
                if collecting:
                    gc.enable()
        if (
            not isinstance(data, tuple)
            or len(data) != 6
            or data[:3] != (FORMAT, self.generator, self.folder)
            or not isinstance(data[3], list)
            or not isinstance(data[4], dict)
            or not isinstance(data[5], dict)
        ):
            self._changed = True
            return
        self._commands = data[3]
        self._command_index = {c: i for i, c in enumerate(self._commands) if isinstance(c, str)}
        self._old_generated = data[4]
        self._old_sources = data[5]

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
        """Write the record when this run found something to add to it, or none could be
        read (entries of files changed or gone are dropped then; until then they cost only a
        little room, since no file can match them). A failure is ignored: the record is only
        a way to spare reads."""
        if not self._changed:
            return
        data = (FORMAT, self.generator, self.folder, self._commands, self._generated, self._sources)
        with suppress(OSError, ValueError):  # ValueError: a value marshal cannot write
            payload = marshal.dumps(data)
            self._folder()
            handle, temp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
            try:
                with os.fdopen(handle, "wb") as stream:
                    stream.write(hashlib.sha256(payload).digest() + payload)
                os.replace(temp, self.path)
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
