"""`make gencost-scale`: issue 22's figures, every one in one run (sizes: 300 vs 3,000 tools).

For each size, BFCL declarations (tests/data/bfcl; past its distinct functions, renamed
copies: `name_2`, `name_3`, ...), one file each:

* a cold `generate` into a fresh folder: wall time, time per tool, and the peak RSS of the
  largest process of the run (the CLI or one of its format workers, from `wait4`);
* one declaration edited in place (its description), then `generate --check` (drift, exit 1)
  and `generate`: each edit a different text, best of RUNS. The same declaration at every
  size (the middle one of the smallest catalogue, the same file and text in each): an edit's
  own cost (rendering and formatting that tool) depends on the tool, so a ratio of two
  sizes compares what the other tools cost only when the edited tool is the same. Before the edits, one no-op
  `--check` once the package is older than the record's margin (generator/package/verified.py): the
  package as it is in a project, where it was generated some time before the edit. That
  first check reads every file (no record yet) and is reported too.

The edits are measured once every size's package exists, interleaved (an edit at each size
in turn, RUNS rounds): the machine's speed drifts over the minutes a cold run of 10,000 tools
takes, and a ratio is only as good as its two figures are measured alike.

Every run is a whole `python -m generator` process. The ratios against the smallest size
are what issue 22 asks for: edits within 1.5x, peak RSS within 2x, time per tool within
1.15x. `SCALE_SIZES=300,3000,10000 make gencost-scale` adds 10,000 tools (about 10 minutes
more on 2 cores; SCALE_KEEP=1 keeps the work folder for profiling). Results go into
benchmarks/RESULTS.md between the scale markers.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.gencost import bfcl_declarations, write_section
from generator.package.verified import MARGIN_NS

ROOT = Path(__file__).resolve().parent.parent
RUNS = 7
SIZES = (300, 3000)


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mb: float  # largest process of the run (the CLI or a worker), from wait4


@dataclass
class Figures:
    tools: int
    cold: Run
    first_check: float  # the no-op check after the cold generate: no record yet, every file read
    schemas: Path
    out: Path
    checks: list[float] = field(default_factory=list)  # one edit each, then `generate --check`
    generates: list[float] = field(default_factory=list)  # the same edit, then `generate`

    @property
    def edit_generate(self) -> float:
        return min(self.generates)

    @property
    def edit_check(self) -> float:
        return min(self.checks)


def declarations(count: int) -> list[dict[str, Any]]:
    """`count` declarations with distinct names: BFCL's, then renamed copies of them."""
    base = bfcl_declarations(None)[:count]
    found = list(base)
    copy = 2
    while len(found) < count:
        for declaration in base[: count - len(found)]:
            renamed = json.loads(json.dumps(declaration))
            renamed["function"]["name"] = f"{declaration['function']['name']}_{copy}"
            found.append(renamed)
        copy += 1
    return found


def write_schemas(folder: Path, found: list[dict[str, Any]]) -> None:
    folder.mkdir(parents=True)
    for i, declaration in enumerate(found):
        (folder / f"{i:05d}.json").write_text(json.dumps(declaration), encoding="utf-8")


