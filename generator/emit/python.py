"""The code model (generator/plan/code.py) as Python text, with the fewest parentheses that
keep its meaning, decided from its structure (a renderer never reads its own text back).

Some groupings are kept on purpose, beyond what precedence needs (they are the output the
generator wrote before this model, kept byte for byte): a grouped conditional expression is
always parenthesised (it reads as one value: `(a if t else b)`); in a union of alternatives
(`Or(grouped=True)`) each alternative that has an `and` is parenthesised; a conjunction inside
a conjunction is grouped when it has an `or` inside; `not` parenthesises an operand with any
`and`, `or` or conditional inside, even one grouped already (`not ((a if t else b))`); and
`not` of one `is` comparison is written `is not`. Declared values go through `py_literal` (repr) only;
names the generator made are checked to be identifiers.
"""

from __future__ import annotations

import re

from ..plan.code import (
    And,
    Arith,
    Assign,
    Bind,
    Call,
    Choose,
    Compare,
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
    PlainText,
    Return,
    Stmt,
    TypeTest,
    Value,
    Var,
    children,
    type_names,
)
from .literal import py_literal

# Python's precedence, lowest first (the language reference, "Operator precedence").
_CHOOSE, _OR, _AND, _NOT, _COMPARE, _ADD, _MUL, _UNARY, _ATOM = range(9)
_ARITH = {"+": _ADD, "%": _MUL}

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")

# Each JSON type's exact test; `@` is the subject (an integer is an int, or a float with no
# fraction: JSON does not tell 1 from 1.0).
_TYPE_TESTS = {
    "string": "type(@) is str",
    "number": "type(@) in _NUMBER",
    "boolean": "type(@) is bool",
    "integer": "type(@) is int or type(@) is float and @.is_integer()",
    "object": "type(@) is dict",
    "array": "type(@) is list",
    "null": "@ is None",
}
_OR_LEVEL = {"integer"}  # the tests above that are more than one comparison (an `or`)
# The Python type of the values of a JSON type, whose own methods a subclass cannot change.
_PYTHON_TYPES = {"string": "str", "array": "list", "object": "dict"}
# The language's own type an exact type test of one JSON type names (for IsInt: int).
_INT = "int"
_NOTE = "  # noqa: SIM110 - a loop is faster than all() here"


def name(value: str) -> str:
    """A name the generator made, placed as code: checked, never a user string."""
    if not _NAME.fullmatch(value):
        raise ValueError(f"not a generated name: {value!r}")
    return value


def expression(expr: Expr) -> str:
    """`expr` as Python source (an expression, no outer parentheses unless it needs them)."""
    return _render(expr)[0]


def _has_and(expr: Expr) -> bool:
    """An `and` anywhere inside (an integer's type test has one)."""
    if isinstance(expr, And):
        return True
    if isinstance(expr, TypeTest) and any(n in _OR_LEVEL for n in type_names(expr.names)):
        return True
    return any(_has_and(child) for child in children(expr))


def _has_or(expr: Expr) -> bool:
    """An `or` anywhere inside (a type test of more than one type, or an integer's, has one)."""
    if isinstance(expr, Or):
        return True
    if isinstance(expr, TypeTest) and _render(expr)[1] == _OR:
        return True
    return any(_has_or(child) for child in children(expr))


def _compound(expr: Expr) -> bool:
    """An `and`, an `or` or a conditional anywhere inside."""
    if isinstance(expr, (Choose, PlainText)):
        return True
    return _has_and(expr) or _has_or(expr) or any(_compound(child) for child in children(expr))


def _at(expr: Expr, level: int) -> str:
    """`expr` as an operand that binds at least as tightly as `level`."""
    text, own = _render(expr)
    return f"({text})" if own < level else text


