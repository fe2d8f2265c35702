"""Property: whatever JSON a model sends to whatever tool, the executor answers and never raises.

For a built-in, a call the validators reject gets exactly their message and touches nothing
(no hook, no permission question, no handler); any other call reaches the tool.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import generated
from runtime import ToolResult
from tests.runtime_support import Journal, make_executor

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("TaskCreate", "TaskGet", "TaskUpdate", "TaskList", "Read", "Write", "Edit")
NAMES = (
    *("taskId", "subject", "description", "status", "metadata", "file_path", "content", "offset"),
    *("limit", "old_string", "new_string", "replace_all", "addBlocks", "id", "command"),
)

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
json_values = st.recursive(
    scalars | st.sampled_from(["1", "2", "pending", "deleted", "a.txt", "../x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
arguments = st.dictionaries(st.sampled_from(NAMES), json_values, max_size=5) | json_values


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    calls=st.lists(
        st.tuples(st.sampled_from((*SHIPPED, "Bash", "mcp__s__t", "custom")), arguments), max_size=6
    )
)
def test_every_call_gets_a_result_and_rejected_calls_touch_nothing(calls: list[tuple[str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as root:
        journal = Journal()
        executor = make_executor(Path(root), journal, spied=SHIPPED)
        executor.register_mcp("s", "t", {"type": "object", "required": ["x"]}, journal.spy("mcp__s__t"))
        executor.register_custom("custom", {"type": "object"}, journal.spy("custom"))
        (Path(root) / "work" / "a.txt").write_text("pending 1\n")
        for name, args in calls:
            before = len(journal.events)
            result = executor.execute(name, args)
            assert isinstance(result, ToolResult)
            assert result.success or (isinstance(result.error, str) and result.error)
            message = generated.validate(name, args) if executor.origin(name) == "declared" else None
            if message is not None:
                assert (result.success, result.error) == (False, message)
                assert len(journal.events) == before
            elif isinstance(args, dict) and name != "Bash":
                assert ("run", name) in journal.events[before:]


def test_runtime_imports_nothing_beyond_the_standard_library() -> None:
    # runtime imports lazily (issue 9): use it, then look at what it loaded. It imports no
    # generated package of its own (issue 20): the user passes theirs.
    code = (
        "import sys, runtime, runtime.builtins, runtime.failures; runtime.ToolExecutor; runtime.check_call; "
        "print(' '.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    assert {"runtime", "runtime.executor", "runtime.builtins"} <= loaded
    assert "generated" not in loaded
    assert not loaded & {"jinja2", "black", "click", "generator", "tests", "hypothesis"}
    third_party = {m.split(".")[0] for m in loaded} - set(sys.stdlib_module_names) - {"runtime", "generated"}
    # What site start-up itself loads (setuptools' hooks for editable installs) does not count.
    assert {m for m in third_party if not m.startswith(("__editable__", "_distutils_hack"))} <= {"__main__"}
