"""ECMA-262 `pattern` -> Python `re` source, with ECMA meanings (docs/spec/extended.md E6).

`translate(pattern)` parses the pattern with its own recursive-descent parser over the
ECMA-262 grammar, in both of its modes: with the `u` flag (the semantics E6 gives a
pattern) and without it (Annex B, the lenient web grammar). The answer is one of:

* ``"enforced"``: the pattern is within the E6 syntax; ``python`` is an equivalent Python
  regex source, meant for ``re.compile(python)`` with **no flags** and ``.search``;
* ``"not_enforced"``: a valid ECMA-262 expression (with or without `u`) outside E6
  (back-references, named groups, lookbehind, ``\\p{…}``, ``\\c``, modifiers, a lone
  ``]`` ``{`` ``}``, ``a{,3}`` …); ``python`` is None and ``reason`` says what;
* ``"invalid"``: not a valid expression in either mode (the generator refuses it).

The emitted source never uses Python's own ``\\d \\w \\s .`` or ``$`` (their meanings
differ): classes are spelled as code-point ranges, ``.`` is ``[^\\n\\r\\u2028\\u2029]``,
``$`` is ``\\Z``, ``\\b`` is ``(?a:\\b)`` (ASCII word characters, as in ECMA), ``\\B`` two
lookarounds (Python before 3.14 never matches ``\\B`` on an empty string). Every literal
other than an ASCII letter, digit or ``_`` is escaped, so Python never sees a nested set,
a set operation (``&&`` ``--`` ``||`` ``~~``) or an inline flag it would warn about. Groups
become non-capturing. Non-ASCII code points are written as escapes, so the output does not
depend on the Unicode database of the Python that generates it.

``nested_quantifier`` flags an unbounded quantifier whose body can match the same text in
more than one way (``(a+)+``, ``(\\w*)*``, ``(a|aa)+``, ``(a{1,2})*``): E6 warns about it,
and it is still enforced. The test is an ambiguity analysis of the quantifier's automaton
(below), so ``[a-z]+(?:-[a-z]+)*`` or ``(ab|ac)+`` are not reported.

Standard library only; of the rest of the generator, only the generic graph of
generator/base/graph.py (strongly connected components).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..base.graph import components

Status = Literal["enforced", "not_enforced", "invalid"]

ENFORCED: Status = "enforced"
NOT_ENFORCED: Status = "not_enforced"
INVALID: Status = "invalid"

NESTED_QUANTIFIER_REASON = "a nested unbounded quantifier can take exponential time on a hostile string"

# Python's `re` refuses a repetition count of MAXREPEAT (4294967295) or more.
_MAX_COUNT = 4294967294
_MAX_CP = 0x10FFFF
# Groups nested deeper are not interpreted (the parser, the analysis and `re` all recurse).
_MAX_DEPTH = 100


@dataclass(frozen=True)
class PatternTranslation:
    """The verdict on one ECMA-262 pattern.

    `python` is the Python source (``re.compile(python)``, no flags, used with
    ``.search``) when `status` is ``"enforced"``, else None. `reason` explains a status
    other than ``"enforced"``, or the nested-quantifier warning; `position` is the index in
    `pattern` it is about (None when not useful).
    """

    pattern: str
    status: Status
    python: str | None
    reason: str | None = None
    position: int | None = None
    nested_quantifier: bool = False


# ---------------------------------------------------------------------------------------
# Code-point sets: sorted, disjoint, non-adjacent inclusive ranges.

Ranges = tuple[tuple[int, int], ...]


def _normalize(ranges: list[tuple[int, int]]) -> Ranges:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def _complement(ranges: Ranges) -> Ranges:
    out: list[tuple[int, int]] = []
    nxt = 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= _MAX_CP:
        out.append((nxt, _MAX_CP))
    return tuple(out)


def _intersects(a: Ranges, b: Ranges) -> bool:
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i][1] < b[j][0]:
            i += 1
        elif b[j][1] < a[i][0]:
            j += 1
        else:
            return True
    return False


_DIGITS: Ranges = ((0x30, 0x39),)
_WORD: Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
# ECMA WhiteSpace (TAB VT FF ZWNBSP and category Zs) and LineTerminator (LF CR LS PS).
_SPACE: Ranges = _normalize(
    [
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ]
)
_DOT: Ranges = _complement(((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)))
_CLASS_ESCAPES: dict[str, Ranges] = {
    "d": _DIGITS,
    "D": _complement(_DIGITS),
    "w": _WORD,
    "W": _complement(_WORD),
    "s": _SPACE,
    "S": _complement(_SPACE),
}

# ---------------------------------------------------------------------------------------
# The tree.


@dataclass(frozen=True)
class _Char:
    cp: int


@dataclass(frozen=True)
class _Set:
    ranges: Ranges


_AssertKind = Literal["^", "$", "b", "B"]  # as the pattern writes it (`\b` and `\B` without their backslash)
# A group: non-capturing (or capturing: the translation captures nothing), a lookahead or a
# negative one; outside E6, a lookbehind or a negative one, a named group, a modifiers group.
_GroupKind = Literal["group", "la", "nla", "lb", "nlb", "named", "modifiers"]


@dataclass(frozen=True)
class _Assert:
    kind: _AssertKind


@dataclass(frozen=True)
class _Group:
    kind: _GroupKind
    body: _Disj


@dataclass(frozen=True)
class _Other:
    """A valid construct outside E6 (a back-reference); never emitted."""


@dataclass(frozen=True)
class _Quant:
    atom: _Node
    lo: int
    hi: int | None
    lazy: bool
    position: int


@dataclass(frozen=True)
class _Disj:
    alternatives: tuple[tuple[_Node, ...], ...]


_Node = _Char | _Set | _Assert | _Group | _Other | _Quant | _Disj


class _TooDeep(Exception):
    def __init__(self, position: int) -> None:
        super().__init__(position)
        self.position = position


class _SyntaxError(Exception):
    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


def _is_id_start(cp: int) -> bool:
    ch = chr(cp)
    return ch in "$_" or ch.isidentifier()


def _is_id_continue(cp: int) -> bool:
    ch = chr(cp)
    return ch in "$\u200c\u200d" or ("a" + ch).isidentifier()


_SYNTAX = frozenset(map(ord, "^$\\.*+?()[]{}|"))
_HEX = frozenset(map(ord, "0123456789abcdefABCDEF"))
_DEC = frozenset(map(ord, "0123456789"))
_OCT = frozenset(map(ord, "01234567"))
_LETTERS = frozenset(map(ord, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))
_CONTROL = {ord("f"): 0x0C, ord("n"): 0x0A, ord("r"): 0x0D, ord("t"): 0x09, ord("v"): 0x0B}


def _units(pattern: str, unicode: bool) -> tuple[list[int], list[int]]:
    """The pattern's elements (code points with `u`, UTF-16 units without) and each one's index."""
    cps: list[int] = []
    where: list[int] = []
    i = 0
    while i < len(pattern):
        cp = ord(pattern[i])
        if unicode:
            if 0xD800 <= cp <= 0xDBFF and i + 1 < len(pattern) and 0xDC00 <= ord(pattern[i + 1]) <= 0xDFFF:
                cps.append(0x10000 + ((cp - 0xD800) << 10) + (ord(pattern[i + 1]) - 0xDC00))
                where.append(i)
                i += 2
                continue
            cps.append(cp)
            where.append(i)
        elif cp > 0xFFFF:
            cp -= 0x10000
            cps.extend((0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)))
            where.extend((i, i))
        else:
            cps.append(cp)
            where.append(i)
        i += 1
    where.append(len(pattern))
    return cps, where


def _prescan(cps: list[int]) -> tuple[int, bool]:
    """Count the capturing groups and tell whether any is named (a scan, as CountLeftCapturingParens)."""
    count = 0
    named = False
    i = 0
    in_class = False
    while i < len(cps):
        c = cps[i]
        if c == 0x5C:
            i += 2
            continue
        if in_class:
            in_class = c != 0x5D
        elif c == 0x5B:
            in_class = True
        elif c == 0x28:
            if i + 1 < len(cps) and cps[i + 1] == 0x3F:
                lookbehind = i + 3 < len(cps) and cps[i + 3] in (0x3D, 0x21)
                if i + 2 < len(cps) and cps[i + 2] == 0x3C and not lookbehind:
                    count += 1
                    named = True
            else:
                count += 1
        i += 1
    return count, named


@dataclass
class _Parser:
    cps: list[int]
    where: list[int]
    unicode: bool
    dash_escape: bool  # `\-` outside a class, which E6 adds to the `u` grammar
    groups: int
    named: bool
    i: int = 0
    names: list[tuple[str, int]] = field(default_factory=list)  # (name, alternative path id)
    references: list[tuple[str, int]] = field(default_factory=list)
    outside: tuple[str, int] | None = None  # first construct outside E6: (what, index)
    paths: list[tuple[int, ...]] = field(default_factory=list)  # each named group's term path
    name_positions: list[int] = field(default_factory=list)

    # -- helpers
    def pos(self, i: int | None = None) -> int:
        return self.where[self.i if i is None else i]

    def peek(self, k: int = 0) -> int:
        j = self.i + k
        return self.cps[j] if j < len(self.cps) else -1

    def at(self, text: str) -> bool:
        return all(self.peek(k) == ord(ch) for k, ch in enumerate(text))

    def fail(self, message: str, i: int | None = None) -> _SyntaxError:
        return _SyntaxError(message, self.pos(i))

    def note(self, what: str, i: int) -> None:
        if self.outside is None:
            self.outside = (what, self.pos(i))

    # -- grammar
    def parse(self) -> _Disj:
        tree = self.disjunction(())
        if self.i < len(self.cps):
            raise self.fail("unmatched `)`")
        known = {name for name, _ in self.names}
        for name, at in self.references:
            if name not in known:
                raise _SyntaxError(f"reference to the undefined group name `{name}`", at)
        self.check_duplicate_names()
        return tree

    def check_duplicate_names(self) -> None:
        # ES2025: a name may repeat only in alternatives that cannot both take part.
        seen: dict[str, list[tuple[int, ...]]] = {}
        for name, path_id in self.names:
            path = self.paths[path_id]
            for other in seen.get(name, []):
                if not _exclusive(path, other):
                    raise _SyntaxError(f"duplicate group name `{name}`", self.name_positions[path_id])
            seen.setdefault(name, []).append(path)

    def disjunction(self, path: tuple[int, ...]) -> _Disj:
        if len(path) > 2 * _MAX_DEPTH:
            raise _TooDeep(self.pos())
        alternatives = [self.alternative((*path, 0))]
        n = 0
        while self.peek() == 0x7C:
            self.i += 1
            n += 1
            alternatives.append(self.alternative((*path, n)))
        return _Disj(tuple(alternatives))

    def alternative(self, path: tuple[int, ...]) -> tuple[_Node, ...]:
        terms: list[_Node] = []
        while self.i < len(self.cps) and self.peek() not in (0x7C, 0x29):
            terms.append(self.term((*path, len(terms))))
        return tuple(terms)

    def term(self, path: tuple[int, ...]) -> _Node:
        start = self.i
        c = self.peek()
        if c in (0x5E, 0x24):
            self.i += 1
            return self.no_quantifier(_Assert("^" if c == 0x5E else "$"))
        if c == 0x5C and self.peek(1) in (0x62, 0x42):
            self.i += 2
            return self.no_quantifier(_Assert("b" if self.cps[start + 1] == 0x62 else "B"))
        if self.at("(?=") or self.at("(?!"):
            kind: _GroupKind = "la" if self.peek(2) == 0x3D else "nla"
            self.i += 3
            node: _Node = _Group(kind, self.group_body(start, path))
            if self.unicode:
                return self.no_quantifier(node)
            return self.quantified(node)
        if self.at("(?<=") or self.at("(?<!"):
            kind = "lb" if self.peek(3) == 0x3D else "nlb"
            self.note("lookbehind", start)
            self.i += 4
            return self.no_quantifier(_Group(kind, self.group_body(start, path)))
        return self.quantified(self.atom(path))

    def no_quantifier(self, node: _Node) -> _Node:
        if self.quantifier_ahead():
            raise self.fail("nothing to repeat")
        return node

    def quantifier_ahead(self) -> bool:
        c = self.peek()
        if c in (0x2A, 0x2B, 0x3F):
            return True
        return c == 0x7B and self.brace(self.i) is not None

    def brace(self, i: int) -> tuple[int, int | None, int] | None:
        """`{n}`, `{n,}` or `{n,m}` at `i`: (n, m, index after it), else None."""
        j = i + 1
        n = len(self.cps)

        def digits(k: int) -> tuple[int, int] | None:
            e = k
            while e < n and self.cps[e] in _DEC:
                e += 1
            if e == k:
                return None
            return int("".join(map(chr, self.cps[k:e]))), e

        first = digits(j)
        if first is None:
            return None
        lo, j = first
        if j < n and self.cps[j] == 0x7D:
            return lo, lo, j + 1
        if j >= n or self.cps[j] != 0x2C:
            return None
        j += 1
        if j < n and self.cps[j] == 0x7D:
            return lo, None, j + 1
        second = digits(j)
        if second is None:
            return None
        hi, j = second
        if j < n and self.cps[j] == 0x7D:
            return lo, hi, j + 1
        return None

    def quantified(self, atom: _Node) -> _Node:
        c = self.peek()
        start = self.i
        if c in (0x2A, 0x2B, 0x3F):
            lo, hi = {0x2A: (0, None), 0x2B: (1, None), 0x3F: (0, 1)}[c]
            self.i += 1
        elif c == 0x7B:
            found = self.brace(self.i)
            if found is None:
                if self.unicode:
                    raise self.fail("an incomplete quantifier `{`")
                return atom
            lo, hi, self.i = found
            if hi is not None and hi < lo:
                raise self.fail("numbers out of order in a `{}` quantifier", start)
            if lo > _MAX_COUNT or (hi is not None and hi > _MAX_COUNT):
                self.note(f"a repetition count above {_MAX_COUNT}", start)
        else:
            return atom
        lazy = self.peek() == 0x3F
        if lazy:
            self.i += 1
        if self.quantifier_ahead():
            raise self.fail("nothing to repeat")
        return _Quant(atom, lo, hi, lazy, self.pos(start))

    def group_body(self, start: int, path: tuple[int, ...]) -> _Disj:
        body = self.disjunction(path)
        if self.peek() != 0x29:
            raise self.fail("unterminated group", start)
        self.i += 1
        return body

    def atom(self, path: tuple[int, ...]) -> _Node:
        start = self.i
        c = self.peek()
        if c == 0x2E:
            self.i += 1
            return _Set(_DOT)
        if c == 0x28:
            return self.group(path)
        if c == 0x5B:
            return self.char_class()
        if c == 0x5C:
            return self.atom_escape()
        if c in (0x2A, 0x2B, 0x3F):
            raise self.fail("nothing to repeat")
        if c == 0x7B:
            if self.unicode:
                raise self.fail("a lone `{`")
            if self.brace(self.i) is not None:
                raise self.fail("nothing to repeat")
        elif c in (0x7D, 0x5D) and self.unicode:
            raise self.fail(f"a lone `{chr(c)}`")
        self.i = start + 1
        return _Char(c)

    def group(self, path: tuple[int, ...]) -> _Node:
        start = self.i
        self.i += 1
        if self.peek() != 0x3F:
            return _Group("group", self.group_body(start, path))
        self.i += 1
        if self.peek() == 0x3A:
            self.i += 1
            return _Group("group", self.group_body(start, path))
        if self.peek() == 0x3C:
            self.i += 1
            name = self.group_name()
            self.note("a named group", start)
            self.paths.append(path)
            self.name_positions.append(self.pos(start))
            self.names.append((name, len(self.paths) - 1))
            return _Group("named", self.group_body(start, path))
        # ES2025 modifiers: (?ims-ims:...)
        on = self.flags()
        dash = self.peek() == 0x2D
        off = ""
        if dash:
            self.i += 1
            off = self.flags()
        if self.peek() != 0x3A or (not on and not dash):
            raise self.fail("an invalid group `(?`", start)
        if dash and not on and not off:
            raise self.fail("empty modifiers `(?-:`", start)
        if len(set(on + off)) != len(on + off):
            raise self.fail("a modifier repeated in `(?…:`", start)
        self.i += 1
        self.note("an inline modifier group", start)
        return _Group("modifiers", self.group_body(start, path))

    def flags(self) -> str:
        out = ""
        while self.peek() in (0x69, 0x6D, 0x73):
            out += chr(self.peek())
            self.i += 1
        return out

    def group_name(self) -> str:
        """After `<`: a RegExpIdentifierName then `>`."""
        start = self.i
        name = ""
        while True:
            if self.peek() == 0x5C:
                if self.peek(1) != 0x75:
                    raise self.fail("invalid group name", start)
                self.i += 2
                cp = self.unicode_escape(always=True)
                if cp is None:
                    raise self.fail("invalid group name", start)
            elif self.peek() == -1:
                raise self.fail("invalid group name", start)
            else:
                cp = self.peek()
                self.i += 1
                if not self.unicode and 0xD800 <= cp <= 0xDBFF and 0xDC00 <= self.peek() <= 0xDFFF:
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (self.peek() - 0xDC00)
                    self.i += 1
            if cp == 0x3E and name:
                return name
            if not (_is_id_start(cp) if not name else _is_id_continue(cp)):
                raise self.fail("invalid group name", start)
            name += chr(cp)

    # -- escapes
    def atom_escape(self) -> _Node:
        start = self.i
        self.i += 1
        c = self.peek()
        if c == -1:
            raise self.fail("`\\` at the end of the pattern", start)
        if c in _DEC and c != 0x30:
            j = self.i
            while j < len(self.cps) and self.cps[j] in _DEC:
                j += 1
            number = int("".join(map(chr, self.cps[self.i : j])))
            if self.unicode or number <= self.groups:
                if number > self.groups:
                    raise self.fail("a back-reference to a group that does not exist", start)
                self.i = j
                self.note("a back-reference", start)
                return _Other()
            return _Char(self.legacy_escape(start))
        if chr(c) in _CLASS_ESCAPES:
            self.i += 1
            return _Set(_CLASS_ESCAPES[chr(c)])
        if c in (0x70, 0x50) and self.unicode:
            self.property_escape(start)
            return _Other()
        if c == 0x6B and (self.unicode or self.named):
            self.i += 1
            if self.peek() != 0x3C:
                raise self.fail("`\\k` not followed by a group name", start)
            self.i += 1
            self.references.append((self.group_name(), self.pos(start)))
            self.note("a named back-reference", start)
            return _Other()
        if c == 0x63 and not self.unicode and self.peek(1) not in _LETTERS:
            # Annex B: `\` itself, then `c` as the next atom.
            return _Char(0x5C)
        if c == 0x2D and self.dash_escape:
            self.i += 1
            return _Char(0x2D)
        return _Char(self.character_escape(start, in_class=False))

    def property_escape(self, start: int) -> None:
        self.i += 1
        if self.peek() != 0x7B:
            raise self.fail("`\\p` not followed by `{`", start)
        j = self.i + 1
        while j < len(self.cps) and self.cps[j] != 0x7D:
            j += 1
        body = "".join(map(chr, self.cps[self.i + 1 : j]))
        parts = body.split("=")
        if j >= len(self.cps) or not 1 <= len(parts) <= 2 or not all(p and _ascii_word(p) for p in parts):
            raise self.fail("invalid Unicode property escape", start)
        self.i = j + 1
        self.note("a Unicode property escape `\\p{…}`", start)

    def legacy_escape(self, start: int) -> int:
        """Annex B (no `u`): a legacy octal escape, or `\\8` / `\\9` as the digit itself."""
        c = self.peek()
        if c not in _OCT:
            self.i += 1
            return c
        value = 0
        limit = 3 if c <= 0x33 else 2
        n = 0
        while n < limit and self.peek() in _OCT:
            value = value * 8 + self.peek() - 0x30
            self.i += 1
            n += 1
        return value

    def unicode_escape(self, always: bool) -> int | None:
        """After `\\u`: the code point, or None when no escape is there (then nothing is consumed)."""
        start = self.i
        if (self.unicode or always) and self.peek() == 0x7B:
            j = self.i + 1
            while j < len(self.cps) and self.cps[j] in _HEX:
                j += 1
            if j > self.i + 1 and j < len(self.cps) and self.cps[j] == 0x7D:
                value = int("".join(map(chr, self.cps[self.i + 1 : j])), 16)
                if value <= _MAX_CP:
                    self.i = j + 1
                    return value
            return None
        if all(self.peek(k) in _HEX for k in range(4)):
            value = int("".join(map(chr, self.cps[start : start + 4])), 16)
            self.i = start + 4
            if (
                (self.unicode or always)
                and 0xD800 <= value <= 0xDBFF
                and self.peek() == 0x5C
                and self.peek(1) == 0x75
                and all(self.peek(2 + k) in _HEX for k in range(4))
            ):
                trail = int("".join(map(chr, self.cps[self.i + 2 : self.i + 6])), 16)
                if 0xDC00 <= trail <= 0xDFFF:
                    self.i += 6
                    return 0x10000 + ((value - 0xD800) << 10) + (trail - 0xDC00)
            return value
        return None

    def character_escape(self, start: int, in_class: bool) -> int:
        """At the character after `\\`: a CharacterEscape (or, in a class, a ClassEscape)."""
        c = self.peek()
        if c == -1:
            raise self.fail("`\\` at the end of the pattern", start)
        if c in _CONTROL:
            self.i += 1
            return _CONTROL[c]
        if c == 0x63:
            return self.control_letter(start, in_class)
        if c == 0x30 and self.peek(1) not in _DEC:
            self.i += 1
            return 0
        if c in _DEC:
            if self.unicode:
                raise self.fail("an octal or decimal escape", start)
            return self.legacy_escape(start)
        if c == 0x78:
            return self.hex_escape(start)
        if c == 0x75:
            self.i += 1
            escaped = self.unicode_escape(always=False)
            if escaped is not None:
                return escaped
            if self.unicode:
                raise self.fail("an incomplete `\\u` escape", start)
            return 0x75
        if c in _SYNTAX or c == 0x2F or (in_class and c == 0x2D):
            self.i += 1
            return c
        if self.unicode:
            raise self.fail(f"the escape `\\{chr(c)}`", start)
        if c == 0x6B and self.named:
            raise self.fail("`\\k` not followed by a group name", start)
        self.i += 1
        return c

    def control_letter(self, start: int, in_class: bool) -> int:
        """At `c` after `\\`: `\\c` and an ASCII letter (or, Annex B, in a class without the `u`
        flag, a digit or `_`) is that control character; else Annex B reads the backslash itself."""
        nxt = self.peek(1)
        if nxt in _LETTERS or (in_class and not self.unicode and (nxt in _DEC or nxt == 0x5F)):
            self.i += 2
            self.note("a control escape `\\c`", start)
            return nxt % 32
        if self.unicode:
            raise self.fail("`\\c` not followed by a letter", start)
        return 0x5C  # Annex B: the backslash itself; `c` is read next

    def hex_escape(self, start: int) -> int:
        """At `x` after `\\`: `\\x` and two hex digits; else (Annex B) the letter `x` itself."""
        self.i += 1
        if self.peek() in _HEX and self.peek(1) in _HEX:
            value = int(chr(self.peek()) + chr(self.peek(1)), 16)
            self.i += 2
            return value
        if self.unicode:
            raise self.fail("an incomplete `\\x` escape", start)
        return 0x78

    # -- classes
    def char_class(self) -> _Node:
        start = self.i
        self.i += 1
        negated = self.peek() == 0x5E
        if negated:
            self.i += 1
        members: list[tuple[int, int]] = []
        while True:
            if self.peek() == -1:
                raise self.fail("unterminated character class", start)
            if self.peek() == 0x5D:
                self.i += 1
                break
            first = self.class_atom()
            if self.peek() == 0x2D and self.peek(1) not in (0x5D, -1):
                dash = self.i
                self.i += 1
                second = self.class_atom()
                if isinstance(first, tuple) or isinstance(second, tuple):
                    if self.unicode:
                        raise self.fail("a class escape as a range bound", dash)
                    for part in (first, 0x2D, second):
                        members.extend(part if isinstance(part, tuple) else ((part, part),))
                    continue
                if first > second:
                    raise self.fail("a range out of order in a character class", dash)
                members.append((first, second))
            else:
                members.extend(first if isinstance(first, tuple) else ((first, first),))
        ranges = _normalize(members)
        return _Set(_complement(ranges) if negated else ranges)

    def class_atom(self) -> int | Ranges:
        start = self.i
        c = self.peek()
        if c != 0x5C:
            self.i += 1
            return c
        self.i += 1
        c = self.peek()
        if c == 0x62:
            self.i += 1
            self.note("`\\b` inside a class (a backspace)", start)
            return 0x08
        if c == 0x2D:
            self.i += 1
            return 0x2D
        if c != -1 and chr(c) in _CLASS_ESCAPES:
            self.i += 1
            return _CLASS_ESCAPES[chr(c)]
        if c in (0x70, 0x50) and self.unicode:
            self.property_escape(start)
            return ()
        if c == 0x63 and not self.unicode and not (
            self.peek(1) in _LETTERS or self.peek(1) in _DEC or self.peek(1) == 0x5F
        ):
            return 0x5C  # Annex B: the backslash itself
        return self.character_escape(start, in_class=True)


def _ascii_word(text: str) -> bool:
    return text.isascii() and all(ch.isalnum() or ch == "_" for ch in text)


def _exclusive(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Two positions (alternative/term paths) lie in different alternatives of one disjunction."""
    for k in range(min(len(a), len(b))):
        if a[k] != b[k]:
            return k % 2 == 0  # even depths number alternatives, odd ones terms
    return False


