"""`toolgen audit --suggest`: what each repair kind would rescue of the rejected calls, on a log
of planted failures (tests/data/audit_suggest declares a tool with a parameter for each kind),
checked against the rules of issue 24's table, kind by kind, and through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.readers.admits import Schema
from generator.readers.auditrun import package_schemas
from generator.readers.package import Package, import_package
from generator.readers.repairs import KINDS, RepairKind, Repairs, renamed_to, repaired
from tests.toolgen_cli import ROOT, invoke

DECLARATIONS = ROOT / "tests" / "data" / "audit_suggest"


def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package of tests/data/audit_suggest, generated into a new folder."""
    out = tmp_path_factory.mktemp("suggest") / "trips"
    done = invoke("generate", "--schemas", str(DECLARATIONS), "--out", str(out))
    assert done.exit_code == 0, done.output
    return out


@pytest.fixture(scope="module")
def package_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated(tmp_path_factory)


@pytest.fixture(scope="module")
def package(package_dir: Path) -> Package:
    return import_package(package_dir)


@pytest.fixture(scope="module")
def trip(package: Package) -> Schema:
    return package_schemas(package)["plan_trip"]


def call(arguments: Any, tool: str = "plan_trip") -> str:
    return json.dumps({"name": tool, "arguments": arguments})


BASE = {"days": 3, "travellerName": "Ada"}

# (line, what rescues it): each planted failure, with the kinds that rescue it alone
# ("together" when only every kind at once does, "none" when nothing does).
PLANTED: list[tuple[str, tuple[str, ...]]] = [
    (call({**BASE, "days": "3"}), ("number-from-string",)),
    (call({**BASE, "budget": "-1.5e3"}), ("number-from-string",)),
    (call({**BASE, "days": "2.5"}), ("none",)),  # integer only: not integral
    (call({**BASE, "days": "4e0"}), ("number-from-string",)),  # integral, as JSON writes it
    (call({**BASE, "budget": " 5"}), ("none",)),  # surrounding space: not the JSON grammar
    (call({**BASE, "budget": "5px"}), ("none",)),
    (call({**BASE, "budget": "NaN"}), ("none",)),
    (call({**BASE, "refundable": "true"}), ("boolean-from-string",)),
    (call({**BASE, "refundable": "True"}), ("none",)),  # exactly "true" / "false" only
    (call({**BASE, "filters": '{"stars": 4}'}), ("json-from-string",)),
    (call({**BASE, "cities": '["Paris", "Lyon"]'}), ("json-from-string",)),  # not array-from-single
    (call({**BASE, "cities": "Paris"}), ("array-from-single",)),
    (call({**BASE, "mode": " PLANE "}), ("enum-case",)),
    (call({**BASE, "mode": "car"}), ("enum-case",)),
    (call({"days": 3, "traveller_name": "Ada"}), ("renamed-parameter",)),  # case, `_` and `-`
    (call({"days": 3, "travelerName": "Ada"}), ("renamed-parameter",)),  # difflib ratio 0.96
    (call({**BASE, "notes": None}), ("null-as-missing",)),
    (call({"days": None, "travellerName": "Ada"}), ("none",)),  # required: not dropped
    (call({**BASE, "legs": [{"confirmed": True}, {"confirmed": "false"}]}), ("boolean-from-string",)),
    # Two kinds at once: only together.
    (call({**BASE, "days": "3", "mode": "Plane"}), ("together",)),
    (call({**BASE, "legs": {"confirmed": True, "hours": "2"}}), ("together",)),
    (call({"days": "3", "TravellerName": "Ada", "notes": None}), ("together",)),
    # A repair that applies, next to an error none repairs.
    (call({**BASE, "days": "3", "zzz": 1}), ("none",)),
    (call({"UserID": "u1"}, "lookup_user"), ("none",)),  # user_id or userId: ambiguous
    # Arguments that are not JSON: nothing to repair.
    (
        json.dumps({"type": "function", "function": {"name": "plan_trip", "arguments": "{days: 3}"}}),
        ("none",),
    ),
]
VALID = call(BASE)
OTHER_LINES = [
    VALID,
    json.dumps({"type": "tool_use", "id": "t1", "name": "plan_trip", "input": BASE}),
    call({"city": "Paris"}, "mcp__maps__route"),  # passed through
    call({"days": "3"}, "Plan-Trip"),  # passed through: a misspelt name
    # A failure-sink record without arguments: counted as recorded, not repaired.
    json.dumps(
        {
            "event": "tool_input_rejected",
            "tool": "plan_trip",
            "issues": [
                {"kind": "missing", "path": "days", "line": "The required parameter `days` is missing"}
            ],
        }
    ),
    "{not json",
]


