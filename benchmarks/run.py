"""`make bench`: our generated validators against every peer, one process, peers interleaved.

For each call (25 tools x {few, all, one, several}) every contender is first checked to give
the right verdict (ours must also give the reference interpreter's exact message), then timed:
each repeat runs every contender once, in a rotating order, for about REPEAT_SECONDS; the
median over repeats is reported in ns per call (the loop and call overhead, the same for
everyone, is included). Writes benchmarks/RESULTS.md (the tables) and benchmarks/results.png.
"""

from __future__ import annotations

import gc
import importlib
import itertools
import math
import os
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from benchmarks.cases import KINDS, Case, build_cases, load_declarations
from benchmarks.handwritten import HANDWRITTEN
from benchmarks.handwritten_errors import HANDWRITTEN_ERRORS
from benchmarks.peers import Peer, build_peers

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
REPEAT_SECONDS = float(os.environ.get("BENCH_REPEAT_SECONDS", "0.004"))
REPEATS = int(os.environ.get("BENCH_REPEATS", "15"))
OURS = "ours"
BY_NAME = "ours by name"
COMPILED = "ours (mypyc)"
HAND = "hand-written"
COLLECTOR = "hand-written collector"
ORDER = (
    OURS,
    BY_NAME,
    COMPILED,
    HAND,
    COLLECTOR,
    "msgspec",
    "jsonschema-rs",
    "pydantic",
    "fastjsonschema",
    "jsonschema",
)
# The three tools issue 12 measured (and has hand-written all-errors collectors for).
ISSUE_TOOLS = ("Read", "TaskUpdate", "AskUserQuestion")
KIND_TITLES = {
    "few": "valid, few optional fields",
    "all": "valid, all fields",
    "one": "invalid, one issue",
    "several": "invalid, several issues",
}


@dataclass(frozen=True)
class Contender:
    name: str
    complete: bool  # lists every error of an invalid call
    run: Callable[[Any], object]  # what is timed
    valid: Callable[[Any], bool]


def pure_package() -> ModuleType:
    """The generated package as pure Python, even when `make compile` left .so files in place.

    The package is relocatable, so a copy of its .py files under another name is the same code.
    """
    target = OUT / "pure" / "generated_pure"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for file in (ROOT / "generated").glob("*.py"):
        shutil.copyfile(file, target / file.name)
    sys.path.insert(0, str(target.parent))
    return importlib.import_module("generated_pure")


