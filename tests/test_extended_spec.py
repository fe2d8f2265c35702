"""Every rule, table row and example of docs/spec/extended.md (E2-E7), with exact message strings.

The declarations are TOOLS below (and the real AskUserQuestion declaration). Every check
goes through the backend indirection of tests/extended_backends.py: today the reference
interpreter answers; once the generator has `--keywords extended`, adding "generated" to
BACKENDS runs every test here against a generated package too (and compares its answers
with the reference's).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests import reference
from tests.extended_backends import BACKENDS, Backend, make_backend
from tests.genpkg import ROOT
from tests.reference import EXTENDED

S = {"type": "string"}
N = {"type": "number"}
I = {"type": "integer"}  # noqa: E741
NULL = {"type": "null"}


def obj(
    properties: dict[str, Any], required: list[str] | None = None, defs: dict[str, Any] | None = None
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        schema["required"] = required
    if defs is not None:
        schema["$defs"] = defs
    return schema


def one(schema: Any) -> dict[str, Any]:
    """A tool whose only parameter `x` is declared `schema`."""
    return obj({"x": schema})


TREE = {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "required": ["root"],
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]},
            },
            "required": ["value"],
        }
    },
}

PET = {
    "$defs": {
        "Cat": obj({"kind": {"const": "cat"}, "lives": I}, ["kind"]),
        "Dog": obj({"kind": {"enum": ["dog"]}, "bark": {"type": "boolean"}}, ["kind", "bark"]),
    },
    **one({"oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]}),
}

TOOLS: dict[str, Any] = {
    # E5's table
    "Table": one({"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]}),
    # E2
    "Ref": {
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/Short"}},
        "$defs": {"Short": {"maxLength": 2}},
    },
    "Defs": {
        "type": "object",
        "properties": {"x": {"$ref": "#/definitions/D"}, "y": S},
        "definitions": {"D": I},
        "$defs": {"Unused": {"type": "null"}},
    },
    "AllOf": one({"allOf": [{"minimum": 1}, {"maximum": 3}, {"multipleOf": 2}]}),
    "OneOfTwoFit": one({"oneOf": [{"type": "integer"}, {"type": "number"}]}),
    "Const": obj({"c": {"const": "yes"}, "o": {"const": {"a": [1, None]}}, "f": {"const": 1.0}}),
    "Bounds": obj(
        {
            "min": {"minimum": 1},
            "xmin": {"exclusiveMinimum": 1},
            "max": {"maximum": 0.5},
            "xmax": {"exclusiveMaximum": 1e-05},
            "big": {"maximum": 100.0},
            "all": {
                "minimum": 0,
                "exclusiveMinimum": -1,
                "maximum": 10,
                "exclusiveMaximum": 11,
                "multipleOf": 1,
            },
            "d4": {"minimum": 5, "exclusiveMinimum": True, "maximum": 9, "exclusiveMaximum": True},
        }
    ),
    "Multiple": obj({"tenth": {"multipleOf": 0.1}, "int": {"multipleOf": 3}, "half": {"multipleOf": 0.5}}),
    "Lengths": obj(
        {
            "one": {"minLength": 1},
            "onef": {"minLength": 1.0, "maxLength": 1.0},
            "two": {"minLength": 2, "maxLength": 3},
            "twof": {"minLength": 2.0},
            "zero": {"maxLength": 0},
        }
    ),
    "Items": obj(
        {
            "one": {"minItems": 1, "maxItems": 1},
            "few": {"type": "array", "minItems": 2, "maxItems": 3},
            "u": {"uniqueItems": True},
            "nu": {"uniqueItems": False},
            "fu": {"minItems": 1.0},
        }
    ),
    "Pattern": obj(
        {
            "any": {"pattern": "b+"},
            "digit": {"pattern": "^\\d+$"},
            "word": {"pattern": "^\\w+$"},
            "space": {"pattern": "^\\s$"},
            "dot": {"pattern": "^.$"},
            "end": {"pattern": "^a$"},
            "edge": {"pattern": "\\bcat\\b"},
            "dash": {"pattern": "^a\\-[\\-x]$"},
            "astral": {"pattern": "^\\u{1F600}$"},
            "look": {"pattern": "^(?!no)(?:[a-c]|z){2,3}?$"},
            "backref": {"pattern": "(a)\\1"},
            "named": {"pattern": "(?<n>a)"},
            "behind": {"pattern": "(?<=a)b"},
            "prop": {"pattern": "\\p{L}"},
            "brace": {"pattern": "a{,3}"},
            "lone": {"pattern": "x]"},
        }
    ),
    "Kinds": obj(
        {
            "n": {"minimum": 1, "maxLength": 0, "minItems": 5, "pattern": "^z"},
            "s": {"minLength": 9, "maximum": 0, "maxItems": 0},
            "a": {"minItems": 2, "minimum": 5, "pattern": "^z"},
        }
    ),
    "NotRead": obj(
        {
            "x": {
                "not": {},
                "if": {"type": "string"},
                "then": {"minLength": 100},
                "prefixItems": [False],
                "contains": False,
                "minContains": 3,
                "format": "email",
                "minProperties": 9,
                "maxProperties": 0,
                "propertyNames": {"maxLength": 0},
                "dependentRequired": {"a": ["b"]},
                "unevaluatedItems": False,
                "additionalItems": False,
                "contentEncoding": "base64",
                "contentMediaType": "application/json",
                "default": 7,
                "$comment": "c",
                "$id": "https://example.com/x",
                "$anchor": "here",
                "$schema": "https://json-schema.org/draft/2020-12/schema",
            },
            "t": {"items": [{"type": "string"}], "minItems": 1},
        }
    ),
    **{
        f"Open {keyword}": one({"type": "object", "properties": {"a": S}, keyword: value})
        for keyword, value in {
            "patternProperties": {"^z": NULL},
            "dependentSchemas": {"a": {}},
            "dependencies": {"a": ["b"]},
            "if": {},
            "then": {},
            "else": {},
            "unevaluatedProperties": False,
            "$dynamicRef": "#meta",
            "$recursiveRef": "#",
            "$ref": "https://example.com/schema.json",
        }.items()
    },
    "OpenRefs": obj(
        {
            "file": {"type": "object", "properties": {"a": S}, "$ref": "other.json#/x"},
            "anchor": {"type": "object", "properties": {"a": S}, "$ref": "#here"},
            "viaAllOf": {
                "type": "object",
                "properties": {"a": S},
                "allOf": [{"patternProperties": {"^z": {}}}],
            },
        }
    ),
    "Closed": obj(
        {
            "allOf": {"type": "object", "properties": {"a": S}, "allOf": [{"properties": {"b": S}}]},
            "anyOf": {"type": "object", "properties": {"a": S}, "anyOf": [{"properties": {"b": S}}]},
            "oneOf": {"type": "object", "properties": {"a": S}, "oneOf": [{"properties": {"b": S}}]},
            "ref": {"$ref": "#/$defs/AB"},
        },
        defs={"AB": {"type": "object", "properties": {"a": S}}},
    ),
    # E3
    "Pointers": {
        "type": "object",
        "properties": {
            "pct": {"$ref": "#/$defs/a%25b"},
            "quote": {"$ref": "#/$defs/q%22r"},
            "space": {"$ref": "#/$defs/sp%20ace"},
            "slash": {"$ref": "#/$defs/x~1y"},
            "tilde": {"$ref": "#/$defs/x~0y"},
            "both": {"$ref": "#/$defs/~01"},
            "index": {"$ref": "#/$defs/list/allOf/1"},
            "prop": {"$ref": "#/properties/pct"},
            "self": {"type": "object", "properties": {"again": {"$ref": "#"}}},
        },
        "$defs": {
            "a%b": {"type": "integer"},
            'q"r': {"type": "boolean"},
            "sp ace": {"type": "null"},
            "x/y": {"type": "string"},
            "x~y": {"type": "array"},
            "~1": {"const": "tilde-one"},
            "list": {"allOf": [{}, {"type": "object", "additionalProperties": True}]},
        },
    },
    "Siblings": {
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/A", "description": "x", "maxLength": 3}},
        "$defs": {"A": {"type": "string", "minLength": 2}},
    },
    "TopRef": {
        "$ref": "#/$defs/Args",
        "$defs": {
            "Args": obj({"path": S, "mode": {"$ref": "#/$defs/Mode"}}, ["path"]),
            "Mode": {"enum": ["r", "w"]},
        },
    },
    "Tree": TREE,
    "List": {
        "type": "object",
        "properties": {"head": {"$ref": "#/$defs/Cell"}},
        "$defs": {"Cell": {"type": ["object", "null"], "properties": {"next": {"$ref": "#/$defs/Cell"}}}},
    },
    "Deep": {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/Nest"}},
        "$defs": {"Nest": {"type": "array", "items": {"$ref": "#/$defs/Nest"}}},
    },
    "DeepAny": {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/Any"}},
        "$defs": {"Any": {"items": {"$ref": "#/$defs/Any"}, "additionalProperties": {"$ref": "#/$defs/Any"}}},
    },
    # E4
    "Group": {
        "type": "object",
        "properties": {
            "x": {
                "$ref": "#/$defs/T",
                "type": "string",
                "allOf": [{"type": "integer"}, {"minLength": 5}],
                "anyOf": [{"type": "boolean"}],
            },
            "y": {"$ref": "#/$defs/T", "allOf": [{"type": ["string", "null"]}]},
            "order": {
                "allOf": [{"maxLength": 1}, {"const": "abc", "pattern": "^z"}],
                "$ref": "#/$defs/Enum",
                "minLength": 9,
            },
            "bounds": {"maxLength": 1, "allOf": [{"pattern": "^z", "minLength": 5}], "$ref": "#/$defs/Len"},
        },
        "$defs": {"T": {"type": "number"}, "Enum": {"enum": ["abc", "d"]}, "Len": {"maxLength": 2}},
    },
    "CombinatorOrder": one(
        {
            "oneOf": [{"type": "object", "properties": {"o": S}, "required": ["o"]}],
            "anyOf": [{"type": "object", "properties": {"a": S}, "required": ["a"]}],
            "allOf": [{"anyOf": [{"type": "object", "properties": {"b": S}, "required": ["b"]}]}],
        }
    ),
    "Objects": one(
        {
            "type": "object",
            "properties": {"a": S, "both": {"maxLength": 1}},
            "required": ["a", "r"],
            "allOf": [
                {"properties": {"both": {"type": "string"}, "b": N}, "required": ["a", "b"]},
                {"required": ["c"]},
            ],
        }
    ),
    "Twice": one({"allOf": [{"properties": {"a": S}}, {"properties": {"a": S}}], "type": "object"}),
    "Extras": obj(
        {
            "anyTrue": {
                "type": "object",
                "additionalProperties": False,
                "allOf": [{"additionalProperties": True}],
            },
            "schemas": {
                "type": "object",
                "properties": {"k": S},
                "additionalProperties": {"type": "string"},
                "allOf": [{"additionalProperties": {"maxLength": 1}}, {"additionalProperties": False}],
            },
            "strict": {"type": "object", "allOf": [{"properties": {"a": S}}]},
            "free": {"type": "object", "additionalProperties": True},
        }
    ),
    "NotObjectLike": one({"allOf": [{"minLength": 1}], "description": "d"}),
    "Arrays": one({"items": {"type": "integer"}, "allOf": [{"type": "array", "items": {"minimum": 0}}]}),
    "Dupes": obj(
        {
            "a.b": {"type": "string"},
            "a": obj({"b": S}),
            "twice": {"allOf": [{"type": "object", "required": ["z"]}, {"required": ["z"]}]},
        }
    ),
    # E5
    "Pet": PET,
    "PetList": {**PET, "properties": {"x": {"type": "array", "items": PET["properties"]["x"]}}},
    "Tags": obj(
        {
            "via": {
                "anyOf": [
                    obj({"t": {"$ref": "#/$defs/A"}, "n": I}, ["t"]),
                    obj({"t": {"$ref": "#/$defs/B"}, "s": S}, ["t"]),
                ]
            },
            "same": {"anyOf": [obj({"t": {"const": 1}, "n": I}), obj({"t": {"const": 1.0}, "s": S})]},
            "firstName": {
                "anyOf": [
                    obj({"b": {"const": "b1"}, "a": {"const": "a1"}}, ["a", "b"]),
                    obj({"a": {"const": "a2"}, "b": {"const": "b2"}}, ["a", "b"]),
                ]
            },
            "mixed": {"anyOf": [obj({"t": {"const": "x"}}), {"type": "string"}]},
            "nested": {
                "anyOf": [
                    {"allOf": [obj({"t": {"const": 1}, "v": S})]},
                    {"$ref": "#/$defs/T2"},
                ]
            },
        },
        defs={
            "A": {"const": "a"},
            "B": {"const": "b"},
            "T2": obj({"t": {"enum": [2]}, "v": I}),
        },
    ),
    "Types": obj(
        {
            "decl": {"anyOf": [{"type": ["integer", "boolean"]}, {"type": "null"}, {"type": "boolean"}]},
            "consts": {"anyOf": [{"const": "a"}, {"enum": [1, "b", None, 2]}]},
            "every": {"anyOf": [{"type": "string"}, {"minimum": 3}]},
            "int": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            "first": {
                "anyOf": [
                    {"allOf": [{"maxLength": 3}, {"type": "string"}], "type": "null"},
                    {"type": "array"},
                ]
            },
            "own": {"anyOf": [{"anyOf": [{"type": "string"}]}, {"type": "null"}]},
        }
    ),
    "Closest": obj(
        {
            "x": {
                "anyOf": [
                    {"type": "string", "minLength": 5, "pattern": "^z"},
                    {"type": "string", "maxLength": 1},
                    {"type": "string", "pattern": "^y"},
                ]
            },
            "o": {"anyOf": [obj({"a": I, "b": I}, ["a", "b"]), obj({"c": S}, ["c"])]},
        }
    ),
    "Later": one(
        {
            "type": "object",
            "allOf": [
                {"anyOf": [obj({"a": S}, ["a"]), obj({"b": S}, ["b"])]},
                {"anyOf": [obj({"c": S}, ["c"]), obj({"d": S, "e": {"anyOf": [obj({"f": S})]}}, ["d"])]},
            ],
        }
    ),
    "Greedy": one(
        {
            "allOf": [
                {"anyOf": [{"type": "string"}, {"type": "string", "maxLength": 1}]},
                {"anyOf": [{"minLength": 2}]},
            ]
        }
    ),
    "NoBranch": one(
        {
            "type": "object",
            "properties": {"k": S},
            "anyOf": [obj({"t": {"const": 1}, "p": S}, ["t"]), obj({"t": {"const": 2}, "q": S}, ["t"])],
        }
    ),
    "NoBranchNested": one(
        {
            "type": "object",
            "anyOf": [
                {"type": "object", "properties": {"t": {"const": 1}}, "anyOf": [obj({"deep": S})]},
                obj({"t": {"const": 2}}),
            ],
        }
    ),
    "Nullable": obj(
        {
            "name": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            "pet": {"anyOf": [{"$ref": "#/$defs/Model"}, {"type": "null"}]},
            "color": {"$ref": "#/$defs/Color"},
            "tags": {"type": "array", "items": {"$ref": "#/$defs/Model"}, "maxItems": 2},
        },
        ["name"],
        defs={
            "Model": obj(
                {"id": {"type": "integer", "minimum": 1}, "label": {"type": "string", "maxLength": 3}},
                ["id"],
            ),
            "Color": {"enum": ["red", "green"], "title": "Color", "type": "string"},
        },
    ),
}


def expect(tool: str, *lines: str) -> str:
    noun = "issue" if len(lines) == 1 else "issues"
    return "\n".join([f"{tool} failed due to the following {noun}:", *lines])


def type_line(path: str, expected: str, provided: str) -> str:
    return f"The parameter `{path}` type is expected as `{expected}` but provided as `{provided}`"


def missing(path: str) -> str:
    return f"The required parameter `{path}` is missing"


def unexpected(path: str) -> str:
    return f"An unexpected parameter `{path}` was provided"


def invalid(path: str, text: str) -> str:
    return f"The parameter `{path}` is invalid: expected {text}"


def _real(tool: str) -> Any:
    return json.loads((ROOT / "tool_schemas" / f"{tool}.json").read_text("utf-8"))["function"]["parameters"]


ALL_TOOLS = {**TOOLS, "AskUserQuestion": _real("AskUserQuestion")}


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Backend:
    return make_backend(request.param, tmp_path_factory, "extended_spec", lambda: ALL_TOOLS)


def check(backend: Backend, tool: str, args: Any) -> str | None:
    """The one indirection every assertion below goes through: the backend's message, its
    structured form agreeing with it, the reference's answer, and args left unchanged."""
    before = copy.deepcopy(args)
    found = backend.message(tool, args)
    lines = [line for _, _, line in backend.issues(tool, args)]
    assert found == (expect(tool, *lines) if lines else None)
    if backend.kind != "reference":
        assert backend.issues(tool, args) == reference.issues(ALL_TOOLS[tool], args, EXTENDED)
    assert args == before
    return found


