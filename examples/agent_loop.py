"""A scripted agent turn loop: the model's tool calls run through ToolExecutor, no network.

Run from a checkout: `python examples/agent_loop.py`. Each scripted call is what a model
would send in an OpenAI `tool_calls` entry; each reply is the `{"role": "tool"}` message it
would get back. The script includes the requirement's independent test: TaskUpdate called
with `id` instead of `taskId` fails, naming both, and task 2 is left as it was; the same
call with `taskId` then succeeds.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

# Importable from a plain checkout, without installing the project.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toolgen.runtime import ToolExecutor, run_anthropic_tool_use, run_openai_tool_call
from toolgen.runtime.builtins import register_file_tools, register_task_tools

import generated

# (tool name, arguments exactly as the model wrote them)
SCRIPT: list[tuple[str, str]] = [
    ("TaskCreate", '{"subject": "Write the parser", "description": "Parse the config file"}'),
    ("TaskCreate", '{"subject": "Wire the parser", "description": "Call it at start-up"}'),
    # The independent test: the model says `id` where the declaration says `taskId`.
    ("TaskUpdate", '{"id": "2", "status": "completed"}'),
    ("TaskGet", '{"taskId": "2"}'),
    ("TaskUpdate", '{"taskId": "2", "status": "completed"}'),
    ("TaskGet", '{"taskId": "2"}'),
    # Write without content must write nothing; the retry writes.
    ("Write", '{"file_path": "config.ini"}'),
    ("Write", '{"file_path": "config.ini", "content": "[parser]\\nstrict = yes\\n"}'),
    ("Read", '{"file_path": "config.ini", "offset": "2"}'),
    ("Read", '{"file_path": "config.ini", "offset": 2}'),
    ("Edit", '{"file_path": "config.ini", "old_string": "yes", "new_string": "no"}'),
    ("TaskUpdate", '{"taskId": "1", "status": "done"}'),
    ("TaskList", "{}"),
    ("TaskList", "{not json"),
    # Not declared in the package: their schemas belong to someone else, so nothing here checks them.
    ("mcp__tracker__file_bug", "{}"),
    ("deploy", '{"region": 7}'),
]


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="agent-loop-") as root:
        work, tasks = Path(root) / "work", Path(root) / "tasks"
        work.mkdir()
        executor = build_executor(work, tasks)
        for number, (name, arguments) in enumerate(SCRIPT, 1):
            call = {
                "id": f"call_{number}",
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
            before = snapshot(tasks)
            print(f">>> {name} {arguments}")
            reply = run_openai_tool_call(executor, call)
            print(indent(str(reply["content"]).replace(str(work.resolve()), "<work>")))
            after = snapshot(tasks)
            changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
            print(f"    task files changed: {', '.join(changed) or 'none'}")
        block = {"type": "tool_use", "id": "toolu_1", "name": "TaskGet", "input": {"task": "1"}}
        print(">>> (Anthropic tool_use) TaskGet {'task': '1'}")
        print(indent(json.dumps(run_anthropic_tool_use(executor, block), ensure_ascii=False)))
    return 0


def build_executor(work: Path, tasks: Path) -> ToolExecutor:
    def permission(tool: str, args: object) -> bool:
        print(f"    [permission] {tool}: allowed")
        return True

    def pre_tool_use(tool: str, args: object) -> str | None:
        print(f"    [PreToolUse] {tool}")
        return None

    # This repository's package and its own file and task tools; a project of yours passes its
    # own package and binds its tools with register_declared (docs/agent.md).
    executor = ToolExecutor(generated, permission=permission, on_validation_failure=report)
    register_file_tools(executor, work)
    register_task_tools(executor, tasks)
    executor.add_hook("PreToolUse", pre_tool_use)
    executor.register_mcp(
        "tracker", "file_bug", {"type": "object", "required": ["title"]}, lambda args: "bug filed"
    )
    executor.register_custom(
        "deploy", {"type": "object", "required": ["env"]}, lambda args: f"deployed with {args}"
    )
    return executor


def report(tool: str, args: object, issues: tuple[object, ...]) -> None:
    print(f"    [validation failed] {tool}: {len(issues)} issue(s)")


def snapshot(tasks: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(tasks.glob("*.json"))} if tasks.is_dir() else {}


def indent(text: str) -> str:
    return "\n".join("    " + line for line in text.split("\n"))


if __name__ == "__main__":
    sys.exit(main())
