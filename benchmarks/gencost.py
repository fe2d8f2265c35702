"""`make gencost`: what generation costs, and what importing the generated package costs.

* `generate` on the 25 built-in tools into a fresh folder (a whole CLI process), then a
  no-op re-run (every module reused by its header);
* 250, 500 and 1,000 tools converted from BFCL's function docs (unique names), fresh, to
  show the per-tool cost stays flat (linear growth), plus the no-op re-run at 1,000;
* importing the generated package, and the first `validate` (which imports one module),
  each minus the interpreter's own start-up.

* issue 12's figures on 300 real declarations (real-tools, then BFCL): cold generate against
  black alone (serial, one process), serial against parallel generate, no-op generate, no-op
  `--check`, one changed declaration; interleaved runs, reported as ratios.

Every number is the best of a few runs of a fresh process (two runs for the BFCL sizes).
Results go into benchmarks/RESULTS.md between the gencost markers.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BFCL = ROOT / "tests" / "data" / "bfcl" / "functions.jsonl"  # see its README
REAL_TOOLS = ROOT / "tests" / "data" / "real-tools"
REAL_COUNT = 300  # issue 12 measured on 300 real declarations
RUNS = 3
# BFCL's Python-flavoured dialect -> JSON Schema type names; "any" means no type at all.
_TYPES = {"dict": "object", "float": "number", "tuple": "array", "list": "array", "int": "integer"}


def convert(schema: Any) -> Any:
    """One BFCL parameter schema in the JSON Schema this project reads."""
    if isinstance(schema, list):
        return [convert(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type":
            names = value if isinstance(value, list) else [value]
            names = [_TYPES.get(n, n) for n in names if n != "any"]
            if names:
                out["type"] = names[0] if len(names) == 1 else names
        elif key in ("properties",) and isinstance(value, dict):
            out[key] = {name: convert(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties"):
            out[key] = convert(value)
        else:
            out[key] = value
    return out


def bfcl_declarations(limit: int | None) -> list[dict[str, Any]]:
    """`limit` BFCL functions with distinct names (None: all), as OpenAI function-tool declarations."""
    found: dict[str, dict[str, Any]] = {}
    for line in BFCL.read_text(encoding="utf-8").splitlines():
        function = json.loads(line)
        if function["name"] in found:
            continue
        parameters = convert(function.get("parameters", {"type": "object", "properties": {}}))
        found[function["name"]] = {
            "type": "function",
            "function": {
                "name": function["name"],
                "description": function.get("description", ""),
                "parameters": parameters,
            },
        }
    declarations = list(found.values())
    # The files come by category (live_multiple's large schemas first): shuffled, every
    # prefix has the same mix, so per-tool costs of different sizes compare.
    random.Random(4).shuffle(declarations)
    if limit is None:
        return declarations
    if len(declarations) < limit:
        raise SystemExit(f"BFCL has {len(declarations)} distinct functions, {limit} asked")
    return declarations[:limit]


def write_schemas(folder: Path, declarations: list[dict[str, Any]]) -> None:
    folder.mkdir(parents=True)
    for i, declaration in enumerate(declarations):
        (folder / f"{i:04d}.json").write_text(json.dumps(declaration), encoding="utf-8")


def generate(
    schemas: Path, out: Path, *options: str, jobs: str | None = None, ok: tuple[int, ...] = (0,)
) -> float:
    """Wall time of one `python -m generator generate` process."""
    env = dict(os.environ)
    env.pop("TOOLGEN_JOBS", None)
    if jobs is not None:
        env["TOOLGEN_JOBS"] = jobs
    started = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "generate",
            "--schemas",
            str(schemas),
            "--out",
            str(out),
            *options,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode not in ok:
        raise SystemExit(
            f"generate {' '.join(options)} exited {done.returncode}: {done.stderr.decode()[-2000:]}"
        )
    return seconds


def real_declarations(count: int) -> list[dict[str, Any]]:
    """Every real-world declaration of tests/data/real-tools (SDKs, MCP servers,
    cookbooks), then BFCL functions up to `count`, names distinct."""
    found: list[dict[str, Any]] = []
    names: set[str] = set()
    for file in sorted(REAL_TOOLS.glob("*.json")) if REAL_TOOLS.is_dir() else []:
        declaration = json.loads(file.read_text(encoding="utf-8"))
        names.add(declaration["function"]["name"])
        found.append(declaration)
    for declaration in bfcl_declarations(1000):
        if len(found) >= count:
            break
        if declaration["function"]["name"] not in names:
            names.add(declaration["function"]["name"])
            found.append(declaration)
    return found[:count]


BLACK_ALONE = """
import json, sys, time
from pathlib import Path
import black
from generator.front.check import check
from generator.emit.format import MODE
from generator.front.load import read_all
from generator.ir.lower import lower
from generator.plan.module import plan
from generator.emit.render import (
    PATHS, SUPPORT, environment, render_declaration, render_declarations, render_init, render_tool,
)
schemas, final = Path(sys.argv[1]), Path(sys.argv[2])
declarations = read_all(schemas)
tools = [lower(d, *check(d)) for d in declarations]
env = environment()
# every file build() renders: a validator and a declaration module a tool, then the package's own
rendered = [render_tool(env, plan(t)) for t in tools]
rendered += [render_declaration(env, d) for d in declarations]
rendered += [SUPPORT.read_text("utf-8"), PATHS.read_text("utf-8")]
rendered += [render_declarations(env, {t.tool: t.module for t in tools}), render_init(env)]
started = time.perf_counter()
for source in rendered:
    black.format_str(source, mode=MODE)
