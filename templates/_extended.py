"""The exact collector of extended mode (extended.md E4, E5, E7), shared by the modules.

Standard library only; copied into a package generated with `--keywords extended`. A module
declares its schemas once, at import, as `Node`s keyed by their JSON pointer (`link` joins
them); `collect` then visits a call exactly as E4 says: the group of a schema (itself, its
local `$ref` target's group, its `allOf` branches' groups), the `anyOf` / `oneOf` choices of
E5 (first accepting branch, discriminator, type rule, closest branch, with the names of later
combinators counted as declared), steps 1-5 over the completed group, the depth limit, and
identical issues recorded once. Only a call the module's straight-line fast path does not
accept comes here. Every line is worded by `_support` (the one place of message wording).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from . import _support as _s

DEPTH_LIMIT = 256
_NUMBER_BOUNDS = frozenset({"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf"})
_STRING_BOUNDS = frozenset({"minLength", "maxLength", "pattern"})

Segment = Any  # str (a name), int (an index), or (type name, text) for a key that is not a str
Path = tuple[Segment, ...]
Issue = tuple[str, Path, str]  # kind, path segments, line


class Combinator:
    """One `anyOf` / `oneOf` of a schema: its branches and what E5 reads from them."""

    __slots__ = ("accepts", "branches", "expected", "names", "tag", "tags")

    def __init__(
        self,
        branches: tuple[Any, ...],
        names: tuple[str, ...],
        tag: str | None,
        tags: tuple[object, ...],
        accepts: tuple[tuple[str, ...] | None, ...],
    ) -> None:
        self.branches = branches  # pointers, then (after link) the branch Nodes
        self.names = frozenset(names)  # declared by any branch, at any depth
        self.tag = tag  # the discriminator's property name (E5 rule 2), or None
        self.tags = tags
        self.accepts = accepts  # Ti per branch (E5 rule 3), None for every type
        expected: list[str] = []
        for names_of in accepts:
            expected += [n for n in names_of or () if n not in expected]
        self.expected = " | ".join(expected)


class Node:
    """One schema as extended mode reads it; its group and combinators joined by `link`."""

    __slots__ = (
        "bounds",
        "combinators",
        "const",
        "declared",
        "depth",
        "enum",
        "enum_text",
        "extra",
        "fast",
        "group",
        "items",
        "object_like",
        "open",
        "pointer",
        "properties",
        "required",
        "type_text",
        "types",
    )  # fmt: skip

    def __init__(
        self,
        pointer: str,
        *,
        types: tuple[str, ...] | None = None,
        const: tuple[object, ...] = (),
        enum: tuple[object, ...] | None = None,
        bounds: tuple[tuple[str, Any, Any], ...] = (),
        required: tuple[str, ...] = (),
        properties: tuple[tuple[str, str], ...] = (),
        extra: bool | str | None = None,
        items: str | None = None,
        open: bool = False,
        object_like: bool = False,
        group: tuple[str, ...] = (),
        combinators: tuple[Combinator, ...] = (),
    ) -> None:
        self.pointer = pointer
        self.types = types
        self.type_text = " | ".join(types) if types is not None else ""
        self.const = const
        self.enum = enum
        self.enum_text = _s.members_text(enum) if enum is not None else ""
        # (keyword, test, text after "is invalid: ") in E4 step 3's order
        self.bounds = tuple((k, _bound_test(k, v, extra_), _s.bound_text(k, v)) for k, v, extra_ in bounds)
        self.required = required
        self.properties: tuple[tuple[str, Any], ...] = properties
        self.extra: Any = extra  # None (absent), True, False, or the pointer of a schema
        self.items: Any = items
        self.open = open
        self.object_like = object_like
        self.group: tuple[Any, ...] = group  # pointers of the group's members (itself first)
        self.combinators = combinators
        self.declared = frozenset([*(name for name, _ in properties), *required])
        self.fast: Callable[..., bool] | None = None  # the module's fast test of this group
        self.depth = False  # the fast test takes the value's depth too


def use_fast(nodes: dict[str, Node], tests: dict[str, Callable[..., bool]], depth: bool = False) -> None:
    """Give schemas the module's fast tests: a value one proves valid is not visited.
    `depth`: the tests also take the value's depth (a recursive schema's limit, E4)."""
    for pointer, test in tests.items():
        node = nodes[pointer]
        node.fast = test
        node.depth = depth


def link(nodes: dict[str, Node]) -> Node:
    """Replace pointers by nodes, once, at import; returns the root (pointer "")."""
    for node in nodes.values():
        node.properties = tuple((name, nodes[p]) for name, p in node.properties)
        if isinstance(node.extra, str):
            node.extra = nodes[node.extra]
        if node.items is not None:
            node.items = nodes[node.items]
        node.group = tuple(nodes[p] for p in node.group)
        for combinator in node.combinators:
            combinator.branches = tuple(nodes[p] for p in combinator.branches)
    return nodes[""]


# ---------- bounds (E7) ----------


def _finite(v: object) -> bool:
    return not isinstance(v, float) or math.isfinite(v)


def _decimal(v: object) -> Fraction:
    """The exact value of a number's decimal representation (repr of the base type)."""
    if isinstance(v, float):
        return Fraction(float.__repr__(v))
    assert isinstance(v, int)
    return Fraction(int.__index__(v))


