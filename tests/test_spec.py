"""Every rule and example of docs/spec/validation.md (§2-§6) and acceptance scenarios 1-6 of the
requirement, checked on the generated validators with exact message strings.

Real tools come from the checked-in `generated` package; rules no real tool exercises use
small purpose-built declarations generated into a throw-away package (TOOLS below). Every
result is also compared with the structured form (`issues`) and with tests/reference.py.
"""

from __future__ import annotations

import copy
import enum
import importlib
import json
from collections import OrderedDict
from types import ModuleType
from typing import Any

import pytest

import generated
from tests import reference
from tests.genpkg import ROOT, shared_package

OPENING_VALUES: dict[str, Any] = {
    "patternProperties": {"^z": {"type": "boolean"}},
    "allOf": [{}],
    "anyOf": [{}],
    "oneOf": [{}],
    "$ref": "#",
    "$dynamicRef": "#",
    "$recursiveRef": "#",
    "dependentSchemas": {"a": {}},
    "dependencies": {"a": ["b"]},
    "if": {},
    "then": {},
    "else": {},
    "unevaluatedProperties": False,
}


def _opening_tool(keyword: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "additionalProperties": {"type": "integer"},
        keyword: OPENING_VALUES[keyword],
    }


TOOLS: dict[str, Any] = {
    "ObjectLike": {
        "type": "object",
        "properties": {
            "any": {},
            "bare": {"type": "object"},
            "props": {"properties": {"a": {"type": "string"}}},
            "req": {"required": ["a"]},
            "extra": {"additionalProperties": {"type": "integer"}},
            "free": {"type": "object", "additionalProperties": True},
            "maybe": {"type": ["object", "null"], "properties": {"a": {"type": "string"}}},
        },
    },
    "Booleans": {
        "type": "object",
        "properties": {
            "t": True,
            "f": False,
            "arr": {"type": "array", "items": False},
            "arr2": {"items": True},
        },
        "additionalProperties": False,
    },
    "AllowExtra": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": True},
    "RequiredOnly": {"type": "object", "properties": {"p": {"type": "string"}}, "required": ["p", "q"]},
    "Ignored": {
        "type": "object",
        "properties": {
            "s": {"type": "string", "minLength": 5, "pattern": "^a", "format": "email", "const": "zz"},
            "n": {"type": "number", "minimum": 10, "maximum": 11, "multipleOf": 3},
            "a": {"type": "array", "minItems": 3, "uniqueItems": True, "items": [{"type": "string"}]},
            "o": {"oneOf": [{"type": "string"}], "not": {}},
            "r": {"$ref": "#/definitions/x"},
            "d": {"type": "string", "default": 5},
        },
    },
    "Types": {
        "type": "object",
        "properties": {
            "i": {"type": "integer"},
            "n": {"type": "number"},
            "s": {"type": "string"},
            "b": {"type": "boolean"},
            "o": {"type": "object", "additionalProperties": True},
            "a": {"type": "array"},
            "z": {"type": "null"},
            "sn": {"type": ["string", "null"]},
            "ns": {"type": ["null", "string"]},
            "ib": {"type": ["integer", "boolean"]},
        },
    },
    "Enums": {
        "type": "object",
        "properties": {
            "one": {"enum": [1]},
            "onef": {"enum": [1.0]},
            "t": {"enum": [True]},
            "f": {"enum": [False]},
            "zero": {"enum": [0]},
            "lst": {"enum": [[1]]},
            "obj": {"enum": [{"a": 0, "b": [1, {"c": None}]}]},
            "nul": {"enum": [None]},
            "mixed": {"enum": ["a", 1, 1.5, None, True, [1, "x"], {"k": "é"}]},
            "pair": {"enum": [[1, 2]]},
        },
    },
    "Paths": {
        "type": "object",
        "properties": {
            "a.b": {"type": "string"},
            "q`x": {"type": "string"},
            "new\nline": {"type": "string"},
            "1": {"type": "string"},
            "outer": {
                "type": "object",
                "properties": {
                    "inner": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"leaf": {"type": "integer"}},
                            "additionalProperties": False,
                        },
                    }
                },
            },
            "grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
        },
        "additionalProperties": False,
    },
    "Order": {
        "type": "object",
        "properties": {
            "p1": {"type": "string"},
            "p2": {"enum": ["x"]},
            "p3": {"type": "integer"},
            "p4": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["m"]},
        },
        "required": ["r2", "p1", "r1"],
    },
    "Stops": {
        "type": "object",
        "properties": {
            "o": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]},
            "e": {"enum": [{"a": 1}], "properties": {"a": {"type": "string"}}, "required": ["c"]},
            "arr": {"type": "array", "items": {"type": "string", "enum": ["x"]}},
        },
    },
    "ExtraSchema": {"additionalProperties": {"type": "object", "properties": {"v": {"type": "number"}}}},
    "NoParameters": {"type": "object", "properties": {}},
    **{f"Open {keyword}": _opening_tool(keyword) for keyword in OPENING_VALUES},
    "OpenNested": {
        "type": "object",
        "properties": {"m": {"type": "object", "properties": {"a": {"type": "string"}}, "anyOf": [{}]}},
    },
}