def own(backend: Backend, tool: str, args: Any, *lines: str) -> None:
    assert check(backend, tool, args) == (expect(tool, *lines) if lines else None)


def x(backend: Backend, tool: str, value: Any, *lines: str) -> None:
    own(backend, tool, {"x": value}, *lines)


# ---------- E5's table and E7's example ----------


def test_e5_table(backend: Backend) -> None:
    x(backend, "Table", "a")
    x(backend, "Table", None)
    x(backend, "Table", 5, type_line("x", "string | null", "number"))
    x(backend, "Table", "", invalid("x", "at least 1 character"))


def test_askuserquestion_declares_the_bounds_of_the_example() -> None:
    questions = _real("AskUserQuestion")["properties"]["questions"]
    assert (questions["minItems"], questions["maxItems"]) == (1, 4)
    item = questions["items"]["properties"]
    assert item["header"]["maxLength"] == 12
    assert (item["options"]["minItems"], item["options"]["maxItems"]) == (2, 4)


def test_e7_askuserquestion_example(backend: Backend) -> None:
    question = {"question": "Which?", "header": "Database", "options": [{"label": "A"}, {"label": "B"}]}
    questions = [dict(question) for _ in range(5)]
    questions[2]["header"] = "Authentication"
    assert len(questions[2]["header"]) == 14
    assert check(backend, "AskUserQuestion", {"questions": questions}) == (
        "AskUserQuestion failed due to the following issues:\n"
        "The parameter `questions` is invalid: expected at most 4 items\n"
        "The parameter `questions[2].header` is invalid: expected at most 12 characters"
    )
    own(
        backend,
        "AskUserQuestion",
        {"questions": questions[:4]},
        invalid("questions[2].header", "at most 12 characters"),
    )
    own(backend, "AskUserQuestion", {"questions": questions[:2]})
    own(backend, "AskUserQuestion", {"questions": []}, invalid("questions", "at least 1 item"))
    short = {**question, "options": [{"label": "A"}]}
    own(
        backend,
        "AskUserQuestion",
        {"questions": [short]},
        invalid("questions[0].options", "at least 2 items"),
    )


