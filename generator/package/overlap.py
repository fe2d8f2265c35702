"""A renderer started in its own process before pass 1, so that its start-up overlaps the scan.

An edit of one declaration renders two files, but the process that renders them must first
import jinja2 and black and compile the templates (a third of a second), as long as pass 1's
scan of 10,000 unchanged tools. When a declaration changed since the package was written
(`edited`), on Linux with two or more usable cores, the CLI forks one worker as soon as it
has imported generator.package.build (which imports neither): the worker imports the compiler and
compiles a tool's templates while the parent scans, then renders and formats what pass 2
sends it with the functions a run here uses (generator/package/pipeline.py `compile_job`,
finishing each file with generator/emit/format.py `format_source`), so the bytes are the
same. A run with nothing to render never waits for it; one with many files renders here
(generator/package/build.py `_renderer`).

A worker that dies or reports an error is left: the file it failed on and every file sent
after it are rendered here, in order (an error raised here again, as a serial run raises
it). It never outlives the run: the parent kills it when the run ends, however it ends (the
CLI's `finally`, multiprocessing's exit handler for a daemon), and a parent killed outright
closes the pipe, on which the worker then reads the end and exits. docs/scale.md ("The
renderer started first") says why that sign and when it is not used.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Iterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from ..base.pool import can_fork, usable_workers
from ..front.vocabulary import VOCABULARIES
from .build import LocalRenderer, Renderer
from .pipeline import Job, compile_job

# The templates a tool's two modules render with (module.py.j2 includes the other two).
_TOOL_TEMPLATES = ("module.py.j2", "checks.j2", "collector.j2", "declaration.py.j2")


def _worker(conn: Connection, parents: Connection, keywords: str) -> None:
    """The worker: import the compiler and compile the templates, then compile each job
    received (its files' formatted bodies, in order) until the parent closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # ^C is the parent's to handle; it kills us
    parents.close()  # the parent's end open in the parent only: its exit ends our input
    try:
        from ..emit.format import format_source
        from ..emit.render import environment

        env = environment()
        for template in _TOOL_TEMPLATES:
            env.get_template(template)
        vocabulary = VOCABULARIES[keywords]
        while True:
            try:
                job = conn.recv()
            except (EOFError, OSError):
                return  # the parent is gone, or done
            try:
                reply: list[str] | None = compile_job(job, vocabulary, env, format_source)
            except Exception:  # rendered again by the parent, which raises it as a serial run does
                reply = None
            conn.send(reply)
    finally:
        os._exit(0)  # nothing of the parent's (atexit handlers, buffered output) runs here


def edited(schemas: Path, declarations: dict[str, os.DirEntry[str]], out: Path) -> bool:
    """Whether a declaration file, or the folder's list of them, changed (ctime) since the
    package's `__init__.py` was written: the sign that the run may render a tool (docs/scale.md,
    "Why that sign"). No package: False (a cold run renders here, with the formatter pool)."""
    try:
        written = os.stat(out / "__init__.py").st_ctime_ns
    except OSError:
        return False
    try:
        if os.stat(schemas).st_ctime_ns >= written:
            return True
        return any(entry.stat().st_ctime_ns >= written for entry in declarations.values())
    except OSError:
        return True


class Service:
    """A Renderer (generator/package/build.py) in a forked worker; `start` gives one, or None."""

    def __init__(self, process: BaseProcess, conn: Connection, keywords: str) -> None:
        self._process = process
        self._conn = conn
        self._keywords = keywords
        self._pending: deque[Job] = deque()  # sent, not answered yet, in order
        self._here: Renderer | None = None  # once the worker is left

    @classmethod
    def start(cls, keywords: str) -> Service | None:
        """A worker for `keywords`, or None when it has nothing to overlap: no fork, one usable
        core, or the compiler imported already (docs/scale.md, "When it is not used")."""
        if usable_workers() < 2 or not can_fork() or "black" in sys.modules:
            return None
        context = multiprocessing.get_context("fork")
        mine, theirs = context.Pipe()
        try:
            process = context.Process(target=_worker, args=(theirs, mine, keywords), daemon=True)
            process.start()
        except OSError:
            mine.close()
            return None
        finally:
            theirs.close()
        return cls(process, mine, keywords)

    def submit(self, job: Job) -> None:
        if self._here is not None:
            self._here.submit(job)
            return
        self._pending.append(job)
        try:
            self._conn.send(job)
        except Exception:  # a closed pipe, a value pickle refuses: rendered here in any case
            self._leave()

    def ready(self) -> Iterator[str]:
        while self._pending and self._here is None and self._answered():
            yield from self._receive()
        if self._here is not None:
            yield from self._here.ready()

    def finish(self) -> Iterator[str]:
        while self._pending and self._here is None:
            yield from self._receive()
        if self._here is not None:
            yield from self._here.finish()

    def _answered(self) -> bool:
        try:
            return self._conn.poll(0)
        except (OSError, EOFError):
            return True  # _receive finds out

    def _receive(self) -> Iterator[str]:
        """The bodies of the oldest pending job's files, or nothing when the worker failed on it
        (then it and every job after it is compiled here)."""
        try:
            texts: list[str] | None = self._conn.recv()
        except (OSError, EOFError):
            texts = None
        if texts is not None:
            self._pending.popleft()
            yield from texts
        else:
            self._leave()

    def _leave(self) -> None:
        """Stop the worker; the files pending go, in order, to a renderer here."""
        self._stop()
        self._here = LocalRenderer(VOCABULARIES[self._keywords])
        for job in self._pending:
            self._here.submit(job)
        self._pending.clear()

    def _stop(self) -> None:
        # Killed, not asked to stop: it holds nothing to save, and one still compiling
        # templates that the run does not need after all must not keep it waiting.
        if not self._conn.closed:
            self._conn.close()
            self._process.kill()
            self._process.join()

    def close(self) -> None:
        self._stop()
        if self._here is not None:
            self._here.close()
        self._pending.clear()