def compiled_package() -> ModuleType | None:
    """A mypyc-compiled copy of the package (it must keep the name `generated`), or None
    when the compiled tier cannot be built here (no mypyc, no C compiler, or BENCH_COMPILED=0).
    """
    if os.environ.get("BENCH_COMPILED", "1") == "0" or "generated" in sys.modules:
        return None
    from generator.cli.compile import compile_package

    target = OUT / "compiled" / "generated"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(ROOT / "generated", target, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    try:
        compile_package(target)
    except (SystemExit, OSError) as exc:
        print(f"compiled tier skipped: {exc}", file=sys.stderr)
        return None
    sys.path.insert(0, str(target.parent))
    package = importlib.import_module("generated")
    support = importlib.import_module("generated._support")
    if not (support.__file__ or "").endswith(".so"):
        raise SystemExit(f"expected the compiled package, imported {support.__file__}")
    return package


@dataclass(frozen=True)
class ByName:
    """`package.validate(tool, args)`: timed in a loop that calls it the way a user writes it."""

    validate: Callable[[str, Any], str | None]
    tool: str

    def __call__(self, args: Any) -> str | None:
        return self.validate(self.tool, args)


def ours(package: ModuleType, tool: str, name: str) -> Contender:
    check: Callable[[Any], str | None] = package.validator(tool)
    return Contender(name, True, check, lambda args: check(args) is None)


def contenders(tool: str, schema: dict[str, Any], packages: dict[str, ModuleType]) -> list[Contender]:
    found = [ours(package, tool, name) for name, package in packages.items()]
    by_name = ByName(packages[OURS].validate, tool)
    found.insert(1, Contender(BY_NAME, True, by_name, lambda args: by_name(args) is None))
    hand = HANDWRITTEN.get(tool)
    if hand is not None:
        found.append(Contender(HAND, False, hand, hand))
    collector = HANDWRITTEN_ERRORS.get(tool)
    if collector is not None:
        found.append(Contender(COLLECTOR, True, collector, lambda args: collector(args) is None))
    found.extend(_from_peer(peer) for peer in build_peers(tool, schema))
    return found


def _from_peer(peer: Peer) -> Contender:
    return Contender(peer.name, peer.complete, peer.check, peer.valid)


def verify(case: Case, schema: dict[str, Any], runners: list[Contender], package: ModuleType) -> None:
    """Refuse to time anything that gives a wrong verdict, or a message the spec would not give."""
    sys.path.insert(0, str(ROOT))
    from tests.reference import message

    expected = message(case.tool, schema, case.args)
    got = package.validate(case.tool, case.args)
    if got != expected:
        raise SystemExit(f"{case.tool}/{case.kind}: ours said {got!r}, the reference {expected!r}")
    collector = HANDWRITTEN_ERRORS.get(case.tool)
    if collector is not None and collector(case.args) != expected:
        raise SystemExit(f"{case.tool}/{case.kind}: the hand-written collector's message differs")
    for runner in runners:
        if runner.valid(case.args) != case.valid:
            raise SystemExit(f"{case.tool}/{case.kind}: {runner.name} gives the wrong verdict")


def _timed(run: Callable[[Any], object], args: Any, number: int) -> float:
    calls = itertools.repeat(args, number)
    if isinstance(run, ByName):
        validate, tool = run.validate, run.tool
        started = time.perf_counter_ns()
        for a in calls:
            validate(tool, a)
        return (time.perf_counter_ns() - started) / number
    started = time.perf_counter_ns()
    for a in calls:
        run(a)
    return (time.perf_counter_ns() - started) / number


def measure(
    args: Any, runners: list[Contender], reporters: dict[str, Callable[[Any], object]]
) -> dict[str, float]:
    """Median ns per call of each contender on one call's arguments, interleaved across repeats."""
    numbers: dict[str, int] = {}
    for runner in runners:
        once = _timed(reporters[runner.name], args, 20)
        numbers[runner.name] = max(20, int(REPEAT_SECONDS * 1e9 / max(once, 1.0)))
    samples: dict[str, list[float]] = {r.name: [] for r in runners}
    for repeat in range(REPEATS):
        shift = repeat % len(runners)
        for runner in runners[shift:] + runners[:shift]:
            samples[runner.name].append(_timed(reporters[runner.name], args, numbers[runner.name]))
    return {name: statistics.median(values) for name, values in samples.items()}


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


# ---------- output ----------


def _fmt_ns(ns: float) -> str:
    return f"{ns:,.0f}"


def summary_rows(results: dict[tuple[str, str], dict[str, float]], names: list[str]) -> list[str]:
    """Geomean rows per call kind: ns, then ratio to ours (above 1: ours is faster)."""
    header = "| calls | " + " | ".join(names) + " |"
    lines = [header, "|" + "---|" * (len(names) + 1)]
    for kind in KINDS:
        cells: list[str] = []
        ours_mean = geomean([r[OURS] for (_, k), r in results.items() if k == kind])
        for name in names:
            keys = [key for key, r in results.items() if key[1] == kind and name in r]
            if not keys:
                cells.append("-")
                continue
            mean = geomean([results[key][name] for key in keys])
            subset_ours = geomean([results[key][OURS] for key in keys])
            ratio = mean / subset_ours
            note = "" if len(keys) == len([k for k in results if k[1] == kind]) else f" [{len(keys)} tools]"
            cells.append(f"{_fmt_ns(mean)} ({ratio:.2f}x){note}" if name != OURS else _fmt_ns(ours_mean))
        lines.append(f"| geomean, {KIND_TITLES[kind]} | " + " | ".join(cells) + " |")
    return lines


def _ratio(
    results: dict[tuple[str, str], dict[str, float]],
    kinds: tuple[str, ...],
    peer: str,
    base: str,
    tools: tuple[str, ...] | None = None,
) -> float:
    """Geomean of peer / base over the calls of `kinds` (and `tools`) that both were timed on."""
    keys = [
        key
        for key, r in results.items()
        if key[1] in kinds and peer in r and base in r and (tools is None or key[0] in tools)
    ]
    return geomean([results[key][peer] / results[key][base] for key in keys])


@dataclass(frozen=True)
class Target:
    label: str
    kinds: tuple[str, ...]
    peer: str
    base: str  # the ratio is peer time / base time
    op: str  # ">=", ">" or "<="
    bound: float
    tools: tuple[str, ...] | None = None  # None: every tool both were timed on


VALID = ("few", "all")
INVALID = ("one", "several")
THREE = "Read, TaskUpdate, AskUserQuestion"
TARGETS = (
    Target("valid: hand-written reference / ours", VALID, HAND, OURS, ">=", 1.0),
    Target("valid: msgspec / ours", VALID, "msgspec", OURS, ">=", 1.3),
    Target("valid: pydantic / ours", VALID, "pydantic", OURS, ">=", 2.5),
    Target("valid: fastjsonschema / ours", VALID, "fastjsonschema", OURS, ">=", 3.5),
    Target("invalid: jsonschema-rs / ours", INVALID, "jsonschema-rs", OURS, ">=", 2.0),
    Target("invalid: pydantic / ours", INVALID, "pydantic", OURS, ">=", 2.0),
    Target("invalid: jsonschema / ours", INVALID, "jsonschema", OURS, ">=", 2.0),
    Target("valid, compiled tier: jsonschema-rs / ours (mypyc)", VALID, "jsonschema-rs", COMPILED, ">", 1.0),
    # issue 12
    Target(f"issue 12.1, valid, {THREE}: ours by name / ours", VALID, BY_NAME, OURS, "<=", 1.15, ISSUE_TOOLS),
    Target("issue 12.1, valid, all 25 tools: ours by name / ours", VALID, BY_NAME, OURS, "<=", 1.15),
    Target(
        f"issue 12.2, invalid, {THREE}: ours / hand-written collector", INVALID, OURS, COLLECTOR, "<=", 1.5
    ),
    Target(
        f"issue 12.2, invalid, {THREE}: pydantic / ours", INVALID, "pydantic", OURS, ">=", 2.5, ISSUE_TOOLS
    ),
    Target("issue 12.2, invalid, all 25 tools: pydantic / ours", INVALID, "pydantic", OURS, ">=", 2.5),
)


def target_rows(results: dict[tuple[str, str], dict[str, float]]) -> list[str]:
    lines = ["| target (geomean of per-call ratios) | wanted | measured | met |", "|---|---|---|---|"]
    for target in TARGETS:
        if not any(target.peer in r and target.base in r for r in results.values()):
            lines.append(f"| {target.label} | {target.op} {target.bound:.2f}x | not measured | - |")
            continue
        ratio = _ratio(results, target.kinds, target.peer, target.base, target.tools)
        met = {">=": ratio >= target.bound, ">": ratio > target.bound, "<=": ratio <= target.bound}[target.op]
        lines.append(
            f"| {target.label} | {target.op} {target.bound:.2f}x | {ratio:.2f}x | {'yes' if met else 'no'} |"
        )
    return lines


def issue_rows(results: dict[tuple[str, str], dict[str, float]]) -> list[str]:
    """Issue 12's own measurement: the three tools, each call kind, ratios to the looked-up validator."""
    names = [
        n
        for n in (BY_NAME, COLLECTOR, HAND, "pydantic", "jsonschema-rs")
        if any(n in r for r in results.values())
    ]
    lines = ["| tool | call | ours (ns) | " + " | ".join(f"{n} / ours" for n in names) + " |"]
    lines.append("|" + "---|" * (len(names) + 3))
    for (tool, kind), row in results.items():
        if tool not in ISSUE_TOOLS:
            continue
        cells = [f"{row[n] / row[OURS]:.2f}x" if n in row else "-" for n in names]
        lines.append(f"| {tool} | {kind} | {_fmt_ns(row[OURS])} | " + " | ".join(cells) + " |")
    return lines


def detail_rows(results: dict[tuple[str, str], dict[str, float]], names: list[str]) -> list[str]:
    lines = ["| tool | call | " + " | ".join(names) + " |", "|" + "---|" * (len(names) + 2)]
    for (tool, kind), row in results.items():
        cells = []
        for name in names:
            if name not in row:
                cells.append("-")
            elif name == OURS:
                cells.append(_fmt_ns(row[name]))
            else:
                cells.append(f"{_fmt_ns(row[name])} ({row[name] / row[OURS]:.2f}x)")
        lines.append(f"| {tool} | {kind} | " + " | ".join(cells) + " |")
    return lines


def chart(results: dict[tuple[str, str], dict[str, float]], names: list[str], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(11, 5))
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        heights = []
        for kind in KINDS:
            values = [r[name] for (_, k), r in results.items() if k == kind and name in r]
            heights.append(geomean(values) if values else 0.0)
        xs = [k + i * width for k in range(len(KINDS))]
        ax.bar(xs, heights, width, label=name)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(KINDS))], [KIND_TITLES[k] for k in KINDS])
    ax.set_yscale("log")
    ax.set_ylabel("geomean ns per call (log scale, lower is faster)")
    ax.set_title("Tool-input validation, geomean over the 25 built-in tools")
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    """Both sections; BENCH_ONLY=builtin or BENCH_ONLY=extended runs one of them."""
    only = os.environ.get("BENCH_ONLY", "")
    if only not in ("", "builtin", "extended"):
        raise SystemExit(f"BENCH_ONLY={only!r}: expected builtin or extended")
    if only in ("", "builtin"):
        builtin()
    if only in ("", "extended"):
        from benchmarks import extended

        extended.main()


