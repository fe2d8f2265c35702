"""The keyword mode (docs/spec/extended.md E1) end to end: the flag, KEYWORDS, the fingerprint, subset
output unchanged to the byte, the 113 real declarations in both modes, the fast path of a
valid call, and E8 refusals / --strict warnings through the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from generator.package.build import Build, build, fingerprint
from tests.reliability import imported
from tests.toolgen_cli import invoke

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "tool_schemas"
REAL_TOOLS = ROOT / "tests" / "data" / "real-tools"
PACKAGE_FILES = ("__init__.py", "_support.py", "_declarations.py", "_paths.py")


@pytest.fixture(scope="module")
def subset_build() -> Build:
    return build(SCHEMAS)


@pytest.fixture(scope="module")
def extended_build() -> Build:
    return build(SCHEMAS, keywords="extended")


def _modules(result: Build) -> dict[str, str]:
    # The validators: the declaration modules (`_declaration.py`) serve declarations as written.
    return {
        name: text
        for name, text in result.files.items()
        if name not in PACKAGE_FILES and not name.endswith("_declaration.py")
    }


def test_subset_output_is_the_checked_in_package_byte_for_byte(subset_build: Build) -> None:
    on_disk = {p.name: p.read_bytes().decode("utf-8") for p in (ROOT / "generated").glob("*.py")}
    assert subset_build.files == on_disk
    assert 'KEYWORDS = "subset"' in subset_build.files["__init__.py"]
    assert all("\nKeywords: subset.\n" in text for text in _modules(subset_build).values())
    assert all("extended" not in text for text in _modules(subset_build).values())


def test_extended_mode_rewrites_every_module_and_says_so(subset_build: Build, extended_build: Build) -> None:
    subset, extended = _modules(subset_build), _modules(extended_build)
    assert subset.keys() == extended.keys() and len(subset) == 25
    for name, text in extended.items():
        assert text != subset[name]
        assert "\nKeywords: extended.\n" in text
        assert 'KEYWORDS = "extended"' in text
    init = extended_build.files["__init__.py"]
    assert 'KEYWORDS = "extended"' in init
    assert f"# Generator: {fingerprint('extended')}\n" in init
    assert fingerprint("extended") != fingerprint("subset")
    # one support set: the copies differ in the command of their first line only
    paths = [b.files["_paths.py"].split("\n", 1)[1] for b in (extended_build, subset_build)]
    assert paths[0] == paths[1]
    # The lines of E7's example are the real declaration's: AskUserQuestion's bounds are read.
    ask = next(t for n, t in extended.items() if n.startswith("ask_user_question_"))
    assert '= "expected at most 4 items"\n' in ask and '= "expected at most 12 characters"\n' in ask


def test_cli_flag_generate_and_check_compare_in_that_mode(tmp_path: Path) -> None:
    out = tmp_path / "pkg_mode_cli"
    made = invoke("generate", "--keywords", "extended", "--out", str(out))
    assert made.exit_code == 0, made.output
    assert invoke("check", "--keywords", "extended", "--out", str(out)).exit_code == 0
    assert invoke("generate", "--keywords", "extended", "--check", "--out", str(out)).exit_code == 0
    # A bare check follows the mode the package records; asking for another is drift, and the
    # advice names that mode, since a bare generate would keep the package's.
    assert invoke("check", "--out", str(out)).exit_code == 0
    drift = invoke("check", "--keywords", "subset", "--out", str(out))
    assert drift.exit_code == 1
    assert (
        f"generated code is out of sync; run: toolgen generate --out {out.as_posix()} --keywords subset"
        in drift.output
    )
    back = invoke("check", "--keywords", "extended", "--out", str(tmp_path / "missing"))
    assert (
        f"run: toolgen generate --out {(tmp_path / 'missing').as_posix()} --keywords extended" in back.output
    )
    bad = invoke("generate", "--keywords", "everything", "--out", str(out))
    assert bad.exit_code == 2 and "'everything' is not one of 'subset', 'extended'" in bad.output
    with imported(out) as package:
        assert package.KEYWORDS == "extended"
        ask = {"questions": [{"question": "q?", "header": "h" * 14, "options": [], "multiSelect": False}] * 5}
        assert package.validate("AskUserQuestion", ask) == "\n".join(
            [
                "AskUserQuestion failed due to the following issues:",
                "The parameter `questions` is invalid: expected at most 4 items",
                *(
                    line
                    for i in range(5)
                    for line in (
                        f"The parameter `questions[{i}].header` is invalid: expected at most 12 characters",
                        f"The parameter `questions[{i}].options` is invalid: expected at least 2 items",
                    )
                ),
            ]
        )


def _declare(folder: Path, name: str, parameters: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    declaration = {"type": "function", "function": {"name": name, "parameters": parameters}}
    (folder / f"{name}.json").write_text(json.dumps(declaration), "utf-8")
    return folder


def test_e8_refusal_names_file_and_pointer_and_writes_nothing(tmp_path: Path) -> None:
    schemas = _declare(
        tmp_path / "s", "Loop", {"type": "object", "properties": {"a": {"$ref": "#/$defs/none"}}}
    )
    result = invoke(
        "generate", "--keywords", "extended", "--schemas", str(schemas), "--out", str(tmp_path / "o")
    )
    assert result.exit_code == 2
    assert "Loop.json: /function/parameters/properties/a/$ref:" in result.output
    assert not (tmp_path / "o").exists()
    # The same declaration is legal in subset mode, which does not read `$ref`.
    subset = invoke("generate", "--schemas", str(schemas), "--out", str(tmp_path / "o"))
    assert subset.exit_code == 0


def test_strict_fails_on_e8_warnings(tmp_path: Path) -> None:
    parameters = {"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}, {"type": "null"}]}}}
    schemas = _declare(tmp_path / "s", "One", parameters)
    out = tmp_path / "o"
    warned = invoke("generate", "--keywords", "extended", "--schemas", str(schemas), "--out", str(out))
    assert warned.exit_code == 0
    assert "warning: " in warned.output and "oneOf" in warned.output
    strict = invoke(
        "generate", "--keywords", "extended", "--strict", "--schemas", str(schemas), "--out", str(out)
    )
    assert strict.exit_code == 2 and "under --strict; nothing written" in strict.output


# ---------- the real declarations (tests/data/real-tools), both modes ----------


@pytest.fixture(scope="module")
def real_extended(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("real") / "pkg_real_extended"
    made = invoke("generate", "--keywords", "extended", "--schemas", str(REAL_TOOLS), "--out", str(out))
    assert made.exit_code == 0, made.output
    with imported(out) as package:
        yield package


def test_every_real_declaration_generates_in_subset_mode() -> None:
    result = build(REAL_TOOLS)
    assert len(result.tools) == 113


def test_every_real_declaration_generates_and_imports_in_extended_mode(real_extended: ModuleType) -> None:
    assert real_extended.KEYWORDS == "extended"
    assert len(real_extended.TOOL_NAMES) == 113
    for tool in sorted(real_extended.TOOL_NAMES):
        assert real_extended.validator(tool) is not None
        # Never raises, whatever the call; a list is never a valid call.
        found = real_extended.validate(tool, [])
        assert found == f"{tool} failed due to the following issue:\n" + (
            "The tool input type is expected as `object` but provided as `array`"
        )


def _module_of(package: ModuleType, tool: str) -> ModuleType:
    package.validator(tool)
    module: ModuleType = __import__(f"{package.__name__}.{package._MODULES[tool]}", fromlist=["validate"])
    return module


VALID_CALLS = [
    ("pyd_update_ticket", {"ticket_id": 7, "status": None, "assignee": "ann", "tags": ["a", "b"]}),
    ("pyd_update_ticket", {"ticket_id": 7.0, "status": "open"}),
    ("AskUserQuestion", None),
]


@pytest.mark.parametrize(("tool", "args"), VALID_CALLS)
def test_the_fast_path_answers_valid_calls_alone(
    tool: str, args: Any, real_extended: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if args is None:  # a built-in tool: the extended package of tool_schemas
        out = tmp_path / "pkg_fast_builtin"
        assert invoke("generate", "--keywords", "extended", "--out", str(out)).exit_code == 0
        with imported(out) as package:
            question = {
                "question": "Which?",
                "header": "Pick",
                "options": [{"label": "a", "description": "A"}] * 2,
            }
            _fast_only(package, tool, {"questions": [question]}, monkeypatch)
        return
    _fast_only(real_extended, tool, args, monkeypatch)


def _fast_only(package: ModuleType, tool: str, args: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    module = _module_of(package, tool)
    assert package.validate(tool, args) is None

    def collector_called(_: object) -> str | None:
        raise AssertionError("the collector ran for a valid call")

    called: Callable[[object], str | None] = collector_called
    monkeypatch.setattr(module, "_message", called)
    assert module.validate(args) is None


def _source_of(package: ModuleType, tool: str) -> str:
    return Path(_module_of(package, tool).__file__ or "").read_text("utf-8")


def test_a_nullable_anyof_is_one_inline_test(real_extended: ModuleType) -> None:
    assert (
        '            if "assignee" in args:\n'
        "                n += 1\n"
        '                w = args["assignee"]\n'
        "                if not (type(w) is str or w is None):\n"
        '                    return _message(args, "assignee")\n'  # the members before it proven valid
    ) in _source_of(real_extended, "pyd_update_ticket")
    assert "_check_assignee" not in _source_of(real_extended, "pyd_update_ticket")
    assert real_extended.validate("pyd_update_ticket", {"ticket_id": 1, "assignee": 5}) == (
        "pyd_update_ticket failed due to the following issue:\n"
        "The parameter `assignee` type is expected as `string | null` but provided as `number`"
    )


def test_a_list_of_models_with_one_user_is_tested_in_place(
    real_extended: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _source_of(real_extended, "pyd_create_order")
    assert (
        '            w = args.get("items")\n'
        "            if not (type(w) is list and len(w) >= 1):\n"
        '                return _message(args, "items")\n'
        "            for e1 in w:\n"
        "                if type(e1) is not dict:\n"
        '                    return _message(args, "items")\n'
        "                n2 = 2\n"
    ) in source
    assert "def _check_" not in source  # the address and the items: no helper call
    address = {"line1": "Main St 1", "city": "Berlin", "postal_code": "10115", "country": "DE"}
    item = {"sku": "AB-1234", "quantity": 1}
    args = {"customer_id": "c1", "items": [item, item], "shipping_address": address}
    bad = {**args, "items": [item, {**item, "quantity": 0}], "shipping_address": {**address, "city": 5}}
    assert real_extended.validate("pyd_create_order", bad) == (
        "pyd_create_order failed due to the following issues:\n"
        "The parameter `shipping_address.city` type is expected as `string` but provided as `number`\n"
        "The parameter `items[1].quantity` is invalid: expected a number greater than or equal to 1"
    )
    _fast_only(real_extended, "pyd_create_order", args, monkeypatch)


# ---------- explain and validate say the mode ----------

DRAW_SHAPE = """\
pyd_draw_shape  (tests/data/real-tools/pydantic__pyd_draw_shape.json, module pyd_draw_shape_223ac355.py)
keywords: extended

