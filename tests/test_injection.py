"""Injection-proof code generation (docs/spec/validation.md §7): any tool name, property name, enum value,
description or keyword name becomes a module that compiles, imports without side effects,
and whose messages equal the reference interpreter's."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.front.vocabulary import SUBSET
from tests.reliability import PROFILE, assert_agrees_with_reference, build_package, declaration, imported

SENTINEL = Path(tempfile.gettempdir()) / f"toolgen-injection-sentinel-{os.getpid()}"
_S = str(SENTINEL)

# Strings that would run code, break a literal, a docstring, a comment or a template if any
# of them were pasted into generated source instead of going through the `py`/`doc` filters.
NASTY: tuple[str, ...] = (
    f"'; open({_S!r}, 'w'); x = '",
    f'"; open({_S!r}, "w"); x = "',
    f"'''; open({_S!r}, 'w'); x = '''",
    f'"""; open({_S!r}, "w"); x = """',
    f"'); open({_S!r}, 'w'); ('",
    f'"); open({_S!r}, "w"); ("',
    f'"""); open({_S!r}, \'w\'); ("""',
    f"'''); open({_S!r}, 'w'); ('''",
    f"\n__import__('os').system('touch {_S}')\n",
    f"__import__('os').system('touch {_S}')",
    f"{{{{ open({_S!r}, 'w') }}}}",
    f"\\'); open({_S!r}, 'w')  # ",
    f"x\\\n'); open({_S!r}, 'w'); ('",
    f"*/ open({_S!r}, 'w') /*",
    "'",
    '"',
    "'''",
    '"""',
    "\\",
    "\\'",
    '\\"',
    "\\\\",
    "\n",
    "\r",
    "\r\n",
    "\t",
    "\x00",
    "\x0c",
    "\x1b[31m",
    "\u2028",
    "\u2029",
    "\u200f",
    "\u202e",
    "\ufeff",
    "\u0085",
    "#",
    "# comment",
    "{{",
    "}}",
    "{{ x }}",
    "{% raw %}",
    "{#",
    "#}",
    "%s",
    "{}",
    "{0}",
    "\\N{BULLET}",
    "\\u0041",
    "\\x41",
    "class",
    "def",
    "None",
    "True",
    "lambda",
    "import",
    "yield",
    "await",
    "match",
    "_",
    "__init__",
    "__class__",
    "__dict__",
    "__builtins__",
    "__name__",
    "__doc__",
    "__import__",
    "TOOL_NAME",
    "NOT_ENFORCED",
    "_s",
    "v",
    "x",
    "p",
    "k",
    "w",
    "e",
    "t",
    "out",
    "args",
    "validate",
    "issues",
    "_collect",
    "_KEYS_0",
    "_ENUM_1_STRINGS",
    "_MODULES",
    "_support",
    "message",
    "a/b",
    "~0",
    "~1",
    "a.b",
    "[0]",
    "`",
    "🦀",
    "e\u0301",
    "工具",
    "Ａ",
    "a" * 300,
    "",
)
NAMES = tuple(n for n in NASTY if n)  # a tool name must not be empty
KEYWORDS = SUBSET.interpreted | SUBSET.annotations | SUBSET.opening | {"items (tuple form)"}

_events: list[str] = []
_watching = False
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_FORBIDDEN = (
    "os.system", "subprocess.Popen", "os.exec", "os.posix_spawn", "os.spawn", "os.remove",
    "os.rmdir", "os.rename", "shutil.rmtree", "socket.connect", "ctypes.dlopen", "os.kill",
)  # fmt: skip


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if not _watching:
        return
    if event == "open" and len(args) >= 3:
        mode, flags = args[1], args[2]
        if (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & _WRITE_FLAGS
        ):
            _events.append(f"open {args[0]!r} {mode!r}")
    elif event.startswith(_FORBIDDEN):
        _events.append(event)


sys.addaudithook(_audit)  # audit hooks cannot be removed: this one is inert unless watching


@contextmanager
def no_side_effects() -> Iterator[None]:
    """Fail if anything writes a file, runs a process or opens a socket inside the block."""
    global _watching
    SENTINEL.unlink(missing_ok=True)
    _events.clear()
    saved = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # importing must not count as a write
    _watching = True
    try:
        yield
    finally:
        _watching = False
        sys.dont_write_bytecode = saved
    assert not SENTINEL.exists()
    assert _events == []


def check_package(out: Path, tools: list[dict[str, Any]]) -> int:
    """Import the package and cross-check it, watching for side effects; returns the cases tried."""
    with no_side_effects(), imported(out) as package:
        return assert_agrees_with_reference(package, tools, NASTY)


