"""The repair kinds a project adopted (`[tool.toolgen.repairs]`), applied to a rejected call.

Standard library only; nothing here raises. Copied into a package only when its project
adopted a kind: a tool's module then holds `REPAIRS`, the places where each adopted kind
applies (planned by the generator, generator/plan/repairs.py), and its `repair(args)` calls
`repair` below. The rules are the ones `toolgen audit --suggest` measures
(docs/audit-suggest.md), and `audit` applies these very functions, so a call the report
counts as rescued by a kind is the call `repair()` rescues once the kind is adopted there.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

NUMBER_FROM_STRING = "number-from-string"
BOOLEAN_FROM_STRING = "boolean-from-string"
JSON_FROM_STRING = "json-from-string"
ARRAY_FROM_SINGLE = "array-from-single"
ENUM_CASE = "enum-case"
RENAMED_PARAMETER = "renamed-parameter"
NULL_AS_MISSING = "null-as-missing"
KINDS = (
    NUMBER_FROM_STRING,
    BOOLEAN_FROM_STRING,
    JSON_FROM_STRING,
    ARRAY_FROM_SINGLE,
    ENUM_CASE,
    RENAMED_PARAMETER,
    NULL_AS_MISSING,
)
# The `event` of a line the run-time failure sink writes for each repair (runtime/failures.py).
REPAIR_EVENT = "tool_input_repaired"
RENAME_RATIO = 0.85
INPUT = "(input)"
# JSON's number grammar (RFC 8259 section 6), whole string: no sign `+`, no spaces, no NaN.
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


class Repair(NamedTuple):
    """One repair made: its kind, the parameter in the audit's notation (for a rename, the
    declared name the key became; for a dropped null, the key dropped) and the path of the
    value or key repaired in this call (`questions[1].multiSelect`, `task_id`)."""

    kind: str
    parameter: str
    path: str


class _Skip:
    """What a value repair returns where its kind does not apply (a value may be None)."""


SKIP: Any = _Skip()


def strict_json(text: str) -> Any:
    """json.loads without NaN/Infinity, and with finite numbers only; SKIP otherwise."""

    def constant(literal: str) -> Any:
        raise ValueError(literal)

    def number(literal: str) -> float:
        value = float(literal)
        if value in (float("inf"), float("-inf")):
            raise ValueError(literal)
        return value

    try:
        return json.loads(text, parse_constant=constant, parse_float=number)
    except (ValueError, RecursionError):
        return SKIP


def value_type(value: object) -> str:
    """A decoded value's JSON type, `integer` for an int (an integral float is a `number`)."""
    if value is None:
        return "null"
    names = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}
    return names.get(type(value), "")


def admits_value(value: object, types: frozenset[str]) -> bool:
    """Is `value`'s JSON type one of `types` (an integral float counts as an integer)?"""
    kind = value_type(value)
    if kind == "integer":
        return bool({"integer", "number"} & types)
    if kind == "number" and "integer" in types:
        return "number" in types or float.is_integer(value)  # type: ignore[arg-type]
    return kind in types


def number_from_string(value: object, types: frozenset[str]) -> Any:
    if type(value) is not str or "string" in types or not {"number", "integer"} & types:
        return SKIP
    if not _JSON_NUMBER.fullmatch(value):
        return SKIP
    number = strict_json(value)
    if number is SKIP:
        return SKIP
    if "number" not in types and not (type(number) is int or number.is_integer()):
        return SKIP  # only integers admitted, and "2.5" is not one
    return number


def boolean_from_string(value: object, types: frozenset[str]) -> Any:
    if type(value) is not str or value not in ("true", "false"):
        return SKIP
    if "boolean" not in types or "string" in types:
        return SKIP
    return value == "true"


def json_from_string(value: object, types: frozenset[str]) -> Any:
    if type(value) is not str or "string" in types or not {"object", "array"} & types:
        return SKIP
    parsed = strict_json(value)  # SKIP, when not JSON, is neither an object nor an array
    wanted = "object" if type(parsed) is dict else "array" if type(parsed) is list else None
    if wanted not in types:
        return SKIP
    return parsed


def array_from_single(value: object, types: frozenset[str]) -> Any:
    if type(value) is list or "array" not in types or admits_value(value, types):
        return SKIP
    if type(value) is str and type(strict_json(value)) is list:
        return SKIP  # json-from-string's case, not this one
    return [value]


def enum_case(value: object, members: tuple[str, ...]) -> Any:
    if type(value) is not str or not members or value in members:
        return SKIP
    wanted = value.strip().casefold()
    found = [m for m in members if m.strip().casefold() == wanted]
    return found[0] if len(found) == 1 else SKIP


def folded(name: str) -> str:
    """A name with case, `-` and `_` ignored: `task_id`, `TaskId` and `task-id` are one."""
    return name.casefold().replace("-", "").replace("_", "")


def renamed_to(key: str, absent: list[str]) -> str | None:
    """The one absent declared property an unexpected key stands for, or None (no candidate,
    or two: an ambiguous rename is not made)."""
    alike = [name for name in absent if folded(name) == folded(key)]
    if alike:
        return alike[0] if len(alike) == 1 else None
    close = [name for name in absent if difflib.SequenceMatcher(None, key, name).ratio() >= RENAME_RATIO]
    return close[0] if len(close) == 1 else None