# ---------------------------------------------------------------------------------------
# Emission.


def _char(cp: int) -> str:
    ch = chr(cp)
    if ch.isascii() and (ch.isalnum() or ch == "_"):
        return ch
    if 0x20 <= cp < 0x7F:
        return "\\" + ch
    if ch in "\t\n\r":
        return {"\t": "\\t", "\n": "\\n", "\r": "\\r"}[ch]
    if cp < 0x100:
        return f"\\x{cp:02x}"
    if cp < 0x10000:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def _ranges_text(ranges: Ranges) -> str:
    out = []
    for lo, hi in ranges:
        if lo == hi:
            out.append(_char(lo))
        elif hi == lo + 1:
            out.append(_char(lo) + _char(hi))
        else:
            out.append(_char(lo) + "-" + _char(hi))
    return "".join(out)


def _set_text(ranges: Ranges) -> str:
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _char(ranges[0][0])
    if not ranges:
        return "[^\\x00-\\U0010ffff]"
    other = _complement(ranges)
    if other and len(_ranges_text(other)) < len(_ranges_text(ranges)):
        return "[^" + _ranges_text(other) + "]"
    return "[" + _ranges_text(ranges) + "]"


_WORD_CLASS = "[0-9A-Z_a-z]"
_ASSERTIONS: dict[_AssertKind, str] = {
    "^": "^",
    "$": "\\Z",
    "b": "(?a:\\b)",
    "B": f"(?:(?<={_WORD_CLASS})(?={_WORD_CLASS})|(?<!{_WORD_CLASS})(?!{_WORD_CLASS}))",
}
_GROUPS: dict[_GroupKind, str] = {"group": "(?:", "la": "(?=", "nla": "(?!"}