serial = time.perf_counter() - started
formatted = [p.read_text("utf-8") for p in sorted(final.glob("*.py"))]
started = time.perf_counter()
for source in formatted:
    black.format_str(source, mode=MODE)  # already formatted: black makes one pass
once = time.perf_counter() - started
print(json.dumps({"serial": serial, "once": once, "files": len(rendered)}))
"""


def black_alone(schemas: Path, final: Path) -> tuple[float, float]:
    """(black.format_str over every rendered file, serially in one process, as generate asks it;
    black.format_str over the final files, which are stable, so one pass each), import excluded."""
    done = subprocess.run(
        [sys.executable, "-c", BLACK_ALONE, str(schemas), str(final)],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    found = json.loads(done.stdout)
    return found["serial"], found["once"]


def _tree(folder: Path) -> dict[str, bytes]:
    """The files a run wrote, its own folder's name taken out (each header's regenerate
    command names the folder: `--out <folder>`)."""
    own = str(folder).encode()
    return {p.name: p.read_bytes().replace(own, b"<out>") for p in sorted(folder.glob("*.py"))}


def issue12_generation(work: Path, runs: int = RUNS) -> list[str]:
    """Issue 12's generation figures on 300 real declarations, interleaved, as ratios."""
    declarations = real_declarations(REAL_COUNT)
    schemas = work / "real300"
    write_schemas(schemas, declarations)
    # One declaration edited in place: the same `--schemas`, as a user's edit is (every
    # header names the command, so another folder would rewrite every file).
    first = schemas / "0000.json"
    original = first.read_bytes()
    edited = json.loads(original)
    edited["function"]["description"] = edited["function"].get("description", "") + " (edited)"
    times: dict[str, list[float]] = {
        k: [] for k in ("black", "once", "cold", "serial", "noop", "check", "one")
    }

    def black_run(r: int) -> None:
        serial, once = black_alone(schemas, work / "real300_final")
        times["black"].append(serial)
        times["once"].append(once)

    trees: dict[str, dict[str, bytes]] = {}  # what each kind of cold run wrote, for comparison

    def compare(kind: str, out: Path) -> None:
        trees.setdefault(kind, _tree(out))
        if trees[kind] != _tree(out) or (len(trees) == 2 and trees["pool"] != trees["serial"]):
            raise SystemExit("serial and parallel generates differ")

    def cold_run(r: int) -> None:
        out = work / f"real300_out{r}"
        times["cold"].append(generate(schemas, out))
        compare("pool", out)
        times["noop"].append(generate(schemas, out))
        times["check"].append(generate(schemas, out, "--check"))
        first.write_text(json.dumps(edited), encoding="utf-8")
        try:
            times["one"].append(generate(schemas, out))
        finally:
            first.write_bytes(original)

    def serial_run(r: int) -> None:
        out = work / f"real300_serial{r}"
        times["serial"].append(generate(schemas, out, jobs="1"))
        compare("serial", out)

    generate(schemas, work / "real300_final")
    steps = [black_run, cold_run, serial_run]
    for r in range(runs):
        for step in steps[r % 3 :] + steps[: r % 3]:
            step(r)
    best = {k: min(v) for k, v in times.items()}
    cold = best["cold"]
    real = min(len(declarations), len(list(REAL_TOOLS.glob("*.json"))))
    rows = [
        (
            "black alone, serial: format_str of every rendered file, one process / cold generate",
            best["black"] / cold,
            ">= 1.60x",
        ),
        ("cold generate, serial (TOOLGEN_JOBS=1) / cold generate", best["serial"] / cold, "-"),
        ("black alone, one pass over the final (stable) files / cold generate", best["once"] / cold, "-"),
        ("no-op generate / cold generate", best["noop"] / cold, "-"),
        ("no-op `--check` / cold generate", best["check"] / cold, "<= 0.10x"),
        ("one changed declaration, generate / cold generate", best["one"] / cold, "-"),
    ]
    lines = [
        f"Issue 12, on {len(declarations)} real declarations ({real} from real-world SDKs, MCP servers "
        f"and cookbooks, the rest BFCL), {os.cpu_count()} cores: best of {runs} interleaved runs, each a "
        "whole process; ratios to a cold generate (fresh folder, default: the format pool).",
        "",
        "| measurement | ratio | wanted |",
        "|---|---|---|",
        *(f"| {label} | {ratio:.2f}x | {wanted} |" for label, ratio, wanted in rows),
        "",
        "Seconds, for scale only (the machine is shared): "
        + ", ".join(f"{name} {seconds:.1f}" for name, seconds in best.items())
        + ". Serial and parallel outputs were compared byte for byte in every run.",
    ]
    return lines


