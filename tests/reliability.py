"""Helpers shared by the reliability tests: declaration files, throw-away packages, snapshots."""

from __future__ import annotations

import copy
import importlib
import importlib.util
import itertools
import json
import math
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, settings

from generator.cli.commands import main
from generator.package.build import build
from tests import reference
from tests.genpkg import write_locked

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "tool_schemas"

# Reproducible in CI: no example database, the same examples on every run.
PROFILE = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


def declaration(name: str, parameters: Any = None, description: str = "A tool.") -> dict[str, Any]:
    function: dict[str, Any] = {"name": name, "description": description}
    if parameters is not None:
        function["parameters"] = parameters
    return {"type": "function", "function": function}


def write_schemas(folder: Path, declarations: list[dict[str, Any]]) -> Path:
    """One file per declaration, named by position so that file order is declaration order."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, item in enumerate(declarations):
        (folder / f"t{i:04d}.json").write_text(json.dumps(item, indent=1), "utf-8")
    return folder


def generate_into(schemas: Path, out: Path) -> None:
    """The whole pipeline, in process: build in memory, then write under the lock."""
    write_locked(out, build(schemas).files)


_packages = 0


_IMPORTS = itertools.count()


@contextmanager
def imported(out: Path) -> Iterator[ModuleType]:
    """Import a generated package from its folder under a name of its own, then forget it (and
    every module under it). Never by the folder's name: a folder called `generated` would
    answer with this repository's package, already imported, and forgetting it would leave
    other tests holding a package whose modules load against a new `_support`."""
    name = f"_imported_{os.getpid()}_{next(_IMPORTS)}_{out.name}"
    importlib.invalidate_caches()
    spec = importlib.util.spec_from_file_location(
        name, out / "__init__.py", submodule_search_locations=[str(out)]
    )
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    try:
        spec.loader.exec_module(package)
        yield package
    finally:
        for loaded in [n for n in sys.modules if n == name or n.startswith(name + ".")]:
            del sys.modules[loaded]


def fresh_package_dir(tmp: Path) -> Path:
    """A folder whose name is a package name never imported before in this process."""
    global _packages
    _packages += 1
    return tmp / f"pkg_{os.getpid()}_{_packages}"


def build_package(tmp: Path, declarations: list[dict[str, Any]]) -> Path:
    """Write the declarations and generate a package under a never-imported name; its folder."""
    out = fresh_package_dir(tmp)
    generate_into(write_schemas(tmp / f"{out.name}_schemas", declarations), out)
    return out


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under a folder (relative name -> bytes); symlinks as their target text."""
    result: dict[str, bytes] = {}
    if not folder.exists():
        return result
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            result[name] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            result[name] = path.read_bytes()
    return result


def invoke(cwd: Path, *args: str) -> Result:
    """The command line in this process (fast: black is imported once), run from `cwd`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        return CliRunner().invoke(main, ["generate", *args])


def run_toolgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real command line in a child process, with this worktree's generator on the path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "generator", "generate", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def same_value(a: Any, b: Any) -> bool:
    """Structural equality that also compares exact types and treats NaN as equal to NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, (set, frozenset)):  # a copied NaN is another object, and NaN != NaN
        return sorted(map(repr, a)) == sorted(map(repr, b))
    return bool(a == b)


# ---------- schemas and calls for cross-checking against tests/reference.py ----------

WRONG: tuple[Any, ...] = (None, 1.5, "s", [1], {"k": 1}, True, 7)


def schema_of(schema: Any) -> dict[str, Any]:
    return {} if isinstance(schema, bool) else schema


def _types(schema: dict[str, Any]) -> list[str]:
    declared = schema.get("type", [])
    return [declared] if isinstance(declared, str) else list(declared)


def conforming(schema: Any) -> Any:
    """A value meant to pass (the reference decides whether it does)."""
    schema = schema_of(schema)
    if "enum" in schema:
        return copy.deepcopy(schema["enum"][0])
    types = _types(schema)
    first = types[0] if types else None
    if first in ("object", None) and any(
        k in schema for k in ("properties", "required", "additionalProperties")
    ):
        value = {name: conforming(sub) for name, sub in schema.get("properties", {}).items()}
        value.update({name: None for name in schema.get("required", []) if name not in value})
        return value
    if first == "array":
        return [conforming(schema.get("items", {}))] * 2
    return {"string": "text", "number": 1.5, "integer": 3, "boolean": False, "null": None}.get(
        first or "", {}
    )