def _real_parameters() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for path in sorted((ROOT / "tool_schemas").glob("*.json")):
        function = json.loads(path.read_text("utf-8"))["function"]
        found[function["name"]] = function.get("parameters", {"type": "object", "properties": {}})
    return found


REAL = _real_parameters()


@pytest.fixture(scope="session")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return shared_package(tmp_path_factory, "spec_validators", lambda: TOOLS)


def expect(tool: str, *lines: str) -> str:
    noun = "issue" if len(lines) == 1 else "issues"
    return "\n".join([f"{tool} failed due to the following {noun}:", *lines])


def check(package: ModuleType, parameters: dict[str, Any], tool: str, args: Any, wanted: str | None) -> None:
    """The message, the structured form and the reference interpreter all say `wanted`."""
    before = copy.deepcopy(args)
    assert package.validate(tool, args) == wanted
    found = package.issues(tool, args)
    assert package.message(tool, found) == wanted
    assert [tuple(issue) for issue in found] == reference.issues(parameters, args)
    assert reference.message(tool, parameters, args) == wanted
    assert args == before


def real(tool: str, args: Any, *lines: str) -> None:
    check(generated, REAL[tool], tool, args, expect(tool, *lines) if lines else None)


def own(package: ModuleType, tool: str, args: Any, *lines: str) -> None:
    check(package, TOOLS[tool], tool, args, expect(tool, *lines) if lines else None)


def type_line(path: str, expected: str, provided: str) -> str:
    return f"The parameter `{path}` type is expected as `{expected}` but provided as `{provided}`"


def missing(path: str) -> str:
    return f"The required parameter `{path}` is missing"


def unexpected(path: str) -> str:
    return f"An unexpected parameter `{path}` was provided"


def invalid(path: str, members: str) -> str:
    return f"The parameter `{path}` is invalid: expected one of {members}"


TASK_STATUS = '"pending", "in_progress", "completed", "deleted"'


# ---------- §6: the worked example and the message shape ----------


def test_spec_worked_example_is_exact() -> None:
    assert generated.validate("TaskUpdate", {"id": "2", "status": "done", "owner": 3}) == (
        "TaskUpdate failed due to the following issues:\n"
        "The required parameter `taskId` is missing\n"
        "An unexpected parameter `id` was provided\n"
        "The parameter `owner` type is expected as `string` but provided as `number`\n"
        'The parameter `status` is invalid: expected one of "pending", "in_progress", "completed", "deleted"'
    )