def test_every_planted_failure_is_rescued_by_exactly_the_kinds_the_rules_say(
    package: Package, trip: Schema
) -> None:
    for line, expected in PLANTED:
        value = json.loads(line)
        arguments = value.get("arguments", value.get("function", {}).get("arguments"))
        tool = value.get("name", "plan_trip")
        schema = package_schemas(package)[tool]
        if isinstance(arguments, str):
            continue  # the undecodable call: covered by the report
        assert package.issues(tool, arguments), line
        alone = tuple(
            kind
            for kind in KINDS
            if (fixed := repaired((kind,), arguments, schema))[1] and not package.issues(tool, fixed[0])
        )
        together = not package.issues(tool, repaired(KINDS, arguments, schema)[0])
        got = alone or (("together",) if together else ("none",))
        assert got == expected, line


@pytest.mark.parametrize(
    ("text", "types", "number"),
    [
        ("5", {"integer"}, 5),
        ("-1.5e3", {"number"}, -1500.0),
        ("-1.5e3", {"integer"}, -1500.0),
        ("0.5", {"number", "null"}, 0.5),
        ("2.5", {"integer"}, None),
        (" 5", {"number"}, None),
        ("5 ", {"number"}, None),
        ("5px", {"number"}, None),
        ("NaN", {"number"}, None),
        ("Infinity", {"number"}, None),
        ("1e400", {"number"}, None),
        ("+5", {"number"}, None),
        ("05", {"number"}, None),
        (".5", {"number"}, None),
        ("5.", {"number"}, None),
        ("5", {"number", "string"}, None),  # a string is admitted: nothing to repair
        ("5", {"boolean"}, None),
    ],
)
def test_number_from_string_follows_the_strict_json_grammar(
    text: str, types: set[str], number: float | None
) -> None:
    schema = Schema({"type": sorted(types)}, {})
    fixed, places = repaired(("number-from-string",), text, schema)
    if number is None:
        assert (fixed, places) == (text, frozenset())
    else:
        assert (fixed, type(fixed), places) == (number, type(number), frozenset({"(input)"}))


@pytest.mark.parametrize(
    ("kind", "schema", "value", "fixed"),
    [
        ("boolean-from-string", {"type": "boolean"}, "false", False),
        ("boolean-from-string", {"type": "boolean"}, "FALSE", "FALSE"),
        ("boolean-from-string", {"type": ["boolean", "string"]}, "true", "true"),
        ("json-from-string", {"type": "object"}, '{"a": [1]}', {"a": [1]}),
        ("json-from-string", {"type": "array"}, "[1, 2]", [1, 2]),
        ("json-from-string", {"type": "array"}, '{"a": 1}', '{"a": 1}'),  # an object, not admitted
        ("json-from-string", {"type": "object"}, '{"a": NaN}', '{"a": NaN}'),  # not strict JSON
        ("json-from-string", {"type": ["object", "string"]}, "{}", "{}"),
        ("array-from-single", {"type": "array"}, 3, [3]),
        ("array-from-single", {"type": "array"}, "x", ["x"]),
        ("array-from-single", {"type": "array"}, "[1]", "[1]"),  # json-from-string's case
        ("array-from-single", {"type": ["array", "integer"]}, 3, 3),  # admitted as it is
        ("enum-case", {"enum": ["Alpha", "beta"]}, "  ALPHA\t", "Alpha"),
        ("enum-case", {"enum": ["Straße"]}, "STRASSE", "Straße"),  # casefold, not lower
        ("enum-case", {"enum": ["a", "A"]}, "  a ", "  a "),  # two members: not rescued
        ("enum-case", {"enum": ["a", "A"]}, "a", "a"),  # already a member
        ("enum-case", {"type": "string"}, "x", "x"),
    ],
)
def test_each_kind_applies_exactly_where_its_rule_says(
    kind: RepairKind, schema: dict[str, Any], value: Any, fixed: Any
) -> None:
    assert repaired((kind,), value, Schema(schema, schema))[0] == fixed