def _emit(node: _Node) -> str:
    if isinstance(node, _Disj):
        return "|".join("".join(_emit(term) for term in alt) for alt in node.alternatives)
    if isinstance(node, _Char):
        return _char(node.cp)
    if isinstance(node, _Set):
        return _set_text(node.ranges)
    if isinstance(node, _Assert):
        return _ASSERTIONS[node.kind]
    if isinstance(node, _Group):
        return _GROUPS[node.kind] + _emit(node.body) + ")"
    if isinstance(node, _Quant):
        if (node.lo, node.hi) == (0, None):
            q = "*"
        elif (node.lo, node.hi) == (1, None):
            q = "+"
        elif (node.lo, node.hi) == (0, 1):
            q = "?"
        elif node.hi is None:
            q = f"{{{node.lo},}}"
        elif node.hi == node.lo:
            q = f"{{{node.lo}}}"
        else:
            q = f"{{{node.lo},{node.hi}}}"
        return _emit(node.atom) + q + ("?" if node.lazy else "")
    raise AssertionError(f"not emitted: {node!r}")  # pragma: no cover - outside E6 never reaches here


# ---------------------------------------------------------------------------------------
# Nested unbounded quantifiers.


# A quantifier `X*` / `X+` / `X{n,}` is reported when the automaton of its own sub-pattern
# has exponential degree of ambiguity (EDA): some state has two different paths back to
# itself reading the same text, so a backtracking engine may try 2^n ways on a failing
# string. The automaton is the position (Glushkov) automaton with multiplicities: a
# transition that two parses reach (the inner and the outer loop of `(\w+\s?)*`) counts
# twice. EDA holds when the product automaton (pairs of states moving on a common
# character) has a strongly connected component holding a diagonal pair `(q, q)` and either
# a pair `(p, q)` with `p != q` or a doubled transition. Assertions and lookaheads count as
# empty (their bodies are checked on their own); `{n,m}` is analysed with its counts capped
# at 3, which keeps its shape (fixed, variable, unbounded).

