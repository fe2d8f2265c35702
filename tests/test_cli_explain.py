"""`toolgen explain TOOL`: the parameter table and what is declared but not enforced, with why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.toolgen_cli import invoke, run_process

ASK_USER_QUESTION = """\
AskUserQuestion  (tool_schemas/AskUserQuestion.json, module ask_user_question_7aca79e9.py)

parameter                          type     required  enum
questions                          array    yes
questions[]                        object
questions[].question               string   yes
questions[].header                 string   yes
questions[].options                array    yes
questions[].options[]              object
questions[].options[].label        string   yes
questions[].options[].description  string
questions[].multiSelect            boolean
answers                            object
answers.*                          string
metadata                           object
metadata.source                    string
metadata.*                         string
other top-level parameters: rejected

declared but not enforced (never blocks a call):
  questions                maxItems: 4  (array sizes and contents beyond `items` are not checked)
  questions                minItems: 1  (array sizes and contents beyond `items` are not checked)
  questions[].header       maxLength: 12  (string lengths are not checked)
  questions[].options      maxItems: 4  (array sizes and contents beyond `items` are not checked)
  questions[].options      minItems: 2  (array sizes and contents beyond `items` are not checked)
  questions[].multiSelect  default: false  (no default is filled in: arguments are never changed)
"""


def explain(*args: str) -> Any:
    return invoke("explain", *args)


def test_table_and_not_enforced_list_of_a_real_tool() -> None:
    result = explain("AskUserQuestion")
    assert (result.exit_code, result.stdout) == (0, ASK_USER_QUESTION)


def test_enum_column_and_nothing_unenforced() -> None:
    lines = explain("TaskUpdate").stdout.splitlines()
    status = next(line for line in lines if line.startswith("status "))
    assert status.split(None, 2) == ["status", "string", '"pending", "in_progress", "completed", "deleted"']
    assert lines[-1] == "declared but not enforced: nothing"
    assert explain("CronList").stdout.splitlines()[2] == "(no parameters)"


def test_opening_keywords_required_only_names_and_tuple_items(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "date-time", "pattern": "^2"},
            "pair": {"type": "array", "items": [{"type": "string"}], "minItems": 2},
            "filter": {
                "type": "object",
                "properties": {"a": {"const": 1}},
                "required": ["a"],
                "anyOf": [{"required": ["a"]}],
            },
        },
        "required": ["when", "ghost"],
    }
    (tmp_path / "odd.json").write_text(json.dumps({"name": "Odd", "inputSchema": schema}), "utf-8")
    result = explain("Odd", "--schemas", str(tmp_path))
    assert result.exit_code == 0
    assert result.stdout.split("\n\n", 1)[1] == (
        "parameter  type             required  enum\n"
        "when       string           yes\n"
        "pair       array\n"
        "filter     object\n"
        "filter.a   any              yes\n"
        "filter.*   any (unchecked)\n"
        "ghost      any              yes\n"
        "other top-level parameters: rejected\n"
        "\n"
        "declared but not enforced (never blocks a call):\n"
        '  when      format: "date-time"  (string formats and patterns are not checked)\n'
        '  when      pattern: "^2"  (string formats and patterns are not checked)\n'
        "  pair      minItems: 2  (array sizes and contents beyond `items` are not checked)\n"
        "  pair[]    items (tuple form)  (tuple-form items are not interpreted)\n"
        '  filter    anyOf: [{"required": ["a"]}]  (combinators and references are not interpreted)\n'
        "  filter.a  const: 1  (const is not checked (a one-member enum is))\n"
        "\n"
        "notes:\n"
        '  (top level): "ghost" is required but has no property schema\n'
        "  filter: undeclared keys go unchecked because of anyOf\n"
    )


def test_unknown_tool_suggests_close_names() -> None:
    result = explain("TaskUpdat")
    assert (result.exit_code, result.stderr) == (
        2,
        "error: no tool named 'TaskUpdat' in tool_schemas; did you mean TaskUpdate, TaskCreate, TaskGet?\n",
    )


def test_explain_in_a_real_process() -> None:
    done = run_process("explain", "AskUserQuestion")
    assert (done.returncode, done.stdout, done.stderr) == (0, ASK_USER_QUESTION, "")


def test_a_group_accepts_other_keys_when_any_of_its_schemas_does(tmp_path: Path) -> None:
    # docs/spec/extended.md E4 4c: additionalProperties true in one allOf branch admits undeclared
    # keys for the group.
    branches = [{"properties": {"a": {"type": "string"}}}, {"additionalProperties": True}]
    schema = {"type": "object", "allOf": branches}
    (tmp_path / "g.json").write_text(json.dumps({"name": "G", "inputSchema": schema}), "utf-8")
    result = explain("G", "--keywords", "extended", "--schemas", str(tmp_path))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[3:6] == [
        "parameter  type    required  enum / const  bounds and branches",
        "a          string",
        "other top-level parameters: accepted",
    ]