def variants(schema: dict[str, Any], extra_key: str) -> Iterator[Any]:
    """Valid and invalid calls that reach every property once, and one level below it."""
    base = conforming(schema)
    yield from ({}, base, [], "text", {extra_key: 1, **base})
    for i, (name, sub) in enumerate(schema.get("properties", {}).items()):
        yield {**base, name: WRONG[i % len(WRONG)]}
        yield {k: v for k, v in base.items() if k != name}
        inner = conforming(sub)
        if isinstance(inner, dict):
            yield {**base, name: {**inner, extra_key: [1]}}
        if isinstance(inner, list):
            yield {**base, name: [*inner, WRONG[i % len(WRONG)]]}
        if "enum" in schema_of(sub):
            yield {**base, name: extra_key}


def assert_agrees_with_reference(
    package: Any, tools: list[dict[str, Any]], extra_keys: tuple[str, ...]
) -> int:
    """Every tool is known under its exact name and answers like the reference; returns cases."""
    names = [t["function"]["name"] for t in tools]
    assert frozenset(names) == package.TOOL_NAMES
    cases = 0
    for i, tool in enumerate(tools):
        name, parameters = tool["function"]["name"], tool["function"]["parameters"]
        check = package.validator(name)
        assert check is not None and name == sys.modules[check.__module__].TOOL_NAME
        for args in variants(parameters, extra_keys[i % len(extra_keys)]):
            expected = reference.issues(parameters, args)
            assert package.validate(name, args) == reference.message(name, parameters, args), (name, args)
            assert [tuple(issue) for issue in package.issues(name, args)] == expected
            cases += 1
    return cases


def random_schema(rng: random.Random, depth: int) -> Any:
    """A schema using every interpreted keyword, booleans, ignored and key-opening keywords."""
    roll = rng.random()
    if depth == 0 or roll < 0.3:
        return rng.choice([True, False, {}, _leaf(rng), _leaf(rng), _leaf(rng)])
    if roll < 0.5:
        return {"type": rng.choice(["array", ["array", "null"]]), "items": random_schema(rng, depth - 1)}
    return random_object(rng, depth)


def _leaf(rng: random.Random) -> dict[str, Any]:
    schema: dict[str, Any] = {}
    types = ["string", "number", "integer", "boolean", "object", "array", "null"]
    if rng.random() < 0.8:
        chosen = rng.sample(types, rng.choice([1, 1, 2, 3]))
        schema["type"] = chosen[0] if len(chosen) == 1 and rng.random() < 0.7 else chosen
    if rng.random() < 0.4:
        pool = [
            "a",
            "b",
            "",
            0,
            1,
            1.0,
            -0.0,
            2.5,
            True,
            False,
            None,
            [1],
            [True],
            {"a": 0},
            {"a": False},
            [],
        ]
        schema["enum"] = rng.sample(pool, rng.randint(1, 5))
    if rng.random() < 0.2:
        schema[rng.choice(["minLength", "format", "default", "pattern"])] = 1
    return schema


def random_object(rng: random.Random, depth: int) -> dict[str, Any]:
    names = rng.sample(["a", "b", "c", "a.b", "", "0", "é", "k"], rng.randint(0, 4))
    schema: dict[str, Any] = {"properties": {n: random_schema(rng, depth - 1) for n in names}}
    if rng.random() < 0.8:
        schema["type"] = rng.choice(["object", ["object", "null"], ["object", "array"]])
    required = [n for n in names if rng.random() < 0.5] + (["req_only"] if rng.random() < 0.2 else [])
    if required:
        schema["required"] = required
    extra = rng.random()
    if extra < 0.3:
        schema["additionalProperties"] = rng.random() < 0.5
    elif extra < 0.5:
        schema["additionalProperties"] = random_schema(rng, depth - 1)
    if rng.random() < 0.1:
        schema["patternProperties"] = {"^x": {"type": "string"}}
    if rng.random() < 0.3:
        schema["enum"] = [{"a": 1}, {}, {"b": [1, "x"]}]
    return schema


def random_tools(count: int, seed: int, depth: int = 3) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    tools = []
    for i in range(count):
        parameters = random_object(rng, depth)
        parameters["type"] = "object"
        parameters.pop("enum", None)
        tools.append(declaration(f"Random{i}", parameters))
    return tools
