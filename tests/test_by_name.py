"""The by-name entry points, `validate(tool_name, args)`, `issues(...)` and `validator(...)`:
one dict lookup on an exact str into a table of lazy stubs, and never raising whatever the
name is. Each test that cares about the stubs runs in a fresh interpreter, where no tool
module has been imported yet."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any, cast

import pytest

import generated
from tests.genpkg import ROOT
from tests.test_never_raises import LyingClass, Nameless, RaisingKeyStr

WRITE_EMPTY = (
    "Write failed due to the following issues:\n"
    "The required parameter `file_path` is missing\n"
    "The required parameter `content` is missing"
)


class LyingStr(str):
    """Claims to equal every str and hashes like "Read", whatever its own value."""

    def __hash__(self) -> int:
        return hash("Read")

    def __eq__(self, other: object) -> bool:
        return True


class LooksLikeRead:
    """Not a str at all, but hashes and compares like "Read"."""

    def __hash__(self) -> int:
        return hash("Read")

    def __eq__(self, other: object) -> bool:
        return other == "Read"


class RaisingHash:
    def __hash__(self) -> int:
        raise RuntimeError("hash")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")


class BaseRaisingStr(str):
    def __hash__(self) -> int:
        raise KeyboardInterrupt  # not even a BaseException from the name's own methods escapes


def test_a_str_subclass_is_looked_up_by_its_value_without_running_its_methods() -> None:
    for name in (RaisingKeyStr("Write"), BaseRaisingStr("Write"), LyingStr("Write")):
        assert generated.validate(name, {}) == WRITE_EMPTY
        assert generated.issues(name, {}) == generated.issues("Write", {})
        assert generated.validator(name) is generated.validator("Write")
    # Its value decides, not what its __eq__ / __hash__ claim: "Zzz" is no tool of ours.
    for name in (LyingStr("Zzz"), RaisingKeyStr("Zzz"), RaisingKeyStr("read")):
        assert generated.validate(name, {}) is None
        assert generated.issues(name, {}) == ()
        assert generated.validator(name) is None


def test_names_that_are_not_str_are_unknown_tools_even_when_they_compare_equal() -> None:
    for name in (LooksLikeRead(), RaisingHash(), ["Read"], {"Read": 1}, LyingClass(), Nameless(), b"Read"):
        assert generated.validate(cast(Any, name), {}) is None
        assert generated.issues(cast(Any, name), {}) == ()
        assert generated.validator(cast(Any, name)) is None


def test_unknown_and_internal_names_pass_through() -> None:
    for name in ("", "read", "Read ", "_MODULES", "_load", "__init__", "validate", "\udcff", "Read\x00"):
        assert generated.validate(name, {"file_path": 1}) is None
        assert generated.issues(name, {}) == ()
        assert generated.validator(name) is None


FIRST_CALLS = """
import json, sys
sys.path.insert(0, sys.argv[1])
import generated

def loaded():
    # _support (the wording) and _declarations (the name -> module table) come with the package
    return sorted(
        n for n in sys.modules
        if n.startswith("generated.") and n not in ("generated._support", "generated._declarations")
    )
out0 = sorted(n for n in sys.modules if n in ("generated._support", "generated._declarations"))

class RaisingKeyStr(str):
    def __hash__(self):
        raise RuntimeError("hash")

out = {"at_import": loaded(), "with_the_package": out0}
# The first call of each kind goes through a stub, which imports only its own module.
out["issues_first"] = [list(i) for i in generated.issues("Read", {"file_path": 1})]
out["after_issues"] = loaded()
out["validate_then"] = generated.validate("Read", {"file_path": 1})
out["hostile_first"] = generated.validate(RaisingKeyStr("Write"), {})
out["after_write"] = loaded()
read = sys.modules[[n for n in loaded() if n.startswith("generated.read_")][0]]
# The stubs replaced themselves: the table now holds the module's own functions.
out["replaced"] = [generated._validate["Read"] is read.validate, generated._issues["Read"] is read.issues]
out["validator_is_module_function"] = generated.validator("Read") is read.validate
# validator() on a tool not called yet returns the module's function, never a stub.
grep = generated.validator("Grep")
out["validator_loads"] = grep is sys.modules[grep.__module__].validate and grep.__module__ != "generated"
out["grep_answer"] = grep({"pattern": 1})
print(json.dumps(out))
"""


def test_first_calls_go_through_stubs_that_replace_themselves() -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", FIRST_CALLS, str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    type_line = "The parameter `file_path` type is expected as `string` but provided as `number`"
    assert found["at_import"] == []
    # No declaration module is loaded: the table names modules, it does not import them.
    assert found["with_the_package"] == ["generated._declarations", "generated._support"]
    assert found["issues_first"] == [["type", "file_path", type_line]]
    assert found["after_issues"] == ["generated.read_9b9a8d05"]
    assert found["validate_then"] == f"Read failed due to the following issue:\n{type_line}"
    assert found["hostile_first"] == WRITE_EMPTY
    assert found["after_write"] == ["generated.read_9b9a8d05", "generated.write_3f00927a"]
    assert found["replaced"] == [True, True]
    assert found["validator_is_module_function"] is True
    assert found["validator_loads"] is True
    assert found["grep_answer"] == generated.validate("Grep", {"pattern": 1})


def test_a_key_error_that_is_not_the_lookups_is_not_taken_for_an_unknown_tool(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The lookup and the call share one try: only a missing name means "not ours".
    def broken(args: object) -> str | None:
        raise KeyError("inside the validator")

    monkeypatch.setitem(generated._validate, "Read", broken)
    monkeypatch.setitem(generated._issues, "Read", broken)
    with pytest.raises(KeyError, match="inside the validator"):
        generated.validate("Read", {})
    with pytest.raises(KeyError, match="inside the validator"):
        generated.issues("Read", {})
    assert generated.validate("NoSuchTool", {}) is None
    assert generated.issues("NoSuchTool", {}) == ()