# ---------- E2: the keywords ----------


def test_ref_applies_its_target_in_place(backend: Backend) -> None:
    own(backend, "Ref", {"x": "ab"})
    own(backend, "Ref", {"x": "abc"}, invalid("x", "at most 2 characters"))
    own(backend, "Ref", {"x": 123})


def test_defs_and_definitions_constrain_nothing_by_themselves(backend: Backend) -> None:
    own(backend, "Defs", {"x": 1, "y": "s"})
    own(backend, "Defs", {"x": 1.5}, type_line("x", "integer", "number"))
    own(backend, "Defs", {"Unused": 1, "D": 2}, unexpected("Unused"), unexpected("D"))


def test_allof_applies_every_branch(backend: Backend) -> None:
    x(backend, "AllOf", 2)
    x(backend, "AllOf", 4, invalid("x", "a number less than or equal to 3"))
    x(
        backend,
        "AllOf",
        -1,
        invalid("x", "a number greater than or equal to 1"),
        invalid("x", "a multiple of 2"),
    )


def test_oneof_exactly_one_is_not_enforced(backend: Backend) -> None:
    x(backend, "OneOfTwoFit", 2)  # both branches fit
    x(backend, "OneOfTwoFit", 2.5)
    x(backend, "OneOfTwoFit", "2", type_line("x", "integer | number", "string"))