parameter     type    required  enum / const       bounds and branches
shape         object  yes                          oneOf: Circle, Rectangle (by kind)
shape.kind    string  yes       const "circle"
shape.radius  number  yes                          > 0
shape.kind    string  yes       const "rectangle"
shape.width   number  yes                          > 0
shape.height  number  yes                          > 0
color         string
"""


def test_explain_shows_the_mode_bounds_and_branches() -> None:
    result = invoke(
        "explain", "pyd_draw_shape", "--keywords", "extended", "--schemas", "tests/data/real-tools"
    )
    assert result.exit_code == 0
    assert result.stdout.startswith(DRAW_SHAPE)
    assert (
        '  color  default: "black"  (no default is filled in: arguments are never changed)' in result.stdout
    )
    ask = invoke("explain", "AskUserQuestion", "--keywords", "extended").stdout
    assert (
        "questions                          array    yes                     minItems 1; maxItems 4\n" in ask
    )
    assert "questions[].header                 string   yes                     maxLength 12\n" in ask


def test_validate_says_which_mode_answered(tmp_path: Path) -> None:
    out = tmp_path / "pkg_validate_mode"
    assert invoke("generate", "--keywords", "extended", "--out", str(out)).exit_code == 0
    valid = invoke("validate", "TaskGet", '{"taskId": "1"}', "--out", str(out))
    assert (valid.exit_code, valid.stdout) == (0, "TaskGet: valid (extended keywords)\n")
    bad = invoke("validate", "TaskGet", "{}", "--out", str(out))
    assert bad.exit_code == 1
    assert (
        bad.stdout
        == "TaskGet failed due to the following issue:\nThe required parameter `taskId` is missing\n"
    )
    assert f"(checked with the extended keywords of {out.as_posix()}/)" in bad.stderr
    subset = invoke("validate", "TaskGet", '{"taskId": "1"}')
    assert (subset.exit_code, subset.stdout) == (0, "TaskGet: valid\n")