def renames(value: dict[Any, Any], declared: tuple[str, ...]) -> dict[str, str]:
    """Unexpected key -> declared name, for the keys that stand for exactly one, uncontested
    (`declared`: the members of an object that refuses undeclared keys)."""
    absent = [name for name in declared if name not in value]
    found = {key: renamed_to(key, absent) for key in value if type(key) is str and key not in declared}
    wanted = Counter(target for target in found.values() if target is not None)
    return {key: target for key, target in found.items() if target is not None and wanted[target] == 1}


def _value(kind: str, value: object, place: dict[str, Any]) -> Any:
    types = frozenset(place.get("types", ()))
    if kind == ENUM_CASE:
        return enum_case(value, place.get("enum", ()))
    repairs: dict[str, Callable[[object, frozenset[str]], Any]] = {
        NUMBER_FROM_STRING: number_from_string,
        BOOLEAN_FROM_STRING: boolean_from_string,
        JSON_FROM_STRING: json_from_string,
        ARRAY_FROM_SINGLE: array_from_single,
    }
    return repairs[kind](value, types)


def _child(parameter: str, key: str) -> str:
    return key if parameter == INPUT else parameter + "." + key


def _at(path: str, key: str) -> str:
    return key if not path else path + "." + key


class _Walk:
    """The planned kinds (or only one of them) applied over a copy of the arguments, top down:
    at each place the value kinds in KINDS order, then (on an object) its keys renamed and its
    nulls dropped, then the places below; every repair made is noted."""

    def __init__(self, only: str | None) -> None:
        self.only = only
        self.made: list[Repair] = []
        # The places named in the plan so far (a recursive schema's first place, by its
        # parameter): a place that says `again` is walked as that one.
        self.named: dict[str, dict[str, Any]] = {}

    def wanted(self, kind: str) -> bool:
        return self.only is None or self.only == kind

    def run(self, value: Any, place: dict[str, Any], parameter: str, path: str) -> Any:
        if "again" in place:
            place = self.named.get(place["again"], {})
        elif "name" in place:
            self.named[place["name"]] = place
        for kind in place.get("kinds", ()):
            if self.wanted(kind):
                fixed = _value(kind, value, place)
                if fixed is not SKIP:
                    value = fixed
                    self.made.append(Repair(kind, parameter, path))
        if type(value) is dict:
            return self._object(value, place, parameter, path)
        if type(value) is list and "items" in place:
            below = parameter + "[*]"
            return [self.run(v, place["items"], below, f"{path}[{i}]") for i, v in enumerate(value)]
        return value

    def _object(self, value: dict[Any, Any], place: dict[str, Any], parameter: str, path: str) -> Any:
        if "into" in place and self.wanted(RENAMED_PARAMETER):
            found = {k: t for k, t in renames(value, place["renames"]).items() if t in place["into"]}
            for key, target in found.items():
                self.made.append(Repair(RENAMED_PARAMETER, _child(parameter, target), _at(path, key)))
            value = {found.get(k, k): v for k, v in value.items()}
        if "nulls" in place and self.wanted(NULL_AS_MISSING):
            dropped = [k for k in place["nulls"] if k in value and value[k] is None]
            for key in dropped:
                self.made.append(Repair(NULL_AS_MISSING, _child(parameter, key), _at(path, key)))
            value = {k: v for k, v in value.items() if k not in dropped}
        members = place.get("members", {})
        return {
            k: self.run(v, members[k], _child(parameter, k), _at(path, k)) if k in members else v
            for k, v in value.items()
        }


def repaired(place: dict[str, Any], args: object, only: str | None = None) -> tuple[Any, tuple[Repair, ...]]:
    """`args` with the planned kinds (or only `only`) applied wherever they apply: a new value
    (the given one is never changed) and the repairs made."""
    walk = _Walk(only)
    return walk.run(args, place, INPUT, ""), tuple(walk.made)


def _planned(place: dict[str, Any]) -> set[str]:
    """The kinds planned anywhere in a tree."""
    found = set(place.get("kinds", ()))
    found |= {RENAMED_PARAMETER} if "into" in place else set()
    found |= {NULL_AS_MISSING} if "nulls" in place else set()
    for below in (*place.get("members", {}).values(), place.get("items", {})):
        found |= _planned(below)
    return found


def repair(
    place: dict[str, Any], validate: Callable[[object], str | None], args: object
) -> tuple[object, tuple[Repair, ...]]:
    """(the repaired arguments, the repairs made) when the call fails and the planned kinds
    make it valid: every kind at once, else each kind alone in KINDS order (a kind that
    rescues a call alone rescues it whatever another would spoil, as audit counts it).
    Otherwise (a valid call, or one no repair makes valid) the arguments as given and ().
    Never raises: arguments whose own objects raise are left as they are."""
    try:
        if validate(args) is None:
            return args, ()
        fixed, made = repaired(place, args)
        if made and validate(fixed) is None:
            return fixed, made
        kinds = _planned(place)
        for kind in KINDS:
            if kind in kinds:
                fixed, made = repaired(place, args, kind)
                if made and validate(fixed) is None:
                    return fixed, made
    except Exception:
        pass
    return args, ()
