"""The code model (generator/plan/code.py) and its Python renderer (generator/emit/python.py):
precedence decided from structure, exact strings, declared values only as literals."""

from __future__ import annotations

import itertools

import pytest

from generator.emit.python import expression, statements
from generator.plan import code as m

a, b, c, x = m.Var("a"), m.Var("b"), m.Var("c"), m.Var("x")


@pytest.mark.parametrize(
    ("expr", "text"),
    [
        (m.Not(m.Or((a, b))), "not (a or b)"),
        (m.And((a, m.Or((b, c)))), "a and (b or c)"),
        (m.Or((a, m.And((b, c)))), "a or b and c"),
        (m.Or((m.And((a, b)), c), grouped=True), "(a and b) or c"),
        (m.Not(m.Not(a)), "not not a"),
        (m.Not(m.And((a, m.Not(m.Or((b, c)))))), "not (a and not (b or c))"),
        (m.And((a, m.And((b, c)))), "a and b and c"),
        (m.Or((a, m.Or((b, c)))), "a or b or c"),
        (m.And((m.Not(a), b)), "not a and b"),
        (m.Not(m.Compare(x, (("is", m.Nothing()),))), "x is not None"),
        (m.Not(m.Not(m.Compare(x, (("is", m.Nothing()),)))), "not x is not None"),
        (m.Not(m.Compare(x, (("in", m.Var("_SET")),))), "not x in _SET"),
    ],
)
def test_precedence_is_decided_from_structure(expr: m.Expr, text: str) -> None:
    assert expression(expr) == text


def _truth(expr: m.Expr, env: dict[str, bool]) -> bool:
    """What the model means, evaluated without any text."""
    if isinstance(expr, m.Var):
        return env[expr.name]
    if isinstance(expr, m.Not):
        return not _truth(expr.operand, env)
    if isinstance(expr, m.And):
        return all(_truth(p, env) for p in expr.parts)
    assert isinstance(expr, m.Or)
    return any(_truth(p, env) for p in expr.parts)


def _shapes(depth: int) -> list[m.Expr]:
    if depth == 0:
        return [a, b, c]
    smaller = _shapes(depth - 1)
    out: list[m.Expr] = [m.Not(e) for e in smaller[:6]]
    for left, right in itertools.product(smaller[:12], repeat=2):
        out += [m.And((left, right)), m.Or((left, right)), m.Or((left, right), grouped=True)]
    return out


def test_the_rendered_text_means_what_the_model_says() -> None:
    # Every shape of two levels of and / or / not over three names, evaluated by Python from
    # the text and by the model itself, on every assignment.
    shapes = _shapes(2)
    assert len(shapes) > 400
    for shape in shapes:
        text = expression(shape)
        for values in itertools.product((False, True), repeat=3):
            env = dict(zip("abc", values, strict=True))
            assert eval(text, {}, env) is _truth(shape, env), text


