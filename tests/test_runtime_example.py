"""The example agent loop and the agent guide's first snippet run and say what they should."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout


def test_example_agent_loop_runs_the_independent_test(tmp_path: Path) -> None:
    out = run([sys.executable, str(ROOT / "examples" / "agent_loop.py")], tmp_path)

    assert (
        '>>> TaskUpdate {"id": "2", "status": "completed"}\n'
        "    [validation failed] TaskUpdate: 2 issue(s)\n"
        "    TaskUpdate failed due to the following issues:\n"
        "    The required parameter `taskId` is missing\n"
        "    An unexpected parameter `id` was provided\n"
        "    task files changed: none\n"
        '>>> TaskGet {"taskId": "2"}\n'
        "    [PreToolUse] TaskGet\n"
        "    Task #2: Wire the parser\n"
        "    Status: pending\n"
    ) in out
    assert (
        '>>> TaskUpdate {"taskId": "2", "status": "completed"}\n'
        "    [PreToolUse] TaskUpdate\n"
        "    Updated task #2\n"
        "    task files changed: 2.json\n"
    ) in out
    assert (
        '>>> Write {"file_path": "config.ini"}\n'
        "    [validation failed] Write: 1 issue(s)\n"
        "    Write failed due to the following issue:\n"
        "    The required parameter `content` is missing\n"
    ) in out
    assert "    [permission] Write: allowed\n    File created successfully at: <work>/config.ini\n" in out
    assert ">>> mcp__tracker__file_bug {}\n    [PreToolUse] mcp__tracker__file_bug\n    bug filed\n" in out
    # Every failure the example prints is one the validators or the adapter reported.
    assert out.count("[validation failed]") == 5
    assert out.rstrip().endswith('"is_error": true}')


def test_the_agent_guide_snippet_runs(tmp_path: Path) -> None:
    section = (ROOT / "docs" / "agent.md").read_text("utf-8")
    # The section on this repository's own agent: its file and task tools over two folders.
    found = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    snippets = [code for code in found if "register_task_tools" in code]
    assert len(snippets) == 1
    code = snippets[0]
    assert len(code.strip().splitlines()) <= 20
    (tmp_path / "snippet.py").write_text(code)

    out = run([sys.executable, "snippet.py"], tmp_path)

    assert out == (
        "TaskUpdate failed due to the following issues:\n"
        "The required parameter `taskId` is missing\n"
        "An unexpected parameter `id` was provided\n"
    )
    # The guide shows, as comments, exactly what the snippet prints.
    assert "".join(f"# {line}\n" for line in out.splitlines()) in code
    assert not (tmp_path / "tasks").exists()  # the rejected call touched nothing