@pytest.mark.parametrize(
    ("key", "absent", "renamed"),
    [
        ("task_id", ["taskId"], "taskId"),
        ("TaskId", ["taskId"], "taskId"),
        ("task-id", ["taskId"], "taskId"),
        ("USERID", ["user_id", "userId"], None),  # two by case/separators: ambiguous
        ("travelerName", ["travellerName"], "travellerName"),  # ratio 24/25
        ("id", ["taskId"], None),  # ratio 0.5
        ("file", ["files", "filed"], None),  # two at ratio 0.89: ambiguous
        ("colour", ["color"], "color"),  # ratio 10/11 = 0.909
        ("abcdef", ["abcxyz"], None),  # ratio 0.5
        ("pathh", ["path"], "path"),  # ratio 8/9
        ("pat", ["path"], "path"),  # ratio 6/7 = 0.857: at least 0.85
    ],
)
def test_renamed_parameter_matches_one_absent_property(
    key: str, absent: list[str], renamed: str | None
) -> None:
    assert renamed_to(key, absent) == renamed


def test_renames_only_into_absent_properties_and_never_two_keys_into_one() -> None:
    schema = {
        "type": "object",
        "properties": {"taskId": {"type": "string"}, "note": {"type": "string"}},
        "additionalProperties": False,
    }
    view = Schema(schema, schema)
    assert repaired(("renamed-parameter",), {"task_id": "1", "taskId": "2"}, view)[0] == {
        "task_id": "1",
        "taskId": "2",
    }
    assert repaired(("renamed-parameter",), {"task_id": "1", "TaskId": "2"}, view)[0] == {
        "task_id": "1",
        "TaskId": "2",
    }
    assert repaired(("renamed-parameter",), {"Note": "x"}, view) == (
        {"note": "x"},
        frozenset({"Note -> note"}),
    )
    absent = {key: value for key, value in schema.items() if key != "additionalProperties"}
    assert repaired(("renamed-parameter",), {"task_id": "1"}, Schema(absent, absent))[0] == {"taskId": "1"}
    patterned = {**absent, "patternProperties": {"^x": {}}}
    assert repaired(("renamed-parameter",), {"task_id": "1"}, Schema(patterned, patterned))[0] == {
        "task_id": "1"
    }
    open_schema = {**schema, "additionalProperties": True}
    assert repaired(("renamed-parameter",), {"task_id": "1"}, Schema(open_schema, open_schema))[0] == {
        "task_id": "1"
    }


def test_null_as_missing_drops_only_optional_members_that_do_not_admit_null() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": ["string", "null"]},
            "c": {"type": "string"},
        },
        "required": ["c"],
    }
    assert repaired(
        ("null-as-missing",), {"a": None, "b": None, "c": None, "d": None}, Schema(schema, schema)
    ) == (
        {"b": None, "c": None, "d": None},
        frozenset({"a"}),
    )


def test_extended_declarations_refs_and_unions_are_followed() -> None:
    schema = {
        "type": "object",
        "properties": {
            "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "item": {"$ref": "#/$defs/Item"},
        },
        "$defs": {"Item": {"type": "object", "properties": {"on": {"type": "boolean"}}}},
    }
    fixed, places = repaired(KINDS, {"limit": "7", "item": {"on": "true"}}, Schema(schema, schema))
    assert (fixed, places) == ({"limit": 7, "item": {"on": True}}, frozenset({"limit", "item.on"}))


