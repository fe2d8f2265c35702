"""The fast path's code (generator/plan/fast.py `FastPlan`) as the code model (plan/code.py).

`validate_body` is what validate() runs inside `if type(args) is dict:` (None for a call it
proves valid, `_message(...)` else); `helper_body` is the body of one `_check_<name>(x, d)`,
True when `x` at depth `d` passes. `test` is one value's fast test as one condition, which
the collector also reads to skip values proven valid. Every decision of shape is made here,
on the model: which test is returned rather than tested, when a member's value is read once
into a variable, which bounds are one chained comparison; a renderer only spells them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ..ir.nodes import Bound
from .code import (
    And,
    Arith,
    Assign,
    Call,
    Choose,
    Compare,
    CompareOp,
    ConstSet,
    Count,
    Expr,
    ForEach,
    If,
    Infinity,
    IsInt,
    Item,
    Length,
    Matches,
    Not,
    Nothing,
    Or,
    Return,
    Stmt,
    TypeTest,
    Value,
    Var,
    all_of,
    any_of,
    reads,
)
from .fast import FastObject, FastValue, paired

if TYPE_CHECKING:
    from .module import ModulePlan

_TRUE = Value(True)
RETURN_TRUE = Return(_TRUE)
_SUBJECT = Var("_subject")  # stands for a member's value while counting how often a test reads it


def _json_type(x: Expr) -> Expr:
    return Call("_s.json_type", (x,))


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bound_test(b: Bound, x: Expr, plan: ModulePlan, integral: bool, high: Bound | None) -> Expr:
    """The unguarded test of one bound (with `high`, chained with that upper bound of the same
    JSON type: two equal lengths are one `==`). An integer is finite: no infinity to exclude."""
    k, macro = Value(b.value), b.spec.macro
    # (a bound of the "number" and "count" macros has a comparison: vocabulary.py)
    compare, mirrored = cast(CompareOp, b.spec.compare), cast(CompareOp, b.spec.mirrored)
    if high is not None and macro == "number":
        return Compare(k, ((mirrored, x), (cast(CompareOp, high.spec.compare), Value(high.value))))
    if high is not None and b.value == high.value:
        return Compare(Length(x), (("==", k),))
    if high is not None:
        return Compare(k, (("<=", Length(x)), ("<=", Value(high.value))))
    if macro == "count" or (macro == "number" and integral):
        return Compare(Length(x) if macro == "count" else x, ((compare, k),))
    if macro == "number" and b.spec.lower:
        return Compare(k, ((mirrored, x), ("<", Infinity())))
    if macro == "number":
        return Compare(Infinity(negative=True), (("<", x), (compare, k)))
    if macro == "multiple" and _integer(b.value):
        exact = Compare(Arith(x, "%", k), (("==", Value(0)),))
        return Choose(IsInt(x), exact, Call("_x.multiple", (x, k)), grouped=True)
    if macro == "multiple":
        return Call("_x.multiple", (x, k))
    if macro == "pattern":
        assert b.python is not None  # an enforced pattern has its Python spelling
        return Matches(plan.patterns[b.python], x)
    if macro == "unique":
        return Call("_x.unique", (x,))
    raise ValueError(f"no fast test for the bound macro {macro!r}")


def bound_test(fv: FastValue, b: Bound, x: Expr, plan: ModulePlan, high: Bound | None = None) -> Expr:
    """The fast test of one bound, which applies only to values of the JSON type it constrains:
    guarded by a type test unless that type is known."""
    test = _bound_test(b, x, plan, fv.integral, high)
    constrained = b.spec.constrains
    if fv.only(constrained):
        return test
    other = Compare(_json_type(x), (("!=", Value(constrained)),))
    return Choose(TypeTest(x, (constrained,)), test, other, grouped=True)


def leaf_test(fv: FastValue, x: Expr, plan: ModulePlan, is_dict: bool = False) -> Expr:
    """The tests of a value that are one condition: types, const, enum, bounds (`is_dict`: the
    value is known to be a dict)."""
    parts: list[Expr] = [TypeTest(x, names) for names in fv.types if not (is_dict and "object" in names)]
    # a str const or enum of strs: `==` / `in` once the value is known to be an exact str
    is_str: list[Expr] = [] if fv.only("string") else [TypeTest(x, ("string",))]
    for k in fv.consts:
        if isinstance(k, str):
            parts += [*is_str, Compare(x, (("==", Value(k)),))]
        else:
            parts.append(Call("_s.json_equal", (x, Value(k))))
    for members in fv.enums:
        if any(not isinstance(m, str) for m in members):
            parts.append(Call("_s.json_in", (x, Value(members))))
            continue
        named = plan.collector.enum_set(members)
        parts += [*is_str, Compare(x, (("in", Var(named) if named else ConstSet(tuple(members))),))]
    parts += [bound_test(fv, b, x, plan, high) for b, high in paired(fv.bounds)]
    return all_of(parts)


def test(fv: FastValue, x: Expr, dx: Expr, plan: ModulePlan) -> Expr:
    """True when `x` (at depth `dx`) passes the fast test of `fv`: one condition."""
    if fv.helper:
        return Call(f"_check_{fv.helper}", (x, dx) if plan.fast.depth else (x,))
    if fv.fallback:
        return Value(False)
    if fv.alternatives is not None:
        return any_of([test(alt, x, dx, plan) for alt in fv.alternatives], grouped=True)
    return leaf_test(fv, x, plan)


def proven(plan: ModulePlan, fv: FastValue, value: Expr) -> Expr:
    """True when the collector may skip a child `value` (at depth `len(path) + 1`): its fast
    test passes, within the depth limit when the collector checks one."""
    path = Length(Var("path"))
    below = Arith(path, "+", Value(1))
    if fv.helper and plan.fast.depth:
        return Call("_x.valid", (Var(f"_check_{fv.helper}"), value, below))
    one = Call("_x.valid", (Var(f"_check_{fv.helper}"), value)) if fv.helper else test(fv, value, below, plan)
    return And((Compare(path, (("<", Value(256)),)), one)) if plan.collector.depth else one


def _under(guard: Expr | None, body: list[Stmt]) -> list[Stmt]:
    return [If(guard, tuple(body))] if guard is not None else body


def _numbered(word: str, lv: int) -> str:
    """A variable of the value written in place `lv` levels down (`w`, `w1`, ...)."""
    return f"{word}{lv or ''}"


@dataclass(frozen=True)
class _Depth:
    """The depth of the value tested (`at`) and of its members and elements (`below`)."""

    at: Expr
    below: Expr


@dataclass(frozen=True)
class _Ends:
    """How a body ends: `fail` when the value fails, `succeed` when it passes (None: it falls
    through, written in place)."""

    fail: Stmt
    succeed: Stmt | None

    @property
    def final(self) -> bool:
        """The body ends a helper, which returns its last test directly."""
        return self.succeed == RETURN_TRUE


class _FastCode:
    def __init__(self, plan: ModulePlan) -> None:
        self.plan = plan
        self.strict_keys = plan.tool.vocabulary.strict_keys

    def test(self, fv: FastValue, x: Expr, dx: Expr) -> Expr:
        return test(fv, x, dx, self.plan)

    def body(
        self, fv: FastValue, x: Expr, depth: _Depth, ends: _Ends, is_dict: bool = False, lv: int = 0
    ) -> list[Stmt]:
        """The statements testing `x` against `fv`: `ends.fail` / `ends.succeed` are its two
        ends. `lv` numbers the variables of values written in place."""
        dx, dn = depth.at, depth.below
        alts = None
        if fv.alternatives is not None:  # all of them as one condition each, but the inlined one
            alts = any_of([self.test(a, x, dx) for a in fv.alternatives if a is not fv.inlined], grouped=True)
        if fv.fallback:
            return [ends.fail]
        if alts is not None and fv.inlined is not None and ends.succeed is None:
            return [If(Not(alts), tuple(self.body(fv.inlined, x, depth, ends, lv=lv)))]
        if alts is not None and ends.final and fv.inlined is None:
            return [Return(alts)]
        if alts is not None:
            after = [ends.fail] if fv.inlined is None else self.body(fv.inlined, x, depth, ends, lv=lv)
            return [If(alts, (ends.succeed,) if ends.succeed else ()), *after]
        leaf = leaf_test(fv, x, self.plan, is_dict)
        if fv.obj is None and not fv.items and ends.final:
            return [Return(leaf)]
        out: list[Stmt] = [] if leaf == _TRUE else [If(Not(leaf), (ends.fail,))]
        others: list[str] = []
        if fv.obj is not None:
            known = fv.only("object") or is_dict
            others += [] if known else ["object"]
            resume = is_dict and bool(self.plan.collector.resume)
            obj = self.object_body(fv.obj, x, dn, ends, resume, lv)
            out += _under(None if known else TypeTest(x, ("object",)), obj)
        if fv.items:
            others += [] if fv.only("array") else ["array"]
            items = self.items_body(fv, x, dn, ends, lv)
            out += _under(None if fv.only("array") else TypeTest(x, ("array",)), items)
        if others:
            single = len(others) == 1
            kind = Value(others[0]) if single else Value(tuple(others))
            if ends.final:
                out.append(Return(Compare(_json_type(x), (("!=" if single else "not in", kind),))))
                return out
            out.append(If(Compare(_json_type(x), (("==" if single else "in", kind),)), (ends.fail,)))
            out += [ends.succeed] if ends.succeed else []
        elif ends.succeed and fv.obj is None and not fv.items:
            out.append(ends.succeed)
        return out

    def object_body(self, o: FastObject, x: Expr, dn: Expr, ends: _Ends, resume: bool, lv: int) -> list[Stmt]:
        """The members and undeclared keys of an object `x` (known to be a dict). With `resume`
        (the arguments, in validate), a failure names the member it failed on (True after every
        member): the collector's visit of the arguments skips the members tested before it,
        proven valid (generator/plan/collector.py, resume). Names, not positions: a member
        added changes only its own lines."""
        message = Var("args")
        after = Return(Call("_message", (message, _TRUE))) if resume and o.members else ends.fail
        forbid = o.extra == "forbid"
        n, w = _numbered("n", lv), _numbered("w", lv)
        empty = forbid and not o.declared
        # Nothing tests the keys after the members: the last test ends the helper, returned.
        last = ends.final and not forbid and o.extra != "check" and not self.strict_keys
        ended = last and not o.members and bool(o.required)
        out: list[Stmt] = [Assign(n, Value(len(o.required)))] if forbid and not empty else []
        absent = [name for name in o.required if name not in o.fetched]
        for i, name in enumerate(absent):
            if ended and i == len(absent) - 1:
                out.append(Return(Compare(Value(name), (("in", x),))))
            else:
                out.append(If(Compare(Value(name), (("not in", x),)), (ends.fail,)))
        # An optional member is counted where it is tested (once, at its first test); one with
        # no test of its own is counted here.
        tested = [name for name, _ in o.members]
        for name in o.declared:
            if forbid and name not in o.required and name not in tested:
                out.append(If(Compare(Value(name), (("in", x),)), (Count(n),)))
        for i, (name, mv) in enumerate(o.members):
            required, key = name in o.required, Value(name)
            mfail = Return(Call("_message", (message, key))) if resume else ends.fail
            value = Item(x, key, present=name not in o.fetched)
            count = forbid and not required and tested.index(name) == i
            # the member's test: its own statements in place (FastPlan.embed), or one condition,
            # on its value read once (`w`) unless the condition reads it once
            once = not mv.embedded and reads(self.test(mv, _SUBJECT, dn), _SUBJECT) <= 1
            ended = last and i == len(o.members) - 1 and (required or once)
            if ended and once:
                one = self.test(mv, value, dn)
                out.append(Return(one if required else Or((Compare(key, (("not in", x),)), one))))
                continue
            if once and not count:
                failed: Expr = Not(self.test(mv, value, dn))
                out.append(If(failed if required else And((Compare(key, (("in", x),)), failed)), (mfail,)))
                continue
            if mv.embedded:
                in_place = _Ends(mfail, ends.succeed if ended else None)
                inner = self.body(mv, Var(w), _Depth(dn, dn), in_place, lv=lv + 1)
            elif ended:  # a required member, whose test ends the helper (mfail is fail)
                inner = [Return(self.test(mv, Var(w), dn))]
            else:
                inner = [If(Not(self.test(mv, Var(w), dn)), (mfail,))]
            read: list[Stmt] = [Assign(w, value), *inner]
            counted: list[Stmt] = [Count(n)] if count else []
            out += read if required else [If(Compare(key, (("in", x),)), (*counted, *read))]
        out += self.undeclared(o, x, dn, ends, after, lv)
        if ends.succeed and not ended and not (forbid and ends.final):
            out.append(ends.succeed)
        return out

    def undeclared(self, o: FastObject, x: Expr, dn: Expr, ends: _Ends, after: Stmt, lv: int) -> list[Stmt]:
        """The keys an object does not declare: none ("forbid": a count of the keys), or each
        a str (vocabulary.strict_keys), and with "check" each one's value passing its test."""
        n, e, k = (_numbered(word, lv) for word in "nek")
        if o.extra == "forbid":
            empty = not o.declared
            if ends.final:
                return [Return(Not(x) if empty else Compare(Length(x), (("==", Var(n)),)))]
            return [If(x if empty else Compare(Length(x), (("!=", Var(n)),)), (after,))]
        if o.extra != "check" and not self.strict_keys:
            return []
        tests = [self.test(ev, Var(e), dn) for ev in o.extra_values]
        fails: Expr = Not(TypeTest(Var(k), ("string",)))
        if tests:
            fails = Or((fails, Not(all_of(tests))))
        if o.declared and o.extra == "check":
            fails = And((Compare(Var(k), (("not in", ConstSet(o.declared, lines=True)),)), fails))
        check = If(fails, (after,))
        return [ForEach(k, x, (check,), value=e if tests else "", final=ends.final)]

    def items_body(self, fv: FastValue, x: Expr, dn: Expr, ends: _Ends, lv: int) -> list[Stmt]:
        """The elements of an array `x` (known to be a list)."""
        e = Var(_numbered("e", lv))
        if len(fv.items) == 1 and fv.items[0].embedded:
            inner = self.body(fv.items[0], e, _Depth(dn, dn), _Ends(ends.fail, None), lv=lv + 1)
        else:
            inner = [If(Not(all_of([self.test(iv, e, dn) for iv in fv.items])), (ends.fail,))]
        loop = ForEach(e.name, x, tuple(inner), final=ends.final)
        return [loop, ends.succeed] if ends.succeed else [loop]


def validate_body(plan: ModulePlan) -> list[Stmt]:
    """validate()'s fast path, run on a dict `args`: returns None for a call it proves valid."""
    ends = _Ends(Return(Call("_message", (Var("args"),))), Return(Nothing()))
    return _FastCode(plan).body(plan.fast.root, Var("args"), _Depth(Value(0), Value(1)), ends, is_dict=True)


def helper_body(plan: ModulePlan, fv: FastValue) -> list[Stmt]:
    """The body of `_check_<name>(x, d)`, after its depth test: True when `x` passes."""
    d = Var("d")
    ends = _Ends(Return(Value(False)), RETURN_TRUE)
    return _FastCode(plan).body(fv, Var("x"), _Depth(d, Arith(d, "+", Value(1))), ends)