def fresh_and_noop(schemas: Path, work: Path, runs: int = RUNS) -> tuple[float, float]:
    """Best fresh run into an empty folder, best no-op re-run over the result."""
    fresh, noop = [], []
    for run in range(runs):
        out = work / f"out{run}"
        fresh.append(generate(schemas, out))
        noop.append(generate(schemas, out))
    return min(fresh), min(noop)


def python_ms(code: str, path: Path) -> float:
    best = float("inf")
    env = dict(os.environ, PYTHONPATH=str(path), PYTHONDONTWRITEBYTECODE="")
    for _ in range(15):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=path, env=env, check=True)
        best = min(best, time.perf_counter() - started)
    return best * 1000


def import_costs(package_parent: Path, package: str, tool: str) -> tuple[float, float]:
    """(import the package, import it and validate one call of `tool`), start-up subtracted."""
    python_ms(f"import {package}; {package}.validate({tool!r}, {{}})", package_parent)  # warm .pyc
    baseline = python_ms("pass", package_parent)
    imported = python_ms(f"import {package}", package_parent) - baseline
    first = python_ms(f"import {package}; {package}.validate({tool!r}, {{}})", package_parent) - baseline
    return imported, first


def main() -> None:
    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="toolgen-gencost-") as tmp:
        work = Path(tmp)
        fresh, noop = fresh_and_noop(ROOT / "tool_schemas", work / "builtin")
        lines += [
            "| run | tools | wall time | per tool |",
            "|---|---|---|---|",
            f"| generate, fresh folder | 25 | {fresh:.2f} s | {fresh / 25 * 1000:.1f} ms |",
            f"| generate, no-op re-run | 25 | {noop:.2f} s | {noop / 25 * 1000:.1f} ms |",
        ]
        declarations = bfcl_declarations(1000)
        per_tool: list[float] = []
        for count in (250, 500, 1000):
            schemas = work / f"bfcl{count}"
            write_schemas(schemas, declarations[:count])
            fresh, noop = fresh_and_noop(schemas, work / f"gen{count}", runs=2)
            per_tool.append(fresh / count)
            lines.append(
                f"| generate BFCL, fresh folder | {count:,} | {fresh:.2f} s | {fresh / count * 1000:.1f} ms |"
            )
            lines.append(
                f"| generate BFCL, no-op re-run | {count:,} | {noop:.2f} s | {noop / count * 1000:.1f} ms |"
            )
        lines += ["", _linearity(per_tool), "", stage_costs(real_declarations(REAL_COUNT), work), ""]
        lines += [*issue12_generation(work), ""]
        shutil.copytree(ROOT / "generated", work / "pkg" / "generated", ignore=shutil.ignore_patterns("*.so"))
        shutil.copytree(work / "gen1000" / "out0", work / "pkg" / "bfcl1000")
        builtin = import_costs(work / "pkg", "generated", "Read")
        bfcl = import_costs(work / "pkg", "bfcl1000", declarations[0]["function"]["name"])
        lines += [
            "| package | import | import + first validate (one module loaded) |",
            "|---|---|---|",
            f"| generated/ (25 tools) | {builtin[0]:.1f} ms | {builtin[1]:.1f} ms |",
            f"| BFCL package (1,000 tools) | {bfcl[0]:.1f} ms | {bfcl[1]:.1f} ms |",
        ]
    write_section("\n".join(lines))
    print("\n".join(lines))