@pytest.mark.parametrize(
    ("expr", "text"),
    [
        (m.TypeTest(x, ("string",)), "type(x) is str"),
        (m.TypeTest(x, ("integer",)), "type(x) is int or type(x) is float and x.is_integer()"),
        (m.TypeTest(x, ("integer", "number")), "type(x) in _NUMBER"),
        (m.TypeTest(x, ("string", "null")), "type(x) is str or x is None"),
        (m.Not(m.TypeTest(x, ("string",))), "type(x) is not str"),
        (m.Not(m.TypeTest(x, ("null",))), "x is not None"),
        (m.Not(m.TypeTest(x, ("number",))), "not type(x) in _NUMBER"),
        (m.Not(m.TypeTest(x, ("integer",))), "not (type(x) is int or type(x) is float and x.is_integer())"),
        (
            m.And((m.TypeTest(x, ("integer",)), m.Compare(x, ((">=", m.Value(0)),)))),
            "(type(x) is int or type(x) is float and x.is_integer()) and x >= 0",
        ),
        (
            m.Or((m.TypeTest(x, ("integer",)), m.TypeTest(x, ("string",))), grouped=True),
            "(type(x) is int or type(x) is float and x.is_integer()) or type(x) is str",
        ),
        (m.Compare(m.Value(1), (("<=", x), ("<", m.Infinity()))), "1 <= x < _INF"),
        (m.Compare(m.Infinity(negative=True), (("<", x), ("<=", m.Value(5.5)))), "-_INF < x <= 5.5"),
        (m.Compare(m.Value(2), (("<=", m.Length(x)), ("<=", m.Value(4)))), "2 <= len(x) <= 4"),
        (
            m.Choose(
                m.IsInt(x),
                m.Compare(m.Arith(x, "%", m.Value(3)), (("==", m.Value(0)),)),
                m.Call("_x.multiple", (x, a)),
                grouped=True,
            ),
            "(x % 3 == 0 if type(x) is int else _x.multiple(x, a))",
        ),
        (m.Not(m.Choose(a, b, c)), "not (b if a else c)"),
        (m.Not(m.Choose(a, b, c, grouped=True)), "not ((b if a else c))"),
        (m.Call("f", (m.Choose(a, b, c),)), "f(b if a else c)"),
        (m.Or((a, m.Choose(a, b, c))), "a or (b if a else c)"),
        (
            m.Not(m.Matches("_P", m.PlainText(x))),
            "_P.search(x if type(x) is str else str.__str__(x)) is None",
        ),
        (m.Compare(m.Length(x, of="string"), ((">", m.Value(3)),)), "str.__len__(x) > 3"),
        (
            m.And((m.Compare(m.Length(m.Var("path")), (("<", m.Value(256)),)), m.And((m.Or((a, b)), c)))),
            "len(path) < 256 and ((a or b) and c)",
        ),
        (m.Arith(m.Arith(a, "+", b), "%", c), "(a + b) % c"),
        (m.Arith(a, "+", m.Arith(b, "%", c)), "a + b % c"),
        (m.Matches("_SKU_PATTERN", x), "_SKU_PATTERN.search(x) is not None"),
        (m.Not(m.Matches("_SKU_PATTERN", x)), "_SKU_PATTERN.search(x) is None"),
        (
            m.Call("_check_line", (m.Item(x, m.Value("lines")), m.Arith(m.Var("d"), "+", m.Value(1)))),
            "_check_line(x['lines'], d + 1)",
        ),
        (m.Item(x, m.Value("k"), present=False), "x.get('k')"),
        (m.Compare(x, (("in", m.ConstSet(("a", "b"))),)), "x in {'a', 'b'}"),
        (m.ConstSet(("a", "b"), lines=True), "{'a', 'b',}"),
        (m.all_of([]), "True"),
        (m.all_of([a]), "a"),
        (m.any_of([a]), "a"),
    ],
)
def test_exact_python(expr: m.Expr, text: str) -> None:
    assert expression(expr) == text


def test_declared_values_are_literals_and_names_are_checked() -> None:
    hostile = "x') or __import__('os').system('id') or ('"
    assert expression(m.Compare(x, (("==", m.Value(hostile)),))) == f"x == {hostile!r}"
    assert expression(m.Item(x, m.Value(hostile))) == f"x[{hostile!r}]"
    assert expression(m.ConstSet((hostile,))) == "{" + repr(hostile) + "}"
    # a name is never a user string: anything but a (dotted) identifier is refused
    for bad in ("x; import os", "x[0]", "", "1x", "a.b."):
        with pytest.raises(ValueError, match="not a generated name"):
            expression(m.Var(bad))
    with pytest.raises(ValueError, match="not a generated name"):
        expression(m.Call("f()", ()))


def test_statements() -> None:
    body = (
        m.Assign("n", m.Value(1)),
        m.If(
            m.Compare(m.Value("tags"), (("in", x),)),
            (m.Count("n"), m.Assign("w", m.Item(x, m.Value("tags")))),
        ),
        m.ForEach(
            "k",
            x,
            (m.If(m.Not(m.TypeTest(m.Var("k"), ("string",))), (m.Return(m.Value(False)),)),),
            final=True,
        ),
        m.ForEach(
            "k", x, (m.If(m.Not(m.Call("_check_value", (m.Var("e"),))), (m.Return(m.Nothing()),)),), value="e"
        ),
        m.Return(m.Compare(m.Length(x), (("==", m.Var("n")),))),
    )
    assert statements(body) == (
        "n = 1\n"
        "if 'tags' in x:\n"
        "    n += 1\n"
        "    w = x['tags']\n"
        "for k in x:  # noqa: SIM110 - a loop is faster than all() here\n"
        "    if type(k) is not str:\n"
        "        return False\n"
        "for k, e in x.items():\n"
        "    if not _check_value(e):\n"
        "        return None\n"
        "return len(x) == n\n"
    )
    assert statements([m.Return()], indent=2) == "        return\n"


def test_reads_counts_each_read_of_the_subject() -> None:
    # The planner m.reads a member's value into a variable when its test m.reads it more than once.
    assert m.reads(m.TypeTest(x, ("string",)), x) == 1
    assert m.reads(m.TypeTest(x, ("integer",)), x) == 3
    assert m.reads(m.TypeTest(x, ("integer", "number")), x) == 1
    assert m.reads(m.TypeTest(x, ("string", "null")), x) == 2
    assert m.reads(m.Call("_check_a", (x, m.Var("d"))), x) == 1
    assert m.reads(m.And((m.TypeTest(x, ("string",)), m.Compare(m.Length(x), (("<=", m.Value(3)),)))), x) == 2
    assert m.reads(m.Value(False), x) == 0
