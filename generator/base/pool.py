"""How many worker processes a command may start, and how it starts them.

Shared by the commands that pool work over processes (`generate` formats files with black,
`audit` replays calls): both use every core this process may run on, within TOOLGEN_JOBS.
Kept apart from generator/emit/format.py so that a command which never formats (audit) does not
import black to learn how many cores it has.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Sequence

# `TOOLGEN_JOBS=N` caps the worker processes (1: always serial); unset or not a positive
# integer: one per core this process may run on.
JOBS_VARIABLE = "TOOLGEN_JOBS"


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def usable_workers() -> int:
    """The worker processes a pooled command starts by default: the cores, within TOOLGEN_JOBS."""
    setting = os.environ.get(JOBS_VARIABLE, "").strip()
    return min(cores(), int(setting) if setting.isdigit() and int(setting) > 0 else cores())


def can_fork() -> bool:
    """Whether a worker may be forked from this process, to start with its imports already done
    (in milliseconds): only on Linux (macOS system libraries do not survive a fork) and not
    from a process with other threads (a lock one of them holds would stay held in the child)."""
    methods = multiprocessing.get_all_start_methods()
    return sys.platform.startswith("linux") and "fork" in methods and threading.active_count() == 1


def pool_context(preload: Sequence[str]) -> multiprocessing.context.BaseContext:
    """The start method for worker processes; `preload` names modules a fork server imports
    once, so that each worker starts with them."""
    # fork where it can (can_fork); else a fork server, started clean, does the forking;
    # spawn where neither exists (Windows).
    if can_fork():
        return multiprocessing.get_context("fork")
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(preload))
        return context
    return multiprocessing.get_context("spawn")
