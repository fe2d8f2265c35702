"""Run-time helpers of the extended-mode collectors (extended.md E4, E5, E7): no schema here.

Standard library only; copied into a package generated with `--keywords extended`. Each
module's collector is generated code (one function per group it visits, templates/
collector.j2); what is shared lives here and reads no schema: rendering a path,
making an issue (worded by `_support`, the one place of message wording), keeping identical
issues once, E5's closest branch over candidate lists, exact decimal arithmetic for
`multipleOf`, uniqueItems' repeat, and handing the issues to the four lists of a collector.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from . import _support as _s

Segment = Any  # str (a name), int (an index), or (type name, text) for a key that is not a str
Path = tuple[Segment, ...]
# kind, path segments, and what the line needs besides the path: the text after "is
# invalid: ", the (expected, provided) type names, or "" for missing and unexpected. An issue
# is worded only when it is reported (`dispatch`): most candidates of a branch are dropped.
# The line is a one-to-one function of these three, so identical issues stay identical.
Issue = tuple[str, Path, Any]
Memo = dict[tuple[Any, int, Path], list[Issue]]


def render(path: Path, below: str | None = None) -> str:
    """A path's text; with `below`, segments relative to a value whose path renders so."""
    text = "" if below is None else below
    for k, segment in enumerate(path):
        if type(segment) is int:
            text += "[" + str(segment) + "]"
        else:
            name = segment[1] if type(segment) is tuple else segment
            text = name if k == 0 and below is None else text + "." + name
    return text


def invalid(path: Path, text: str) -> Issue:
    return (_s.INVALID, path, text)


def too_deep(path: Path) -> Issue:
    return (_s.INVALID, path, _s.DEPTH_TEXT)


def missing(path: Path) -> Issue:
    return (_s.MISSING, path, "")


def unexpected(path: Path) -> Issue:
    return (_s.UNEXPECTED, path, "")


def unexpected_key(path: Path, key: object) -> Issue:
    """A key that is not a str: unexpected whatever the group says (validation.md §3)."""
    return (_s.UNEXPECTED, (*path, (_s.type_name(key), _s.key_text(key))), "")


def wrong_type(path: Path, expected: str, provided: str) -> Issue:
    return (_s.TYPE, path, (expected, provided))


def distinct(found: list[Issue]) -> list[Issue]:
    """Identical issues (kind, path segments, line) once, first occurrence first."""
    if len(found) < 2:
        return found  # never mutated by a caller: lists of issues are only read and copied
    seen: set[Issue] = set()
    kept: list[Issue] = []
    for issue in found:
        if issue not in seen:
            seen.add(issue)
            kept.append(issue)
    return kept


def closest(*found: list[Issue] | None) -> int:
    """E5 rule 4: the index of the fewest candidates among the branches admitting the value's
    type (None for the others), the first on ties; -1 when none admits it (rule 3)."""
    best = -1
    for i, candidates in enumerate(found):
        if candidates is not None and (best < 0 or len(candidates) < len(found[best] or ())):
            best = i
    return best


def finite(v: object) -> bool:
    return not isinstance(v, float) or math.isfinite(v)


def decimal(v: object) -> Fraction:
    """The exact value of a number's decimal representation (repr of the base type)."""
    if isinstance(v, float):
        return Fraction(float.__repr__(v))
    assert isinstance(v, int)
    return Fraction(int.__index__(v))


def equal(a: object, b: object) -> bool:
    """JSON equality (validation.md §4) of two values of the call, without recursion: two
    elements nested 100,000 deep compare like any others."""
    pending: list[tuple[Any, Any]] = [(a, b)]
    while pending:
        x, y = pending.pop()
        kind = _s.json_type(x)
        if kind != _s.json_type(y):
            return False
        if kind == "array":
            if len(x) != len(y):
                return False
            pending.extend(reversed(list(zip(x, y, strict=True))))
        elif kind == "object":
            if len(x) != len(y) or any(k not in x for k in y):
                return False
            pending.extend(reversed([(x[k], w) for k, w in y.items()]))
        elif x == y:
            continue
        else:
            return False
    return True


def repeat(v: list[Any]) -> tuple[int, int] | None:
    """(J, I) of E7's uniqueItems line: J the first index repeating an earlier I, or None."""
    for j in range(1, len(v)):
        element = v[j]
        for i in range(j):
            if equal(v[i], element):
                return j, i
    return None


def valid(test: Callable[..., bool], *args: Any) -> bool:
    """A fast test proving a value valid (it never accepts less); an exception proves nothing."""
    try:
        return bool(test(*args))
    except Exception:
        return False


def dispatch(
    found: list[Issue],
    mis: list[str],
    une: list[str],
    typ: list[str],
    inv: list[str],
    below: str | None = None,
) -> None:
    """A module's collector: each issue once, worded, as a (path, line) pair in the list of
    its kind. With `below`, the issues a list visit found below a value whose path renders
    so (their segments relative to it): a direct visit hands them over."""
    for kind, path, what in distinct(found):
        text = render(path, below)
        if kind == _s.INVALID:
            _s.rejected(inv, text, what)
        elif kind == _s.TYPE:
            _s.wrong_type(typ, text, what[0], what[1])
        elif kind == _s.MISSING:
            _s.missing(mis, text)
        else:
            _s.unexpected(une, text)


# ---------- used by the fast path ----------


def multiple(v: int | float, k: int | float) -> bool:
    """E7's multipleOf: exact decimal arithmetic; a non-finite value is never a multiple."""
    if type(v) is int and type(k) is int:
        return v % k == 0  # integers are exact already
    return finite(v) and decimal(v) % decimal(k) == 0


def unique(v: list[Any]) -> bool:
    """No two elements JSON-equal (uniqueItems)."""
    return repeat(v) is None