_CAP = 3
_MAX_POSITIONS = 120

Counts = dict[int, int]


@dataclass
class _Automaton:
    labels: list[Ranges] = field(default_factory=list)
    follow: dict[int, Counts] = field(default_factory=dict)

    def leaf(self, ranges: Ranges) -> int:
        self.labels.append(ranges)
        return len(self.labels) - 1

    def link(self, last: Counts, first: Counts) -> None:
        for p, m in last.items():
            row = self.follow.setdefault(p, {})
            for q, n in first.items():
                if m * n:
                    row[q] = min(2, row.get(q, 0) + m * n)


def _add(a: Counts, b: Counts, times: int = 1) -> Counts:
    out = dict(a)
    for k, v in b.items():
        if v * times:
            out[k] = min(2, out.get(k, 0) + v * times)
    return out


class _TooBig(Exception):
    pass


def _build(node: _Node, auto: _Automaton) -> tuple[Counts, Counts, int]:
    """(first, last, ways to match empty) of `node`, adding its positions to `auto`."""
    if len(auto.labels) > _MAX_POSITIONS:
        raise _TooBig
    if isinstance(node, _Char | _Set):
        p = auto.leaf(((node.cp, node.cp),) if isinstance(node, _Char) else node.ranges)
        return {p: 1}, {p: 1}, 0
    if isinstance(node, _Group) and node.kind in ("group", "named", "modifiers"):
        return _build(node.body, auto)
    if isinstance(node, _Disj):
        first: Counts = {}
        last: Counts = {}
        empty = 0
        for alt in node.alternatives:
            f, la, e = _build_seq(alt, auto)
            first, last, empty = _add(first, f), _add(last, la), min(2, empty + e)
        return first, last, empty
    if isinstance(node, _Quant):
        lo, hi = min(node.lo, _CAP), None if node.hi is None else min(node.hi, _CAP)
        if hi is not None and node.hi != node.lo and hi == lo:
            hi = lo + 1  # keep a variable count variable
        parts: list[_Node] = [node.atom] * lo
        terms = tuple(parts)
        first, last, empty = _build_seq(terms, auto)
        if hi is None:
            f, la, e = _build(node.atom, auto)
            auto.link(la, f)
            first, last, empty = _seq(auto, (first, last, empty), (f, la, 1))
        else:
            # X{lo,hi} = X^lo (X (X ...)?)?: each optional copy nests in the previous one.
            optional: tuple[Counts, Counts, int] | None = None
            for _ in range(hi - lo):
                f, la, e = _build(node.atom, auto)
                if optional is None:
                    optional = (f, la, 1)
                else:
                    inner = _seq(auto, (f, la, e), optional)
                    optional = (inner[0], inner[1], 1)
            if optional is not None:
                first, last, empty = _seq(auto, (first, last, empty), optional)
        return first, last, empty
    return {}, {}, 1  # assertions, lookarounds, back-references: empty here


