"""`audit --jobs N`: the input read as a stream, in chunks of whole lines, replayed by N processes.

The main process only reads: each file (or standard input, `-`; gzip-compressed input is
recognised by its first bytes, whatever its name) is cut into chunks of whole lines, which
worker processes replay into partial counts; the partial counts are merged in input order,
so the report is the one a single process gives, bad lines listed in the same order. At most
a few chunks per worker are in flight, so memory does not grow with the input. With one job
(or input of a single chunk) nothing is started: the chunks are replayed here.
"""

from __future__ import annotations

import gzip
import io
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, cast

from ..base.pool import pool_context
from .admits import Schema
from .audit import Audit, audit_lines
from .package import Package, import_package
from .repairs import Repairs, declared_schemas

STDIN = "-"
STDIN_NAME = "<stdin>"  # how standard input is named in the report
GZIP_MAGIC = b"\x1f\x8b"
CHUNK_BYTES = 1 << 18  # a quarter of a megabyte: about a thousand logged calls
IN_FLIGHT_PER_WORKER = 2  # one being replayed, one waiting: workers never starve, memory bounded


@dataclass(frozen=True)
class Chunk:
    file: str
    first: int  # the number of its first line in the file
    data: bytes  # whole lines, each with its end of line (the last one may have none)


@dataclass(frozen=True)
class Source:
    name: str
    lines: BinaryIO  # the text, decompressed
    position: Callable[[], int]  # bytes of the file read so far (compressed bytes for gzip)
    size: int | None  # the file's size; None for standard input


@contextmanager
def opened(path: Path, stdin: BinaryIO) -> Iterator[Source]:
    """FILE (or `-`, standard input) as a stream of lines, decompressed when it starts like gzip."""
    if path.as_posix() == STDIN:
        with _unzipped(stdin) as lines:
            yield Source(STDIN_NAME, lines, lambda: 0, None)
        return
    with path.open("rb") as raw, _unzipped(raw) as lines:
        yield Source(path.as_posix(), lines, raw.tell, path.stat().st_size)


@contextmanager
def _unzipped(raw: BinaryIO) -> Iterator[BinaryIO]:
    # Peeking needs a buffered stream: files and sys.stdin.buffer are; a BytesIO is wrapped.
    buffered = raw if hasattr(raw, "peek") else io.BufferedReader(cast(io.RawIOBase, raw))
    if cast(io.BufferedReader, buffered).peek(2)[:2] != GZIP_MAGIC:
        yield buffered
        return
    with gzip.GzipFile(fileobj=buffered, mode="rb") as unzipped:
        yield cast(BinaryIO, unzipped)


def chunks(source: Source, size: int = CHUNK_BYTES) -> Iterator[Chunk]:
    """The source's lines in chunks of about `size` bytes, cut only at ends of lines."""
    first = 1
    pending: list[bytes] = []  # a line longer than a chunk is gathered, never copied twice
    while block := source.lines.read(size):
        cut = block.rfind(b"\n") + 1
        if not cut:
            pending.append(block)
            continue
        data = b"".join([*pending, block[:cut]])
        pending = [block[cut:]] if cut < len(block) else []
        yield Chunk(source.name, first, data)
        first += data.count(b"\n")
    if pending:
        yield Chunk(source.name, first, b"".join(pending))


@dataclass
class Replayer:
    """What a process needs to replay chunks: the package, and with --suggest its declarations."""

    package: Package
    schemas: Mapping[str, Schema] | None

    @classmethod
    def load(cls, folder: Path, suggest: bool, package: Package | None = None) -> Replayer:
        loaded = package if package is not None else import_package(folder)
        return cls(loaded, package_schemas(loaded) if suggest else None)

    def replay(self, chunk: Chunk) -> Audit:
        part = Audit(repairs=Repairs() if self.schemas is not None else None)
        audit_lines(part, self.package, chunk.file, chunk.first, io.BytesIO(chunk.data), self.schemas)
        return part


def package_schemas(package: Package) -> Mapping[str, Schema]:
    """Each validated tool's parameters schema, as the package serves it to the model."""
    tools: Callable[[], list[dict[str, Any]]] | None = getattr(package, "openai_tools", None)
    return declared_schemas(tools()) if tools is not None else {}


_WORKER: list[Replayer] = []  # the replayer of a worker process, set once when it starts


def _start_worker(folder: str, suggest: bool) -> None:
    _WORKER.append(Replayer.load(Path(folder), suggest))


def _replay_in_worker(chunk: Chunk) -> Audit:
    return _WORKER[-1].replay(chunk)


@dataclass
class AuditRun:
    """Feed it sources, then take `finish()`: the merged report."""

    replayer: Replayer
    folder: Path
    workers: int
    chunk_bytes: int = CHUNK_BYTES
    result: Audit = field(init=False)
    pooled: bool = field(default=False, init=False)  # whether worker processes were started
    _pool: ProcessPoolExecutor | None = field(default=None, init=False)
    _in_flight: deque[tuple[Chunk, Future[Audit] | None]] = field(default_factory=deque, init=False)
    _serial: bool = field(init=False)

    def __post_init__(self) -> None:
        self.result = Audit(repairs=Repairs() if self.replayer.schemas is not None else None)
        self._serial = self.workers < 2

    def feed(self, source: Source, progress: Callable[[int], None]) -> None:
        self.result.files.append(source.name)
        done = 0
        for chunk in chunks(source, self.chunk_bytes):
            self._submit(chunk)
            position = source.position()
            progress(position - done)
            done = position

    def _submit(self, chunk: Chunk) -> None:
        if self._serial:
            self.result.merge(self.replayer.replay(chunk))
            return
        # The pool starts with the second chunk: input of one chunk is replayed here.
        if self._pool is None and self._in_flight:
            self._start()
        future = self._pool.submit(_replay_in_worker, chunk) if self._pool is not None else None
        self._in_flight.append((chunk, future))
        while len(self._in_flight) > IN_FLIGHT_PER_WORKER * self.workers or (
            self._serial and self._in_flight
        ):
            self._take()

    def _start(self) -> None:
        try:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=pool_context([__name__]),
                initializer=_start_worker,
                initargs=(str(self.folder), self.replayer.schemas is not None),
            )
        except (OSError, ValueError):
            self._serial = True
            return
        self.pooled = True
        self._in_flight = deque(
            (chunk, self._pool.submit(_replay_in_worker, chunk)) for chunk, _ in self._in_flight
        )

    def _take(self) -> None:
        """Merge the oldest chunk in flight (replayed here when no worker can)."""
        chunk, future = self._in_flight.popleft()
        part: Audit | None = None
        if future is not None and not self._serial:
            try:
                part = future.result()
            except (BrokenProcessPool, OSError):
                self._serial = True  # a worker died: the rest is replayed here
        self.result.merge(part if part is not None else self.replayer.replay(chunk))

    def abandon(self) -> None:
        """Stop without a report (a file could not be read): nothing more is replayed."""
        self._in_flight.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def finish(self) -> Audit:
        try:
            while self._in_flight:
                self._take()
        finally:
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=True)
                self._pool = None
        return self.result
