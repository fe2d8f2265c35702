"""`toolgen audit --jobs N`: the same report from N processes as from one, and input read as a
stream (standard input, gzip recognised by its first bytes) in chunks of whole lines."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import generated
from generator.cli.commands import main
from generator.readers import auditrun
from generator.readers.audit import as_json
from generator.readers.auditrun import AuditRun, Chunk, Replayer, Source, chunks
from generator.readers.package import import_package
from runtime.failures import JsonlFailureSink
from tests.toolgen_cli import ROOT, invoke

PACKAGE = ROOT / "generated"
SHAPES = [
    *(ROOT / "examples" / "audit" / "openai.jsonl").read_text("utf-8").splitlines(),
    *(ROOT / "examples" / "audit" / "anthropic.jsonl").read_text("utf-8").splitlines(),
]


def every_kind_of_line(folder: Path) -> list[bytes]:
    """The examples' logged shapes (OpenAI, Responses, Anthropic, plain, pass-through, not
    JSON), failure-sink lines with and without arguments, lines that are not UTF-8, nested
    too deeply, unrecognised or malformed, blank lines, and a misspelt tool name."""
    sink_log = folder / "sink.jsonl"
    sink_log.unlink(missing_ok=True)
    for sink in (JsonlFailureSink(sink_log), JsonlFailureSink(sink_log, include_arguments=True)):
        for tool, args in (("TaskUpdate", {"id": "2"}), ("Read", {"file_path": "a", "limit": "5"})):
            sink(tool, args, generated.issues(tool, args))
    lines = [line.encode("utf-8") for line in SHAPES]
    lines += sink_log.read_bytes().splitlines()
    lines += [
        b"\xff\xfe not utf-8",
        b"[" * 5000,
        b'{"foo": 1}',
        b'{"type": "tool_use", "input": {}}',
        b"",
        b"   ",
        json.dumps({"name": "read", "arguments": {"file_path": "a"}}).encode(),
        json.dumps({"type": "function_call", "name": "Glob", "arguments": '{"pattern": "*.py"}'}).encode(),
    ]
    return lines


def write_log(folder: Path, copies: int) -> Path:
    """A log of every kind of line, `copies` times over (each copy with its own values, so
    bad lines and counts differ by position), ending without an end of line."""
    base = every_kind_of_line(folder)
    out = []
    for i in range(copies):
        out += [line.replace(b"a.txt", f"f{i}.txt".encode()) for line in base]
        out.append(json.dumps({"name": "Read", "arguments": {"file_path": "x", "offset": str(i)}}).encode())
    log = folder / "calls.jsonl"
    log.write_bytes(b"\n".join(out))
    return log


def test_two_jobs_give_the_same_report_as_one_text_and_json(tmp_path: Path) -> None:
    log = write_log(tmp_path, 100)  # about 1 MB: four chunks, so two workers share them
    assert log.stat().st_size > 1 << 18
    for extra in ([], ["--json"], ["--suggest"], ["--suggest", "--json"]):
        one = invoke("audit", "--no-progress", "--jobs", "1", *extra, str(log))
        two = invoke("audit", "--no-progress", "--jobs", "2", *extra, str(log))
        assert (one.exit_code, one.stderr) == (0, "")
        assert (two.exit_code, two.stdout, two.stderr) == (0, one.stdout, "")
    data = json.loads(one.stdout)
    not_blank = sum(1 for line in every_kind_of_line(tmp_path) if line.strip()) + 1
    assert data["lines"] == 100 * not_blank
    assert data["bad_lines"] == 100 * 5 and len(data["bad"]) == 20
    assert data["counted_from_records"] == 100 * 2
    assert data["misspelt"] == [{"tool": "read", "calls": 100, "meant": ["Read"]}]


def run_in(workers: int, sources: list[Source], chunk_bytes: int) -> dict[str, object]:
    replayer = Replayer.load(PACKAGE, suggest=True)
    run = AuditRun(replayer, PACKAGE, workers, chunk_bytes)
    for source in sources:
        run.feed(source, lambda _: None)
    pooled = run.pooled
    report = as_json(run.finish())
    return {"pooled": pooled, **report}


def source(name: str, data: bytes) -> Source:
    stream = io.BytesIO(data)
    return Source(name, stream, stream.tell, len(data))


def test_small_chunks_over_a_pool_merge_in_input_order(tmp_path: Path) -> None:
    data = write_log(tmp_path, 20).read_bytes()
    sources = [source("a.jsonl", data), source("b.jsonl", data[: len(data) // 3])]
    serial = run_in(1, sources, 1 << 12)
    sources = [source("a.jsonl", data), source("b.jsonl", data[: len(data) // 3])]
    pooled = run_in(2, sources, 1 << 12)
    assert (serial.pop("pooled"), pooled.pop("pooled")) == (False, True)
    assert pooled == serial
    one_chunk = run_in(2, [source("a.jsonl", data + b"\n")], len(data) + 1)
    assert one_chunk.pop("pooled") is False  # nothing to share: no process started


def test_chunks_are_whole_lines_numbered_as_in_the_file() -> None:
    data = b"a\nbb\n\nccc\r\n" + b"d" * 50 + b"\ne"
    found = list(chunks(source("x", data), size=4))
    assert b"".join(c.data for c in found) == data
    assert all(c.data.endswith(b"\n") for c in found[:-1])
    assert [(c.first, c.data) for c in found] == [
        (1, b"a\n"),
        (2, b"bb\n\n"),
        (4, b"ccc\r\n"),
        (5, b"d" * 50 + b"\n"),
        (6, b"e"),
    ]
    assert found[0] == Chunk("x", 1, b"a\n")


class CountingStream(io.RawIOBase):
    """An endless stream of log lines that counts what it was asked for."""

    def __init__(self) -> None:
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        line = b'{"name": "Read", "arguments": {"file_path": "a"}}\n'
        data = (line * (len(buffer) // len(line) + 1))[: len(buffer)]
        buffer[: len(data)] = data
        self.served += len(data)
        return len(data)


def test_a_stream_is_read_a_chunk_at_a_time_not_whole() -> None:
    stream = CountingStream()
    lines = io.BufferedReader(stream)
    first = next(chunks(Source("<stdin>", lines, lambda: 0, None), size=1 << 16))
    assert len(first.data) <= 1 << 16 and stream.served < 1 << 18  # never the whole (endless) input


def test_stdin_and_gzip_give_the_report_of_the_plain_file(tmp_path: Path) -> None:
    log = write_log(tmp_path, 3)
    plain = json.loads(invoke("audit", "--json", str(log)).stdout)
    packed = tmp_path / "calls.jsonl.gz"
    packed.write_bytes(gzip.compress(log.read_bytes()))
    misnamed = tmp_path / "calls.log"  # gzip recognised by its first bytes, not by its name
    misnamed.write_bytes(packed.read_bytes())
    for path in (packed, misnamed):
        found = json.loads(invoke("audit", "--json", "--jobs", "2", str(path)).stdout)
        assert found == {**plain, "files": [str(path)], "bad": _renamed(plain["bad"], str(path))}
    piped = CliRunner().invoke(main, ["audit", "--json", "-"], input=log.read_bytes(), prog_name="toolgen")
    assert piped.exit_code == 0
    found = json.loads(piped.stdout)
    assert found == {**plain, "files": ["<stdin>"], "bad": _renamed(plain["bad"], "<stdin>")}


def _renamed(bad: list[dict[str, object]], name: str) -> list[dict[str, object]]:
    return [{**entry, "file": name} for entry in bad]


def test_stdin_is_named_in_the_report() -> None:
    lines = [*SHAPES[:3], "{not json"]
    result = invoke("audit", "-", stdin="\n".join(lines) + "\n")
    assert result.exit_code == 0
    assert result.stdout.startswith("1 file, 4 lines, 1 tool call, 1 bad line\n")
    assert result.stdout.endswith(
        "bad lines:\n  <stdin>:4: not JSON: Expecting property name enclosed in double quotes: "
        "line 1 column 2 (char 1)\n"
    )


def test_a_broken_gzip_file_is_refused_naming_it(tmp_path: Path) -> None:
    broken = tmp_path / "cut.jsonl.gz"
    whole = gzip.compress(b"".join(b'{"name": "Read", "arguments": {"n": %d}}\n' % i for i in range(9000)))
    broken.write_bytes(whole[: len(whole) // 2])
    result = invoke("audit", str(broken))
    assert (result.exit_code, result.stderr) == (
        2,
        f"error: {broken}: Compressed file ended before the end-of-stream marker was reached\n",
    )


def test_the_package_loads_in_each_worker_from_its_folder() -> None:
    replayer = Replayer.load(PACKAGE, suggest=False)
    assert replayer.schemas is None
    assert import_package(PACKAGE).TOOL_NAMES == replayer.package.TOOL_NAMES


def test_a_pool_that_cannot_start_replays_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_processes(*args: object, **kwargs: object) -> None:
        raise OSError("no more processes")

    data = write_log(tmp_path, 20).read_bytes()
    serial = run_in(1, [source("a.jsonl", data)], 1 << 12)
    monkeypatch.setattr(auditrun, "ProcessPoolExecutor", no_processes)
    fallen_back = run_in(2, [source("a.jsonl", data)], 1 << 12)
    assert fallen_back == serial and fallen_back["pooled"] is False


def test_jobs_must_be_a_positive_number() -> None:
    result = invoke("audit", "--jobs", "0", "examples/audit/anthropic.jsonl")
    assert result.exit_code == 2
    assert "Invalid value for '--jobs': 0 is not in the range x>=1." in result.stderr


def test_a_file_that_cannot_be_read_stops_the_workers_and_exits_2(tmp_path: Path) -> None:
    log = write_log(tmp_path, 200)
    result = invoke("audit", "--no-progress", "--jobs", "2", str(log), str(tmp_path / "missing.jsonl"))
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        f"error: {tmp_path}/missing.jsonl: No such file or directory\n",
    )