def _seq(
    auto: _Automaton, a: tuple[Counts, Counts, int], b: tuple[Counts, Counts, int]
) -> tuple[Counts, Counts, int]:
    auto.link(a[1], b[0])
    return _add(a[0], b[0], a[2]), _add(b[1], a[1], b[2]), min(2, a[2] * b[2])


def _build_seq(terms: tuple[_Node, ...], auto: _Automaton) -> tuple[Counts, Counts, int]:
    acc: tuple[Counts, Counts, int] = ({}, {}, 1)
    for term in terms:
        acc = _seq(auto, acc, _build(term, auto))
    return acc


def _exponential(node: _Node) -> bool:
    auto = _Automaton()
    _build(node, auto)
    n = len(auto.labels)
    meet = [[_intersects(auto.labels[p], auto.labels[q]) for q in range(n)] for p in range(n)]
    edges: dict[tuple[int, int], list[tuple[int, int]]] = {}
    doubled: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    stack = [(p, p) for p in range(n) if auto.labels[p]]
    seen = set(stack)
    budget = 200_000
    while stack:
        pair = stack.pop()
        p1, p2 = pair
        out: list[tuple[int, int]] = []
        for q1, m1 in auto.follow.get(p1, {}).items():
            for q2 in auto.follow.get(p2, {}):
                budget -= 1
                if budget < 0:
                    raise _TooBig
                if not meet[q1][q2]:
                    continue
                target = (q1, q2)
                out.append(target)
                if p1 == p2 and q1 == q2 and m1 >= 2:
                    doubled.add((pair, target))
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        edges[pair] = out
    component = components(edges)
    with_diagonal = {component[(q, q)] for q in range(n) if (q, q) in component}
    for pair, targets in edges.items():
        for target in targets:
            if component[pair] != component[target] or component[pair] not in with_diagonal:
                continue
            if (pair, target) in doubled or pair[0] != pair[1] or target[0] != target[1]:
                return True
    return False


