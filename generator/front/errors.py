"""Refusals and warnings about declarations, always naming the file and a JSON pointer.

Both are structured: a `kind` a program can match on, and the reason a person reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar, get_args


class DeclarationError(Exception):
    """A declaration the generator refuses (docs/spec/validation.md §7): exit status 2, nothing written."""

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


# The kinds of Notice (§7, "Warn"): what `--allow` names, in this order.
NoticeKind = Literal[
    "not-enforced",  # keywords not enforced (E2's list, a non-local $ref, ...)
    "unchecked-keys",  # undeclared keys unchecked because of an open keyword
    "accepts-only-empty",  # an object-like value with nothing declared
    "required-without-schema",
    "boolean-subschema",
    "one-of",  # oneOf's exactly-one rule is not enforced
    "nested-quantifier",  # an enforced pattern whose matching time can explode
    "unsatisfiable",  # bounds no value of their type can meet
]
# The kinds of the schema graph's own warnings (generator/front/schema_graph.py), one per NoticeKind.
WarningKind = Literal[
    "not_interpreted",
    "keys_unchecked",
    "accepts_only_empty",
    "required_without_property",
    "boolean_subschema",
    "one_of",
    "nested_quantifier",
    "unsatisfiable",
]
# The notice kind each schema graph warning is reported as (generator/front/check.py).
NOTICE_KINDS: dict[WarningKind, NoticeKind] = dict(
    zip(get_args(WarningKind), get_args(NoticeKind), strict=True)
)
NOT_ENFORCED: NoticeKind = "not-enforced"

# A Notice's kind: a NoticeKind as reported, a WarningKind in the schema graph's own list.
KindT = TypeVar("KindT", NoticeKind, WarningKind)


@dataclass(frozen=True)
class Notice(Generic[KindT]):
    """Something legal but suspicious in a declaration (a warning); an error under --strict."""

    file: str
    pointer: str
    kind: KindT
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