def test_const_is_json_equality(backend: Backend) -> None:
    own(backend, "Const", {"c": "yes", "o": {"a": [1, None]}, "f": 1})
    own(
        backend,
        "Const",
        {"c": "no", "o": {"a": [True, None]}, "f": True},
        invalid("c", '"yes"'),
        invalid("o", '{"a": [1, null]}'),
        invalid("f", "1.0"),
    )


def test_numeric_bounds_and_their_numbers(backend: Backend) -> None:
    own(backend, "Bounds", {"min": 1, "xmin": 1.5, "max": 0.5, "xmax": 0, "big": 100})
    own(
        backend,
        "Bounds",
        {"min": 0.99, "xmin": 1, "max": 1, "xmax": 1e-05, "big": 100.5},
        invalid("min", "a number greater than or equal to 1"),
        invalid("xmin", "a number greater than 1"),
        invalid("max", "a number less than or equal to 0.5"),
        invalid("xmax", "a number less than 1e-05"),
        invalid("big", "a number less than or equal to 100.0"),
    )
    own(backend, "Bounds", {"min": 10**30, "max": -(10**30)})


def test_a_non_finite_float_breaks_every_bound(backend: Backend) -> None:
    every = [
        invalid("all", "a number greater than or equal to 0"),
        invalid("all", "a number greater than -1"),
        invalid("all", "a number less than or equal to 10"),
        invalid("all", "a number less than 11"),
        invalid("all", "a multiple of 1"),
    ]
    for value in (float("inf"), float("-inf"), float("nan")):
        own(backend, "Bounds", {"all": value}, *every)
    own(backend, "Bounds", {"all": 10.0})
    own(backend, "Bounds", {"all": 9.5}, invalid("all", "a multiple of 1"))


def test_draft4_boolean_exclusive_bounds_are_not_interpreted(backend: Backend) -> None:
    own(backend, "Bounds", {"d4": 5})
    own(backend, "Bounds", {"d4": 9})
    own(backend, "Bounds", {"d4": 4}, invalid("d4", "a number greater than or equal to 5"))


def test_multiple_of_is_exact_decimal_arithmetic(backend: Backend) -> None:
    own(backend, "Multiple", {"tenth": 0.3, "int": 9, "half": 1.5})
    own(backend, "Multiple", {"tenth": 1e30, "int": 9.0, "half": -2})
    own(backend, "Multiple", {"tenth": 0.7, "int": 10**20 * 3, "half": 0})
    own(backend, "Multiple", {"tenth": 12391239123})
    own(
        backend,
        "Multiple",
        {"tenth": 0.35, "int": 10, "half": 0.25},
        invalid("tenth", "a multiple of 0.1"),
        invalid("int", "a multiple of 3"),
        invalid("half", "a multiple of 0.5"),
    )
    own(backend, "Multiple", {"tenth": 1e-5}, invalid("tenth", "a multiple of 0.1"))
    own(backend, "Multiple", {"int": float("inf")}, invalid("int", "a multiple of 3"))


def test_lengths_count_code_points_and_use_the_singular_for_one(backend: Backend) -> None:
    own(backend, "Lengths", {"one": "é", "onef": "😀", "two": "ab", "twof": "ab", "zero": ""})
    own(backend, "Lengths", {"two": "😀😀😀"})
    own(
        backend,
        "Lengths",
        {"one": "", "onef": "ab", "two": "abcd", "twof": "a", "zero": " "},
        invalid("one", "at least 1 character"),
        invalid("onef", "at most 1.0 character"),
        invalid("two", "at most 3 characters"),
        invalid("twof", "at least 2.0 characters"),
        invalid("zero", "at most 0 characters"),
    )
    own(backend, "Lengths", {"onef": ""}, invalid("onef", "at least 1.0 character"))


