"""`audit --suggest`: what each repair kind would do to the calls the package rejects.

A repair kind is applied alone to a rejected call, at every place in the call where it
applies and nowhere else; the call counts for the kind when the package's own validator
accepts the repaired arguments. `together` applies every kind, in KINDS order; `none`
counts the rejected calls nothing rescues. Repairs work on copies: a recorded call's
arguments are never changed, and nothing here reaches the runtime, whose validators stay
exactly as strict. The rules are the ones of issue 24's table, as docs/audit-suggest.md
states them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..emit.support import repair_module
from ..plan.repairs import KINDS as KINDS
from ..plan.repairs import RepairKind as RepairKind
from .admits import Schema

# The rules themselves are the functions a package's `repair()` applies (templates/_repair.py):
# what the report counts as rescued is what adopting the kind rescues.
_R = repair_module()
NUMBER_FROM_STRING: RepairKind = "number-from-string"
BOOLEAN_FROM_STRING: RepairKind = "boolean-from-string"
JSON_FROM_STRING: RepairKind = "json-from-string"
ARRAY_FROM_SINGLE: RepairKind = "array-from-single"
ENUM_CASE: RepairKind = "enum-case"
RENAMED_PARAMETER: RepairKind = "renamed-parameter"
NULL_AS_MISSING: RepairKind = "null-as-missing"
_INPUT = "(input)"
SKIP = _R.SKIP  # what a value repair returns where its kind does not apply (a value may be None)


def _number(value: Any, schema: Schema) -> Any:
    return _R.number_from_string(value, schema.types())


def _boolean(value: Any, schema: Schema) -> Any:
    return _R.boolean_from_string(value, schema.types())


def _json(value: Any, schema: Schema) -> Any:
    return _R.json_from_string(value, schema.types())


def _single(value: Any, schema: Schema) -> Any:
    return _R.array_from_single(value, schema.types())


def _enum_case(value: Any, schema: Schema) -> Any:
    return _R.enum_case(value, schema.string_enum() or ())


# Kinds that replace one value, given the schema it is validated against.
_VALUE_REPAIRS: dict[RepairKind, Callable[[Any, Schema], Any]] = {
    NUMBER_FROM_STRING: _number,
    BOOLEAN_FROM_STRING: _boolean,
    JSON_FROM_STRING: _json,
    ARRAY_FROM_SINGLE: _single,
    ENUM_CASE: _enum_case,
}


def renamed_to(key: str, absent: list[str]) -> str | None:
    """The one absent declared property an unexpected key stands for, or None (no candidate,
    or two: an ambiguous rename is not made)."""
    found: str | None = _R.renamed_to(key, absent)
    return found


def _renames(value: dict[str, Any], schema: Schema) -> dict[str, str]:
    """Unexpected key -> declared name, for the keys that stand for exactly one, uncontested."""
    if not schema.closed():
        return {}
    found: dict[str, str] = _R.renames(value, tuple(schema.properties()))
    return found


def _dropped_nulls(value: dict[str, Any], schema: Schema) -> list[str]:
    declared, required = schema.properties(), schema.required()
    return [
        key
        for key, member in value.items()
        if member is None and key in declared and key not in required and not declared[key].admits("null")
    ]


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


@dataclass
class _Walk:
    """Kinds applied over a copy of the arguments, top down, noting the parameters repaired.

    At each place the value kinds are tried in KINDS order, then (on an object) its keys are
    renamed and its nulls dropped, and the walk goes on below: so with every kind at once, a
    single object sent for an array is wrapped and then its members repaired too.
    """

    kinds: tuple[RepairKind, ...]
    places: set[str] = field(default_factory=set)

    def run(self, value: Any, schema: Schema | None, path: str) -> Any:
        if schema is None:
            return value
        for kind in self.kinds:
            repair = _VALUE_REPAIRS.get(kind)
            if repair is None:
                continue
            fixed = repair(value, schema)
            if fixed is not SKIP:
                value = fixed
                self.places.add(path or _INPUT)
        if isinstance(value, dict):
            return self._object(value, schema, path)
        if isinstance(value, list):
            items = schema.items()
            return [self.run(item, items, f"{path}[*]") for item in value]
        return value

    def _object(self, value: dict[str, Any], schema: Schema, path: str) -> dict[str, Any]:
        if RENAMED_PARAMETER in self.kinds:
            renames = _renames(value, schema)
            for key, target in renames.items():
                self.places.add(f"{_child(path, key)} -> {target}")
            value = {renames.get(key, key): member for key, member in value.items()}
        if NULL_AS_MISSING in self.kinds:
            dropped = _dropped_nulls(value, schema)
            self.places.update(_child(path, key) for key in dropped)
            value = {key: member for key, member in value.items() if key not in dropped}
        return {key: self.run(member, schema.member(key), _child(path, key)) for key, member in value.items()}


def repaired(kinds: tuple[RepairKind, ...], arguments: Any, schema: Schema) -> tuple[Any, frozenset[str]]:
    """`arguments` with the kinds applied wherever they apply (a new value: the given one is
    never changed), and the parameters they were applied to, in audit's notation."""
    walk = _Walk(kinds)
    # No copy needed: the walk builds a new object or array at every place it goes through,
    # and the parts it does not reach are only read (by the validator), never changed.
    result = walk.run(arguments, schema, "")
    return result, frozenset(walk.places)


Validator = Callable[[Any], bool]


@dataclass
class Repairs:
    """What the kinds would do, over the rejected calls that have arguments (mergeable counts)."""

    considered: int = 0  # rejected calls with arguments to repair (undecodable ones included)
    rescued: Counter[RepairKind] = field(default_factory=Counter)  # kind -> calls it rescues alone
    # (kind, tool, parameter) -> rescued calls the kind was applied at that parameter in
    parameters: Counter[tuple[RepairKind, str, str]] = field(default_factory=Counter)
    together: int = 0

    @property
    def none(self) -> int:
        return self.considered - self.together

    def add(self, tool: str, arguments: Any, schema: Schema | None, valid: Validator) -> None:
        """One rejected call: each kind alone, then all of them together, judged by `valid`."""
        self.considered += 1
        if schema is None:  # arguments that were not JSON: nothing to repair
            return
        alone = False
        for kind in KINDS:
            fixed, places = repaired((kind,), arguments, schema)
            if places and valid(fixed):
                alone = True
                self.rescued[kind] += 1
                self.parameters.update((kind, tool, place) for place in places)
        combined, _ = repaired(KINDS, arguments, schema)
        # A call one kind rescues is rescued together too, even where another kind's repair
        # would spoil it (array-from-single wrapping the null null-as-missing would drop).
        if alone or valid(combined):
            self.together += 1

    def merge(self, other: Repairs) -> None:
        self.considered += other.considered
        self.rescued.update(other.rescued)
        self.parameters.update(other.parameters)
        self.together += other.together


def declared_schemas(tools: Sequence[Mapping[str, Any]]) -> dict[str, Schema]:
    """Tool name -> its parameters schema, from a package's `openai_tools()`."""
    found: dict[str, Schema] = {}
    for tool in tools:
        function = tool.get("function", {})
        parameters = function.get("parameters", {})
        found[function.get("name", "")] = Schema(parameters, parameters)
    return found
