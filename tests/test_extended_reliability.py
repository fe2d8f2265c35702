"""The reliability suites over an extended-mode package (docs/spec/extended.md): never raises (deep
values against recursive schemas, RecursionError included), never mutates, 1 MB strings
against patterns, hostile keys and objects, injection-proof names and values, relocatable,
deterministic; every answer that can be read equals tests/reference.py's."""

from __future__ import annotations

import ast
import copy
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.package.build import build
from tests import reference
from tests.genpkg import write_locked
from tests.reference import EXTENDED
from tests.reliability import PROFILE, fresh_package_dir, imported, same_value, snapshot, write_schemas
from tests.test_injection import NASTY, SENTINEL
from tests.test_never_raises import BUILTIN, FALLBACK, Armed, _hostile_values, values

ROOT = Path(__file__).resolve().parent.parent

NODE = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 8},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
    },
    "required": ["name"],
}
EXTRA: dict[str, Any] = {
    "Tree": {"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "$defs": {"Node": NODE}},
    "Chain": {
        "$ref": "#/$defs/Link",
        "$defs": {
            "Link": {
                "type": "object",
                "properties": {"value": {"type": "integer", "minimum": 0}, "next": {"$ref": "#/$defs/Link"}},
            }
        },
    },
    "Patterns": {
        "type": "object",
        "properties": {
            "slug": {"type": "string", "pattern": "^[a-z0-9-]+$"},
            "word": {"type": "string", "pattern": "\\bfoo\\b"},
            "digits": {"anyOf": [{"type": "string", "pattern": "^\\d{3,}$"}, {"type": "null"}]},
        },
    },
    "Shapes": {
        "type": "object",
        "properties": {
            "shape": {
                "oneOf": [
                    {"type": "object",
                     "properties": {"kind": {"const": "circle"}, "r": {"exclusiveMinimum": 0}},
                     "required": ["kind", "r"], "additionalProperties": False},
                    {"type": "object",
                     "properties": {"kind": {"const": "square"}, "side": {"multipleOf": 0.5}},
                     "required": ["kind", "side"], "additionalProperties": False},
                ]
            },
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "maxItems": 3},
            "free": {"type": "object", "additionalProperties": True},
        },
        "required": ["shape"],
    },
}  # fmt: skip
TOOLS: dict[str, Any] = {**BUILTIN, **EXTRA}


def _declarations(tools: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": n, "parameters": p}} for n, p in tools.items()]


def _generate(tmp: Path, tools: dict[str, Any]) -> Path:
    out = fresh_package_dir(tmp)
    schemas = write_schemas(tmp / f"{out.name}_schemas", _declarations(tools))
    write_locked(out, build(schemas, keywords="extended").files)
    return out


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with imported(_generate(tmp_path_factory.mktemp("ext_reliability"), TOOLS)) as found:
        assert found.KEYWORDS == "extended"
        yield found


def check_call(package: ModuleType, tool: str, args: Any) -> None:
    before = copy.deepcopy(args)
    message = package.validate(tool, args)
    found = [tuple(issue) for issue in package.issues(tool, args)]
    assert same_value(args, before)  # never mutated
    assert message == reference.message(tool, TOOLS[tool], args, EXTENDED)
    assert found == reference.issues(TOOLS[tool], args, EXTENDED)


def _later(schema: Any) -> st.SearchStrategy[Any]:
    return st.deferred(lambda: _guided(schema))


def _guided(schema: Any) -> st.SearchStrategy[Any]:
    """Values shaped like the declaration often enough to reach nested paths."""
    if not isinstance(schema, dict):
        return values
    options: list[st.SearchStrategy[Any]] = [values]
    if "properties" in schema:
        props = schema["properties"]
        options.append(st.fixed_dictionaries({}, optional={n: _later(s) for n, s in props.items()}))
    if "items" in schema:
        options.append(st.lists(_later(schema["items"]), max_size=3))
    for keyword in ("anyOf", "oneOf"):
        for branch in schema.get(keyword, []):
            options.append(_guided(branch))
    if "$ref" in schema:
        options.append(st.just({"name": "n", "children": [{"name": "m"}]}))
    return st.one_of(*options)


@settings(PROFILE, max_examples=300)
@given(data=st.data())
def test_arbitrary_values_agree_with_the_reference_and_never_raise(
    package: ModuleType, data: st.DataObject
) -> None:
    tool = data.draw(st.sampled_from(sorted(TOOLS)))
    args = data.draw(st.one_of(_guided(TOOLS[tool]), values), label="args")
    check_call(package, tool, args)


def _tree(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"name": "leaf"}
    for _ in range(levels):
        node = {"name": "n", "children": [node]}
    return {"root": node}


def _chain(levels: int) -> dict[str, Any]:
    link: dict[str, Any] = {"value": 1}
    for _ in range(levels):
        link = {"value": 1, "next": link}
    return link


@pytest.mark.parametrize("levels", [10, 127, 128, 200])
def test_recursive_schemas_at_and_beyond_the_depth_limit(package: ModuleType, levels: int) -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))  # for the test's own deep copy and comparison
    try:
        check_call(package, "Tree", _tree(levels))
        check_call(package, "Chain", _chain(levels + 127))
    finally:
        sys.setrecursionlimit(limit)


