"""`make bench`, section "extended-mode declarations": pydantic-written tools, every peer.

The declarations are `benchmarks/extended_schemas/` (written by pydantic from the models of
`benchmarks/pydantic_tools.py`), the calls `benchmarks/extended_cases.py`. Contenders:

* ours: a package generated from those declarations with `--keywords extended`
  (`benchmarks/modes.py`, `build_package`), and its mypyc-compiled copy (BENCH_COMPILED=0
  skips it). While the generator has no extended mode, ours is reported as not available
  and only the peers are timed;
* jsonschema (Draft 2020-12), jsonschema-rs (Draft 2020-12), fastjsonschema, each given
  the declaration's `parameters` unchanged (pydantic writes `additionalProperties: false`
  on every model, so they close objects as the spec does);
* pydantic: the very models the declarations come from, strict, `model_validate`;
* hand-written (benchmarks/handwritten_extended.py): what a careful programmer writes by
  hand for these four tools, verdicts only, timed on valid calls as the pure-Python floor.

Before anything is timed every contender must call valid calls valid and invalid calls
invalid, and ours must answer each invalid call with its exact message (written down in
extended_cases.py). Timing as in benchmarks/run.py (interleaved repeats, medians, gc off);
invalid calls time what a caller does to show every error (`iter_errors` messages,
`ValidationError.errors()`, our message), so fastjsonschema, which stops at the first
error, is timed on valid calls only.

Run alone: `BENCH_ONLY=extended make bench` or `.venv/bin/python -m benchmarks.extended`.
Writes the section between the `bench-extended` markers of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import gc
import importlib
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import fastjsonschema
import jsonschema
import jsonschema_rs
import pydantic

from benchmarks import handwritten_extended, pydantic_tools
from benchmarks.extended_cases import CASES, KINDS, SCHEMAS, ExtendedCase, load_declarations
from benchmarks.modes import ModeUnavailable, build_package, import_folder
from benchmarks.run import REPEAT_SECONDS, REPEATS, Contender, geomean, measure

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out" / "extended"
MODE = "extended"
OURS = "ours"
COMPILED = "ours (mypyc)"
HAND = "hand-written"
ORDER = (OURS, COMPILED, HAND, "jsonschema-rs", "pydantic", "fastjsonschema", "jsonschema")
KIND_TITLES = {
    "typical": "valid, typical fields",
    "full": "valid, every field",
    "one": "invalid, one issue",
    "several": "invalid, several issues",
}
BEGIN, END = "<!-- bench-extended:begin -->", "<!-- bench-extended:end -->"

Results = dict[tuple[str, str], dict[str, float]]


# ---------- ours ----------


def ours_packages() -> tuple[dict[str, ModuleType], str]:
    """Our package (pure Python, and compiled when possible) in extended mode, or {} and why not."""
    try:
        folder = build_package(SCHEMAS, OUT / "pure" / "toolgen_ext", MODE)
    except ModeUnavailable as exc:
        return {}, str(exc)
    packages = {OURS: import_folder(folder, MODE)}
    compiled = compiled_copy(folder)
    if compiled is not None:
        packages[COMPILED] = compiled
    return packages, ""


def compiled_copy(folder: Path) -> ModuleType | None:
    """A mypyc-compiled copy of the package under its own name, or None when it cannot be built."""
    if os.environ.get("BENCH_COMPILED", "1") == "0":
        return None
    from generator.cli.compile import compile_package

    target = OUT / "compiled" / "toolgen_ext_mypyc"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(folder, target, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    try:
        compile_package(target)
    except (SystemExit, OSError) as exc:
        print(f"extended: compiled tier skipped: {exc}", file=sys.stderr)
        return None
    package = import_folder(target, MODE)
    support = importlib.import_module(f"{target.name}._support")
    if not (support.__file__ or "").endswith(".so"):
        raise SystemExit(f"expected the compiled package, imported {support.__file__}")
    return package


def ours(package: ModuleType, tool: str, name: str) -> Contender:
    check: Callable[[Any], str | None] = package.validator(tool)
    return Contender(name, True, check, lambda args: check(args) is None)


# ---------- peers, on the declarations as pydantic wrote them ----------


def _raises(check: Callable[[Any], object], errors: tuple[type[BaseException], ...]) -> Callable[[Any], bool]:
    def valid(args: Any) -> bool:
        try:
            check(args)
        except errors:
            return False
        return True

    return valid


def peers(tool: str, schema: dict[str, Any]) -> list[tuple[Contender, Callable[[Any], object]]]:
    """(contender, what is timed on an invalid call) for every peer."""
    found: list[tuple[Contender, Callable[[Any], object]]] = []
    rs = jsonschema_rs.Draft202012Validator(schema)
    found.append(
        (
            Contender("jsonschema-rs", True, rs.is_valid, rs.is_valid),
            lambda args: [e.message for e in rs.iter_errors(args)],
        )
    )
    model = pydantic_tools.MODELS[tool]
    check = model.model_validate
    errors = (pydantic.ValidationError,)

    def report(args: Any) -> object:
        try:
            check(args)
        except pydantic.ValidationError as exc:
            return exc.errors()
        return None

    found.append((Contender("pydantic", True, check, _raises(check, errors)), report))
    fast = fastjsonschema.compile(schema)
    fast_valid = _raises(fast, (fastjsonschema.JsonSchemaException,))
    found.append((Contender("fastjsonschema", False, fast, fast_valid), fast))
    py = jsonschema.Draft202012Validator(schema)
    found.append(
        (
            Contender("jsonschema", True, py.is_valid, py.is_valid),
            lambda args: [e.message for e in py.iter_errors(args)],
        )
    )
    return found


def verify(case: ExtendedCase, runners: list[Contender], packages: dict[str, ModuleType]) -> None:
    """Refuse to time a wrong verdict, or a message of ours that is not the spec's."""
    for name, package in packages.items():
        got = package.validate(case.tool, case.args)
        if got != case.message:
            raise SystemExit(
                f"extended {case.tool}/{case.kind}: {name} said\n{got}\nextended.md says\n{case.message}"
            )
    for runner in runners:
        if runner.valid(case.args) != case.valid:
            raise SystemExit(f"extended {case.tool}/{case.kind}: {runner.name} gives the wrong verdict")


