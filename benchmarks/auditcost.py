"""`python -m benchmarks.auditcost`: what `toolgen audit` costs against a plain loop, per core.

Issue 22 point 5: on 400,000 logged calls, `audit --jobs N` must stay within 2x of a plain
loop (`json.loads` + `issues()` on each line, one process) per core. Measured here:

* the plain loop, in this process (CPU time: the work itself, no start-up);
* `toolgen audit --jobs 1` and `--jobs N` (N: the cores this process may use) as whole CLI
  processes, wall time and CPU time (the workers' included), on the plain file, on the same
  file gzip-compressed, and with --suggest.

"CPU / plain" is the audit's CPU time (every process, start-up included) over the plain
loop's: what a call costs audited against what it costs checked bare. "wall x N / plain" is
the wall time times the processes used, over the plain loop: the per-core figure the issue
bounds by 2. Best of RUNS runs each, interleaved. Written to a temporary folder, never read
from outside the repository.
"""

from __future__ import annotations

import gzip
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CALLS = 400_000
RUNS = 3
# Calls of the built-in tools, valid and not, in the proportions of a day's log where models
# get most calls right: about one in six rejected.
_TEMPLATES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("Read", {"file_path": "/repo/src/app.py"}),
    ("Read", {"file_path": "/repo/README.md", "offset": 10, "limit": 50}),
    ("Read", {"file_path": "/repo/README.md", "offset": "10"}),
    ("Write", {"file_path": "/repo/notes.txt", "content": "hello\n" * 4}),
    ("Edit", {"file_path": "/repo/a.py", "old_string": "x = 1", "new_string": "x = 2"}),
    ("Edit", {"file_path": "/repo/a.py", "old_string": "x = 1"}),
    ("Bash", {"command": "pytest -q", "timeout": 120000}),
    ("Bash", {"command": "ls -la", "description": "List files"}),
    ("Grep", {"pattern": "def main", "path": "/repo", "output_mode": "content"}),
    ("Glob", {"pattern": "**/*.py"}),
    ("TaskUpdate", {"taskId": "2", "status": "completed"}),
    ("TaskUpdate", {"id": "2", "status": "completed"}),
)


def write_log(folder: Path) -> Path:
    rng = random.Random(22)
    log = folder / "calls.jsonl"
    with log.open("w", encoding="utf-8") as out:
        for _ in range(CALLS):
            tool, args = _TEMPLATES[rng.randrange(len(_TEMPLATES))]
            out.write(json.dumps({"name": tool, "arguments": args}) + "\n")
    return log


def plain_loop(log: Path) -> float:
    """CPU seconds of json.loads + issues() over every line, in this process."""
    sys.path.insert(0, str(ROOT))
    import generated

    issues = generated.issues
    started = time.process_time()
    with log.open("rb") as lines:
        for raw in lines:
            call = json.loads(raw)
            issues(call["name"], call["arguments"])
    return time.process_time() - started


def audit(log: Path, *options: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one `toolgen audit` process and the workers it starts."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "generator", "audit", "--no-progress", "--json", *options, str(log)],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    from generator.base.pool import usable_workers

    cores = usable_workers()
    with tempfile.TemporaryDirectory() as tmp:
        log = write_log(Path(tmp))
        packed = Path(tmp) / "calls.jsonl.gz"
        packed.write_bytes(gzip.compress(log.read_bytes(), compresslevel=6))
        cases: dict[str, tuple[Path, tuple[str, ...], int]] = {
            "audit --jobs 1": (log, ("--jobs", "1"), 1),
            f"audit --jobs {cores}": (log, ("--jobs", str(cores)), cores),
            f"audit --jobs {cores} (.jsonl.gz)": (packed, ("--jobs", str(cores)), cores),
            f"audit --jobs {cores} --suggest": (log, ("--jobs", str(cores), "--suggest"), cores),
        }
        plain = min(plain_loop(log) for _ in range(RUNS))
        best: dict[str, tuple[float, float]] = {}
        for _ in range(RUNS):
            for name, (path, options, _jobs) in cases.items():
                wall, cpu = audit(path, *options)
                old = best.get(name)
                best[name] = (min(wall, old[0]), min(cpu, old[1])) if old else (wall, cpu)
        size = log.stat().st_size
    print(f"{CALLS:,} calls ({size / 1e6:.1f} MB of JSON Lines), {cores} cores, best of {RUNS}")
    print(f"plain loop (json.loads + issues(), one process): {plain:.2f} s CPU")
    print(f"{'':34}{'wall':>8}{'CPU':>8}{'CPU / plain':>13}{'wall x N / plain':>18}")
    for name, (_path, _options, jobs) in cases.items():
        wall, cpu = best[name]
        print(f"{name:34}{wall:7.2f}s{cpu:7.2f}s{cpu / plain:12.2f}x{wall * jobs / plain:17.2f}x")


if __name__ == "__main__":
    main()
