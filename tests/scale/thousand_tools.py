"""`make scale`, part 1: a 1,000-tool schema folder generates, re-checks and validates correctly.

Too slow for the default suite (black formats every module: about 50 ms each), so it runs
here and prints its measurements instead of asserting any time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.reliability import ROOT, assert_agrees_with_reference, imported, random_tools, write_schemas

TOOLS = 1000


def _timed_generate(cwd: Path, *extra: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable,
        "-m",
        "generator",
        "generate",
        "--schemas",
        "schemas",
        "--out",
        "pkg_scale",
        *extra,
    ]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"generate {' '.join(extra)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return elapsed


def main() -> None:
    tools = random_tools(TOOLS, seed=1000, depth=3)
    with tempfile.TemporaryDirectory() as folder:
        cwd = Path(folder)
        write_schemas(cwd / "schemas", tools)
        first = _timed_generate(cwd)
        again = _timed_generate(cwd)
        check = _timed_generate(cwd, "--check")
        out = cwd / "pkg_scale"
        modules = len(list(out.glob("*.py")))
        started = time.perf_counter()
        with imported(out) as package:
            cases = assert_agrees_with_reference(package, tools, ("zz", "a.b", ""))
        cross = time.perf_counter() - started
    print(f"{TOOLS} tools -> {modules} files")
    print(f"generate (first run): {first:.1f} s ({first / TOOLS * 1000:.0f} ms per tool)")
    print(f"generate (nothing changed): {again:.1f} s; --check: {check:.1f} s")
    print(
        f"cross-check against tests/reference.py: {cases} calls, 0 failed, {cross:.1f} s (imports included)"
    )


if __name__ == "__main__":
    main()
