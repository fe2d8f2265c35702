"""Stage 7: compare the rendered package with the disk, then write only what changed.

`Staging` takes the files as build() formats them: each is compared with the disk at once,
and a changed one is written to a temp file in the output folder (generate) or kept for
the diff (--check); the run holds hashes, not texts. Nothing is renamed into place until
every file has been rendered and parsed: then each temp file replaces its file atomically,
and only regular files carrying the generated header are ever overwritten or deleted. A run
that fails or is killed before that leaves the old package whole (its temp files are
removed, now or by the next run). Staging and writing happen under an exclusive lock on the
output folder, so two generators never interleave their writes.
"""

from __future__ import annotations

import difflib
import errno
import fcntl
import fnmatch
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from ..emit.header import HEADER as HEADER
from ..front.load import project_root

# Written last (after every module they may name) and in this order; orphans go after them.
_LAST = {"_support.py": 1, "_declarations.py": 2, "__init__.py": 3}
_TEMP_SUFFIX = ".tmp"

# Test seam: called with each path right after it has been atomically replaced or deleted.
AfterWrite = Callable[[Path], None]


@dataclass(frozen=True)
class Plan:
    out: Path
    files: dict[str, str]  # file name -> content: at least every changed or missing file
    changed: tuple[str, ...]  # exist with other content
    missing: tuple[str, ...]  # do not exist yet
    orphans: tuple[str, ...]  # generated modules no declaration produces any more
    foreign: tuple[str, ...]  # files we would overwrite that lack our header: refused

    @property
    def in_sync(self) -> bool:
        return not (self.changed or self.missing or self.orphans)


class OutputError(Exception):
    """The output folder cannot be written safely; nothing was written."""


def _regular(path: Path) -> bool:
    """A plain file, not a symlink, folder or FIFO (reading a FIFO would block forever)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def is_generated(path: Path) -> bool:
    """A regular file whose first line is our header: the only kind we overwrite or delete."""
    if not _regular(path):
        return False
    try:
        with path.open("rb") as handle:
            return handle.read(len(HEADER)) == HEADER.encode()
    except OSError:
        return False


def check_output_folder(out: Path, schemas: Path) -> None:
    """Refuse an --out that is a file, lies inside --schemas, or is the project root (or above)."""
    if os.path.lexists(out) and not out.is_dir():
        raise OutputError(f"{out}: the output path exists and is not a folder")
    target = out.resolve()
    source = schemas.resolve()
    if target == source or source in target.parents:
        raise OutputError(f"{out}: the output folder must not be inside the schemas folder {schemas}")
    root = project_root(Path.cwd().resolve())
    if target == root or target in root.parents:
        raise OutputError(f"{out}: the output folder must not be the project root {root} or above it")


class Staging:
    """A run's files as they come (build()'s sink): compared with the disk one by one.
    With `write`, a changed file goes at once to a temp file beside its target (dot-name,
    `.tmp`), under the exclusive lock (`begin`: the CLI takes it before the package is first
    read, else it is taken on the first changed file); `commit` renames them into place in
    write order and removes the orphans, `abort` removes them. Without, nothing is written
    and the changed files' texts are kept for `plan`'s diff. A file that is not ours (no
    generated header, or not a regular file) is never overwritten: it is refused at commit.
    Files reused as they are on disk are only named (`keep`): build() took them unrendered
    only as generator/package/build.py's module docstring allows, under the same lock."""

    def __init__(self, out: Path, write: bool, after_write: AfterWrite | None = None) -> None:
        self.out = out
        self.write = write
        self.after_write = after_write or (lambda path: None)
        self._names: set[str] = set()
        self._texts: dict[str, str] = {}  # --check: the changed files' texts
        self._temps: dict[str, str] = {}  # generate: file name -> its temp file (a str: 20,000 of them)
        self._changed: list[str] = []
        self._missing: list[str] = []
        self._foreign: list[str] = []
        self._lock: ExitStack | None = None
        self._created = False  # the folder did not exist before this run
        self._listing: dict[str, os.DirEntry[str]] | None = None

    def keep(self, name: str) -> None:
        self._names.add(name)

    def put(self, name: str, content: str) -> None:
        self._names.add(name)
        target = self.out / name
        data = content.encode("utf-8")
        if not os.path.lexists(target):  # (lexists: even a dangling symlink takes the name)
            self._missing.append(name)
        elif not is_generated(target):
            self._changed.append(name)
            self._foreign.append(name)  # refused at commit; --check shows what would replace it
        elif _same(target, data):
            return
        else:
            self._changed.append(name)
        if not self.write:
            self._texts[name] = content
        elif not self._foreign:
            if self._lock is None:
                self.begin()
            self._temps[name] = _temp_file(target, data)

    def begin(self) -> None:
        """Create the folder, take the exclusive lock and remove a killed run's temp files."""
        try:
            self._created = not self.out.exists()
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"{self.out}: cannot create the output folder: {exc.strerror or exc}") from exc
        self._lock = ExitStack()
        self._lock.enter_context(locked(self.out))
        self._listing = _py_files(self.out, remove_temps=True)

    def listing(self) -> dict[str, os.DirEntry[str]]:
        """The folder's .py files (name -> entry), listed once: a run holds the lock from its
        first read of the package to its last write (`begin`, or the CLI's shared lock for
        --check), so only the run itself changes them meanwhile, and build() reads the same
        listing (a package of 20,000 files is listed once, not three times)."""
        if self._listing is None:
            self._listing = _py_files(self.out)
        return self._listing

    def plan(self) -> Plan:
        """What differs from the disk (for --check, or once everything is staged)."""
        listing = self.listing() if self.out.is_dir() else {}
        orphans = [n for n in listing if n not in self._names and is_generated(self.out / n)]
        lists = (self._changed, self._missing, orphans, self._foreign)
        return Plan(self.out, dict(self._texts), *(tuple(sorted(names)) for names in lists))

    def commit(self) -> Plan:
        """Every staged file into place, in write order, then the orphans removed."""
        try:
            todo = self.plan()
            if todo.foreign:
                raise OutputError(
                    f"{self.out}: refusing to overwrite files without the generated header: "
                    + ", ".join(todo.foreign)
                )
            if todo.orphans and self._lock is None:
                self.begin()
            try:
                # Tool modules first, then _LAST in order: the index never names a missing module.
                for name in sorted(todo.changed + todo.missing, key=lambda n: (_LAST.get(n, 0), n)):
                    os.replace(self._temps.pop(name), self.out / name)
                    self.after_write(self.out / name)
                for name in todo.orphans:
                    (self.out / name).unlink()
                    self.after_write(self.out / name)
            except OSError as exc:
                raise OutputError(f"{self.out}: cannot write: {exc.strerror or exc}") from exc
            return todo
        finally:
            self.abort()

    def abort(self) -> None:
        """Remove the temp files not renamed into place, and release the lock."""
        for temp in self._temps.values():
            Path(temp).unlink(missing_ok=True)
        self._temps.clear()
        if self._lock is not None:
            self._lock.close()
            self._lock = None
            self._listing = None
        if self._created:  # a run that wrote nothing leaves no folder it made (after commit: not empty)
            with suppress(OSError):
                self.out.rmdir()
            self._created = False