def test_repairs_never_change_the_arguments_they_are_given(trip: Schema) -> None:
    arguments = {"days": "3", "traveller_name": "Ada", "legs": {"confirmed": "true"}, "notes": None}
    before = json.dumps(arguments)
    for kinds in [(kind,) for kind in KINDS] + [KINDS]:
        repaired(kinds, arguments, trip)
    assert json.dumps(arguments) == before
    repairs = Repairs()
    repairs.add("plan_trip", arguments, trip, lambda fixed: fixed is not arguments)
    assert json.dumps(arguments) == before


def write_log(folder: Path) -> Path:
    log = folder / "calls.jsonl"
    lines = [line for line, _ in PLANTED] + OTHER_LINES
    log.write_text("\n".join(lines) + "\n", "utf-8")
    return log


# Each kind's share and 95% Wilson interval (rounded outward), and whether it clears the
# default bar: none does, on 25 rejected calls (docs/audit-suggest.md).
TWELVE = {"share": 0.12, "interval": [0.0416, 0.2996], "clears_bar": False}
EIGHT = {"share": 0.08, "interval": [0.0222, 0.2497], "clears_bar": False}
FOUR = {"share": 0.04, "interval": [0.007, 0.1955], "clears_bar": False}
EXPECTED_REPAIRS = {
    "rejected_with_arguments": 25,
    "kinds": {
        "number-from-string": {
            "calls": 3,
            "parameters": {"plan_trip": {"budget": 1, "days": 2}},
            **TWELVE,
        },
        "boolean-from-string": {
            "calls": 2,
            "parameters": {"plan_trip": {"legs[*].confirmed": 1, "refundable": 1}},
            **EIGHT,
        },
        "json-from-string": {
            "calls": 2,
            "parameters": {"plan_trip": {"cities": 1, "filters": 1}},
            **EIGHT,
        },
        "array-from-single": {"calls": 1, "parameters": {"plan_trip": {"cities": 1}}, **FOUR},
        "enum-case": {"calls": 2, "parameters": {"plan_trip": {"mode": 2}}, **EIGHT},
        "renamed-parameter": {
            "calls": 2,
            "parameters": {
                "plan_trip": {"traveller_name -> travellerName": 1, "travelerName -> travellerName": 1}
            },
            **EIGHT,
        },
        "null-as-missing": {"calls": 1, "parameters": {"plan_trip": {"notes": 1}}, **FOUR},
    },
    "together": 16,
    "none": 9,
    "together_interval": [0.4451, 0.7976],
    "none_interval": [0.2024, 0.5549],
    "evidence_bar": {"min_rescued": 10, "min_share": 0.1, "confidence": 0.95},
    "adopt": {},
}


def test_suggest_json_counts_every_kind_together_and_none(package_dir: Path, tmp_path: Path) -> None:
    log = write_log(tmp_path)
    before = log.read_bytes()
    result = invoke("audit", "--package", str(package_dir), "--suggest", "--json", "--jobs", "1", str(log))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["repairs"] == EXPECTED_REPAIRS
    assert (data["calls"], data["rejected"], data["counted_from_records"], data["passed_through"]) == (
        30,
        26,
        1,
        2,
    )
    assert data["misspelt"] == [{"tool": "Plan-Trip", "calls": 1, "meant": ["plan_trip"]}]
    assert log.read_bytes() == before
    # The counts agree with the planted expectations, kind by kind.
    for kind in KINDS:
        assert data["repairs"]["kinds"][kind]["calls"] == sum(kind in rescued for _, rescued in PLANTED)
    assert data["repairs"]["none"] == sum(rescued == ("none",) for _, rescued in PLANTED)


def test_suggest_is_the_same_over_two_processes(package_dir: Path, tmp_path: Path) -> None:
    log = write_log(tmp_path)
    args = ["audit", "--package", str(package_dir), "--suggest", str(log)]
    one, two = invoke(*args, "--jobs", "1"), invoke(*args, "--jobs", "2")
    assert (two.exit_code, two.stdout) == (one.exit_code, one.stdout)