def builtin() -> None:
    """The 25 built-in tools (subset mode, the checked-in package)."""
    started = time.perf_counter()
    tools = load_declarations(ROOT / "tool_schemas")
    packages: dict[str, ModuleType] = {OURS: pure_package()}
    compiled = compiled_package()
    if compiled is not None:
        packages[COMPILED] = compiled
    results: dict[tuple[str, str], dict[str, float]] = {}
    gc.disable()
    for case in build_cases(tools):
        runners = contenders(case.tool, tools[case.tool], packages)
        verify(case, tools[case.tool], runners, packages[OURS])
        if not case.valid:  # only peers that list every error are timed on invalid calls
            runners = [r for r in runners if r.complete or r.name == HAND]
        reporters = {r.name: r.run for r in runners}
        if not case.valid:
            peers = {p.name: p for p in build_peers(case.tool, tools[case.tool])}
            reporters.update({n: peers[n].report for n in reporters if n in peers})
        results[(case.tool, case.kind)] = measure(case.args, runners, reporters)
        print(
            f"{case.tool:16} {case.kind:8} ours {results[(case.tool, case.kind)][OURS]:8.0f} ns", flush=True
        )
    gc.enable()
    names = [n for n in ORDER if any(n in r for r in results.values())]
    write_results(results, names, time.perf_counter() - started)
    chart(results, names, ROOT / "benchmarks" / "results.png")


def write_results(results: dict[tuple[str, str], dict[str, float]], names: list[str], seconds: float) -> None:
    path = ROOT / "benchmarks" / "RESULTS.md"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    table = "\n".join(
        [
            begin,
            f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, {REPEATS} interleaved repeats of "
            f"~{REPEAT_SECONDS * 1000:.0f} ms per contender and call, timing took {seconds:.0f} s.",
            "Cells: median ns per call (ratio to ours: above 1.00x ours is faster).",
            "",
            "### Targets",
            "",
            *target_rows(results),
            "",
            "### Issue 12's three tools, ratio to the looked-up validator (ours)",
            "",
            *issue_rows(results),
            "",
            "### Geomean over the built-in tools",
            "",
            *summary_rows(results, names),
            "",
            "### Every call",
            "",
            *detail_rows(results, names),
            end,
        ]
    )
    if begin in text and end in text:
        text = text[: text.index(begin)] + table + text[text.index(end) + len(end) :]
    else:
        text = text + ("\n" if text else "") + table + "\n"
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