def _render(expr: Expr) -> tuple[str, int]:  # noqa: C901 - one case per node kind
    """`expr`'s text and the precedence of its outermost operator."""
    if isinstance(expr, Var):
        return name(expr.name), _ATOM
    if isinstance(expr, Value):
        return py_literal(expr.value), _ATOM
    if isinstance(expr, Nothing):
        return "None", _ATOM
    if isinstance(expr, ConstSet):
        members = ", ".join(py_literal(m) for m in expr.members)
        return "{" + members + ("," if expr.lines else "") + "}", _ATOM
    if isinstance(expr, Infinity):
        return ("-_INF", _UNARY) if expr.negative else ("_INF", _ATOM)
    if isinstance(expr, TypeTest):
        subject = _at(expr.subject, _ATOM)
        tests = [_TYPE_TESTS[n].replace("@", subject) for n in type_names(expr.names)]
        several = len(tests) > 1 or any(n in _OR_LEVEL for n in type_names(expr.names))
        return " or ".join(tests), _OR if several else _COMPARE
    if isinstance(expr, IsInt):
        return f"type({expression(expr.subject)}) is {_INT}", _COMPARE
    if isinstance(expr, Compare):
        chain = [_at(expr.left, _ADD)]
        chain += [f"{op} {_at(right, _ADD)}" for op, right in expr.ops]
        return " ".join(chain), _COMPARE
    if isinstance(expr, Length) and expr.of:
        return f"{_PYTHON_TYPES[expr.of]}.__len__({expression(expr.subject)})", _ATOM
    if isinstance(expr, Length):
        return f"len({expression(expr.subject)})", _ATOM
    if isinstance(expr, PlainText):
        subject = _at(expr.subject, _OR)
        return f"{subject} if type({subject}) is str else str.__str__({subject})", _CHOOSE
    if isinstance(expr, Call):
        return f"{name(expr.function)}({', '.join(expression(a) for a in expr.args)})", _ATOM
    if isinstance(expr, Matches):
        return f"{name(expr.pattern)}.search({expression(expr.subject)}) is not None", _COMPARE
    if isinstance(expr, Item):
        subject, key = _at(expr.subject, _ATOM), expression(expr.key)
        return (f"{subject}[{key}]" if expr.present else f"{subject}.get({key})"), _ATOM
    if isinstance(expr, Arith):
        level = _ARITH[expr.op]
        return f"{_at(expr.left, level)} {expr.op} {_at(expr.right, level + 1)}", level
    if isinstance(expr, Choose):
        text = f"{_at(expr.then, _OR)} if {_at(expr.test, _OR)} else {_at(expr.otherwise, _CHOOSE)}"
        return (f"({text})", _ATOM) if expr.grouped else (text, _CHOOSE)
    if isinstance(expr, And):
        return " and ".join(_conjunct(p) for p in expr.parts), _AND
    if isinstance(expr, Or):
        grouped = [f"({expression(p)})" if expr.grouped and _has_and(p) else _at(p, _OR) for p in expr.parts]
        return " or ".join(grouped), _OR
    if isinstance(expr, Not):
        return _negated(expr.operand), _NOT
    if isinstance(expr, Bind):
        return f"({name(expr.name)} := {expression(expr.value)})", _ATOM
    raise TypeError(f"not an expression: {expr!r}")


def _conjunct(part: Expr) -> str:
    """A part of an `and`: a conjunction inside one stays grouped when it has an `or` inside."""
    return f"({expression(part)})" if isinstance(part, And) and _has_or(part) else _at(part, _AND)


def _negated(operand: Expr) -> str:
    if isinstance(operand, TypeTest) and len(type_names(operand.names)) == 1:
        test = _TYPE_TESTS[type_names(operand.names)[0]]
        if test.count(" is ") == 1 and " or " not in test:  # one `is` comparison
            return test.replace(" is ", " is not ").replace("@", _at(operand.subject, _ATOM))
    if isinstance(operand, Compare) and len(operand.ops) == 1 and operand.ops[0][0] == "is":
        return expression(Compare(operand.left, (("is not", operand.ops[0][1]),)))
    if isinstance(operand, IsInt):
        return f"type({expression(operand.subject)}) is not {_INT}"
    if isinstance(operand, Matches):
        return f"{name(operand.pattern)}.search({expression(operand.subject)}) is None"
    # the operand of `not` is parenthesised when it has any operator looser than a comparison
    # inside, even one that is grouped already: `not ((a if t else b))`
    return f"not ({expression(operand)})" if _compound(operand) else "not " + _at(operand, _NOT)


def statements(body: tuple[Stmt, ...] | list[Stmt], indent: int = 0) -> str:
    """`body` as lines of Python, each indented by `indent` levels, each ending in a newline."""
    return "".join(_statement(s, indent) for s in body)


def _statement(stmt: Stmt, indent: int) -> str:
    pad = "    " * indent
    if isinstance(stmt, If):
        return f"{pad}if {expression(stmt.test)}:\n" + statements(stmt.body, indent + 1)
    if isinstance(stmt, Return):
        return f"{pad}return" + (f" {expression(stmt.value)}" if stmt.value is not None else "") + "\n"
    if isinstance(stmt, Assign):
        return f"{pad}{name(stmt.target)} = {expression(stmt.value)}\n"
    if isinstance(stmt, Count):
        return f"{pad}{name(stmt.target)} += 1\n"
    if isinstance(stmt, ForEach):
        target = name(stmt.target) + (f", {name(stmt.value)}" if stmt.value else "")
        iterable = _at(stmt.iterable, _ATOM) + (".items()" if stmt.value else "")
        head = f"{pad}for {target} in {iterable}:{_NOTE if stmt.final else ''}\n"
        return head + statements(stmt.body, indent + 1)
    raise TypeError(f"not a statement: {stmt!r}")
