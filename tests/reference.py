"""A reference interpreter of spec sections 3-6, written only for tests.

It reads a schema at run time, exactly what the product never does, so that the generated
validators can be cross-checked against an independent, obviously-correct reading of the
spec on thousands of random schemas and inputs.
"""

from __future__ import annotations

import json
from typing import Any

KIND_ORDER = ("missing", "unexpected", "type", "invalid")
OPENING = {
    "patternProperties", "allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "$recursiveRef",
    "dependentSchemas", "dependencies", "if", "then", "else", "unevaluatedProperties",
}  # fmt: skip


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    return type(value).__name__


def satisfies(value: Any, name: str) -> bool:
    actual = json_type(value)
    if name == "integer":
        return actual == "number" and (isinstance(value, int) or float(value).is_integer())
    return actual == name


def json_equal(a: Any, b: Any) -> bool:
    if json_type(a) != json_type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _join(path: str | None, segment: str) -> str:
    # None is the top level: a property named "" below it renders as "", and "" + "a" as ".a".
    return segment if path is None else f"{path}.{segment}"


def _as_schema(schema: Any) -> dict[str, Any]:
    return {} if isinstance(schema, bool) else schema


def visit(schema: Any, value: Any, path: str | None, out: list[tuple[str, str, str]]) -> None:
    schema = _as_schema(schema)
    here = "" if path is None else path
    if "type" in schema:
        names = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        if not any(satisfies(value, n) for n in names):
            line = (
                f"The parameter `{here}` type is expected as `{' | '.join(names)}` "
                f"but provided as `{json_type(value)}`"
            )
            out.append(("type", here, line))
            return
    if "enum" in schema and not any(json_equal(value, m) for m in schema["enum"]):
        members = ", ".join(_compact(m) for m in schema["enum"])
        out.append(("invalid", here, f"The parameter `{here}` is invalid: expected one of {members}"))
        return
    object_like = any(k in schema for k in ("properties", "required", "additionalProperties")) or (
        "object" in ([schema["type"]] if isinstance(schema.get("type"), str) else schema.get("type", []))
    )
    if isinstance(value, dict) and object_like:
        properties = schema.get("properties", {})
        required = schema.get("required", [])
        for name in required:
            if name not in value:
                p = _join(path, name)
                out.append(("missing", p, f"The required parameter `{p}` is missing"))
        for name, sub in properties.items():
            if name in value:
                visit(sub, value[name], _join(path, name), out)
        if not any(k in schema for k in OPENING):
            extra = schema.get("additionalProperties", False)
            for key in value:
                if key in properties or key in required:
                    continue
                p = _join(path, key if isinstance(key, str) else str(key))
                # validation.md §3: a key that is not a str is unexpected, never checked
                # against a value schema (an `additionalProperties: true` map does not look).
                if extra is False or (isinstance(extra, dict) and not isinstance(key, str)):
                    out.append(("unexpected", p, f"An unexpected parameter `{p}` was provided"))
                elif isinstance(extra, dict):
                    visit(extra, value[key], p, out)
    if isinstance(value, list) and isinstance(schema.get("items"), (dict, bool)):
        for i, element in enumerate(value):
            visit(schema["items"], element, f"{here}[{i}]", out)


def issues(parameters: dict[str, Any], args: Any) -> list[tuple[str, str, str]]:
    """(kind, path, line) per issue, grouped by kind in spec order."""
    if not isinstance(args, dict):
        line = f"The tool input type is expected as `object` but provided as `{json_type(args)}`"
        return [("type", "", line)]
    out: list[tuple[str, str, str]] = []
    visit(parameters, args, None, out)
    return sorted(out, key=lambda issue: KIND_ORDER.index(issue[0]))


def message(tool: str, parameters: dict[str, Any], args: Any) -> str | None:
    found = issues(parameters, args)
    if not found:
        return None
    noun = "issue" if len(found) == 1 else "issues"
    return "\n".join([f"{tool} failed due to the following {noun}:", *(line for _, _, line in found)])
