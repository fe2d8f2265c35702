"""Stage 4: format rendered source with black (mode pinned here) and prove it parses.

`format_all` formats a whole run's files, in a process pool when there is enough work and
more than one core: black is pure CPU and nearly all of a cold generate's time, so a pool
divides it by the number of cores. The results come back in input order and are the same
bytes as a serial run (black is deterministic; each file is formatted on its own).
"""

from __future__ import annotations

import ast
import multiprocessing
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import black
from black.mode import TargetVersion
from black.parsing import InvalidInput

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
# `TOOLGEN_JOBS=N` caps the worker processes (1: always serial); unset or not a positive
# integer: one per core this process may run on.
JOBS_VARIABLE = "TOOLGEN_JOBS"


class RenderError(Exception):
    """Generated source that does not parse: a bug in toolgen, never in a declaration."""


def format_source(name: str, source: str) -> str:
    """black's formatting of one rendered file, which must parse before and after."""
    try:
        formatted = black.format_str(source, mode=MODE)
    except InvalidInput as exc:
        raise RenderError(f"{name}: rendered code does not parse: {exc}") from exc
    try:
        ast.parse(formatted, filename=name)
    except SyntaxError as exc:
        raise RenderError(f"{name}: rendered code does not parse: {exc}") from exc
    return formatted


def _format_job(job: tuple[str, str]) -> str:
    return format_source(*job)


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def workers_for(jobs: Sequence[tuple[str, str]]) -> int:
    """How many processes to format `jobs` with: 1 means serial, in this process."""
    wanted = cores()
    setting = os.environ.get(JOBS_VARIABLE, "").strip()
    if setting.isdigit() and int(setting) > 0:
        wanted = min(wanted, int(setting))
    if wanted < 2 or len(jobs) < 2 or sum(len(source) for _, source in jobs) < PARALLEL_MIN_CHARS:
        return 1
    return min(wanted, len(jobs))


def _context() -> multiprocessing.context.BaseContext:
    # fork: the workers start with black already imported, in milliseconds. Not from a
    # process with other threads (a lock held by one of them would stay held in the child):
    # there a fork server, started clean, does the forking.
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["generator.format"])
        return context
    return multiprocessing.get_context("spawn")


def format_all(jobs: Sequence[tuple[str, str]], workers: int | None = None) -> list[str]:
    """format_source of every (name, source), in input order; `workers` None: workers_for.

    Raises RenderError for the first file (in input order) that does not parse. When worker
    processes cannot be started or die, the remaining work is done serially, same output.
    """
    count = workers_for(jobs) if workers is None else max(1, min(workers, len(jobs)))
    if count == 1:
        return [format_source(name, source) for name, source in jobs]
    # Largest first, so that the biggest file (_declarations.py) never starts last and
    # leaves the other workers idle; the results are put back in input order.
    order = sorted(range(len(jobs)), key=lambda i: (-len(jobs[i][1]), i))
    results: list[str | None] = [None] * len(jobs)
    failures: list[tuple[int, RenderError]] = []
    try:
        pool = ProcessPoolExecutor(count, mp_context=_context())
    except (OSError, ValueError):
        return [format_source(name, source) for name, source in jobs]
    try:
        futures = [(i, pool.submit(_format_job, jobs[i])) for i in order]
        for i, future in futures:
            try:
                results[i] = future.result()
            except RenderError as exc:
                failures.append((i, exc))
            except (BrokenProcessPool, OSError):
                break
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    if failures:
        raise min(failures, key=lambda failure: failure[0])[1]
    return [
        formatted if formatted is not None else format_source(*jobs[i]) for i, formatted in enumerate(results)
    ]
