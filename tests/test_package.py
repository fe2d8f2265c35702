"""The generated package as a user gets it: relocatable, standard library only, never
raising and never mutating, whatever Python value it is handed."""

from __future__ import annotations

import enum
import json
import shutil
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

import generated
from tests.genpkg import ROOT
from tests.strategies import reproducible, values_for

FILES = sorted((ROOT / "tool_schemas").glob("*.json"))
FUNCTIONS = [json.loads(p.read_text("utf-8"))["function"] for p in FILES]
PARAMETERS = {function["name"]: function["parameters"] for function in FUNCTIONS}
ARGS: tuple[Any, ...] = (
    {},
    [],
    {"zz": 1, "file_path": None, "questions": [{"options": [{}]}]},
    {"taskId": "1"},
)
CALLS = [(tool, args) for tool in sorted(PARAMETERS) for args in ARGS]


def _run(code: str, *args: str, isolated: tuple[str, ...] = ("-I", "-S")) -> Any:
    done = subprocess.run(
        [sys.executable, *isolated, "-c", code, *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


RELOCATED = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
importable = []
for name in ("generated", "generator", "tests", "jinja2", "black", "click"):
    try:
        importlib.import_module(name)
        importable.append(name)
    except ModuleNotFoundError:
        pass
package = importlib.import_module(sys.argv[2])
calls = json.loads(sys.argv[3])
results = [[package.validate(t, a), [list(i) for i in package.issues(t, a)]] for t, a in calls]
modules = sorted({m.__file__ for n, m in sys.modules.items() if n.startswith(sys.argv[2])})
print(json.dumps({"importable": importable, "results": results, "files": modules,
                  "tools": sorted(package.TOOL_NAMES)}))
"""


def test_package_works_after_being_copied_elsewhere_under_another_name(tmp_path: Path) -> None:
    target = tmp_path / "vendor" / "checks_v2"
    shutil.copytree(ROOT / "generated", target, ignore=shutil.ignore_patterns("__pycache__"))
    found = _run(RELOCATED, str(target.parent), "checks_v2", json.dumps(CALLS))
    assert found["importable"] == []  # neither the project nor its build tools are reachable
    assert found["tools"] == sorted(PARAMETERS)
    expected = [[generated.validate(t, a), [list(i) for i in generated.issues(t, a)]] for t, a in CALLS]
    assert found["results"] == expected
    assert sum(message is not None for message, _ in expected) > len(CALLS) // 2
    assert all(Path(f).is_relative_to(target) for f in found["files"])
    # __init__, _support, _declarations (the tool table) and every tool module were loaded
    assert len(found["files"]) == 28


STDLIB_ONLY = """
import json, sys
sys.path.insert(0, sys.argv[1])
before = set(sys.modules)
import generated
for tool in sorted(generated.TOOL_NAMES):
    generated.validate(tool, {})
    generated.validate(tool, {"x": [1.5, None]})
new = sorted(set(sys.modules) - before)
print(json.dumps({"file": generated.__file__, "new": new, "stdlib": sorted(sys.stdlib_module_names)}))
"""


def test_importing_generated_imports_no_third_party_module() -> None:
    # Site packages stay enabled here: a third-party import would succeed, and be seen.
    found = _run(STDLIB_ONLY, str(ROOT), isolated=("-I",))
    assert found["file"] == str(ROOT / "generated" / "__init__.py")
    stdlib = set(found["stdlib"])
    foreign = [m for m in found["new"] if m.split(".")[0] not in stdlib and m.split(".")[0] != "generated"]
    assert foreign == []
    assert sum(m.startswith("generated.") for m in found["new"]) == 27  # _support, _declarations, 25 tools


# ---------- no validator raises, none mutates its input ----------


class Text(str):
    pass


class Level(enum.IntEnum):
    ONE = 1


class Ratio(float):
    pass


class Opaque:
    __slots__ = ()


class Hostile:
    """Hashes like a real parameter name, then fails every comparison and conversion."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __hash__(self) -> int:
        return hash(self.name)

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparison")

    def __str__(self) -> str:
        raise RuntimeError("no text")

    __repr__ = __str__


class Shapeshifter:
    """An object whose `__class__` lookup raises, which makes isinstance() raise."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise RuntimeError("no class")


NAMES = sorted({name for p in PARAMETERS.values() for name in p.get("properties", {})})
HASHABLE = st.one_of(
    st.text(max_size=3),
    st.sampled_from(NAMES),
    st.integers(),
    st.sampled_from((5000, 400)).map(lambda digits: -(10**digits)),
    st.floats(),
    st.none(),
    st.booleans(),
    st.binary(max_size=3),
    st.tuples(st.integers(), st.text(max_size=2)),
    st.frozensets(st.integers(), max_size=2),
    st.sampled_from(NAMES).map(Hostile),
    st.sampled_from(NAMES).map(Text),
    st.just(Level.ONE),
    st.builds(Opaque),
)
LEAVES = st.one_of(
    HASHABLE,
    st.floats(allow_nan=True, allow_infinity=True).map(Ratio),
    st.complex_numbers(),
    st.builds(Shapeshifter),
    st.binary(max_size=3).map(bytearray),
)
PYTHON_VALUES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.tuples(inner, inner),
        st.sets(HASHABLE, max_size=3),
        st.dictionaries(HASHABLE, inner, max_size=3),
        st.dictionaries(st.sampled_from(NAMES), inner, max_size=3).map(OrderedDict),
        st.dictionaries(st.sampled_from(NAMES), inner, max_size=4),
    ),
    max_leaves=8,
)


def fingerprint(value: Any) -> Any:
    """Identity and content of every container, without calling any method of the values."""
    if type(value) in (dict, OrderedDict):
        return ("dict", id(value), tuple((id(k), fingerprint(v)) for k, v in dict.items(value)))
    if type(value) in (list, tuple):
        return (type(value).__name__, id(value), tuple(fingerprint(v) for v in value))
    if type(value) in (set, frozenset):
        return ("set", id(value), tuple(sorted(id(v) for v in value)))
    if type(value) is bytearray:
        return ("bytearray", id(value), bytes(value))
    return id(value)


def check_never_raises(tool: str, args: Any) -> None:
    before = fingerprint(args)
    message = generated.validate(tool, args)
    found = generated.issues(tool, args)
    assert message is None or type(message) is str
    assert type(found) is tuple and all(type(i) is generated.Issue for i in found)
    assert generated.message(tool, found) == message  # the fast path agrees with the collector
    assert fingerprint(args) == before


@pytest.mark.parametrize("tool", sorted(PARAMETERS))
def test_no_validator_raises_or_mutates_on_arbitrary_python_values(tool: str) -> None:
    near = values_for(PARAMETERS[tool], PYTHON_VALUES)

    @reproducible(60)
    @given(st.one_of(near, PYTHON_VALUES))
    def run(args: Any) -> None:
        check_never_raises(tool, args)

    run()


def test_hostile_values_give_an_issue_instead_of_an_exception() -> None:
    line = "The tool input could not be read: RuntimeError was raised"
    assert generated.validate("Read", {Hostile("file_path"): 1}) == (
        f"Read failed due to the following issue:\n{line}"
    )
    assert generated.issues("Read", {Hostile("file_path"): 1}) == (generated.Issue("invalid", "", line),)
    assert generated.validate("Read", Shapeshifter()) == f"Read failed due to the following issue:\n{line}"


def test_odd_but_harmless_values_get_ordinary_messages() -> None:
    loop: list[Any] = []
    loop.append(loop)
    assert generated.validate("TaskUpdate", {"taskId": "1", "addBlocks": loop}) == (
        "TaskUpdate failed due to the following issue:\n"
        "The parameter `addBlocks[0]` type is expected as `string` but provided as `array`"
    )
    key = Opaque()
    # str() of an int this long raises ValueError: the key is then named by its type.
    assert generated.validate("Read", {"file_path": "a", 10**5000: 1, key: 2}) == (
        "Read failed due to the following issues:\n"
        "An unexpected parameter `<int>` was provided\n"
        f"An unexpected parameter `{key}` was provided"
    )


def test_non_string_tool_names_are_unknown_tools() -> None:
    for name in (None, 1, b"Read", ("Read",), ["Read"]):
        assert generated.validate(cast(Any, name), {}) is None
        assert generated.issues(cast(Any, name), {}) == ()
        assert generated.validator(cast(Any, name)) is None
    assert generated.validate(Text("Read"), {}) == generated.validate("Read", {})