EXPECTED_TEXT = """\
1 file, 31 lines, 30 tool calls, 1 bad line
would be rejected: 26 of 28 validated calls (92.9%); passed through: 2 (tools without a validator in {pkg}/)
(1 failure record without arguments counted as recorded)

tool              calls  rejected          share
plan_trip            27        25          92.6%
lookup_user           1         1         100.0%
Plan-Trip             1         -  not validated
mcp__maps__route      1         -  not validated

passed through, probably misspelt:
  Plan-Trip (1 call): did you mean `plan_trip`?

tool         parameter          kind         detail                     issues
plan_trip    days               type         string instead of integer       6
plan_trip    budget             type         string instead of number        4
plan_trip    mode               invalid                                      3
plan_trip    travellerName      missing                                      3
plan_trip    cities             type         string instead of array         2
plan_trip    notes              type         null instead of string          2
plan_trip    refundable         type         string instead of boolean       2
lookup_user  UserID             unexpected                                   1
plan_trip    (input)            undecodable                                  1
plan_trip    TravellerName      unexpected                                   1
plan_trip    days               missing                                      1
plan_trip    days               type         null instead of integer         1
plan_trip    filters            type         string instead of object        1
plan_trip    legs               type         object instead of array         1
plan_trip    legs[*].confirmed  type         string instead of boolean       1
plan_trip    travelerName       unexpected                                   1
plan_trip    traveller_name     unexpected                                   1
plan_trip    zzz                unexpected                                   1

kind         issues
type             20
unexpected        5
missing           4
invalid           3
undecodable       1

repairs of the 25 rejected calls with arguments, each kind alone; 1 failure record without arguments not repaired:

number-from-string: 3 calls rescued (12.0%; 95% interval 4.1% to 30.0%)
  tool       parameter  calls
  plan_trip  days           2
  plan_trip  budget         1

boolean-from-string: 2 calls rescued (8.0%; 95% interval 2.2% to 25.0%)
  tool       parameter          calls
  plan_trip  legs[*].confirmed      1
  plan_trip  refundable             1

json-from-string: 2 calls rescued (8.0%; 95% interval 2.2% to 25.0%)
  tool       parameter  calls
  plan_trip  cities         1
  plan_trip  filters        1

array-from-single: 1 call rescued (4.0%; 95% interval 0.7% to 19.6%)
  tool       parameter  calls
  plan_trip  cities         1

enum-case: 2 calls rescued (8.0%; 95% interval 2.2% to 25.0%)
  tool       parameter  calls
  plan_trip  mode           2

renamed-parameter: 2 calls rescued (8.0%; 95% interval 2.2% to 25.0%)
  tool       parameter                        calls
  plan_trip  travelerName -> travellerName        1
  plan_trip  traveller_name -> travellerName      1

null-as-missing: 1 call rescued (4.0%; 95% interval 0.7% to 19.6%)
  tool       parameter  calls
  plan_trip  notes          1

together: 16 calls rescued (64.0%; 95% interval 44.5% to 79.8%); none: 9 calls nothing rescues (36.0%; 95% interval 20.2% to 55.5%)
what it means: too few calls rescued to justify a rule (under 10): number-from-string 3 calls, boolean-from-string 2 calls, json-from-string 2 calls, array-from-single 1 call, enum-case 2 calls, null-as-missing 1 call; renamed-parameter 8.0%: fix those parameters' names or descriptions, not a rule; 36.0% no repair rescues: real errors that no rule would hide.

bad lines:
  {log}:31: not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)
"""  # noqa: E501 (the report's own lines)


def test_suggest_text_report(package_dir: Path, tmp_path: Path) -> None:
    log = write_log(tmp_path)
    result = invoke("audit", "--package", str(package_dir), "--suggest", str(log))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == EXPECTED_TEXT.format(pkg=package_dir, log=log)


def test_without_suggest_the_report_has_no_repairs(package_dir: Path, tmp_path: Path) -> None:
    log = write_log(tmp_path)
    text = invoke("audit", "--package", str(package_dir), str(log)).stdout
    assert "repairs" not in text and "what it means" not in text
    assert "repairs" not in json.loads(
        invoke("audit", "--package", str(package_dir), "--json", str(log)).stdout
    )
    with_suggest = EXPECTED_TEXT.format(pkg=package_dir, log=log)
    start, end = with_suggest.index("repairs of the"), with_suggest.index("bad lines:")
    assert text == with_suggest[:start] + with_suggest[end:]
