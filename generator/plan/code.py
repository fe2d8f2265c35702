"""The code model: conditions and statements the planner decides, as data, in no language.

The planner (generator/plan/fast.py, `fast_code`) builds what a validator tests and in which
order from these frozen dataclasses; a renderer of the emit stage turns them into one
language's text (generator/emit/python.py). Precedence is the renderer's business and is
decided from the structure, never by reading text back: an `Or` inside an `And` is grouped
because it is an `Or`, not because its text contains " or ".

Nothing here names a Python construct: a type test names JSON types, a bound is a comparison
with a declared value, a helper is called by the name the planner gave it, and `Infinity`
is the language's own. Declared values are `Value`s and `ConstSet`s, which a renderer writes
through its literal function only (for Python, `py_literal`: every user string through repr).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

# ---------- expressions ----------

# A comparison operator, as in a chained comparison `k <= x < y`.
CompareOp = Literal["==", "!=", "<", "<=", ">", ">=", "is", "is not", "in", "not in"]
ArithOp = Literal["%", "+"]


@dataclass(frozen=True)
class Var:
    """A name the generator made: a variable, a constant, a function (never a user string)."""

    name: str


@dataclass(frozen=True)
class Value:
    """A value taken from a declaration, written as a literal of the target language."""

    value: Any


@dataclass(frozen=True)
class ConstSet:
    """A set of declared constants, written in place (`x in {...}`); `lines`: one a line."""

    members: tuple[Any, ...]
    lines: bool = False


@dataclass(frozen=True)
class Nothing:
    """The absent value (JSON null)."""


@dataclass(frozen=True)
class Infinity:
    """Positive (or, `negative`, negative) infinity: bounds a float so that it is finite."""

    negative: bool = False


@dataclass(frozen=True)
class TypeTest:
    """True when `subject` has one of the JSON type `names` (an integer is a number too)."""

    subject: Expr
    names: tuple[str, ...]


@dataclass(frozen=True)
class Compare:
    """`left op1 right1 op2 right2 ...`: a chain, each comparison with the operand before it."""

    left: Expr
    ops: tuple[tuple[CompareOp, Expr], ...]


@dataclass(frozen=True)
class Length:
    """The number of characters, elements or members of `subject`; with `of` (a JSON type),
    counted by that type's own method, which a subclass of the value's type cannot override."""

    subject: Expr
    of: str = ""


@dataclass(frozen=True)
class PlainText:
    """The text a string `subject` holds, read without running any method of its own (a
    subclass of the language's string type may override them)."""

    subject: Expr


@dataclass(frozen=True)
class Call:
    """A call of a function the generator named (a helper, or a support function)."""

    function: str
    args: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Matches:
    """True when the compiled pattern constant `pattern` finds a match in `subject`."""

    pattern: str
    subject: Expr


@dataclass(frozen=True)
class Item:
    """Member `key` of the object `subject`: `present` when it is known to be there."""

    subject: Expr
    key: Expr
    present: bool = True


@dataclass(frozen=True)
class Arith:
    left: Expr
    op: ArithOp
    right: Expr


@dataclass(frozen=True)
class Choose:
    """`then` where `test` holds, else `otherwise` (a conditional expression); `grouped`: read
    as one value, in its own parentheses wherever it stands."""

    test: Expr
    then: Expr
    otherwise: Expr
    grouped: bool = False


@dataclass(frozen=True)
class IsInt:
    """True when `subject` is an integer in the language's own integer type (not a float)."""

    subject: Expr


@dataclass(frozen=True)
class Bind:
    """`value`, also kept in the variable `name` for the statements after the test."""

    name: str
    value: Expr


@dataclass(frozen=True)
class And:
    parts: tuple[Expr, ...]


@dataclass(frozen=True)
class Or:
    """Either of `parts`; `grouped`: each part that has an `and` is parenthesised, so that a
    union of alternatives reads as one alternative a group (`(a and b) or c`)."""

    parts: tuple[Expr, ...]
    grouped: bool = False


@dataclass(frozen=True)
class Not:
    operand: Expr


Expr = (
    Var | Value | ConstSet | Nothing | Infinity | TypeTest | Compare | Length | Call | Matches | Item
    | Arith | Choose | IsInt | And | Or | Not | PlainText | Bind
)  # fmt: skip


def all_of(parts: list[Expr]) -> Expr:
    """The conjunction of `parts` (one part: itself; none: true)."""
    if not parts:
        return Value(True)
    return parts[0] if len(parts) == 1 else And(tuple(parts))


def any_of(parts: list[Expr], grouped: bool = False) -> Expr:
    """The disjunction of `parts` (one part: itself)."""
    return parts[0] if len(parts) == 1 else Or(tuple(parts), grouped)


def children(expr: Expr) -> Iterator[Expr]:
    """The expressions directly inside `expr`."""
    if isinstance(expr, (TypeTest, Length, Matches, IsInt, PlainText)):
        yield expr.subject
    elif isinstance(expr, Compare):
        yield expr.left
        yield from (right for _, right in expr.ops)
    elif isinstance(expr, Call):
        yield from expr.args
    elif isinstance(expr, Item):
        yield from (expr.subject, expr.key)
    elif isinstance(expr, Arith):
        yield from (expr.left, expr.right)
    elif isinstance(expr, Choose):
        yield from (expr.test, expr.then, expr.otherwise)
    elif isinstance(expr, (And, Or)):
        yield from expr.parts
    elif isinstance(expr, Not):
        yield expr.operand
    elif isinstance(expr, Bind):
        yield expr.value


def type_names(names: tuple[str, ...]) -> list[str]:
    """The JSON types a type test tests: `integer` goes when `number` is there (it is one)."""
    return [n for n in names if n != "integer" or "number" not in names]


def reads(expr: Expr, subject: Expr) -> int:
    """How many times `expr` reads `subject`: a value read more than once is better read once
    into a variable. A type test reads it once a type, an integer's three times (its type is
    an integer type, or a float with no fraction: JSON does not tell 1 from 1.0)."""
    if expr == subject:
        return 1
    if isinstance(expr, TypeTest) and expr.subject == subject:
        return sum(3 if n == "integer" else 1 for n in type_names(expr.names))
    return sum(reads(child, subject) for child in children(expr))


# ---------- statements ----------


@dataclass(frozen=True)
class If:
    test: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Return:
    value: Expr | None = None


@dataclass(frozen=True)
class Assign:
    target: str
    value: Expr


@dataclass(frozen=True)
class Count:
    """Add one to the counter `target`."""

    target: str


@dataclass(frozen=True)
class ForEach:
    """Run `body` for each element of `iterable` (a list), or each key of a dict; with `value`,
    each key and its value. `final`: the loop ends its function (its `return` follows)."""

    target: str
    iterable: Expr
    body: tuple[Stmt, ...]
    value: str = ""
    final: bool = False


Stmt = If | Return | Assign | Count | ForEach