def test_the_depth_limit_line(package: ModuleType) -> None:
    deep = ".".join(["next"] * 256)
    assert package.validate("Chain", _chain(300)) == (
        "Chain failed due to the following issues:\n"
        f"The parameter `{deep}.value` is invalid: nested more than 256 levels deep\n"
        f"The parameter `{deep}.next` is invalid: nested more than 256 levels deep"
    )
    assert package.validate("Chain", _chain(255)) is None  # the innermost link is at depth 255


def test_values_nested_100000_deep_never_raise(package: ModuleType) -> None:
    deep_list: Any = []
    for _ in range(100_000):
        deep_list = [deep_list]
    tree = _tree(100_000)
    chain = _chain(100_000)
    limit = sys.getrecursionlimit()
    for tool, args in [
        ("Tree", tree),
        ("Chain", chain),
        ("Shapes", {"shape": deep_list}),
        ("Tree", {"root": deep_list}),
    ]:
        message = package.validate(tool, args)
        assert isinstance(message, str) and not message.split("\n")[1].startswith(FALLBACK)
        assert package.issues(tool, args)
    assert sys.getrecursionlimit() == limit  # restored
    line = "The parameter `root" + ".children[0]" * 128 + "` is invalid: nested more than 256 levels deep"
    assert package.validate("Tree", tree) == "Tree failed due to the following issue:\n" + line


