"""validate() hands the collector what it proved: the name of the member of the arguments it
failed on (True: after every member), so that the collector skips the members it tested and
found valid before that one (generator/plan/collector.py, `_resume`). Names, not positions: a
member added changes only its own lines (tests/test_diff_stability.py)

A valid member's visit finds nothing, so skipping it must leave every message unchanged:
checked here on the benchmark's pydantic-written declarations and their calls (exact
messages from benchmarks/extended_cases.py), plus variants failing at each member, and on
random declarations by the differential suite (validate() there goes through this path).
"""

from __future__ import annotations

import copy
from types import ModuleType
from typing import Any

import pytest

from benchmarks.extended_cases import CASES, load_declarations
from tests import reference
from tests.extended_backends import generate_extended
from tests.genpkg import shared_package
from tests.reference import EXTENDED

DECLARATIONS = load_declarations()


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return shared_package(
        tmp_path_factory, "extended_resume", lambda: DECLARATIONS, generate_with=generate_extended
    )


def _module(package: ModuleType, tool: str) -> Any:
    return package.validator(tool).__globals__


NO_CALL = object()


def _proven(
    package: ModuleType, tool: str, args: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[str | None, Any]:
    """validate()'s message and the `failed` it passed to the collector (NO_CALL: no call)."""
    module = _module(package, tool)
    original = module["_message"]
    seen: list[Any] = []

    def spy(call: Any, failed: str | bool | None = None) -> str | None:
        seen.append(failed)
        found: str | None = original(call, failed)
        return found

    with monkeypatch.context() as patch:
        patch.setitem(module, "_message", spy)
        message = package.validator(tool)(args)
    return message, (seen[0] if seen else NO_CALL)


def _variants() -> list[tuple[str, Any]]:
    """Each invalid case, each valid full call with one member at a time made wrong, and
    arguments that are no object."""
    found: list[tuple[str, Any]] = [(c.tool, c.args) for c in CASES if not c.valid]
    for case in CASES:
        if case.kind != "full":
            continue
        for name in case.args:
            for wrong in ("x" * 600, -5, None, [1], {"k": 1}):
                args = copy.deepcopy(case.args)
                args[name] = wrong
                found.append((case.tool, args))
        found.append((case.tool, {**case.args, "zzz": 1}))
        found += [(case.tool, None), (case.tool, [case.args])]  # no object at all
    return found


def test_every_pydantic_tool_resumes(package: ModuleType) -> None:
    for tool in DECLARATIONS:
        assert _module(package, tool)["_collect"].__code__.co_varnames[5] == "failed", tool


@pytest.mark.parametrize(("tool", "args"), _variants())
def test_a_resumed_message_is_the_whole_message(
    package: ModuleType, tool: str, args: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    message, proven = _proven(package, tool, args, monkeypatch)
    module = _module(package, tool)
    assert message == reference.message(tool, DECLARATIONS[tool], args, EXTENDED)
    if proven is NO_CALL:  # a valid variant (None for an Optional member): no collector at all
        assert message is None
    else:
        assert message is not None
        assert message == module["_message"](args) == module["_message"](args, proven)


def test_the_members_proven_valid_are_not_visited_again(
    package: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    (one,) = [c for c in CASES if c.tool == "create_invoice" and c.kind == "one"]
    message, proven = _proven(package, "create_invoice", one.args, monkeypatch)
    assert message == one.message
    assert proven == "lines"  # `customer` passed, `lines` failed
    # Only an unexpected key: every member proven, only the keys are looked at.
    typical = next(c.args for c in CASES if c.tool == "create_invoice" and c.kind == "typical")
    message, proven = _proven(package, "create_invoice", {**typical, "zzz": 1}, monkeypatch)
    assert message == (
        "create_invoice failed due to the following issue:\nAn unexpected parameter `zzz` was provided"
    )
    assert proven is True
    # What skipping means: told that `customer` was proven, the collector does not look at it.
    broken = {**one.args, "customer": 5}
    module = _module(package, "create_invoice")
    assert module["_message"](broken, "lines") == one.message
    assert (
        module["_message"](broken, None)
        == module["_message"](broken)
        == (
            "create_invoice failed due to the following issues:\n"
            "The parameter `customer` type is expected as `object` but provided as `number`\n"
            "The parameter `lines[0].quantity` is invalid: expected a number greater than or equal to 1"
        )
    )
