"""Benchmark calls for every built-in tool, synthesised from its own declaration.

Four calls a tool: valid with the required fields and at most one optional one ("few"),
valid with every declared field ("all"), invalid with exactly one issue ("one") and invalid
with several issues of different kinds ("several"). Values are realistic for the property
they fill (a path for `file_path`, a shell line for `command`), so string lengths and dict
sizes look like real agent traffic.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KINDS = ("few", "all", "one", "several")
VALID_KINDS = ("few", "all")

# Realistic strings for the property names the built-in tools use; anything else gets a
# plain sentence.
_TEXT: dict[str, str] = {
    "file_path": "/home/dev/project/src/services/billing/invoice.py",
    "filePath": "/home/dev/project/src/app.ts",
    "path": "/home/dev/project/src",
    "command": "git status --short && pytest -q tests/test_invoice.py",
    "pattern": "def (create|update)_invoice",
    "glob": "**/*.py",
    "old_string": "total = sum(line.amount for line in lines)",
    "new_string": "total = sum((line.amount for line in lines), Decimal(0))",
    "content": "from decimal import Decimal\n\n\ndef total(lines):\n    return sum(lines, Decimal(0))\n",
    "url": "https://docs.python.org/3/library/decimal.html",
    "prompt": "Summarise the rounding modes and say which one banks use.",
    "cron": "*/15 * * * *",
    "taskId": "7",
    "task_id": "task_01HZX3",
    "id": "cron_42",
    "subject": "Fix invoice rounding",
    "activeForm": "Fixing invoice rounding",
    "owner": "agent-2",
    "question": "Which database should the service use?",
    "header": "Database",
    "label": "PostgreSQL",
    "skill_name": "pdf",
    "type": "py",
    "name": "feature-rounding",
    "subagent_type": "general-purpose",
}


@dataclass(frozen=True)
class Case:
    tool: str
    kind: str  # one of KINDS
    args: dict[str, Any]

    @property
    def valid(self) -> bool:
        return self.kind in VALID_KINDS


def load_declarations(schemas_dir: Path) -> dict[str, dict[str, Any]]:
    """Tool name -> its `parameters` schema, in file-name order."""
    tools: dict[str, dict[str, Any]] = {}
    for file in sorted(schemas_dir.glob("*.json")):
        function = json.loads(file.read_text(encoding="utf-8"))["function"]
        tools[function["name"]] = function.get("parameters", {"type": "object", "properties": {}})
    return tools


def _types(schema: dict[str, Any]) -> list[str]:
    declared = schema.get("type", [])
    return [declared] if isinstance(declared, str) else list(declared)


def sample(schema: Any, name: str, full: bool) -> Any:
    """A realistic valid value for `schema` (the property is called `name`)."""
    if not isinstance(schema, dict):
        return {"mode": "fast", "limit": 3}
    if "enum" in schema:
        members = schema["enum"]
        return members[len(members) // 2]
    types = _types(schema)
    kind = types[0] if types else ("object" if "properties" in schema else "any")
    if kind == "string":
        return _TEXT.get(name, f"Details about {name} for the current task.")
    if kind in ("number", "integer"):
        return 2000 if "limit" in name or "timeout" in name else 20
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    if kind == "array":
        return [sample(schema.get("items", {}), name, full) for _ in range(2)]
    if kind == "object":
        return sample_object(schema, full)
    return {"mode": "fast", "limit": 3}


def sample_object(schema: dict[str, Any], full: bool) -> dict[str, Any]:
    properties: dict[str, Any] = schema.get("properties", {})
    required: list[str] = schema.get("required", [])
    extra = schema.get("additionalProperties", False)
    if not properties and not required:
        if extra is True:
            return {"source": "cli", "priority": 2}
        if isinstance(extra, dict):
            return {"q1": sample(extra, "answer", full), "q2": sample(extra, "answer", full)}
        return {}
    value: dict[str, Any] = {}
    optional_used = 0
    for name, sub in properties.items():
        if name in required or full or optional_used < 1:
            optional_used += name not in required
            value[name] = sample(sub, name, full)
    for name in required:
        value.setdefault(name, "declared without a schema")
    return value


def _wrong(schema: Any) -> Any:
    """A value of the wrong JSON type for `schema`, or None when every type is allowed."""
    types = _types(schema) if isinstance(schema, dict) else []
    if not types:
        return None
    return 3 if "number" not in types and "integer" not in types else "3"


def invalid_one(schema: dict[str, Any]) -> dict[str, Any]:
    """The "few" call with exactly one issue: a wrong type when one can be had, else an extra key."""
    args = sample_object(schema, full=False)
    for name in list(args):
        wrong = _wrong(schema.get("properties", {}).get(name))
        if wrong is not None:
            args[name] = wrong
            return args
    args["verbose"] = True
    return args


def invalid_several(schema: dict[str, Any]) -> dict[str, Any]:
    """The "all" call with a missing, an unexpected, a wrong-typed and (if any) a non-member value."""
    properties: dict[str, Any] = schema.get("properties", {})
    args = sample_object(schema, full=True)
    required = schema.get("required", [])
    if required:
        del args[required[0]]
    args["verbose"] = True
    args["retries"] = 3
    for name in list(args):
        sub = properties.get(name)
        wrong = _wrong(sub)
        if wrong is not None and not (isinstance(sub, dict) and "enum" in sub):
            args[name] = wrong
            break
    for name, sub in properties.items():
        if isinstance(sub, dict) and "enum" in sub and name in args:
            args[name] = "bogus"
            break
    return args


def build_cases(tools: dict[str, dict[str, Any]]) -> list[Case]:
    cases: list[Case] = []
    for tool, schema in tools.items():
        cases.append(Case(tool, "few", sample_object(schema, full=False)))
        cases.append(Case(tool, "all", sample_object(schema, full=True)))
        cases.append(Case(tool, "one", invalid_one(schema)))
        cases.append(Case(tool, "several", invalid_several(schema)))
    return cases