def test_array_counts_and_unique_items(backend: Backend) -> None:
    own(
        backend,
        "Items",
        {"one": [1], "few": [1, 1], "u": [1, True, "1", [1], [True], {"a": 0}, {"a": False}]},
    )
    own(
        backend,
        "Items",
        {"one": [], "few": [1, 2, 3, 4], "fu": []},
        invalid("one", "at least 1 item"),
        invalid("few", "at most 3 items"),
        invalid("fu", "at least 1.0 item"),
    )
    own(backend, "Items", {"one": [1, 2]}, invalid("one", "at most 1 item"))
    own(backend, "Items", {"few": [1]}, invalid("few", "at least 2 items"))
    own(backend, "Items", {"u": [1, 2, 1.0, 2]}, invalid("u", "unique items, but [2] repeats [0]"))
    own(
        backend,
        "Items",
        {"u": [{"a": [1]}, 0, {"a": [1.0]}]},
        invalid("u", "unique items, but [2] repeats [0]"),
    )
    own(backend, "Items", {"u": ["a", "b", "b", "a"]}, invalid("u", "unique items, but [2] repeats [1]"))
    own(backend, "Items", {"nu": [1, 1]})


def test_keywords_constrain_only_their_own_json_type(backend: Backend) -> None:
    values: tuple[Any, ...] = (True, None, {}, 5)
    for value in values:
        own(backend, "Kinds", {"n": value})
    own(backend, "Kinds", {"n": 0}, invalid("n", "a number greater than or equal to 1"))
    own(backend, "Kinds", {"n": True, "s": -5, "a": "z"})
    own(
        backend,
        "Kinds",
        {"n": "ab", "s": [1], "a": {"x": 1}},
        invalid("n", "at most 0 characters"),
        invalid("n", "a string matching the pattern ^z"),
        invalid("s", "at most 0 items"),
    )


def test_keywords_not_interpreted_never_block(backend: Backend) -> None:
    for value in ("not an email", 3, [1, 2], {"a": 1}, None, "x" * 3):
        own(backend, "NotRead", {"x": value})
    own(backend, "NotRead", {"t": [1]})  # tuple-form items is ignored, minItems is not
    own(backend, "NotRead", {"t": []}, invalid("t", "at least 1 item"))


@pytest.mark.parametrize(
    "keyword",
    [
        "patternProperties", "dependentSchemas", "dependencies", "if", "then", "else",
        "unevaluatedProperties", "$dynamicRef", "$recursiveRef", "$ref",
    ],
)  # fmt: skip
def test_open_keywords_leave_undeclared_keys_unchecked(backend: Backend, keyword: str) -> None:
    tool = f"Open {keyword}"
    x(backend, tool, {"a": "s", "zz": None, "other": [1]})
    x(backend, tool, {"a": 1, "zz": 1}, type_line("x.a", "string", "number"))
    x(backend, tool, {1: "non-str key"}, unexpected("x.1"))


def test_non_local_refs_and_open_keywords_in_any_schema_of_the_group(backend: Backend) -> None:
    own(backend, "OpenRefs", {"file": {"z": 1}, "anchor": {"z": 1}, "viaAllOf": {"z": 1}})
    own(backend, "OpenRefs", {"file": {"a": 1}}, type_line("file.a", "string", "number"))


def test_combinators_and_local_refs_no_longer_open_an_object(backend: Backend) -> None:
    own(backend, "Closed", {"allOf": {"a": "1", "b": "2"}, "anyOf": {"a": "1", "b": "2"}, "ref": {"a": "1"}})
    own(backend, "Closed", {"oneOf": {"a": "1", "b": "2"}})
    own(
        backend,
        "Closed",
        {"allOf": {"z": 1}, "anyOf": {"z": 1}, "oneOf": {"z": 1}, "ref": {"z": 1}},
        unexpected("allOf.z"),
        unexpected("anyOf.z"),
        unexpected("oneOf.z"),
        unexpected("ref.z"),
    )


# ---------- E3: references ----------


def test_pointers_are_percent_decoded_then_unescaped(backend: Backend) -> None:
    good: dict[str, Any] = {
        "pct": 1, "quote": True, "space": None, "slash": "s", "tilde": [], "both": "tilde-one",
        "index": {"any": 1}, "prop": 2, "self": {"again": {"pct": 3}},
    }  # fmt: skip
    own(backend, "Pointers", good)
    own(
        backend,
        "Pointers",
        {"pct": "1", "quote": 1, "space": 0, "slash": 1, "tilde": {}, "both": "x", "index": [], "prop": 1.5},
        type_line("pct", "integer", "string"),
        type_line("quote", "boolean", "number"),
        type_line("space", "null", "number"),
        type_line("slash", "string", "number"),
        type_line("tilde", "array", "object"),
        type_line("index", "object", "array"),
        type_line("prop", "integer", "number"),
        invalid("both", '"tilde-one"'),
    )


def test_root_pointer_recursion(backend: Backend) -> None:
    own(
        backend,
        "Pointers",
        {"self": {"again": {"self": {"again": {"pct": "no", "zz": 0}}}}},
        unexpected("self.again.self.again.zz"),
        type_line("self.again.self.again.pct", "integer", "string"),
    )


def test_siblings_of_ref_apply_too(backend: Backend) -> None:
    own(backend, "Siblings", {"x": "abc"})
    own(backend, "Siblings", {"x": "abcd"}, invalid("x", "at most 3 characters"))
    own(backend, "Siblings", {"x": "a"}, invalid("x", "at least 2 characters"))
    own(backend, "Siblings", {"x": 1}, type_line("x", "string", "number"))


def test_top_level_ref_is_a_valid_declaration(backend: Backend) -> None:
    own(backend, "TopRef", {"path": "/a", "mode": "r"})
    own(
        backend,
        "TopRef",
        {"mode": "x", "extra": 1},
        missing("path"),
        unexpected("extra"),
        invalid("mode", 'one of "r", "w"'),
    )


def tree(depth: int, leaf: Any = 0) -> dict[str, Any]:
    node: dict[str, Any] = {"value": leaf}
    for _ in range(depth):
        node = {"value": 1, "children": [node], "next": None}
    return node


def test_recursive_tree(backend: Backend) -> None:
    own(backend, "Tree", {"root": tree(3)})
    own(backend, "Tree", {"root": {"value": 1, "next": {"value": 2, "next": {"value": 3, "next": None}}}})
    own(
        backend,
        "Tree",
        {
            "root": {
                "value": 1,
                "children": [{"value": "a"}, {"children": [], "x": 1}],
                "next": {"value": 1.5},
            }
        },
        missing("root.children[1].value"),
        unexpected("root.children[1].x"),
        type_line("root.children[0].value", "integer", "string"),
        type_line("root.next.value", "integer", "number"),
    )
    own(backend, "Tree", {"root": {"value": 1, "next": 5}}, type_line("root.next", "object | null", "number"))


