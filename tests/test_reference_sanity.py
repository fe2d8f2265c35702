"""The reference interpreter agrees with the spec's own worked example (section 6)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.reference import message

ROOT = Path(__file__).resolve().parent.parent


def test_reference_reproduces_spec_example() -> None:
    declaration = json.loads((ROOT / "tool_schemas" / "TaskUpdate.json").read_text("utf-8"))
    parameters = declaration["function"]["parameters"]
    assert message("TaskUpdate", parameters, {"id": "2", "status": "done", "owner": 3}) == (
        "TaskUpdate failed due to the following issues:\n"
        "The required parameter `taskId` is missing\n"
        "An unexpected parameter `id` was provided\n"
        "The parameter `owner` type is expected as `string` but provided as `number`\n"
        'The parameter `status` is invalid: expected one of "pending", "in_progress", "completed", "deleted"'
    )