MEGABYTE = 1 << 20
_MATCH = "The parameter `%s` is invalid: expected a string matching the pattern"


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        ({"slug": "a" * MEGABYTE}, []),
        ({"slug": "a" * MEGABYTE + "!"}, [f"{_MATCH % 'slug'} ^[a-z0-9-]+$"]),
        ({"word": "x" * MEGABYTE + " foo"}, []),
        ({"word": "foo" * (MEGABYTE // 3)}, [f"{_MATCH % 'word'} \\bfoo\\b"]),
        ({"digits": "1" * MEGABYTE}, []),
        ({"digits": "1" * MEGABYTE + "x"}, [f"{_MATCH % 'digits'} ^\\d{{3,}}$"]),
    ],
)  # fmt: skip
def test_megabyte_strings_against_patterns(package: ModuleType, args: Any, lines: list[str]) -> None:
    expected = None
    if lines:
        expected = (
            "Patterns failed due to the following issue"
            + ("s:\n" if len(lines) > 1 else ":\n")
            + "\n".join(lines)
        )
    assert package.validate("Patterns", args) == expected


def test_hostile_keys_and_objects_never_make_a_validator_raise(package: ModuleType) -> None:
    hostile = _hostile_values()
    Armed.armed = True
    try:
        for tool, parameters in TOOLS.items():
            names = [*parameters.get("properties", {}), "other"]
            for value in hostile:
                for args in [
                    value,
                    {n: value for n in names},
                    {"shape": {"kind": value}},
                    {1: value, None: 2},
                ]:
                    message = package.validate(tool, args)
                    assert message is None or message.startswith(f"{tool} failed due to the following issue")
                    assert isinstance(package.issues(tool, args), tuple)
    finally:
        Armed.armed = False


def test_non_string_keys_are_unexpected_whatever_the_group_says(package: ModuleType) -> None:
    args = {"shape": {"kind": "circle", "r": 1}, "free": {1: "x", "a": 1}}
    check_call(package, "Shapes", args)
    assert package.validate("Shapes", args) == (
        "Shapes failed due to the following issue:\nAn unexpected parameter `free.1` was provided"
    )


def _nasty_tools() -> dict[str, Any]:
    tools: dict[str, Any] = {}
    for i, text in enumerate(NASTY[::2]):
        tools[f"{text}{i}"] = {
            "type": "object",
            "properties": {
                text: {"anyOf": [{"const": text}, {"type": "null"}], "description": text},
                f"{text}!": {"$ref": f"#/$defs/{text.replace('~', '~0').replace('/', '~1')}"},
                "n": {"allOf": [{"minimum": 1}, {"maximum": 9.5}], "title": text},
            },
            "required": [text],
            "$defs": {text: {"type": "object", "properties": {text: {"enum": [text, 1, None]}}}},
        }
    return tools


def test_nasty_strings_everywhere_compile_import_cleanly_and_agree(tmp_path: Path) -> None:
    tools = _nasty_tools()
    out = _generate(tmp_path, tools)
    assert not SENTINEL.exists()
    with imported(out) as found:
        assert not SENTINEL.exists()
        for tool, parameters in tools.items():
            name = next(iter(parameters["properties"]))
            for args in [{}, {name: name}, {name: 5, f"{name}!": {name: 2}, "n": 10}, {name: None, "n": 1}]:
                assert found.validate(tool, args) == reference.message(tool, parameters, args, EXTENDED)
    assert not SENTINEL.exists()


_STDLIB = sys.stdlib_module_names | {"__future__"}


def test_relocatable_and_standard_library_only(package: ModuleType, tmp_path: Path) -> None:
    source = Path(package.__file__ or "").parent
    for path in source.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                assert {a.name.split(".")[0] for a in node.names} <= _STDLIB, path.name
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                assert (node.module or "").split(".")[0] in _STDLIB, (path.name, node.module)
    moved = tmp_path / "elsewhere" / "vendored_ext"
    shutil.copytree(source, moved)
    with imported(moved) as copy_of:
        for args in [_tree(3), {"root": {"name": "far too long"}}, {}]:
            assert copy_of.validate("Tree", args) == package.validate("Tree", args)


def test_deterministic_across_hash_seeds(tmp_path: Path) -> None:
    schemas = write_schemas(tmp_path / "schemas", _declarations(EXTRA))
    outputs = []
    out = tmp_path / "out"  # one folder: the headers name it (the regenerate command)
    for seed in ("0", "12345"):
        shutil.rmtree(out, ignore_errors=True)
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        command = [sys.executable, "-m", "generator", "generate", "--keywords", "extended"]
        done = subprocess.run(
            [*command, "--schemas", str(schemas), "--out", str(out)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        outputs.append(snapshot(out))
    assert outputs[0] == outputs[1]
    assert json.dumps(sorted(outputs[0])) == json.dumps(
        sorted(
            [
                "__init__.py",
                "_declarations.py",
                "_paths.py",
                "_support.py",
                *[n for n in outputs[0] if n[0] != "_"],
            ]
        )
    )