def test_recursive_linked_list(backend: Backend) -> None:
    cell: Any = None
    for _ in range(50):
        cell = {"next": cell}
    own(backend, "List", {"head": cell})
    own(
        backend,
        "List",
        {"head": {"next": {"next": 3}}},
        type_line("head.next.next", "object | null", "number"),
    )


# ---------- E4: the depth limit ----------


def nest(levels: int) -> Any:
    value: Any = []
    for _ in range(levels):
        value = [value]
    return value


def too_deep(path: str) -> str:
    return f"The parameter `{path}` is invalid: nested more than 256 levels deep"


def test_depth_limit_is_256_path_segments(backend: Backend) -> None:
    # {"a": nest(n)}: the innermost list's path has 1 + n segments.
    own(backend, "Deep", {"a": nest(255)})
    deep = "a" + "[0]" * 256
    own(backend, "Deep", {"a": nest(256)}, too_deep(deep))
    own(backend, "Deep", {"a": nest(300)}, too_deep(deep))
    own(
        backend,
        "Deep",
        {"a": [nest(255), nest(255)]},
        too_deep("a[0]" + "[0]" * 255),
        too_deep("a[1]" + "[0]" * 255),
    )


def test_depth_limit_through_objects_and_a_recursive_tree(backend: Backend) -> None:
    value: Any = 1
    for _ in range(255):
        value = {"k": value}
    own(backend, "DeepAny", {"a": value})  # the 1 is 1 + 255 = 256 segments deep
    own(backend, "DeepAny", {"a": {"k": value}}, too_deep("a" + ".k" * 256))
    own(backend, "Tree", {"root": tree(127)})  # 1 + 2 * 127 + 1 = 256 segments
    own(
        backend,
        "Tree",
        {"root": tree(128)},
        too_deep("root" + ".children[0]" * 128),
    )


# ---------- E4: groups and the visit ----------


def test_type_over_the_group_before_combinators_stops_the_visit(backend: Backend) -> None:
    # group of x: [x, T (number), integer branch, minLength branch]; anyOf [boolean]
    own(backend, "Group", {"x": "abcdef"}, type_line("x", "number", "string"))
    own(backend, "Group", {"x": 1.5}, type_line("x", "string", "number"))
    own(backend, "Group", {"y": None}, type_line("y", "number", "null"))
    own(backend, "Group", {"y": "s"}, type_line("y", "number", "string"))


def test_const_enum_stop_and_bounds_run_in_group_order(backend: Backend) -> None:
    # order: [S(minLength 9), Enum, {maxLength 1}, {const abc, pattern ^z}]
    own(backend, "Group", {"order": "d"}, invalid("order", '"abc"'))
    own(backend, "Group", {"order": "zz"}, invalid("order", 'one of "abc", "d"'))
    own(
        backend,
        "Group",
        {"order": "abc"},
        invalid("order", "at least 9 characters"),
        invalid("order", "at most 1 character"),
        invalid("order", "a string matching the pattern ^z"),
    )
    # bounds: [S(maxLength 1), Len(maxLength 2), {pattern ^z, minLength 5}]
    own(
        backend,
        "Group",
        {"bounds": "abc"},
        invalid("bounds", "at most 1 character"),
        invalid("bounds", "at most 2 characters"),
        invalid("bounds", "at least 5 characters"),
        invalid("bounds", "a string matching the pattern ^z"),
    )


def test_combinators_resolve_in_group_order_anyof_before_oneof(backend: Backend) -> None:
    x(backend, "CombinatorOrder", {"o": "1", "a": "2", "b": "3"})
    x(backend, "CombinatorOrder", {}, missing("x.a"), missing("x.o"), missing("x.b"))
    x(
        backend,
        "CombinatorOrder",
        {"o": 1, "a": 2, "b": 3},
        type_line("x.a", "string", "number"),
        type_line("x.o", "string", "number"),
        type_line("x.b", "string", "number"),
    )


def test_objects_over_the_group(backend: Backend) -> None:
    x(backend, "Objects", {"a": "1", "r": 0, "b": 1, "c": None, "both": "s"})
    x(
        backend,
        "Objects",
        {"both": 5, "z": 1},
        missing("x.a"),
        missing("x.r"),
        missing("x.b"),
        missing("x.c"),
        unexpected("x.z"),
        type_line("x.both", "string", "number"),
    )
    x(
        backend,
        "Objects",
        {"a": "1", "r": 0, "b": 1, "c": 0, "both": "long"},
        invalid("x.both", "at most 1 character"),
    )


def test_a_name_declared_twice_is_visited_twice_and_identical_issues_are_kept_once(backend: Backend) -> None:
    x(backend, "Twice", {"a": 1}, type_line("x.a", "string", "number"))
    x(
        backend,
        "Objects",
        {"a": "1", "r": 0, "b": 1, "c": 0, "both": 1},
        type_line("x.both", "string", "number"),
    )
    own(backend, "Dupes", {"twice": {}}, missing("twice.z"))


def test_paths_that_render_alike_stay_two_issues(backend: Backend) -> None:
    own(
        backend,
        "Dupes",
        {"a.b": 1, "a": {"b": 1}},
        type_line("a.b", "string", "number"),
        type_line("a.b", "string", "number"),
    )


def test_additional_properties_over_the_group(backend: Backend) -> None:
    own(backend, "Extras", {"anyTrue": {"anything": 1}})
    own(backend, "Extras", {"schemas": {"k": "long", "e": "1"}})
    own(
        backend,
        "Extras",
        {"schemas": {"e": 5, "f": "long"}},
        type_line("schemas.e", "string", "number"),
        invalid("schemas.f", "at most 1 character"),
    )
    own(backend, "Extras", {"strict": {"a": "1", "b": 2}}, unexpected("strict.b"))


def test_non_str_keys_are_unexpected_whatever_the_group_says(backend: Backend) -> None:
    own(
        backend,
        "Extras",
        {"free": {1: "a", "ok": 2}, "anyTrue": {(1, 2): 0}},
        unexpected("anyTrue.(1, 2)"),
        unexpected("free.1"),
    )
    own(backend, "Extras", {"schemas": {2: "x"}}, unexpected("schemas.2"))