# ---------- output ----------


def _fmt(ns: float) -> str:
    return f"{ns:,.0f}"


def _ratio(results: Results, kinds: tuple[str, ...], peer: str, base: str) -> float | None:
    keys = [key for key, r in results.items() if key[1] in kinds and peer in r and base in r]
    return geomean([results[key][peer] / results[key][base] for key in keys]) if keys else None


_VALID = ("typical", "full")
_INVALID = ("one", "several")
# (label, call kinds, peer, whose time it is divided by, bound or None for "reported")
TARGETS: tuple[tuple[str, tuple[str, ...], str, str, float | None], ...] = (
    ("valid: fastjsonschema / ours", _VALID, "fastjsonschema", OURS, 3.0),
    ("valid: pydantic / ours", _VALID, "pydantic", OURS, 2.0),
    ("invalid: jsonschema-rs / ours", _INVALID, "jsonschema-rs", OURS, 2.0),
    ("invalid: pydantic / ours", _INVALID, "pydantic", OURS, 2.0),
    ("invalid: jsonschema / ours", _INVALID, "jsonschema", OURS, 2.0),
    ("valid: jsonschema-rs / ours", _VALID, "jsonschema-rs", OURS, None),
    ("valid: hand-written / ours (the pure-Python floor)", _VALID, HAND, OURS, None),
    ("valid: pydantic / hand-written", _VALID, "pydantic", HAND, None),
    ("valid: ours / ours (mypyc)", _VALID, OURS, COMPILED, None),
    ("invalid: ours / ours (mypyc)", _INVALID, OURS, COMPILED, None),
    ("valid: jsonschema-rs / ours (mypyc)", _VALID, "jsonschema-rs", COMPILED, None),
    ("invalid: jsonschema-rs / ours (mypyc)", _INVALID, "jsonschema-rs", COMPILED, None),
)


def target_rows(results: Results, unavailable: str) -> list[str]:
    lines = ["| target (geomean of per-call ratios) | wanted | measured | met |", "|---|---|---|---|"]
    for label, kinds, peer, base, bound in TARGETS:
        wanted = f">= {bound:.1f}x" if bound is not None else "reported"
        ratio = _ratio(results, kinds, peer, base)
        if ratio is None:
            why = f"n/a ({unavailable})" if unavailable else "not measured"
            lines.append(f"| {label} | {wanted} | {why} | - |")
            continue
        met = "-" if bound is None else ("yes" if ratio >= bound else "no")
        lines.append(f"| {label} | {wanted} | {ratio:.2f}x | {met} |")
    return lines


