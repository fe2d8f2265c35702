"""Does a declaration qualify, as written, for OpenAI strict mode? (`responses_tools()`'s `strict`)

OpenAI strict mode ("Structured Outputs" for function calls) accepts a subset of JSON Schema:
every object lists all its properties as required and sets additionalProperties to false,
only these keywords appear, and the schema is at most 10 objects deep with at most 5,000
properties and 1,000 enum values in all. Declarations are never rewritten to fit (making an
optional parameter required-and-nullable would change what is validated), so a tool outside
the subset is offered with strict false and checked by its generated validator instead.
"""

from __future__ import annotations

from typing import Any

STRICT_KEYWORDS = frozenset(
    {
        "type", "description", "title", "enum", "const", "anyOf",
        "properties", "required", "additionalProperties", "items",
        "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "multipleOf", "minItems", "maxItems",
    }
)  # fmt: skip
STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
MAX_DEPTH, MAX_PROPERTIES, MAX_ENUM_VALUES = 10, 5000, 1000


def qualifies(parameters: dict[str, Any]) -> bool:
    counts = [0, 0]  # properties, enum values
    ok = parameters.get("type") == "object" and _schema(parameters, 1, counts)
    return ok and counts[0] <= MAX_PROPERTIES and counts[1] <= MAX_ENUM_VALUES


def _schema(schema: Any, depth: int, counts: list[int]) -> bool:
    if not isinstance(schema, dict) or not STRICT_KEYWORDS.issuperset(schema):
        return False
    if "format" in schema and schema["format"] not in STRICT_FORMATS:
        return False
    if isinstance(schema.get("enum"), list):
        counts[1] += len(schema["enum"])
    kinds = schema.get("type")
    if kinds == "object" or (isinstance(kinds, list) and "object" in kinds) or "properties" in schema:
        properties = schema.get("properties", {})
        if (
            depth > MAX_DEPTH
            or not isinstance(properties, dict)
            or schema.get("additionalProperties") is not False
            or sorted(schema.get("required", [])) != sorted(properties)
        ):
            return False
        counts[0] += len(properties)
        if not all(_schema(member, depth + 1, counts) for member in properties.values()):
            return False
    items_ok = "items" not in schema or _schema(schema["items"], depth, counts)
    return items_ok and all(_schema(member, depth, counts) for member in schema.get("anyOf", []))