def _first(node: _Node) -> tuple[Ranges, bool]:
    """The characters a match can start with, and whether it can be empty (for the fallback)."""
    if isinstance(node, _Char):
        return ((node.cp, node.cp),), False
    if isinstance(node, _Set):
        return node.ranges, False
    if isinstance(node, _Quant):
        chars, empty = _first(node.atom)
        return chars, empty or node.lo == 0
    if isinstance(node, _Group) and node.kind not in ("la", "nla", "lb", "nlb"):
        return _first(node.body)
    if isinstance(node, _Disj):
        parts: list[tuple[int, int]] = []
        can_be_empty = False
        for alt in node.alternatives:
            chars, empty = _first_seq(alt)
            parts.extend(chars)
            can_be_empty = can_be_empty or empty
        return _normalize(parts), can_be_empty
    return (), True


def _first_seq(terms: tuple[_Node, ...]) -> tuple[Ranges, bool]:
    parts: list[tuple[int, int]] = []
    for term in terms:
        chars, empty = _first(term)
        parts.extend(chars)
        if not empty:
            return _normalize(parts), False
    return _normalize(parts), True


def _suspicious(node: _Node, inside: bool) -> bool:
    """Fallback for a sub-pattern too big to analyse: a variable quantifier or an alternation
    whose branches share a first character, inside the unbounded one."""
    if isinstance(node, _Quant):
        if inside and node.hi != node.lo and (node.hi is None or node.hi >= 2):
            return True
        return _suspicious(node.atom, inside)
    if isinstance(node, _Group):
        return node.kind not in ("la", "nla", "lb", "nlb") and _suspicious(node.body, inside)
    if isinstance(node, _Disj):
        firsts = [_first_seq(alt) for alt in node.alternatives]
        pairs = [(i, j) for i in range(len(firsts)) for j in range(i + 1, len(firsts))]
        shared = any(_intersects(firsts[i][0], firsts[j][0]) for i, j in pairs)
        overlap = shared or any(empty for _, empty in firsts)
        if inside and len(firsts) > 1 and overlap:
            return True
        return any(_suspicious(term, inside) for alt in node.alternatives for term in alt)
    return False