def test_single_issue_header_is_singular_and_no_trailing_newline() -> None:
    message = generated.validate("Write", {"file_path": "a.txt"})
    assert message == "Write failed due to the following issue:\nThe required parameter `content` is missing"


def test_structured_form_gives_kind_path_and_line() -> None:
    found = generated.issues("TaskUpdate", {"id": "2", "owner": 3})
    assert found == (
        generated.Issue("missing", "taskId", missing("taskId")),
        generated.Issue("unexpected", "id", unexpected("id")),
        generated.Issue("type", "owner", type_line("owner", "string", "number")),
    )
    assert (generated.MISSING, generated.UNEXPECTED, generated.TYPE, generated.INVALID) == (
        "missing",
        "unexpected",
        "type",
        "invalid",
    )


def test_registry_knows_exactly_the_declared_tools_and_passes_others_through() -> None:
    assert set(REAL) == generated.TOOL_NAMES
    assert len(generated.TOOL_NAMES) == 25
    for name in ("mcp__github__create_issue", "my_custom_tool", "taskupdate", ""):
        assert generated.validate(name, {"anything": [1, 2]}) is None
        assert generated.issues(name, 42) == ()
        assert generated.validator(name) is None
    validate_write = generated.validator("Write")
    assert validate_write is not None
    assert validate_write({}) == expect("Write", missing("file_path"), missing("content"))


# ---------- the requirement's acceptance scenarios 1-6 ----------


def test_scenario_1_missing_required_parameter() -> None:
    real("TaskUpdate", {}, missing("taskId"))
    # The requirement's independent test: the misspelt key is named as well.
    real("TaskUpdate", {"id": "2", "status": "completed"}, missing("taskId"), unexpected("id"))
    real("TaskUpdate", {"taskId": "2", "status": "completed"})


def test_scenario_2_unexpected_parameter() -> None:
    real("TaskGet", {"taskId": "1", "id": "2"}, unexpected("id"))
    real("Write", {"file_path": "a", "content": "b", "contents": "c"}, unexpected("contents"))


def test_scenario_3_wrong_type_is_not_coerced() -> None:
    real("Read", {"file_path": "/a", "offset": "20"}, type_line("offset", "number", "string"))
    real("Bash", {"command": 7}, type_line("command", "string", "number"))


def test_scenario_4_value_outside_enum() -> None:
    members = '"content", "files_with_matches", "count"'
    real("Grep", {"pattern": "x", "output_mode": "lines"}, invalid("output_mode", members))
    real("ExitWorktree", {"action": "Keep"}, invalid("action", '"keep", "remove"'))


def test_scenario_5_null_is_a_type_mismatch_not_a_missing_parameter(pkg: ModuleType) -> None:
    real("Read", {"file_path": "/a", "offset": None}, type_line("offset", "number", "null"))
    real("Read", {"file_path": None}, type_line("file_path", "string", "null"))
    own(pkg, "Types", {"sn": None, "ns": None, "z": None})
    own(pkg, "Types", {"s": None}, type_line("s", "string", "null"))


def test_scenario_6_valid_calls_pass_unchanged() -> None:
    real("Read", {"file_path": "/a"})
    real("Read", {"file_path": "/a", "offset": 10, "limit": 2.5})
    real("TaskCreate", {"subject": "s", "description": "d", "metadata": {"any": [1, {"x": None}], "2": 3}})
    real("TaskUpdate", {"taskId": "1", "addBlocks": ["2", "3"], "metadata": {}})
    question = {
        "question": "Which?",
        "header": "Pick",
        "options": [{"label": "A", "description": "first"}, {"label": "B"}],
        "multiSelect": False,
    }
    real(
        "AskUserQuestion",
        {"questions": [question], "answers": {"Which?": "A"}, "metadata": {"source": "cmd", "extra": "x"}},
    )
    real("CronList", {})
    real("Workflow", {"args": {"deep": [1, 2, {"free": True}]}})