def _same(target: Path, data: bytes) -> bool:
    """Whether the file holds exactly these bytes (read only when the sizes agree)."""
    try:
        return os.stat(target).st_size == len(data) and target.read_bytes() == data
    except OSError:
        return False


def diff(plan: Plan) -> str:
    """A unified diff from the disk to what would be generated (orphans shown as deletions)."""
    return folder_diff(plan.out, plan.changed + plan.missing + plan.orphans, plan.files, _regular)


def folder_diff(
    folder: Path, names: Iterable[str], files: Mapping[str, str], read: Callable[[Path], bool]
) -> str:
    """Each named file's unified diff from the disk (where `read` says so, else /dev/null) to
    `files` (else /dev/null). After git's `a/` and `b/` an absolute path loses its leading
    slash, as in `git diff --no-index` (`a/tmp/x.py`, never `a//tmp/x.py`)."""
    chunks: list[str] = []
    for name in names:
        path = folder / name
        old = path.read_text("utf-8", errors="replace") if read(path) else None
        new = files.get(name)
        shown = path.as_posix().lstrip("/")
        chunks += difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            (new or "").splitlines(keepends=True),
            fromfile="/dev/null" if old is None else f"a/{shown}",
            tofile="/dev/null" if new is None else f"b/{shown}",
        )
    return "".join(chunks)


def atomic_write(path: Path, content: str | bytes) -> None:
    """Replace `path` with `content` (a str as UTF-8) in one rename: a reader sees the old or
    the new file."""
    temp = _temp_file(path, content.encode("utf-8") if isinstance(content, str) else content)
    try:
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _temp_file(target: Path, data: bytes) -> str:
    """`data` in a new temp file beside `target` (a dot-name ending in .tmp), synced to disk."""
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=_TEMP_SUFFIX)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return temp


def _py_files(out: Path, remove_temps: bool = False) -> dict[str, os.DirEntry[str]]:
    """The folder's .py files (name -> entry); with `remove_temps` (only under the lock), the
    temp files a killed run left behind are removed: only ours (name pattern and header)."""
    with os.scandir(out) as listing:  # (not glob: it matches a pattern against every file)
        entries = list(listing)
    ours = f".*.py.*{_TEMP_SUFFIX}"
    for name in [e.name for e in entries] if remove_temps else ():
        if name.endswith(_TEMP_SUFFIX) and fnmatch.fnmatchcase(name, ours) and is_generated(out / name):
            (out / name).unlink()
    return {e.name: e for e in entries if e.name.endswith(".py")}


@contextmanager
def locked(out: Path, exclusive: bool = True) -> Iterator[None]:
    """Hold a lock on the output folder itself (no lock file to commit or mistake for an orphan).

    Another run holding it makes this one wait, after saying so on stderr. A shared lock (for
    --check) only waits for writers. The folder must exist.
    """
    try:
        fd = os.open(out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise OutputError(f"{out}: cannot open the output folder: {exc.strerror or exc}") from exc
    mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
    try:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise OutputError(f"{out}: cannot lock the output folder: {exc.strerror}") from exc
            print(f"{out}: waiting for another toolgen run to finish", file=sys.stderr, flush=True)
            fcntl.flock(fd, mode)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