def _linearity(per_tool: list[float]) -> str:
    spread = max(per_tool) / min(per_tool)
    costs = ", ".join(f"{c * 1000:.1f}" for c in per_tool)
    verdict = (
        "flat within 25 %: generation grows linearly with the number of tools"
        if spread <= 1.25
        else "not flat in this run: the machine's load moved between sizes; run again"
    )
    return f"Per-tool cost at 250 / 500 / 1,000 tools: {costs} ms (max/min {spread:.2f}): {verdict}."


def stage_costs(declarations: list[dict[str, Any]], work: Path) -> str:
    """In-process, serial cost of each stage on the 300 real declarations: where time goes."""
    import ast

    import black

    from generator.emit.format import MODE
    from generator.emit.render import environment, render_tool
    from generator.front.check import check
    from generator.front.load import read_all
    from generator.ir.lower import lower
    from generator.plan.module import plan

    schemas = work / "stages"
    write_schemas(schemas, declarations)
    started = time.perf_counter()
    loaded = read_all(schemas)
    timings = {"load": time.perf_counter() - started}
    started = time.perf_counter()
    tools = [lower(d, *check(d)) for d in loaded]
    timings["check + lower"] = time.perf_counter() - started
    started = time.perf_counter()
    plans = [plan(t) for t in tools]
    timings["plan"] = time.perf_counter() - started
    started = time.perf_counter()
    env = environment()
    sources = [render_tool(env, p) for p in plans]
    timings["render (Jinja2, with template compilation)"] = time.perf_counter() - started
    started = time.perf_counter()
    formatted = [black.format_str(source, mode=MODE) for source in sources]
    timings["black.format_str"] = time.perf_counter() - started
    started = time.perf_counter()
    for source in formatted:
        ast.parse(source)
    timings["ast.parse of the result"] = time.perf_counter() - started
    parts = ", ".join(f"{name} {seconds / len(tools) * 1000:.2f} ms" for name, seconds in timings.items())
    return f"Per tool, in process, serial, {len(tools)} real declarations: {parts}."


def write_section(body: str, name: str = "gencost") -> None:
    """Replace (or append) the `name` section of benchmarks/RESULTS.md, between its markers."""
    path = ROOT / "benchmarks" / "RESULTS.md"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    block = f"{begin}\n{body}\n{end}"
    if begin in text and end in text:
        text = text[: text.index(begin)] + block + text[text.index(end) + len(end) :]
    else:
        text = text + ("\n" if text else "") + block + "\n"
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