def run(schemas: Path, out: Path, *options: str, ok: tuple[int, ...] = (0,)) -> Run:
    """One `python -m generator generate` process: wall time and the tree's peak RSS."""
    env = dict(os.environ)
    env.pop("TOOLGEN_JOBS", None)
    command = [sys.executable, "-m", "generator", "generate", "--schemas", str(schemas), "--out", str(out)]
    started = time.perf_counter()
    process = subprocess.Popen(
        [*command, *options], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    errors = process.stderr.read()
    # wait4's ru_maxrss is the largest of the process and its waited-for children (KB).
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in ok:
        raise SystemExit(
            f"generate {' '.join(options)} exited {process.returncode}: {errors.decode()[-2000:]}"
        )
    return Run(seconds, usage.ru_maxrss / 1024)


def generated(count: int, work: Path) -> Figures:
    """A cold generate of `count` tools, then the first no-op check (which records every file)."""
    schemas = work / f"schemas{count}"
    write_schemas(schemas, declarations(count))
    out = work / f"out{count}"
    cold = run(schemas, out)
    time.sleep(MARGIN_NS / 1e9)  # what was just written is recorded only when older than this
    first = run(schemas, out, "--check")
    return Figures(count, cold, first.seconds, schemas, out)


def edit_once(figures: Figures, r: int, position: int) -> None:
    """Round `r`: the description of the declaration at `position` changed, then --check and
    generate."""
    edited = figures.schemas / f"{position:05d}.json"
    changed = json.loads(edited.read_text(encoding="utf-8"))
    description = changed["function"].get("description", "").split(" (edit ")[0]
    changed["function"]["description"] = f"{description} (edit {r})"
    edited.write_text(json.dumps(changed), encoding="utf-8")
    figures.checks.append(run(figures.schemas, figures.out, "--check", ok=(1,)).seconds)
    figures.generates.append(run(figures.schemas, figures.out).seconds)
    run(figures.schemas, figures.out, "--check")  # the edit left the package in sync


def table(figures: list[Figures]) -> list[str]:
    base = figures[0]
    rows = [
        "| tools | cold generate | per tool | peak RSS | first no-op `--check` | one declaration edited: "
        "`generate` | `--check` |",
        "|---|---|---|---|---|---|---|",
    ]
    for f in figures:
        per_tool = f.cold.seconds / f.tools
        rows.append(
            f"| {f.tools:,} | {f.cold.seconds:.1f} s | {per_tool * 1000:.1f} ms | {f.cold.peak_mb:.0f} MB | "
            f"{f.first_check:.2f} s | {f.edit_generate:.2f} s | {f.edit_check:.2f} s |"
        )
    rows += [
        "",
        f"Ratios to {base.tools:,} tools (wanted: edits <= 1.50x, peak RSS <= 2.00x, per tool <= 1.15x):",
        "",
    ]
    rows += [
        "| tools | edit `generate` | edit `--check` | peak RSS | cold time per tool |",
        "|---|---|---|---|---|",
    ]
    base_per_tool = base.cold.seconds / base.tools
    for f in figures[1:]:
        rows.append(
            f"| {f.tools:,} | {f.edit_generate / base.edit_generate:.2f}x "
            f"| {f.edit_check / base.edit_check:.2f}x | {f.cold.peak_mb / base.cold.peak_mb:.2f}x "
            f"| {f.cold.seconds / f.tools / base_per_tool:.2f}x |"
        )
    rows += [
        "",
        f"{os.cpu_count()} cores; every figure a whole process; edits best of {RUNS}, interleaved across "
        f"sizes; BFCL declarations (renamed copies past the {len(bfcl_declarations(None)):,} distinct ones).",
    ]
    return rows


def sizes() -> tuple[int, ...]:
    setting = os.environ.get("SCALE_SIZES", "")
    found = tuple(int(s) for s in setting.split(",") if s.strip().isdigit())
    return found or SIZES


def main() -> None:
    # SCALE_KEEP=1 keeps the declarations and packages (the folder is printed) for profiling.
    keep = os.environ.get("SCALE_KEEP", "") == "1"
    with contextlib.ExitStack() as stack:
        if keep:
            tmp = tempfile.mkdtemp(prefix="toolgen-scale-")
            print(f"kept in {tmp}", file=sys.stderr, flush=True)
        else:
            tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="toolgen-scale-"))
        figures = []
        for count in sizes():
            figures.append(generated(count, Path(tmp)))
            print(f"{count} tools generated", file=sys.stderr, flush=True)
        position = min(f.tools for f in figures) // 2  # the same tool at every size
        for r in range(RUNS):
            for each in figures:
                edit_once(each, r, position)
        print("edits measured", file=sys.stderr, flush=True)
    lines = table(figures)
    write_section("\n".join(lines), "scale")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
