"""`make compile-bound`: extended-mode compile time against declaration size (issue 37.7).

Two families of machine-drawn declarations in the style of tests/data/hostile (nested
`oneOf` / `anyOf` / `$ref` with contradictory bounds), grown step by step:

* **grown**: depth d (objects nested through `properties`) and width w (properties a level)
  grown together, (d, w) = (1, 2), (2, 3), (3, 4), ...; every property a `oneOf` of a `$ref`
  to a shared definition (itself an `anyOf`) and a branch with contradictory bounds. Its
  size grows about as d * w; each visit's anyOf / oneOf cases stay few.
* **in place**: k `oneOf`s side by side in one group (`allOf`), k = 1, 2, ...: the cases of
  that visit multiply by three a step, so past generator/front/schema_graph.py's CASES_LIMIT the
  declaration is refused (what the hostile files are).

Each step is one declaration compiled in process as `generate` compiles a tool: check, lower,
plan, render, black, timed as this process's CPU time (best of RUNS), so that other work on
the machine does not count. The cost of compiling the smallest declaration (`{"type":
"object"}`: the module's fixed part) is subtracted, and the rest divided by the declaration's
size; the table gives that per-KB cost at each step as a ratio to the family's first step:
flat means compile time grows linearly with size.
Results go into benchmarks/RESULTS.md between the compile-bound markers.
"""

from __future__ import annotations

import json
import time
from typing import Any

import black

from benchmarks.gencost import write_section
from generator.emit.format import MODE
from generator.emit.render import environment, render_tool
from generator.front.check import check
from generator.front.errors import DeclarationError
from generator.front.load import declarations_in
from generator.front.schema_graph import CASES_LIMIT, cases
from generator.front.vocabulary import EXTENDED
from generator.ir.lower import lower
from generator.plan.module import plan

RUNS = 3
STEPS = 8


def hostile_property(level: int, index: int) -> dict[str, Any]:
    """One property: a oneOf of the shared definition and a branch whose bounds contradict."""
    contradictory = {"type": "string", "minLength": 3, "maxLength": 2, "pattern": f"^p{index}[a-c]+$"}
    return {"oneOf": [{"$ref": "#/$defs/Node", "minimum": 3, "maximum": 2}, contradictory]}


def grown(depth: int, width: int) -> dict[str, Any]:
    """`depth` levels of objects, `width` hostile properties each, the next level in the last."""
    level: dict[str, Any] = {"type": "object", "properties": {}}
    for d in range(depth, 0, -1):
        properties = {f"p{d}_{i}": hostile_property(d, i) for i in range(width)}
        properties[f"next{d}"] = level
        level = {"type": "object", "properties": properties, "additionalProperties": False}
    node = {"anyOf": [{"type": "integer", "minimum": 5, "maximum": 1}, {"type": "null"}, {"type": "boolean"}]}
    return {**level, "$defs": {"Node": node}}


def in_place(count: int) -> dict[str, Any]:
    """`count` oneOfs of two branches applied to the arguments in place (allOf)."""
    branches = [
        {"oneOf": [{"properties": {f"a{i}": {"minLength": 2, "maxLength": 1}}}, {"$ref": "#/$defs/Node"}]}
        for i in range(count)
    ]
    node = {"properties": {"n": {"type": "integer", "minimum": 3, "maximum": 2}}}
    return {"type": "object", "allOf": branches, "$defs": {"Node": node}}


def compile_once(parameters: dict[str, Any]) -> tuple[float, str]:
    """(seconds, outcome) of compiling one declaration: its module's size, or its refusal."""
    text = json.dumps({"type": "function", "function": {"name": "t", "parameters": parameters}})
    [declaration] = declarations_in(text.encode(), "t.json")
    env = environment()
    started = time.process_time()
    try:
        graph, checked = check(declaration, EXTENDED)
    except DeclarationError as refused:
        return time.process_time() - started, f"refused at `{refused.pointer}`"
    source = black.format_str(render_tool(env, plan(lower(declaration, graph, checked))), mode=MODE)
    seconds = time.process_time() - started
    counted: dict[tuple[int, ...], int] = {}
    most = max(cases(g.combinators, counted) for g in graph.groups.values())
    return seconds, f"compiled: {len(source) / 1000:.0f} KB module, at most {most} cases a visit"


def best(parameters: dict[str, Any]) -> tuple[float, str]:
    return min(compile_once(parameters) for _ in range(RUNS))


def family(name: str, steps: list[tuple[str, dict[str, Any]]], fixed: float) -> list[str]:
    """One row a step: per-KB cost relative to the first step's, and the step's growth (time
    over size, each relative to the step before: 1.00x is linear)."""
    rows, first, before = [], 0.0, (0.0, 0.0)
    for label, parameters in steps:
        size = len(json.dumps(parameters)) / 1000
        seconds, outcome = best(parameters)
        own = max(seconds - fixed, 0.0)
        first = first or own / size
        growth = f"{(own / before[0]) / (size / before[1]):.2f}x" if before[0] and own else "-"
        before = (own, size)
        rows.append(
            f"| {name} | {label} | {size:.1f} KB | {seconds * 1000:.0f} ms | {own / size * 1000:.1f} ms | "
            f"{own / size / first:.2f}x | {growth} | {outcome} |"
        )
    return rows


def main() -> None:
    grown_steps = [(f"depth {d}, width {d + 1}", grown(d, d + 1)) for d in range(1, STEPS + 1)]
    in_place_steps = [(f"{k} oneOf in place", in_place(k)) for k in range(1, STEPS + 1)]
    fixed = best({"type": "object"})[0]
    lines = [
        f"Extended mode, in process (check, lower, plan, render, black), CPU time, best of {RUNS}. "
        f"Per KB: (compile - {fixed * 1000:.0f} ms, the smallest declaration's) / declaration size, "
        "relative to the family's first step, and each step's time growth over its size growth "
        "(1.00x: linear; the first steps still amortise the family's own fixed part). Cases past "
        f"{CASES_LIMIT} in one visit are refused (generator/front/schema_graph.py): in place, each oneOf "
        "triples them while the file grows by 0.1 KB, so the in-place family grows faster than its "
        "size until it reaches the limit, and is refused at once past it.",
        "",
        "| family | step | declaration | compile | per KB | per KB / first | growth / size growth "
        "| outcome |",
        "|---|---|---|---|---|---|---|---|",
        *family("grown", grown_steps, fixed),
        *family("in place", in_place_steps, fixed),
    ]
    write_section("\n".join(lines), "compile-bound")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
