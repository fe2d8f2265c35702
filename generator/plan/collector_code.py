"""The exact collector's conditions (generator/plan/collector.py) as the code model
(generator/plan/code.py), for templates/collector.j2 to place.

`bound_broken` is the test that a value breaks one bound, by the kind of test its keyword names
(generator/front/vocabulary.py `Macro`). The collector reads a value whose JSON type it knows
(`t`), which may be a subclass of the language's own type: a length or a text is read through
the base type's own methods, and a number is compared only when it is finite (`finite`, set
before the bounds of a number).
"""

from __future__ import annotations

from typing import cast

from .code import (
    And,
    Arith,
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
    Value,
    Var,
)
from .collector import BoundTest

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
