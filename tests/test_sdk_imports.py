"""The runtime stays standard-library only: running calls imports no SDK, and OpenTelemetry
only once a call is rejected (runtime/integrations/ modules import their SDK themselves)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SDKS = (
    "openai",
    "anthropic",
    "mcp",
    "mcp_types",
    "agents",
    "pydantic_ai",
    "langchain_core",
    "pydantic",
    "opentelemetry",
)

SCRIPT = """
import json, sys
SDKS = {sdks!r}
def loaded():
    return sorted({{m.split(".")[0] for m in sys.modules}} & set(SDKS))
steps = {{}}
{body}
print(json.dumps(steps))
"""


def run(body: str, tmp_path: Path) -> dict[str, list[str]]:
    script = SCRIPT.format(sdks=SDKS, body=body)
    out = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, list[str]] = json.loads(out.stdout)
    return result


def test_the_runtime_imports_no_sdk(tmp_path: Path) -> None:
    body = """
import runtime, runtime.integrations
import generated
from runtime import ToolExecutor, run_openai_tool_call, run_responses_function_call, run_anthropic_tool_use
from runtime.builtins import register_task_tools
executor = ToolExecutor(generated)
register_task_tools(executor, sys.argv[1] + "/tasks")
call = {"name": "TaskList", "arguments": "{}"}
run_openai_tool_call(executor, {"id": "c", "type": "function", "function": call})
run_responses_function_call(executor, {"type": "function_call", "call_id": "c", **call})
run_anthropic_tool_use(executor, {"type": "tool_use", "id": "t", "name": "TaskList", "input": {}})
import asyncio
asyncio.run(executor.aexecute("TaskList", {}))
steps["valid calls"] = loaded()
executor.execute("TaskGet", {})
steps["after a rejection"] = loaded()
"""
    assert run(body, tmp_path) == {"valid calls": [], "after a rejection": ["opentelemetry"]}
