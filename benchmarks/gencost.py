"""`make gencost`: what generation costs, and what importing the generated package costs.

* `generate` on the 25 built-in tools into a fresh folder (a whole CLI process), then a
  no-op re-run (every module reused by its header);
* 250, 500 and 1,000 tools converted from BFCL's function docs (unique names), fresh, to
  show the per-tool cost stays flat (linear growth), plus the no-op re-run at 1,000;
* importing the generated package, and the first `validate` (which imports one module),
  each minus the interpreter's own start-up.

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
BFCL = ROOT.parent / "shared" / "reference" / "bfcl"
if not BFCL.is_dir():
    BFCL = Path("/work/shared/reference/bfcl")
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


def bfcl_declarations(limit: int) -> list[dict[str, Any]]:
    """Up to `limit` BFCL functions with distinct names, as OpenAI function-tool declarations."""
    found: dict[str, dict[str, Any]] = {}
    for file in sorted(BFCL.glob("BFCL_v4_*.json")):
        for line in file.read_text(encoding="utf-8").splitlines():
            for function in json.loads(line)["function"]:
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
    if len(declarations) < limit:
        raise SystemExit(f"BFCL has {len(declarations)} distinct functions, {limit} asked")
    return declarations[:limit]


def write_schemas(folder: Path, declarations: list[dict[str, Any]]) -> None:
    folder.mkdir(parents=True)
    for i, declaration in enumerate(declarations):
        (folder / f"{i:04d}.json").write_text(json.dumps(declaration), encoding="utf-8")


def generate(schemas: Path, out: Path) -> float:
    """Wall time of one `python -m generator generate` process."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "generator", "generate", "--schemas", str(schemas), "--out", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


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
        lines += ["", _linearity(per_tool), "", stage_costs(declarations, work), ""]
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
    """In-process cost per tool of each stage, on a sample: where generation time goes."""
    from generator.check import check
    from generator.format import format_source
    from generator.load import read_all
    from generator.lower import lower
    from generator.plan import plan
    from generator.render import environment, render_tool

    schemas = work / "stages"
    write_schemas(schemas, declarations[:100])
    started = time.perf_counter()
    loaded = read_all(schemas)
    timings = {"load": time.perf_counter() - started}
    started = time.perf_counter()
    tools = [lower(d, check(d)) for d in loaded]
    timings["check + lower"] = time.perf_counter() - started
    started = time.perf_counter()
    plans = [plan(t) for t in tools]
    timings["plan"] = time.perf_counter() - started
    env = environment()
    started = time.perf_counter()
    sources = [render_tool(env, p) for p in plans]
    timings["render (Jinja2)"] = time.perf_counter() - started
    started = time.perf_counter()
    for tool, source in zip(tools, sources, strict=True):
        format_source(f"{tool.module}.py", source)
    timings["format (black + ast.parse)"] = time.perf_counter() - started
    parts = ", ".join(f"{name} {seconds / len(tools) * 1000:.2f} ms" for name, seconds in timings.items())
    return f"Per tool, in process, 100 BFCL tools: {parts}."


def write_section(body: str) -> None:
    path = ROOT / "benchmarks" / "RESULTS.md"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    begin, end = "<!-- gencost:begin -->", "<!-- gencost:end -->"
    block = f"{begin}\n{body}\n{end}"
    if begin in text and end in text:
        text = text[: text.index(begin)] + block + text[text.index(end) + len(end) :]
    else:
        text = text + ("\n" if text else "") + block + "\n"
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
