"""The exact collector's conditions (generator/plan/collector.py) as the code model
(generator/plan/code.py), for templates/collector.j2 to place.

`bound_broken` is the test that a value breaks one bound, by the kind of test its keyword names
(generator/front/vocabulary.py `Macro`). The collector reads a value whose JSON type it knows
(`t`), which may be a subclass of the language's own type: a length or a text is read through
the base type's own methods, and a number is compared only when it is finite (`finite`, set
before the bounds of a number).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .code import (
    And,
    Arith,
    Bind,
    Call,
    Choose,
    Compare,
    CompareOp,
    Expr,
    IsInt,
    Length,
    Matches,
    Not,
    PlainText,
    TypeTest,
    Value,
    Var,
    all_of,
)
from .collector import BoundTest
from .collector import Call as Descent
from .fast_code import proven

if TYPE_CHECKING:
    from .module import ModulePlan

_X, _FINITE = Var("x"), Var("finite")


def _divides(divisor: Expr) -> Expr:
    """The value, finite, is a multiple of the exact fraction `divisor` (a constant)."""
    return And((_FINITE, Compare(Arith(Call("_x.decimal", (_X,)), "%", divisor), (("==", Value(0)),))))


def bound_broken(b: BoundTest, size: str = "", json_type: str = "") -> Expr:
    """True when `x` breaks the bound `b`; `size`: a variable holding its length already;
    `json_type`: only when the value's JSON type `t` is that one."""
    macro, k = b.spec.macro, Value(b.value)
    broken: Expr
    if macro == "number":
        broken = Not(And((_FINITE, Compare(_X, ((cast(CompareOp, b.spec.compare), k),)))))
    elif macro == "multiple" and isinstance(b.value, int) and not isinstance(b.value, bool):
        exact = Compare(Arith(_X, "%", k), (("==", Value(0)),))
        broken = Not(Choose(IsInt(_X), exact, _divides(Var(b.extra))))
    elif macro == "multiple":
        broken = Not(_divides(Var(b.extra)))
    elif macro == "count":
        length = Var(size) if size else Length(_X, of=b.spec.constrains)
        broken = Compare(length, ((cast(CompareOp, b.spec.fails), k),))
    elif macro == "pattern":
        broken = Not(Matches(b.extra, PlainText(_X)))
    else:
        raise ValueError(f"no collector test for the bound macro {macro!r}")
    return And((Compare(Var("t"), (("==", Value(json_type)),)), broken)) if json_type else broken


def exact_fails(json_type: str, x: Expr) -> Expr:
    """True when `x` is not of `json_type`: its exact type first (JSON decoding makes only those),
    and the JSON type of anything else found only then, kept in `t` for the type line."""
    found = Bind("t", Call("_s.json_type", (x,)))
    if json_type == "integer":
        integral = And((Compare(found, (("==", Value("number")),)), Call("_s.is_integral", (x,))))
        return And((Not(IsInt(x)), Not(integral)))
    exact: Expr = Compare(Call("type", (x,)), (("not in", Var("_NUMBER")),))
    if json_type != "number":
        exact = Not(TypeTest(x, (json_type,)))
    return And((exact, Compare(found, (("!=", Value(json_type)),))))


def direct_guard(plan: ModulePlan, c: Descent, value: Expr) -> Expr | None:
    """The test over a direct descent (None: always taken). A helper's proof costs about the
    child's direct visit itself, so only a one-condition proof is written."""
    if c.enum or c.visits:
        return None
    if c.exact:
        return exact_fails(c.callee.exact, value)
    if not (c.inline or not c.direct) or c.fast is None:
        return None
    if c.empty:
        raise ValueError("a descent that finds nothing has no direct guard")
    return Not(proven(plan, c.fast, value))


def undeclared_guard(plan: ModulePlan, declared: str, extra: Descent | None, value: Expr) -> Expr | None:
    """The test over an undeclared key `k` of a direct visit: not one of the `declared` names
    (the constant of the set; "" when none is), and its value's direct guard under `extra`."""
    parts: list[Expr] = [Compare(Var("k"), (("not in", Var(declared)),))] if declared else []
    guard = direct_guard(plan, extra, value) if extra is not None else None
    parts += [guard] if guard is not None else []
    return all_of(parts) if parts else None
