"""The compiled tier (also alone: `make test-compiled`; compiling takes ~20-30 s on 2 cores).

Compiles a copy of generated/ with mypyc, then, in a fresh interpreter that imports that
copy, checks that every module really is an extension module and that the messages are
the spec's, byte for byte: the spec's own example, a non-object input, a hostile key, and
every benchmark call of the 25 built-in tools against the reference interpreter.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from generator.cli.compile import compile_package

pytestmark = pytest.mark.compiled  # make test-compiled (CI runs it); mypyc takes half a minute

ROOT = Path(__file__).resolve().parent.parent

SPEC_EXAMPLE = (
    "TaskUpdate failed due to the following issues:\n"
    "The required parameter `taskId` is missing\n"
    "An unexpected parameter `id` was provided\n"
    "The parameter `owner` type is expected as `string` but provided as `number`\n"
    'The parameter `status` is invalid: expected one of "pending", "in_progress", "completed", "deleted"'
)

CHECK = textwrap.dedent(
    """
    import importlib, json, sys
    from pathlib import Path
    import generated
    from benchmarks.cases import build_cases, load_declarations
    from tests.reference import message

    modules = sorted(set(generated._MODULES.values())) + ["_support"]
    loaded = {m: importlib.import_module("generated." + m).__file__ for m in modules}
    interpreted = [m for m, f in loaded.items() if not f.endswith(".so")]

    class Hostile(str):
        __hash__ = str.__hash__

        def __eq__(self, other):
            raise RuntimeError("no comparison")

    tools = load_declarations(Path(sys.argv[1]) / "tool_schemas")
    mismatches = []
    for case in build_cases(tools):
        want = message(case.tool, tools[case.tool], case.args)
        if generated.validate(case.tool, case.args) != want:
            mismatches.append([case.tool, case.kind])
    print(json.dumps({
        "interpreted": interpreted,
        "example": generated.validate("TaskUpdate", {"id": "2", "status": "done", "owner": 3}),
        "not_object": generated.validate("Read", ["a.txt"]),
        "hostile": generated.validate("Read", {Hostile("file_path"): "a"}),
        "issues": [list(i) for i in generated.issues("Write", {"file_path": 1})],
        "valid": generated.validate("Read", {"file_path": "a.txt", "limit": 10}),
        "mismatches": mismatches,
    }))
    """
)


def test_compiled_modules_give_the_spec_messages(tmp_path: Path) -> None:
    package = tmp_path / "generated"
    shutil.copytree(ROOT / "generated", package, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    built = compile_package(package)
    assert len(built) == len(list(package.glob("*.py")))  # every module but __init__, plus the library
    result = subprocess.run(
        [sys.executable, "-c", CHECK, str(ROOT)],
        cwd=tmp_path,
        env={"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": ""},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["interpreted"] == []
    assert found["example"] == SPEC_EXAMPLE
    assert found["not_object"] == (
        "Read failed due to the following issue:\n"
        "The tool input type is expected as `object` but provided as `array`"
    )
    assert found["hostile"] == (
        "Read failed due to the following issue:\nThe tool input could not be read: RuntimeError was raised"
    )
    assert found["issues"] == [
        ["missing", "content", "The required parameter `content` is missing"],
        [
            "type",
            "file_path",
            "The parameter `file_path` type is expected as `string` but provided as `number`",
        ],
    ]
    assert found["valid"] is None
    assert found["mismatches"] == []