def _nested(node: _Node) -> int | None:
    """The position of the first (outermost, leftmost) unbounded quantifier that is exponential."""
    if isinstance(node, _Quant):
        if node.hi is None:
            try:
                if _exponential(node):
                    return node.position
            except _TooBig:
                if _suspicious(node.atom, True):
                    return node.position
        return _nested(node.atom)
    if isinstance(node, _Group):
        return _nested(node.body)
    if isinstance(node, _Disj):
        for alt in node.alternatives:
            for term in alt:
                found = _nested(term)
                if found is not None:
                    return found
    return None


# ---------------------------------------------------------------------------------------
# The entry point.


def _parse(pattern: str, unicode: bool, dash_escape: bool = False) -> tuple[_Disj, tuple[str, int] | None]:
    """The tree and the first construct outside E6; raises _SyntaxError."""
    cps, where = _units(pattern, unicode)
    groups, named = _prescan(cps)
    parser = _Parser(cps, where, unicode, dash_escape, groups, named or unicode)
    return parser.parse(), parser.outside


def translate(pattern: str) -> PatternTranslation:
    """Translate one ECMA-262 pattern (E6) into Python `re` source, or say why not."""
    try:
        return _translate(pattern)
    except _TooDeep as deep:
        reason = f"groups nested more than {_MAX_DEPTH} deep are not interpreted"
        return PatternTranslation(pattern, NOT_ENFORCED, None, reason, deep.position)


def _translate(pattern: str) -> PatternTranslation:
    try:
        tree, outside = _parse(pattern, unicode=True)
    except _SyntaxError as u_error:
        try:
            _parse(pattern, unicode=False)
        except _SyntaxError as error:
            return PatternTranslation(pattern, INVALID, None, error.message, error.position)
        try:
            tree, outside = _parse(pattern, unicode=True, dash_escape=True)
        except _SyntaxError:
            reason = f"{u_error.message}, valid only without the u flag, is not interpreted"
            return PatternTranslation(pattern, NOT_ENFORCED, None, reason, u_error.position)
    if outside is not None:
        what, where = outside
        return PatternTranslation(pattern, NOT_ENFORCED, None, f"{what} is not interpreted", where)
    nested = _nested(tree)
    if nested is not None:
        return PatternTranslation(pattern, ENFORCED, _emit(tree), NESTED_QUANTIFIER_REASON, nested, True)
    return PatternTranslation(pattern, ENFORCED, _emit(tree))