def test_a_group_without_object_like_schemas_accepts_any_keys(backend: Backend) -> None:
    x(backend, "NotObjectLike", {"any": 1, 2: 3})
    x(backend, "NotObjectLike", "", invalid("x", "at least 1 character"))


def test_items_of_every_schema_of_the_group(backend: Backend) -> None:
    x(backend, "Arrays", [0, 1])
    x(
        backend,
        "Arrays",
        [-1, 1.5, "a"],
        type_line("x[1]", "integer", "number"),
        type_line("x[2]", "integer", "string"),
        invalid("x[0]", "a number greater than or equal to 0"),
    )


def test_issues_are_grouped_by_kind(backend: Backend) -> None:
    own(
        backend,
        "Nullable",
        {"pet": {"id": 0, "label": 1, "z": 1}, "color": "blue", "tags": [{}, {}, {}], "q": 1},
        missing("name"),
        missing("tags[0].id"),
        missing("tags[1].id"),
        missing("tags[2].id"),
        unexpected("pet.z"),
        unexpected("q"),
        type_line("pet.label", "string", "number"),
        invalid("pet.id", "a number greater than or equal to 1"),
        invalid("color", 'one of "red", "green"'),
        invalid("tags", "at most 2 items"),
    )


# ---------- E5: choosing a branch ----------


def test_discriminated_union(backend: Backend) -> None:
    x(backend, "Pet", {"kind": "cat", "lives": 9})
    x(backend, "Pet", {"kind": "dog", "bark": True})
    x(backend, "Pet", {"kind": "cat", "bark": True}, unexpected("x.bark"))
    x(backend, "Pet", {"kind": "dog", "lives": 9}, missing("x.bark"), unexpected("x.lives"))
    x(backend, "Pet", {"kind": "cow", "lives": 1}, invalid("x.kind", 'one of "cat", "dog"'))
    x(backend, "Pet", {"lives": "many"}, missing("x.kind"))
    x(backend, "Pet", "cat", type_line("x", "object", "string"))
    own(
        backend,
        "PetList",
        {"x": [{"kind": "dog", "bark": 1}, {"kind": "cat", "lives": 1.5}, {}]},
        missing("x[2].kind"),
        type_line("x[0].bark", "boolean", "number"),
        type_line("x[1].lives", "integer", "number"),
    )


def test_discriminator_tags_must_be_in_the_propertys_own_subschema_and_differ(backend: Backend) -> None:
    # tags reached through $ref do not count: closest branch instead (fewest candidates)
    own(backend, "Tags", {"via": {"t": "c", "n": 1}}, invalid("via.t", '"a"'))
    own(backend, "Tags", {"via": {"t": "c", "s": "1"}}, invalid("via.t", '"b"'))
    own(backend, "Tags", {"via": {"t": "b", "n": 1}}, invalid("via.t", '"a"'))  # 1 candidate each: the first
    # equal tags (1 and 1.0): no discriminator either
    own(backend, "Tags", {"same": {"t": 2, "s": 1}}, unexpected("same.s"), invalid("same.t", "1"))
    # P is the first qualifying name in the declared order of B1's group: b, not a
    own(backend, "Tags", {"firstName": {"a": "a2", "b": "b9"}}, invalid("firstName.b", 'one of "b1", "b2"'))
    own(backend, "Tags", {"firstName": {"a": "a9", "b": "b2"}}, invalid("firstName.a", '"a2"'))
    # a tag in an allOf branch of the branch, or in a $ref target, is still in the branch's group
    own(backend, "Tags", {"nested": {"t": 2, "v": "s"}}, type_line("nested.v", "integer", "string"))
    own(backend, "Tags", {"nested": {"t": 3}}, invalid("nested.t", "one of 1, 2"))


def test_discriminator_needs_every_branch_object_like(backend: Backend) -> None:
    own(backend, "Tags", {"mixed": {"t": "y"}}, invalid("mixed.t", '"x"'))
    own(backend, "Tags", {"mixed": "s"})


def test_type_rule(backend: Backend) -> None:
    own(backend, "Types", {"decl": "s"}, type_line("decl", "integer | boolean | null", "string"))
    own(backend, "Types", {"decl": 1.5}, type_line("decl", "integer | boolean | null", "number"))
    own(backend, "Types", {"decl": 2.0})
    own(backend, "Types", {"consts": True}, type_line("consts", "string | number | null", "boolean"))
    own(backend, "Types", {"consts": "c"}, invalid("consts", '"a"'))
    own(backend, "Types", {"consts": 3}, invalid("consts", 'one of 1, "b", null, 2'))
    own(backend, "Types", {"every": True})  # the second branch admits every type, and accepts
    # "every type" admits a value of no JSON type too (our reading); a declared list does not
    own(backend, "Types", {"every": (1, 2)})
    own(backend, "Types", {"decl": (1, 2)}, type_line("decl", "integer | boolean | null", "tuple"))
    own(backend, "Types", {"every": 1}, invalid("every", "a number greater than or equal to 3"))
    own(backend, "Types", {"int": 1.5}, type_line("int", "integer | string", "number"))
    # Ti is the first schema of the branch's group that declares a type: null, not string
    own(backend, "Types", {"first": 1}, type_line("first", "null | array", "number"))
    own(backend, "Types", {"first": "s"}, type_line("first", "null | array", "string"))
    # selected (it admits null), the branch's group also says string: step 1 answers
    own(backend, "Types", {"first": None}, type_line("first", "string", "null"))
    own(backend, "Types", {"first": []})
    # Ti is read from the branch's own group, not from what its combinators select
    own(backend, "Types", {"own": 1}, type_line("own", "string", "number"))


def test_closest_branch_fewest_candidates_first_on_ties(backend: Backend) -> None:
    own(backend, "Closest", {"x": "abc"}, invalid("x", "at most 1 character"))  # 2, 1, 1
    own(
        backend,
        "Closest",
        {"x": "zzzz"},
        invalid("x", "at least 5 characters"),
    )  # 1, 1, 1: the first
    own(backend, "Closest", {"o": {"a": 1}}, missing("o.b"))
    own(backend, "Closest", {"o": {"c": 1}}, type_line("o.c", "string", "number"))
    own(backend, "Closest", {"o": {}}, missing("o.c"))
    own(
        backend,
        "Closest",
        {"o": {"a": "1", "b": "2", "c": 3}},
        unexpected("o.c"),
        type_line("o.a", "integer", "string"),
        type_line("o.b", "integer", "string"),
    )  # 3 candidates each: the first