def _bound_test(keyword: str, k: Any, extra: Any) -> Callable[[Any], bool]:
    """A function that is True when a value of the keyword's JSON type meets the bound."""
    if keyword == "minimum":
        return lambda v: _finite(v) and v >= k
    if keyword == "exclusiveMinimum":
        return lambda v: _finite(v) and v > k
    if keyword == "maximum":
        return lambda v: _finite(v) and v <= k
    if keyword == "exclusiveMaximum":
        return lambda v: _finite(v) and v < k
    if keyword == "multipleOf":
        step = _decimal(k)
        return lambda v: _finite(v) and _decimal(v) % step == 0
    if keyword == "minLength":
        return lambda v: str.__len__(v) >= k
    if keyword == "maxLength":
        return lambda v: str.__len__(v) <= k
    if keyword == "minItems":
        return lambda v: list.__len__(v) >= k
    if keyword == "maxItems":
        return lambda v: list.__len__(v) <= k
    if keyword == "pattern":
        search: Callable[[str], object] = extra
        return lambda v: search(str.__str__(v)) is not None
    return unique  # uniqueItems (its line names the repeat: _repeat)


def _repeat(v: list[Any]) -> tuple[int, int] | None:
    """(J, I) of E7's uniqueItems line: J the first index repeating an earlier I, or None."""
    for j in range(1, len(v)):
        element = v[j]
        for i in range(j):
            if _s.json_equal(v[i], element):
                return j, i
    return None


# ---------- paths and issues ----------


def render(path: Path) -> str:
    text = ""
    for k, segment in enumerate(path):
        if type(segment) is int:
            text += "[" + str(segment) + "]"
        else:
            name = segment[1] if type(segment) is tuple else segment
            text = name if k == 0 else text + "." + name
    return text


def _invalid(path: Path, text: str) -> Issue:
    out: list[str] = []
    _s.rejected(out, render(path), text)
    return (_s.INVALID, path, out[1])


def _missing(path: Path) -> Issue:
    out: list[str] = []
    _s.missing(out, render(path))
    return (_s.MISSING, path, out[1])


def _unexpected(path: Path) -> Issue:
    out: list[str] = []
    _s.unexpected(out, render(path))
    return (_s.UNEXPECTED, path, out[1])


def _wrong_type(path: Path, expected: str, provided: str) -> Issue:
    out: list[str] = []
    _s.wrong_type(out, render(path), expected, provided)
    return (_s.TYPE, path, out[1])


def _satisfies(t: str, v: object, name: str) -> bool:
    if name == "integer":
        return t == "number" and _s.is_integral(v)
    return t == name


def _type_issue(node: Node, v: object, t: str, path: Path) -> Issue | None:
    types = node.types
    if types is None:
        return None
    for name in types:
        if _satisfies(t, v, name):
            return None
    return _wrong_type(path, node.type_text, t)


