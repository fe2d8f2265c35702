"""Reading a call's arguments by name only.

Handlers go through these helpers, never iterate over the arguments: every key a handler
reads is then one it asks for by name, which the tests check against the declaration.
"""

from __future__ import annotations

from collections.abc import Mapping


def text(args: Mapping[str, object], key: str) -> str:
    """A required string (the validator has already made sure it is there)."""
    value = args[key]
    if not isinstance(value, str):
        raise TypeError(f"`{key}` must be a string, not {type(value).__name__}")
    return value


def optional_text(args: Mapping[str, object], key: str) -> str | None:
    value = args.get(key)
    return value if isinstance(value, str) else None


def optional_texts(args: Mapping[str, object], key: str) -> list[str]:
    value = args.get(key)
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def optional_object(args: Mapping[str, object], key: str) -> dict[str, object]:
    value = args.get(key)
    return dict(value) if isinstance(value, dict) else {}


def flag(args: Mapping[str, object], key: str) -> bool:
    return args.get(key) is True


class BadArgument(ValueError):
    """An argument the declaration admits but the tool cannot use (its message says why)."""


def whole_number(args: Mapping[str, object], key: str) -> int | None:
    """An optional JSON number that must be whole; None when absent."""
    value = args.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadArgument(f"`{key}` must be a number")
    if isinstance(value, float) and not value.is_integer():
        raise BadArgument(f"`{key}` must be a whole number, not {value!r}")
    return int(value)
