"""Refusals and warnings about declarations, always naming the file and a JSON pointer."""

from __future__ import annotations

from dataclasses import dataclass


class DeclarationError(Exception):
    """A declaration the generator refuses (spec section 7): exit status 2, nothing written."""

    def __init__(self, file: str, pointer: str, reason: str) -> None:
        super().__init__(f"{file}: {pointer or '/'}: {reason}")
        self.file = file
        self.pointer = pointer
        self.reason = reason


@dataclass(frozen=True)
class Warning:
    """Something legal but suspicious in a declaration; an error under --strict."""

    file: str
    pointer: str
    reason: str

    def __str__(self) -> str:
        return f"warning: {self.file}: {self.pointer or '/'}: {self.reason}"


def pointer_join(pointer: str, token: str | int) -> str:
    """Append one RFC 6901 reference token to a JSON pointer."""
    text = str(token).replace("~", "~0").replace("/", "~1")
    return f"{pointer}/{text}"
