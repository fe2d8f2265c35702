"""A renderer started before pass 1, in its own process, so that its start-up overlaps the scan.

An edit of one declaration renders two or three files, but the process that renders them must
first import jinja2 and black and compile the templates (about a third of a second), as much
as pass 1's scan of 10,000 unchanged tools. On two or more cores the CLI forks one worker
before it imports either: the worker imports the compiler, compiles the templates and formats
`__init__.py`'s body (the same for every package of a keyword mode) while the parent scans,
then renders and formats what pass 2 sends it. The parent never imports jinja2 or black on
that path. The worker renders with the very functions a local run uses (generator/build.py
`render_job`, generator/format.py `format_source`), so the bytes are the same.

Only with `fork` (Linux, a parent with no other thread): a worker started any other way
imports everything from scratch, which is the cost this is meant to hide. A worker that dies,
or that reports an error, is left: its pending files are rendered here (an error raised
here again, as a serial run raises it).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from generator.pool import usable_workers

if TYPE_CHECKING:
    from generator.build import Job

def _serve(conn: Connection, keywords: str) -> None:
    """The worker: import and warm the compiler, then render and format each job received."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles ^C and closes us
    from generator.build import render_job
    from generator.format import format_source
    from generator.render import environment, render_init
    from generator.vocabulary import VOCABULARIES

    env = environment()
    # `__init__.py` first: every run asks for it, and a run with nothing else to render (a
    # package in sync) waits for nothing more. Then the templates an edit renders with,
    # compiled while the parent scans (the index's only when a tool is added or removed).
    init: tuple[str, Any] = ("ok", format_source("__init__.py", render_init(env, keywords)))
    for template in ("module.py.j2", "checks.j2", "collector.j2", "declaration.py.j2"):
        env.get_template(template)
    vocabulary = VOCABULARIES[keywords]
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        name, what = job
        try:
            if what == ("init", keywords):
                reply: tuple[str, Any] = init
            else:
                reply = ("ok", format_source(name, render_job(env, what, vocabulary)))
        except Exception as exc:
            reply = ("error", repr(exc))
        conn.send(reply)


def _child(conn: Connection, parent: Connection, keywords: str) -> None:
    parent.close()
    try:
        _serve(conn, keywords)
    finally:
        conn.close()
        os._exit(0)  # nothing of the parent's (atexit, buffered output) runs in the worker


class Service:
    """A renderer in a forked worker (generator/build.py `Renderer`), or None from `start`."""

    def __init__(self, process: multiprocessing.process.BaseProcess, conn: Connection, keywords: str) -> None:
        self._process = process
        self._conn = conn
        self._keywords = keywords
        self._pending: deque[tuple[str, Job]] = deque()  # sent, reply not taken, in order
        self._local: Any = None  # a local renderer, once the worker failed

    @classmethod
    def start(cls, keywords: str) -> Service | None:
        """A worker for `keywords`, when this machine and process can fork one cheaply."""
        methods = multiprocessing.get_all_start_methods()
        if usable_workers() < 2 or not sys.platform.startswith("linux") or "fork" not in methods:
            return None
        if threading.active_count() != 1 or "black" in sys.modules:
            return None  # a fork with other threads is unsafe; with black loaded, pointless
        context = multiprocessing.get_context("fork")
        mine, theirs = context.Pipe()
        try:
            process = context.Process(target=_child, args=(theirs, mine, keywords), daemon=True)
            process.start()
        except OSError:
            return None
        theirs.close()
        return cls(process, mine, keywords)

    def submit(self, name: str, job: Job) -> None:
        if self._local is not None:
            self._local.submit(name, job)
            return
        try:
            self._conn.send((name, job))
        except (OSError, ValueError):
            self._fail()
            self._local.submit(name, job)  # type: ignore[attr-defined]  # (made by _fail)
            return
        self._pending.append((name, job))

    def ready(self) -> Iterator[str]:
        if self._local is not None:
            yield from self._local.ready()
            return
        while self._pending and self._poll():
            yield self._take()
        if self._local is not None:  # failed while taking: the rest is done here
            yield from self._local.ready()

    def finish(self) -> Iterator[str]:
        while self._pending and self._local is None:
            yield self._take()
        if self._local is not None:
            yield from self._local.finish()

    def init(self, keywords: str) -> str:
        if self._local is None:
            self.submit("__init__.py", ("init", keywords))
            for text in self.finish():
                return text
        return str(self._local.init(keywords))

    def _poll(self) -> bool:
        try:
            return self._conn.poll(0)
        except (OSError, EOFError):
            return True  # _take finds out

    def _take(self) -> str:
        name, job = self._pending[0]
        try:
            status, value = self._conn.recv()
        except (OSError, EOFError):
            self._fail()
            return self._render_here(name, job)
        self._pending.popleft()
        if status != "ok":  # rendered here again, so that the error is raised as a serial run raises it
            self._fail()
            return self._render_here(name, job)
        return str(value)

    def _render_here(self, name: str, job: Job) -> str:
        self._pending.popleft()
        return str(self._local.render_now(name, job))

    def _fail(self) -> None:
        """Leave the worker: everything pending and to come is rendered here."""
        from generator.build import LocalRenderer
        from generator.vocabulary import VOCABULARIES

        if self._local is not None:
            return
        self._stop()
        self._local = LocalRenderer(VOCABULARIES[self._keywords])
        pending, self._pending = self._pending, deque()
        # The first pending one is rendered by the caller (_take); the others go to the local renderer.
        if pending:
            first = pending.popleft()
            self._pending.append(first)
        for name, job in pending:
            self._local.submit(name, job)

    def _stop(self) -> None:
        # Killed, not asked to stop: it holds nothing to save, and a worker still compiling
        # templates no run will use (a package in sync) must not keep the run waiting.
        self._conn.close()
        self._process.kill()
        self._process.join()

    def close(self) -> None:
        if self._local is not None:
            self._local.close()
        elif not self._conn.closed:
            self._stop()
        self._pending.clear()