def test_names_of_later_combinators_count_as_declared_while_weighing(backend: Backend) -> None:
    x(backend, "Later", {"b": "1", "d": "2"})
    x(backend, "Later", {"b": "1", "d": "2", "e": {"f": "3"}})
    x(backend, "Later", {"b": 1, "c": "2"}, type_line("x.b", "string", "number"))
    x(backend, "Later", {"a": "1", "f": "2", "d": "3"}, unexpected("x.f"))
    x(backend, "Later", {"z": 1}, missing("x.a"), missing("x.c"), unexpected("x.z"))


def test_the_choice_is_greedy(backend: Backend) -> None:
    x(backend, "Greedy", "ab")
    x(backend, "Greedy", "a", invalid("x", "at least 2 characters"))


def test_no_branch_selected_the_branches_names_count_as_declared(backend: Backend) -> None:
    x(
        backend,
        "NoBranch",
        {"t": 3, "p": 1, "q": 1, "k": 1, "z": 1},
        unexpected("x.z"),
        type_line("x.k", "string", "number"),
        invalid("x.t", "one of 1, 2"),
    )
    x(backend, "NoBranch", {"p": "1"}, missing("x.t"))
    x(backend, "NoBranch", {"t": 1, "q": "s"}, unexpected("x.q"))
    # `deep` is declared only by a combinator nested in a branch: declared too, and not visited
    x(backend, "NoBranchNested", {"t": 5, "deep": 1}, invalid("x.t", "one of 1, 2"))
    x(
        backend,
        "NoBranchNested",
        {"t": 5, "deep": 1, "z": 0},
        unexpected("x.z"),
        invalid("x.t", "one of 1, 2"),
    )
    x(backend, "NoBranchNested", {"t": 1, "deep": 1}, type_line("x.deep", "string", "number"))


def test_nullable_enum_ref_nested_model_list_of_models(backend: Backend) -> None:
    good = {"name": None, "pet": {"id": 1, "label": "cat"}, "color": "red", "tags": [{"id": 2}]}
    own(backend, "Nullable", good)
    own(backend, "Nullable", {"name": "n", "pet": None})
    own(
        backend,
        "Nullable",
        {"name": 5, "pet": "rex", "color": 1, "tags": [{"id": 1, "label": "long"}]},
        type_line("name", "string | null", "number"),
        type_line("pet", "object | null", "string"),
        type_line("color", "string", "number"),
        invalid("tags[0].label", "at most 3 characters"),
    )


# ---------- E6: patterns ----------


def test_patterns_have_ecma_meanings_and_match_anywhere(backend: Backend) -> None:
    good = {
        "any": "abbc", "digit": "0123", "word": "a_Z9", "space": "\u2028", "dot": "😀", "end": "a",
        "edge": "a cat!", "dash": "a--", "astral": "😀", "look": "abz",
    }  # fmt: skip
    own(backend, "Pattern", good)
    own(backend, "Pattern", {"space": "\ufeff", "dash": "a-x", "look": "ab"})
    bad = {
        "any": "ac", "digit": "١٢", "word": "é", "space": "\u200b", "dot": "\n", "end": "a\n",
        "edge": "cats", "dash": "a\\-", "astral": "😀😀", "look": "noa",
    }  # fmt: skip
    lines = [
        invalid(k, f"a string matching the pattern {TOOLS['Pattern']['properties'][k]['pattern']}")
        for k in bad
    ]
    own(backend, "Pattern", bad, *lines)
    own(
        backend,
        "Pattern",
        {"look": "abcz"},
        invalid("look", "a string matching the pattern ^(?!no)(?:[a-c]|z){2,3}?$"),
    )


def test_patterns_outside_e6_are_not_enforced(backend: Backend) -> None:
    own(
        backend,
        "Pattern",
        {"backref": "b", "named": "b", "behind": "b", "prop": "1", "brace": "b", "lone": "b"},
    )


def test_the_e6_syntax_recogniser() -> None:
    inside = ["a", "\\\\\\/\\^\\$\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\-", "\\t\\n\\r\\f\\v\\0",
              "\\x41\\u0041\\u{1F600}", "[^a-z\\d\\-\\]]", "^(?:a|b)+?$", "(?=a)(?!b)\\b\\B",
              "a{2}b{2,}c{2,3}?", ".*", "[]", "[^]", "[-a-]"]  # fmt: skip
    outside = ["(a)\\1", "(?<n>a)", "(?<=a)", "(?<!a)", "\\p{L}", "\\cA", "(?i)a", "]", "{", "}", "a{,3}",
               "[\\b]", "\\01", "(?=a)*", "[\\d-z]", "\\a", "\\k<n>"]  # fmt: skip
    assert [p for p in inside if reference.ecma_pattern(p) is None] == []
    assert [p for p in outside if reference.ecma_pattern(p) is not None] == []
    assert reference.e6_syntax("a\\-[\\-]") == "a-[\\-]"


def test_the_pattern_hook_decides_what_is_interpreted() -> None:
    parameters = TOOLS["Pattern"]
    assert reference.issues(parameters, {"any": "x"}, EXTENDED, patterns=lambda p: None) == []
    found = reference.issues(parameters, {"backref": "x"}, EXTENDED, patterns=lambda p: lambda s: False)
    assert found == [("invalid", "backref", invalid("backref", "a string matching the pattern (a)\\1"))]


def test_mode_keywords() -> None:
    assert EXTENDED.interpreted == {
        "type", "required", "enum", "properties", "additionalProperties", "items", "$ref", "$defs",
        "definitions", "allOf", "anyOf", "oneOf", "const", "minimum", "exclusiveMinimum", "maximum",
        "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems",
        "uniqueItems",
    }  # fmt: skip
    assert not set(reference.NOT_INTERPRETED) & EXTENDED.interpreted


def test_whole_input_not_a_dict(backend: Backend) -> None:
    assert check(backend, "Table", [1]) == (
        "Table failed due to the following issue:\n"
        "The tool input type is expected as `object` but provided as `array`"
    )