def test_free_form_maps_still_check_their_declared_value_schemas() -> None:
    real(
        "AskUserQuestion",
        {"questions": [], "metadata": {"source": 1, "other": None}, "answers": {"q1": 2}},
        type_line("answers.q1", "string", "number"),
        type_line("metadata.source", "string", "number"),
        type_line("metadata.other", "string", "null"),
    )


def test_nested_paths_in_a_real_tool() -> None:
    question = {"question": "Q", "header": "H", "options": [{"label": "A"}, {"label": 3, "x": 1}]}
    real(
        "AskUserQuestion",
        {"questions": [question, {"options": "none"}]},
        missing("questions[1].question"),
        missing("questions[1].header"),
        unexpected("questions[0].options[1].x"),
        type_line("questions[0].options[1].label", "string", "number"),
        type_line("questions[1].options", "array", "string"),
    )


# ---------- §2: the keyword subset ----------


def test_empty_schema_accepts_anything(pkg: ModuleType) -> None:
    for value in ({"x": {"y": 1}}, [1, "a"], None, 3.5, "s", True):
        own(pkg, "ObjectLike", {"any": value})


def test_object_type_without_properties_accepts_only_empty_object(pkg: ModuleType) -> None:
    own(pkg, "ObjectLike", {"bare": {}})
    own(pkg, "ObjectLike", {"bare": {"x": 1, "y": 2}}, unexpected("bare.x"), unexpected("bare.y"))


def test_properties_alone_make_a_schema_object_like_only_for_dicts(pkg: ModuleType) -> None:
    own(
        pkg,
        "ObjectLike",
        {"props": {"a": 1, "b": 2}},
        unexpected("props.b"),
        type_line("props.a", "string", "number"),
    )
    own(pkg, "ObjectLike", {"props": "not a dict"})
    own(pkg, "ObjectLike", {"props": [1]})


def test_required_alone_makes_a_schema_object_like(pkg: ModuleType) -> None:
    own(pkg, "ObjectLike", {"req": {}}, missing("req.a"))
    own(pkg, "ObjectLike", {"req": {"a": [1]}})
    own(pkg, "ObjectLike", {"req": {"b": 1}}, missing("req.a"), unexpected("req.b"))
    own(pkg, "ObjectLike", {"req": 5})


def test_additional_properties_schema_validates_every_extra_value(pkg: ModuleType) -> None:
    own(pkg, "ObjectLike", {"extra": {"k": 1, "j": 2.0}})
    own(
        pkg,
        "ObjectLike",
        {"extra": {"k": 1.5, "j": "2"}},
        type_line("extra.k", "integer", "number"),
        type_line("extra.j", "integer", "string"),
    )
    own(
        pkg,
        "ExtraSchema",
        {"a": {"v": 1}, "b": {"v": "x", "w": 0}},
        unexpected("b.w"),
        type_line("b.v", "number", "string"),
    )
    own(pkg, "ExtraSchema", {"a": 1}, type_line("a", "object", "number"))


def test_additional_properties_true_allows_any_extra_key(pkg: ModuleType) -> None:
    own(pkg, "ObjectLike", {"free": {"x": 1, "y": [None]}})
    own(pkg, "AllowExtra", {"zz": 1, "a": "s", "b": {"c": 2}})
    own(pkg, "AllowExtra", {"zz": 1, "a": 2}, type_line("a", "string", "number"))


def test_type_list_with_object_is_object_like(pkg: ModuleType) -> None:
    own(pkg, "ObjectLike", {"maybe": None})
    own(pkg, "ObjectLike", {"maybe": {"a": "x"}})
    own(pkg, "ObjectLike", {"maybe": {"b": 1}}, unexpected("maybe.b"))
    own(pkg, "ObjectLike", {"maybe": []}, type_line("maybe", "object | null", "array"))