def _unique(found: list[Issue]) -> list[Issue]:
    seen: set[Issue] = set()
    kept: list[Issue] = []
    for issue in found:
        if issue not in seen:
            seen.add(issue)
            kept.append(issue)
    return kept


# ---------- the visit (E4, E5) ----------


class _Visit:
    __slots__ = ("cache", "chosen")

    def __init__(self) -> None:
        self.chosen: list[Issue] = []  # the candidate issues of the branch choose() selected
        # A visit below a property, an item or an extra key depends on nothing else: cached,
        # so E5's candidates stay linear on trees. The values outlive the call.
        self.cache: dict[tuple[int, int, Path], list[Issue]] = {}

    def visit(self, node: Node, v: object, path: Path) -> list[Issue]:
        if len(path) > DEPTH_LIMIT:
            return [_invalid(path, _s.DEPTH_TEXT)]
        fast = node.fast
        if fast is not None:
            try:
                if fast(v, len(path)) if node.depth else fast(v):
                    return []
            except Exception:
                pass  # the exact visit below says what the fast test could not
        key = (id(node), id(v), path)
        found = self.cache.get(key)
        if found is None:
            found = self.group(list(node.group), 0, v, path, frozenset())
            self.cache[key] = found
        return found

    def group(
        self, group: list[Node], start: int, v: object, path: Path, later: frozenset[str]
    ) -> list[Issue]:
        t = _s.json_type(v)
        for node in group:  # step 1 over the group known before any anyOf / oneOf
            issue = _type_issue(node, v, t, path)
            if issue is not None:
                return [issue]
        records: list[Issue] = []
        extra_names: frozenset[str] = later
        checked = len(group)  # their types are known to hold
        resolved = 0
        chosen: Node | None = None
        position = start
        while position < len(group):
            pending = group[position].combinators
            for k, combinator in enumerate(pending):
                ahead: set[str] = set(later)
                for rest in pending[k + 1 :]:
                    ahead |= rest.names
                for after in group[position + 1 :]:
                    for rest in after.combinators:
                        ahead |= rest.names
                resolved += 1
                chosen = self.choose(combinator, group, v, t, path, frozenset(ahead | extra_names), records)
                if chosen is None:
                    extra_names = extra_names | combinator.names
                else:
                    group = group + list(chosen.group)
            position += 1
        if resolved == 1 and chosen is not None and not any(n.combinators for n in chosen.group):
            # One combinator, nothing after it: steps 1-5 over the completed group are what
            # that branch's candidates already found.
            return records + self.chosen
        return records + self.steps(group, v, t, path, extra_names, checked)

    def choose(
        self,
        combinator: Combinator,
        group: list[Node],
        v: object,
        t: str,
        path: Path,
        ahead: frozenset[str],
        records: list[Issue],
    ) -> Node | None:
        """E5: the selected branch, or None after recording why none is."""
        found: list[list[Issue]] = []
        for branch in combinator.branches:  # rule 1: the first branch with no candidate issue
            candidates = _unique(self.group(group + list(branch.group), len(group), v, path, ahead))
            if not candidates:
                self.chosen = candidates
                return branch
            found.append(candidates)
        if combinator.tag is not None and isinstance(v, dict):  # rule 2
            name = combinator.tag
            where = (*path, name)
            if name not in v:
                records.append(_missing(where))
                return None
            for i, tag in enumerate(combinator.tags):
                if _s.json_equal(v[name], tag):
                    self.chosen = found[i]
                    return combinator.branches[i]
            records.append(_invalid(where, _s.one_of_text(combinator.tags)))
            return None
        admitting = [
            i
            for i, names in enumerate(combinator.accepts)
            if names is None or any(_satisfies(t, v, n) for n in names)
        ]
        if not admitting:  # rule 3
            records.append(_wrong_type(path, combinator.expected, t))
            return None
        best = admitting[0]  # rule 4: the fewest candidates, the first on ties
        for i in admitting[1:]:
            if len(found[i]) < len(found[best]):
                best = i
        self.chosen = found[best]
        return combinator.branches[best]

    def steps(
        self, group: list[Node], v: object, t: str, path: Path, extra_names: frozenset[str], checked: int
    ) -> list[Issue]:
        for node in group[checked:]:  # 1. type (the first `checked` were checked by the caller)
            issue = _type_issue(node, v, t, path)
            if issue is not None:
                return [issue]
        for node in group:  # 2. const, enum
            if node.const and not _s.json_equal(v, node.const[0]):
                return [_invalid(path, _s.const_text(node.const[0]))]
            if node.enum is not None and not _s.json_in(v, node.enum):
                return [_invalid(path, _s.one_of_members(node.enum_text))]
        out: list[Issue] = []
        for node in group:  # 3. bounds
            for keyword, test, text in node.bounds:
                if keyword in _NUMBER_BOUNDS:
                    if t == "number" and not test(v):
                        out.append(_invalid(path, text))
                elif keyword in _STRING_BOUNDS:
                    if t == "string" and not test(v):
                        out.append(_invalid(path, text))
                elif t == "array":
                    assert isinstance(v, list)
                    if keyword == "uniqueItems":
                        repeat = _repeat(v)
                        if repeat is not None:
                            out.append(_invalid(path, _s.repeat_text(*repeat)))
                    elif not test(v):
                        out.append(_invalid(path, text))
        if isinstance(v, dict) and any(node.object_like for node in group):  # 4. objects
            reported: set[str] = set()
            for node in group:
                for name in node.required:
                    if name not in v and name not in reported:
                        reported.add(name)
                        out.append(_missing((*path, name)))
            for node in group:
                for name, sub in node.properties:
                    if name in v:
                        out += self.visit(sub, v[name], (*path, name))
            opened = any(node.open for node in group)
            extras = [node.extra for node in group if node.extra is not None]
            allowed = opened or any(e is True for e in extras)
            schemas = [e for e in extras if isinstance(e, Node)]
            declared = extra_names.union(*(node.declared for node in group))
            for key in v:
                if type(key) is not str and not isinstance(key, str):
                    out.append(_unexpected((*path, (_s.type_name(key), _s.key_text(key)))))
                    continue
                key = str.__str__(key)
                if allowed or key in declared:
                    continue
                if schemas:
                    for schema in schemas:
                        out += self.visit(schema, v[key], (*path, key))
                else:
                    out.append(_unexpected((*path, key)))
        if isinstance(v, list):  # 5. arrays
            for node in group:
                if node.items is not None:
                    for i, element in enumerate(v):
                        out += self.visit(node.items, element, (*path, i))
        return out


