"""`await executor.aexecute(name, args)`: the same pipeline and results as `execute`, with the
tool run in a worker thread, so the event loop keeps running while a tool works."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from pathlib import Path
from typing import Any

from runtime import ToolResult
from tests.runtime_support import Journal, make_executor

WAIT = 10.0  # seconds any one wait below may take before the test fails

CALLS: list[tuple[str, Any]] = [
    ("TaskCreate", {"subject": "s", "description": "d"}),
    ("TaskCreate", {"subject": "s"}),
    ("TaskGet", {"taskId": "1"}),
    ("TaskUpdate", {"taskId": "1", "status": "done"}),
    ("Write", {"file_path": "a.txt", "content": "x"}),
    ("Nope", {}),
    ("TaskList", []),
]


def test_aexecute_gives_what_execute_gives(tmp_path: Path) -> None:
    sync_journal, async_journal = Journal(), Journal()
    (tmp_path / "sync").mkdir()
    (tmp_path / "async").mkdir()
    sync = make_executor(tmp_path / "sync", sync_journal, spied=("TaskCreate", "Write"))
    asynchronous = make_executor(tmp_path / "async", async_journal, spied=("TaskCreate", "Write"))

    async def run_all() -> list[ToolResult]:
        return [await asynchronous.aexecute(name, args) for name, args in CALLS]

    expected = [sync.execute(name, args) for name, args in CALLS]
    got = asyncio.run(run_all())
    strip = str(tmp_path / "sync"), str(tmp_path / "async")
    assert [r.text().replace(strip[1], strip[0]) for r in got] == [r.text() for r in expected]
    assert (
        [r.success for r in got]
        == [r.success for r in expected]
        == [True, False, True, False, True, False, False]
    )
    assert async_journal.events == sync_journal.events
    assert [(n, a) for n, a, _ in async_journal.failures] == [(n, a) for n, a, _ in sync_journal.failures]


def test_the_tool_runs_off_the_event_loop(tmp_path: Path) -> None:
    executor = make_executor(tmp_path, Journal())
    started, released = threading.Event(), threading.Event()
    seen: dict[str, object] = {}
    request = contextvars.ContextVar("request", default="none")

    def slow(args: dict[str, Any]) -> str:
        seen["thread"] = threading.get_ident()
        seen["request"] = request.get()
        started.set()
        # Released by a coroutine on the loop: only possible while the loop is not blocked.
        return "released" if released.wait(WAIT) else "the event loop was blocked"

    executor.register_custom("slow", {"type": "object"}, slow)

    async def main() -> ToolResult:
        request.set("req-7")
        task = asyncio.create_task(executor.aexecute("slow", {}))
        while not started.is_set():
            await asyncio.sleep(0.01)
        released.set()
        return await asyncio.wait_for(task, WAIT)

    loop_thread = threading.get_ident()
    result = asyncio.run(main())
    assert result == ToolResult(success=True, content="released")
    assert seen["thread"] != loop_thread and seen["request"] == "req-7"


def test_calls_awaited_together_run_together(tmp_path: Path) -> None:
    executor = make_executor(tmp_path, Journal())
    barrier = threading.Barrier(2, timeout=WAIT)  # passes only when both tools run at once
    executor.register_custom("meet", {"type": "object"}, lambda args: f"met {barrier.wait()}")

    async def main() -> list[ToolResult]:
        return list(await asyncio.gather(executor.aexecute("meet", {}), executor.aexecute("meet", {})))

    results = asyncio.run(main())
    assert sorted(r.text() for r in results) == ["met 0", "met 1"]