@pytest.mark.parametrize("keyword", sorted(OPENING_VALUES))
def test_keywords_that_may_admit_keys_leave_undeclared_keys_unchecked(pkg: ModuleType, keyword: str) -> None:
    tool = f"Open {keyword}"
    own(pkg, tool, {"a": "s", "zz": "not an integer", "b": None})
    own(pkg, tool, {"a": 1, "zz": "x"}, type_line("a", "string", "number"))
    own(pkg, tool, {"zz": 1}, missing("a"))


def test_unchecked_nested_object_still_checks_its_properties(pkg: ModuleType) -> None:
    own(pkg, "OpenNested", {"m": {"a": "x", "other": 1}})
    own(pkg, "OpenNested", {"m": {"a": 1, "other": 1}}, type_line("m.a", "string", "number"))
    own(pkg, "OpenNested", {"n": 1}, unexpected("n"))


def test_boolean_subschemas_constrain_nothing(pkg: ModuleType) -> None:
    own(pkg, "Booleans", {"t": 1, "f": "anything", "arr": [1, "x", None], "arr2": [{"a": 1}]})
    own(pkg, "Booleans", {"f": {"deep": [1]}, "arr2": "not an array"})
    own(pkg, "Booleans", {"arr": "x"}, type_line("arr", "array", "string"))
    own(pkg, "Booleans", {"g": 1}, unexpected("g"))


def test_required_name_without_property_is_declared_and_unconstrained(pkg: ModuleType) -> None:
    own(pkg, "RequiredOnly", {"p": "x", "q": None})
    own(pkg, "RequiredOnly", {"p": "x", "q": {"any": [1]}})
    own(pkg, "RequiredOnly", {"p": 1}, missing("q"), type_line("p", "string", "number"))
    own(pkg, "RequiredOnly", {"q": 1, "r": 2}, missing("p"), unexpected("r"))


def test_keywords_outside_the_subset_never_block(pkg: ModuleType) -> None:
    args = {"s": "b", "n": 1, "a": [1, 1], "o": 5, "r": {"x": 1}, "d": "x"}
    own(pkg, "Ignored", args)
    own(
        pkg,
        "Ignored",
        {"s": 1, "a": {}},
        type_line("s", "string", "number"),
        type_line("a", "array", "object"),
    )
    real("WebFetch", {"url": "not a uri", "prompt": "p"})
    real("AskUserQuestion", {"questions": []})
    module = importlib.import_module("." + pkg._MODULES["Ignored"], pkg.__name__)
    where = "/function/parameters/properties/"
    not_enforced = module.NOT_ENFORCED
    assert not_enforced == (
        (where + "s", ("const", "format", "minLength", "pattern")),
        (where + "n", ("maximum", "minimum", "multipleOf")),
        (where + "a", ("minItems", "uniqueItems")),
        (where + "a/items", ("items (tuple form)",)),
        (where + "o", ("not", "oneOf")),
        (where + "r", ("$ref",)),
    )


def test_tool_without_properties_rejects_every_key(pkg: ModuleType) -> None:
    own(pkg, "NoParameters", {})
    own(pkg, "NoParameters", {"a": 1}, unexpected("a"))
    real("EnterPlanMode", {"plan": "x"}, unexpected("plan"))


# ---------- §3: JSON types of Python values ----------


def test_integer_and_number(pkg: ModuleType) -> None:
    own(pkg, "Types", {"i": 1, "n": 1})
    own(pkg, "Types", {"i": 1.0, "n": 1.5})
    own(pkg, "Types", {"i": -0.0, "n": -0.0})
    own(pkg, "Types", {"i": 10**40, "n": 10**40})
    own(pkg, "Types", {"i": 1e300})
    own(pkg, "Types", {"i": 1.5}, type_line("i", "integer", "number"))
    own(pkg, "Types", {"i": float("inf")}, type_line("i", "integer", "number"))
    own(pkg, "Types", {"i": float("nan")}, type_line("i", "integer", "number"))
    own(pkg, "Types", {"n": float("inf")})
    own(pkg, "Types", {"i": "1"}, type_line("i", "integer", "string"))


