"""OpenTelemetry: each rejected call adds a span event to the current span and counts in two
counters, read back with the SDK's in-memory span exporter and metric reader; parameters and
kinds are recorded, argument values never. Without the package nothing changes."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from opentelemetry import metrics
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader, NumberDataPoint
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import generated
from runtime import ToolExecutor, check_call
from tests.runtime_support import Journal, make_executor

ROOT = Path(__file__).resolve().parent.parent
SECRET = "hunter2-do-not-log"
_READER: list[InMemoryMetricReader] = []  # the process's meter provider can be set only once

Counts = dict[tuple[str, frozenset[tuple[str, Any]]], int]


@pytest.fixture(scope="module")
def reader() -> InMemoryMetricReader:
    if not _READER:
        _READER.append(InMemoryMetricReader())
        metrics.set_meter_provider(MeterProvider(metric_readers=[_READER[0]]))
    return _READER[0]


@pytest.fixture
def spans() -> Iterator[tuple[TracerProvider, InMemorySpanExporter]]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield provider, exporter
    provider.shutdown()


def counts(reader: InMemoryMetricReader) -> Counts:
    """Every toolgen counter's cumulative value per attribute set."""
    found: Counts = {}
    data = reader.get_metrics_data()
    for resource in data.resource_metrics if data else ():
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                if metric.name.startswith("toolgen."):
                    for point in metric.data.data_points:
                        assert isinstance(point, NumberDataPoint)  # a counter's
                        attributes = frozenset((point.attributes or {}).items())
                        found[(metric.name, attributes)] = int(point.value)
    return found


def delta(before: Counts, after: Counts) -> Counts:
    return {key: value - before.get(key, 0) for key, value in after.items() if value != before.get(key, 0)}


def key(name: str, **attributes: str) -> tuple[str, frozenset[tuple[str, Any]]]:
    return (name, frozenset(attributes.items()))


def events(exporter: InMemorySpanExporter) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (s.name, e.name, dict(e.attributes or {})) for s in exporter.get_finished_spans() for e in s.events
    ]


@pytest.fixture
def executor(tmp_path: Path) -> ToolExecutor:
    return make_executor(tmp_path, Journal())


BAD_WRITE = {"path": f"/tmp/{SECRET}", "content": SECRET}
BAD_QUESTION = {
    "questions": [
        {
            "question": "q?",
            "header": "h",
            "options": [{"label": "a", "description": "d"}],
            "multiSelect": "no",
        },
        {
            "question": "r?",
            "header": "h",
            "options": [{"label": "b", "description": "e"}],
            "multiSelect": SECRET,
        },
    ]
}


def test_a_rejected_call_is_a_span_event_and_counts(
    executor: ToolExecutor, reader: InMemoryMetricReader, spans: tuple[TracerProvider, InMemorySpanExporter]
) -> None:
    provider, exporter = spans
    before = counts(reader)
    with provider.get_tracer("test").start_as_current_span("agent turn"):
        assert not executor.execute("Write", BAD_WRITE).success
        assert not executor.execute("AskUserQuestion", BAD_QUESTION).success
        assert executor.execute("TaskList", {}).success  # valid: nothing recorded
        assert not executor.execute("TaskList", []).success
    assert events(exporter) == [
        (
            "agent turn",
            "tool_input_rejected",
            {"tool": "Write", "kind": ("missing", "unexpected"), "parameter": ("file_path", "path")},
        ),
        (
            "agent turn",
            "tool_input_rejected",
            {
                "tool": "AskUserQuestion",
                "kind": ("type", "type"),
                "parameter": ("questions[*].multiSelect",) * 2,
            },
        ),
        (
            "agent turn",
            "tool_input_rejected",
            {"tool": "TaskList", "kind": ("type",), "parameter": ("(input)",)},
        ),
    ]
    assert delta(before, counts(reader)) == {
        key("toolgen.tool_calls.rejected", tool="Write"): 1,
        key("toolgen.tool_calls.rejected", tool="AskUserQuestion"): 1,
        key("toolgen.tool_calls.rejected", tool="TaskList"): 1,
        key("toolgen.tool_input.issues", tool="Write", kind="missing", parameter="file_path"): 1,
        key("toolgen.tool_input.issues", tool="Write", kind="unexpected", parameter="path"): 1,
        key(
            "toolgen.tool_input.issues",
            tool="AskUserQuestion",
            kind="type",
            parameter="questions[*].multiSelect",
        ): 2,
        key("toolgen.tool_input.issues", tool="TaskList", kind="type", parameter="(input)"): 1,
    }
    recorded = repr(events(exporter)) + repr(counts(reader))
    assert SECRET not in recorded


def test_the_span_of_the_caller_gets_the_event_through_aexecute_and_check_call(
    executor: ToolExecutor, reader: InMemoryMetricReader, spans: tuple[TracerProvider, InMemorySpanExporter]
) -> None:
    provider, exporter = spans
    before = counts(reader)

    async def turn() -> None:
        with provider.get_tracer("test").start_as_current_span("async turn"):
            assert not (await executor.aexecute("TaskGet", {})).success

    asyncio.run(turn())
    with provider.get_tracer("test").start_as_current_span("guard"):
        assert check_call(generated, "TaskGet", {"taskId": 1}) is not None
        assert (
            check_call(generated, "mcp__x__y", {"anything": SECRET}) is None
        )  # not declared: not a rejection
    assert events(exporter) == [
        (
            "async turn",
            "tool_input_rejected",
            {"tool": "TaskGet", "kind": ("missing",), "parameter": ("taskId",)},
        ),
        ("guard", "tool_input_rejected", {"tool": "TaskGet", "kind": ("type",), "parameter": ("taskId",)}),
    ]
    assert delta(before, counts(reader)) == {
        key("toolgen.tool_calls.rejected", tool="TaskGet"): 2,
        key("toolgen.tool_input.issues", tool="TaskGet", kind="missing", parameter="taskId"): 1,
        key("toolgen.tool_input.issues", tool="TaskGet", kind="type", parameter="taskId"): 1,
    }


SCRIPT = """
import json, sys
sys.modules["opentelemetry"] = None  # as if opentelemetry-api were not installed
import generated
from runtime import ToolExecutor
executor = ToolExecutor(generated)
seen = []
sinking = ToolExecutor(generated, on_validation_failure=lambda *a: seen.append(a[0]))
results = [executor.execute("TaskGet", {}).error, sinking.execute("TaskGet", {}).error]
otel = [m for m, v in sys.modules.items() if m.startswith("opentelemetry") and v]
print(json.dumps({"results": results, "sink": seen, "otel": otel}))
"""


def test_without_opentelemetry_nothing_changes(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path), str(tmp_path / "tasks")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    missing = "TaskGet failed due to the following issue:\nThe required parameter `taskId` is missing"
    assert json.loads(out.stdout) == {
        "results": [missing, missing],
        "sink": ["TaskGet"],
        "otel": [],
    }
    assert out.stderr == ""
