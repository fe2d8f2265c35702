"""Stage 6: format rendered source with black (mode pinned here) and prove it parses.

`Formatter` formats a run's files as they are rendered, in a process pool when there is enough
work and more than one core: black is pure CPU and nearly all of a cold generate's time, so a pool
divides it by the number of cores. The results come back in input order and are the same
bytes as a serial run (black is deterministic; each file is formatted on its own).
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import black
from black.mode import TargetVersion
from black.parsing import InvalidInput

from ..base.pool import pool_context, usable_workers

# Pinned in code so that output never depends on a reader's black configuration.
MODE = black.Mode(
    target_versions={TargetVersion.PY310},
    line_length=88,
    string_normalization=True,
    is_pyi=False,
    magic_trailing_comma=True,
    preview=False,
)

# Below this much rendered source (about half a second of black on one core), starting
# worker processes costs more than it saves: small runs stay serial.
PARALLEL_MIN_CHARS = 64_000


_Queued = tuple[str, str, "Future[str] | None"]  # a file: name, source, its result (None: not sent)


class RenderError(Exception):
    """Generated source that does not parse: a bug in toolgen, never in a declaration."""


def format_source(name: str, source: str) -> str:
    """black's formatting of one rendered file, which must parse before and after."""
    try:
        formatted = black.format_str(source, mode=MODE)
        ast.parse(formatted, filename=name)
    except (InvalidInput, SyntaxError) as exc:
        raise RenderError(f"{name}: rendered code does not parse: {exc}") from exc
    return formatted


def _pool_size(files: int, chars: int, workers: int | None = None) -> int:
    """Worker processes for this much work (1: serial, in this process); `workers` fixes it."""
    if workers is not None:
        return min(workers, files)
    wanted = usable_workers()
    return 1 if wanted < 2 or files < 2 or chars < PARALLEL_MIN_CHARS else min(wanted, files)


class Formatter:
    """Formats a run's files while they are still being rendered: `submit` each as soon as it is
    rendered; `ready()` gives the results done so far, `finish()` the rest, in submission order.

    Files are held back until the work pays for a pool (`_pool_size`, which `workers` fixes);
    a run that never gets there is formatted serially, here. Submit the largest file first when
    it is known, so that it does not start last. Memory stays bounded: a file's source is
    dropped once its result is taken, and `ready()` waits for the oldest file while more than
    WINDOW per worker are in flight.
    """

    WINDOW = 8  # files in flight per worker: enough to keep each busy

    def __init__(self, workers: int | None = None) -> None:
        self._workers = workers
        # (name, source, future) in submission order, not yet taken; no future: not sent.
        self._queue: deque[_Queued] = deque()
        self._chars = 0
        self._count = 0
        self._pool: ProcessPoolExecutor | None = None
        self._processes = 1  # of the pool, once started
        self._serial = workers is not None and workers < 2

    def submit(self, name: str, source: str) -> None:
        self._count += 1
        self._chars += len(source)
        future = self._pool.submit(format_source, name, source) if self._pool is not None else None
        self._queue.append((name, source, future))
        if not (self._pool or self._serial) and _pool_size(self._count, self._chars, self._workers) > 1:
            self._start()

    def _start(self) -> None:
        # Sized for the whole run, since files keep coming: the cores, within TOOLGEN_JOBS.
        count = self._workers or usable_workers()
        try:
            pool = ProcessPoolExecutor(count, mp_context=pool_context([__name__]))
        except (OSError, ValueError):
            self._serial = True
            return
        self._pool, self._processes = pool, count
        self._queue = deque(
            (name, source, pool.submit(format_source, name, source)) for name, source, _ in self._queue
        )

    def _take(self) -> str:
        name, source, future = self._queue.popleft()
        if future is not None:
            try:
                return future.result()
            except (BrokenProcessPool, OSError):  # the workers died: the rest is done here
                rest: deque[_Queued] = deque((n, s, None) for n, s, _ in self._queue)
                self.close()
                self._serial, self._queue = True, rest
        return format_source(name, source)

    def ready(self) -> Iterator[str]:
        """The results that can be taken now, in submission order: with a pool, those done
        (and the oldest, waited for, while too many are in flight); serially, every one."""
        while self._queue:
            future = self._queue[0][2]
            if future is None and not self._serial:
                return  # held back: a pool may still start
            waiting = future is not None and not future.done()
            if waiting and (self._pool is None or len(self._queue) <= self.WINDOW * self._processes):
                return
            yield self._take()

    def finish(self) -> Iterator[str]:
        """Every result not taken yet, in submission order; RenderError for the first (in that
        order) that does not parse. The pool is shut down afterwards, whatever happens."""
        self._serial = self._serial or self._pool is None
        try:
            while self._queue:
                yield self._take()
        finally:
            self.close()

    def close(self) -> None:
        """Stop the workers (also after an error); results not taken are dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        self._queue.clear()