def test_bool_is_never_a_number_or_integer(pkg: ModuleType) -> None:
    own(
        pkg,
        "Types",
        {"n": False, "i": True},
        type_line("i", "integer", "boolean"),
        type_line("n", "number", "boolean"),
    )
    own(pkg, "Types", {"b": 0}, type_line("b", "boolean", "number"))
    own(pkg, "Types", {"ib": True})
    own(pkg, "Types", {"ib": 2.0})
    own(pkg, "Types", {"ib": 2.5}, type_line("ib", "integer | boolean", "number"))


def test_type_names_of_every_json_type(pkg: ModuleType) -> None:
    provided: dict[str, Any] = {"z": None, "b": True, "n": 1.5, "s": "x", "o": {}, "a": []}
    names = {"z": "null", "b": "boolean", "n": "number", "s": "string", "o": "object", "a": "array"}
    for key, value in provided.items():
        target = "z" if key != "z" else "s"
        own(pkg, "Types", {target: value}, type_line(target, names[target], names[key]))


def test_type_list_message_keeps_declared_order(pkg: ModuleType) -> None:
    own(
        pkg,
        "Types",
        {"sn": 1, "ns": 1},
        type_line("sn", "string | null", "number"),
        type_line("ns", "null | string", "number"),
    )


class Widget:
    """A value of no JSON type; equal to any other Widget so that copies compare equal."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Widget)

    def __hash__(self) -> int:
        return 0


@pytest.mark.parametrize(
    ("value", "name"),
    [((1, 2), "tuple"), (b"x", "bytes"), ({1}, "set"), (frozenset(), "frozenset"), (Widget(), "Widget"),
     (bytearray(b"x"), "bytearray"), (3j, "complex")],
)  # fmt: skip
def test_non_json_values_are_named_by_their_python_type(pkg: ModuleType, value: Any, name: str) -> None:
    own(pkg, "Types", {"a": value}, type_line("a", "array", name))
    own(pkg, "ObjectLike", {"any": value})


class Text(str):
    pass


class Level(enum.IntEnum):
    ONE = 1
    TWO = 2


class Ratio(float):
    pass


class Items(list[Any]):
    pass


def test_subclasses_count_as_their_base_type(pkg: ModuleType) -> None:
    real("Read", OrderedDict([("file_path", Text("/a")), ("offset", Level.TWO), ("limit", Ratio(2.0))]))
    real("TaskUpdate", {"taskId": Text("1"), "addBlocks": Items([Text("2")]), "metadata": OrderedDict(a=1)})
    own(pkg, "Types", {"i": Level.ONE, "n": Level.TWO, "s": Text(""), "o": OrderedDict(), "a": Items()})
    own(pkg, "Types", {"i": Ratio(1.0)})
    own(pkg, "Types", {"s": Level.ONE}, type_line("s", "string", "number"))
    own(pkg, "Types", {"i": Ratio(0.5)}, type_line("i", "integer", "number"))
    real("TaskUpdate", OrderedDict(id=1), missing("taskId"), unexpected("id"))


def test_subclasses_in_enums(pkg: ModuleType) -> None:
    real("Grep", {"pattern": "x", "output_mode": Text("count")})
    real(
        "Grep",
        {"pattern": "x", "output_mode": Text("lines")},
        invalid("output_mode", '"content", "files_with_matches", "count"'),
    )
    own(pkg, "Enums", {"one": Level.ONE, "onef": Level.ONE, "lst": Items([Level.ONE]), "mixed": Text("a")})
    own(pkg, "Enums", {"obj": OrderedDict([("b", Items([1, OrderedDict(c=None)])), ("a", 0)])})


def test_non_string_keys_are_unexpected_with_str_of_the_key(pkg: ModuleType) -> None:
    real(
        "Read",
        {"file_path": "a", 1: "x", (1, 2): "y", None: 0},
        unexpected("1"),
        unexpected("(1, 2)"),
        unexpected("None"),
    )
    own(pkg, "Paths", {1: "x", "1": "y"}, unexpected("1"))
    own(pkg, "Paths", {"outer": {2.5: 1, "inner": []}}, unexpected("outer.2.5"))
    # Also where additionalProperties is a schema: the key is unexpected, its value unchecked.
    own(pkg, "ObjectLike", {"extra": {7: "x"}}, unexpected("extra.7"))
    wrong = type_line("extra.k", "integer", "string")
    own(pkg, "ObjectLike", {"extra": {7: 1, "k": "x"}}, unexpected("extra.7"), wrong)


# ---------- §4: JSON equality ----------


def test_numbers_equal_across_int_and_float(pkg: ModuleType) -> None:
    own(pkg, "Enums", {"one": 1.0, "onef": 1, "zero": 0.0, "lst": [1.0], "mixed": 1.0})
    own(pkg, "Enums", {"zero": -0.0, "obj": {"a": 0.0, "b": [1.0, {"c": None}]}})


def test_booleans_never_equal_numbers(pkg: ModuleType) -> None:
    own(pkg, "Enums", {"one": True}, invalid("one", "1"))
    own(pkg, "Enums", {"onef": True}, invalid("onef", "1.0"))
    own(pkg, "Enums", {"t": 1}, invalid("t", "true"))
    own(pkg, "Enums", {"f": 0}, invalid("f", "false"))
    own(pkg, "Enums", {"zero": False}, invalid("zero", "0"))
    own(pkg, "Enums", {"lst": [True]}, invalid("lst", "[1]"))
    own(
        pkg,
        "Enums",
        {"obj": {"a": False, "b": [1, {"c": None}]}},
        invalid("obj", '{"a": 0, "b": [1, {"c": null}]}'),
    )
    own(pkg, "Enums", {"t": True, "f": False})


def test_null_equals_only_null(pkg: ModuleType) -> None:
    own(pkg, "Enums", {"nul": None})
    others: tuple[Any, ...] = (0, "", False, [], {}, "null")
    for value in others:
        own(pkg, "Enums", {"nul": value}, invalid("nul", "null"))


def test_containers_compare_recursively(pkg: ModuleType) -> None:
    own(pkg, "Enums", {"obj": {"b": [1, {"c": None}], "a": 0}})
    own(pkg, "Enums", {"pair": [2, 1]}, invalid("pair", "[1, 2]"))
    own(pkg, "Enums", {"pair": [1, 2, 3]}, invalid("pair", "[1, 2]"))
    own(pkg, "Enums", {"pair": (1, 2)}, invalid("pair", "[1, 2]"))
    own(pkg, "Enums", {"obj": {"a": 0}}, invalid("obj", '{"a": 0, "b": [1, {"c": null}]}'))
    own(
        pkg,
        "Enums",
        {"obj": {"a": 0, "b": [1, {"c": None}], "d": 1}},
        invalid("obj", '{"a": 0, "b": [1, {"c": null}]}'),
    )
    own(
        pkg, "Enums", {"obj": {"a": 0, "b": [1, {"c": 0}]}}, invalid("obj", '{"a": 0, "b": [1, {"c": null}]}')
    )


def test_enum_members_are_written_as_compact_json(pkg: ModuleType) -> None:
    members = '"a", 1, 1.5, null, true, [1, "x"], {"k": "é"}'
    own(pkg, "Enums", {"mixed": "b"}, invalid("mixed", members))
    own(pkg, "Enums", {"mixed": {"k": "é"}})
    own(pkg, "Enums", {"mixed": [1, "x"]})
    own(pkg, "Enums", {"mixed": None})
    own(pkg, "Enums", {"mixed": False}, invalid("mixed", members))


# ---------- §5: traversal and the issue list ----------


def test_issues_are_grouped_by_kind_keeping_traversal_order(pkg: ModuleType) -> None:
    args = {"zz": 1, "p4": {"q": 1, "y": 2}, "p3": "s", "p2": "bad", "aa": 2}
    own(
        pkg,
        "Order",
        args,
        missing("r2"),
        missing("p1"),
        missing("r1"),
        missing("p4.m"),
        unexpected("p4.y"),
        unexpected("zz"),
        unexpected("aa"),
        type_line("p3", "integer", "string"),
        type_line("p4.q", "string", "number"),
        invalid("p2", '"x"'),
    )


def test_unexpected_keys_follow_the_value_order(pkg: ModuleType) -> None:
    own(pkg, "Order", {"p1": "a", "r1": 0, "r2": 0, "b": 1, "a": 2}, unexpected("b"), unexpected("a"))
    own(pkg, "Order", {"p1": "a", "r1": 0, "r2": 0, "a": 1, "b": 2}, unexpected("a"), unexpected("b"))


def test_type_mismatch_stops_the_visit_of_that_value(pkg: ModuleType) -> None:
    own(pkg, "Stops", {"o": [1, 2]}, type_line("o", "object", "array"))
    own(pkg, "Stops", {"arr": {"a": 1}}, type_line("arr", "array", "object"))


def test_enum_mismatch_stops_the_visit_and_a_match_continues_it(pkg: ModuleType) -> None:
    own(pkg, "Stops", {"e": {"a": 2}}, invalid("e", '{"a": 1}'))
    own(pkg, "Stops", {"e": {"a": 1}}, missing("e.c"), type_line("e.a", "string", "number"))
    own(
        pkg,
        "Stops",
        {"arr": ["x", 1, "y"]},
        type_line("arr[1]", "string", "number"),
        invalid("arr[2]", '"x"'),
    )


def test_whole_input_not_a_dict() -> None:
    cases: list[tuple[Any, str]] = [
        ([], "array"),
        (None, "null"),
        ("x", "string"),
        (3, "number"),
        (True, "boolean"),
        ((1,), "tuple"),
        (b"", "bytes"),
        (Widget(), "Widget"),
    ]
    for args, name in cases:
        line = f"The tool input type is expected as `object` but provided as `{name}`"
        real("Read", args, line)
        real("CronList", args, line)
        assert generated.issues("Read", args) == (generated.Issue("type", "", line),)


# ---------- §6: path rendering ----------


def test_paths_use_dots_and_brackets_and_names_verbatim(pkg: ModuleType) -> None:
    own(
        pkg,
        "Paths",
        {"outer": {"inner": [{"leaf": 1}, {"leaf": "x", "zz": 1}]}, "grid": [[1], [2, "3"]]},
        unexpected("outer.inner[1].zz"),
        type_line("outer.inner[1].leaf", "integer", "string"),
        type_line("grid[1][1]", "integer", "string"),
    )
    own(
        pkg,
        "Paths",
        {"a.b": 1, "q`x": 2, "new\nline": 3, "c.d": 4},
        unexpected("c.d"),
        type_line("a.b", "string", "number"),
        type_line("q`x", "string", "number"),
        type_line("new\nline", "string", "number"),
    )
    own(
        pkg,
        "Paths",
        {"outer": {"inner": "x"}, "grid": ["x"]},
        type_line("outer.inner", "array", "string"),
        type_line("grid[0]", "array", "string"),
    )


def test_every_real_tool_accepts_a_minimal_valid_call() -> None:
    for tool, parameters in REAL.items():
        args = {
            name: _minimal(parameters.get("properties", {}).get(name, {}))
            for name in parameters.get("required", [])
        }
        real(tool, args)


def _minimal(schema: Any) -> Any:
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    return {"string": "x", "number": 1, "integer": 1, "boolean": False, "array": [], "object": {}}.get(kind)