def _cell(value: float | None, base: float | None, name: str) -> str:
    if value is None:
        return "-"
    if base is None or name == OURS:
        return _fmt(value)
    return f"{_fmt(value)} ({value / base:.2f}x)"


def table_rows(results: Results, names: list[str], unavailable: str) -> list[str]:
    """Geomean per call kind, then every call; ratios to ours when ours was timed."""
    missing = "n/a" if unavailable else "-"
    head = [OURS, *names] if OURS not in names else names
    lines = ["| calls | " + " | ".join(head) + " |", "|" + "---|" * (len(head) + 1)]
    for kind in KINDS:
        row = {key: r for key, r in results.items() if key[1] == kind}
        cells = []
        for name in head:
            values = [r[name] for r in row.values() if name in r]
            base_values = [r[OURS] for r in row.values() if name in r and OURS in r]
            if name == OURS and not values:
                cells.append(missing)
                continue
            mean = geomean(values) if values else None
            base = geomean(base_values) if base_values and len(base_values) == len(values) else None
            cells.append(_cell(mean, base, name))
        lines.append(f"| geomean, {KIND_TITLES[kind]} | " + " | ".join(cells) + " |")
    lines += ["", "| tool | call | " + " | ".join(head) + " |", "|" + "---|" * (len(head) + 2)]
    for (tool, kind), r in results.items():
        cells = [
            missing if name == OURS and OURS not in r else _cell(r.get(name), r.get(OURS), name)
            for name in head
        ]
        lines.append(f"| {tool} | {kind} | " + " | ".join(cells) + " |")
    return lines


def write_results(results: Results, unavailable: str, seconds: float) -> str:
    names = [n for n in ORDER if any(n in r for r in results.values())]
    ours_line = (
        f"Ours: n/a ({unavailable}); the peers' numbers are real."
        if unavailable
        else "Ours: the package generated with `--keywords extended`; every invalid call answered "
        "with its exact message."
    )
    block = "\n".join(
        [
            BEGIN,
            f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, {REPEATS} interleaved repeats of "
            f"~{REPEAT_SECONDS * 1000:.0f} ms per contender and call, timing took {seconds:.0f} s. "
            f"{len({t for t, _ in results})} tools, {len(results)} calls; load average "
            f"{os.getloadavg()[0]:.1f} at the end.",
            ours_line,
            "Cells: median ns per call (ratio to ours: above 1.00x ours is faster).",
            "",
            "#### Targets of the issue (extended mode)",
            "",
            *target_rows(results, unavailable),
            "",
            "#### Geomean over the pydantic-written tools, then every call",
            "",
            *table_rows(results, names, unavailable),
            END,
        ]
    )
    path = ROOT / "benchmarks" / "RESULTS.md"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + block + text[text.index(END) + len(END) :]
    else:
        text = text + ("\n" if text else "") + "## Extended-mode declarations\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")
    return block


def main() -> None:
    started = time.perf_counter()
    stale = pydantic_tools.stale()
    if stale:
        raise SystemExit(
            f"benchmarks/extended_schemas/ is not what the models write with pydantic {pydantic.VERSION} "
            f"({', '.join(stale)}); run: .venv/bin/python -m benchmarks.pydantic_tools"
        )
    tools = load_declarations()
    packages, unavailable = ours_packages()
    if unavailable:
        print(f"extended: ours n/a: {unavailable}", flush=True)
    results: Results = {}
    gc.disable()
    try:
        for case in CASES:
            found = peers(case.tool, tools[case.tool])
            runners = [ours(p, case.tool, name) for name, p in packages.items()]
            runners += [contender for contender, _ in found]
            hand = handwritten_extended.VALIDATORS[case.tool]
            runners.append(Contender(HAND, False, hand, hand))  # verdicts only: valid calls
            verify(case, runners, packages)
            reporters = {r.name: r.run for r in runners}
            if not case.valid:  # only contenders that list every error are timed on invalid calls
                runners = [r for r in runners if r.complete]
                reporters = {r.name: r.run for r in runners}
                reporters.update({c.name: report for c, report in found if c.name in reporters})
            results[(case.tool, case.kind)] = measure(case.args, runners, reporters)
            timed = results[(case.tool, case.kind)]
            shown = f"ours {timed[OURS]:8.0f} ns" if OURS in timed else "ours n/a"
            print(f"extended {case.tool:16} {case.kind:8} {shown}", flush=True)
    finally:
        gc.enable()
    print(write_results(results, unavailable, time.perf_counter() - started))


if __name__ == "__main__":
    main()