def issues(root: Node, args: object) -> list[Issue]:
    """Every issue of a call that is a dict, identical ones once, in visit order."""
    try:
        return _unique(_Visit().visit(root, args, ()))
    except RecursionError:
        pass
    # A value nested near the depth limit inside recursive branches needs more frames than
    # the interpreter's default allows: once more with room for E4's 256 levels.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 40 * DEPTH_LIMIT + 2000))
    try:
        return _unique(_Visit().visit(root, args, ()))
    finally:
        sys.setrecursionlimit(limit)


def collect(root: Node, args: object, mis: list[str], une: list[str], typ: list[str], inv: list[str]) -> None:
    """A module's collector: each issue as a (path, line) pair, flat, in the list of its kind."""
    if not isinstance(args, dict):
        _s.not_object(typ, _s.json_type(args))
        return
    lists = {_s.MISSING: mis, _s.UNEXPECTED: une, _s.TYPE: typ, _s.INVALID: inv}
    for kind, path, line in issues(root, args):
        lists[kind] += (render(path), line)


# ---------- used by the fast path ----------


def multiple(v: int | float, k: int | float) -> bool:
    """E7's multipleOf: exact decimal arithmetic; a non-finite value is never a multiple."""
    if type(v) is int and type(k) is int:
        return v % k == 0  # integers are exact already
    return _finite(v) and _decimal(v) % _decimal(k) == 0


def unique(v: list[Any]) -> bool:
    """No two elements JSON-equal (uniqueItems)."""
    return _repeat(v) is None
