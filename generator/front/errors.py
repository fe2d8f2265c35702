"""Refusals and warnings about declarations, always naming the file and a JSON pointer.

Both are structured: a `kind` a program can match on, and the reason a person reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class DeclarationError(Exception):
    """A declaration the generator refuses (spec section 7): exit status 2, nothing written."""

    def __init__(self, file: str, pointer: str, reason: str, tool: str = "") -> None:
        super().__init__(f"{file}: {_tool(tool)}{pointer or '/'}: {reason}")
        self.file = file
        self.pointer = pointer
        self.reason = reason
        self.tool = tool  # named in the text when the file holds many tools

    def of_tool(self, tool: str) -> DeclarationError:
        """The same refusal, naming the tool it is about (a tool of a many-tools file)."""
        if self.tool or type(self) is not DeclarationError:
            return self
        return DeclarationError(self.file, self.pointer, self.reason, tool)

    @property
    def refusals(self) -> tuple[DeclarationError, ...]:
        """Every refusal this error stands for (see Refusals)."""
        return (self,)


class Refusals(DeclarationError):
    """Several refusals of one run, in file order: the user fixes them all in one pass.

    A DeclarationError itself (file, pointer and reason are the first refusal's), so code
    that expects one refusal keeps working; its text is one refusal a line."""

    def __init__(self, refusals: Sequence[DeclarationError]) -> None:
        first = refusals[0]
        super().__init__(first.file, first.pointer, first.reason)
        self._all = tuple(r for refusal in refusals for r in refusal.refusals)
        self.args = ("\n".join(str(r) for r in self._all),)

    @property
    def refusals(self) -> tuple[DeclarationError, ...]:
        return self._all


# The kinds of Notice (spec section 7, "Warn"), by the kind of the schema graph's warning
# (generator/front/schema_graph.py) it reports: what `--allow` names, in this order.
NOTICE_KINDS = {
    "not_interpreted": "not-enforced",  # keywords not enforced (E2's list, a non-local $ref, ...)
    "keys_unchecked": "unchecked-keys",  # undeclared keys unchecked because of an open keyword
    "accepts_only_empty": "accepts-only-empty",  # an object-like value with nothing declared
    "required_without_property": "required-without-schema",
    "boolean_subschema": "boolean-subschema",
    "one_of": "one-of",  # oneOf's exactly-one rule is not enforced
    "nested_quantifier": "nested-quantifier",  # an enforced pattern whose matching time can explode
    "unsatisfiable": "unsatisfiable",  # bounds no value of their type can meet
}
NOT_ENFORCED = NOTICE_KINDS["not_interpreted"]


@dataclass(frozen=True)
class Notice:
    """Something legal but suspicious in a declaration (a warning); an error under --strict."""

    file: str
    pointer: str
    kind: str  # one of NOTICE_KINDS' values (its keys in the schema graph's own warnings)
    reason: str
    # For a not-enforced notice, every keyword it lists: `--allow` judges a notice by them.
    keywords: tuple[str, ...] = ()
    tool: str = ""  # named in the text when the file holds many tools

    def __str__(self) -> str:
        return f"warning: {self.file}: {_tool(self.tool)}{self.pointer or '/'}: {self.reason}"


@dataclass(frozen=True)
class NotEnforced:
    """Keywords declared at one schema (its JSON pointer) that its vocabulary does not enforce:
    found by the check (generator/front/check.py), carried by the IR to the module's docstring."""

    pointer: str
    keywords: tuple[str, ...]


def _tool(name: str) -> str:
    return f"tool {name}: " if name else ""


def pointer_join(pointer: str, token: str | int) -> str:
    """Append one RFC 6901 reference token to a JSON pointer."""
    text = str(token).replace("~", "~0").replace("/", "~1")
    return f"{pointer}/{text}"