# ---------- values to validate, derived from a schema ----------


# ---------- a curated package: every nasty string in every position ----------


def _simple_tool(name: str) -> dict[str, Any]:
    """One nasty string as tool name, property name, enum member, description and keyword name."""
    parameters = {
        "type": "object",
        "properties": {name: {"enum": [name, 1], "description": name}},
        "required": [name],
        "x-" + name: name,
    }
    return declaration(name, parameters, description=name)


def _rich_tool(i: int) -> dict[str, Any]:
    """Nested objects, arrays, extra-key schemas and mixed enums, named by six nasty strings."""
    pick = [NASTY[(i + j) % len(NASTY)] for j in range(6)]
    properties: dict[str, Any] = {
        pick[0]: {"type": "string", "description": pick[0], pick[1] or "_": pick[2]},
        pick[1] + "!": {
            "enum": [pick[2], pick[3], 1, None, [pick[4]], {pick[5]: True}],
            "description": pick[3],
        },
        pick[2] + "?": {
            "type": "object",
            "properties": {pick[3]: {"type": ["integer", "null"]}, pick[4]: {"items": {"enum": [pick[5]]}}},
            "required": [pick[3]],
            "additionalProperties": {"type": "array", "items": {"type": "boolean"}, pick[0] + "#": 1},
        },
        pick[3] + "~": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
    }
    for key in [k for k in properties if k in KEYWORDS]:
        del properties[key]
    parameters = {"type": "object", "properties": properties, "required": [pick[0], pick[5] + "*"]}
    return declaration(pick[4] + pick[5] or "_", parameters, description=pick[1])


def test_every_nasty_string_in_every_position(tmp_path: Path) -> None:
    tools = [_simple_tool(name) for name in NAMES]
    tools += [_rich_tool(i) for i in range(0, len(NASTY), 6)]
    # Names differing only in case must not share a module (also on case-insensitive disks).
    tools += [declaration(name, {"type": "object"}) for name in ("tool", "Tool", "TOOL", "to-ol", "to_ol")]
    assert len({t["function"]["name"] for t in tools}) == len(tools)
    assert check_package(build_package(tmp_path, tools), tools) > 1000


# ---------- hypothesis: arbitrary Unicode everywhere ----------

texts = st.one_of(
    st.sampled_from(NASTY),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=12),
    st.lists(st.sampled_from(NASTY), min_size=2, max_size=3).map("".join),
)
names = texts.filter(lambda s: s not in KEYWORDS)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), texts
)
members = st.one_of(scalars, st.lists(scalars, max_size=2), st.dictionaries(texts, scalars, max_size=2))
type_names = st.sampled_from(("string", "number", "integer", "boolean", "object", "array", "null"))


def _schemas(depth: int) -> st.SearchStrategy[Any]:
    leaf = st.fixed_dictionaries(
        {},
        optional={
            "type": st.one_of(type_names, st.lists(type_names, min_size=1, max_size=3, unique=True)),
            "enum": st.lists(members, min_size=1, max_size=4),
            "description": texts,
        },
    )
    if depth == 0:
        return st.one_of(leaf, st.booleans())
    sub = _schemas(depth - 1)
    obj = st.builds(
        _object,
        st.dictionaries(names, sub, max_size=4),
        st.lists(names, max_size=2),
        st.one_of(st.booleans(), sub),
        texts,
    )
    array = st.builds(lambda items: {"type": "array", "items": items}, sub)
    return st.one_of(leaf, obj, array)


def _object(
    properties: dict[str, Any], extra_required: list[str], additional: Any, note: str
) -> dict[str, Any]:
    required = list(dict.fromkeys([*list(properties)[::2], *extra_required]))
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": additional,
        "description": note,
    }


tool_lists = st.lists(
    st.builds(
        lambda name, properties, required, description: declaration(
            name, _object(properties, required, False, description), description
        ),
        names.filter(bool),
        st.dictionaries(names, _schemas(2), min_size=1, max_size=5),
        st.lists(names, max_size=1),
        texts,
    ),
    min_size=10,
    max_size=14,
    unique_by=lambda tool: tool["function"]["name"],
)


@settings(PROFILE, max_examples=4)
@given(tools=tool_lists)
def test_arbitrary_unicode_names_compile_import_cleanly_and_agree(
    tmp_path_factory: pytest.TempPathFactory, tools: list[dict[str, Any]]
) -> None:
    check_package(build_package(tmp_path_factory.mktemp("inject"), tools), tools)
