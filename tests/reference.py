"""The reference interpreter of both keyword modes, written only for tests.

It reads a declaration at run time, exactly what the product never does, and follows the
specs' words as literally as it can (docs/spec/validation.md for `subset`, docs/spec/extended.md E2-E7 for
`extended`), so that generated validators can be cross-checked against an independent,
obviously-correct reading on thousands of random declarations and inputs. It assumes a
declaration the generator accepts (docs/spec/validation.md §7, E8): in extended mode no in-place
reference cycle, every local `$ref` target present, combinators non-empty lists.

One visit serves both modes (docs/spec/extended.md: "Everything in validation.md holds in extended
mode unless this file says otherwise"): subset mode is extended's visit with fewer keywords
interpreted, so every group is the schema alone and no combinator, `const` or bound is met.
What else differs is a field of `Vocabulary`, named after the spec sentence that says so.

API:
    issues(parameters, args, vocabulary=SUBSET, patterns=ecma_pattern) -> [(kind, path, line), ...]
    message(tool, parameters, args, vocabulary=SUBSET, patterns=ecma_pattern) -> str | None
`patterns` decides, per declared pattern, how it is interpreted: it returns a matcher
(`str -> bool`, "found anywhere") or None when the pattern is outside E6 and so ignored.
The default, `ecma_pattern`, accepts exactly the syntax of E6 (`e6_syntax`) and matches with
the `regress` ECMA-262 engine (flag `u`), so the product's own translation to Python `re`
is checked against a real ECMA engine.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any
from urllib.parse import unquote

import regress

KIND_ORDER = ("missing", "unexpected", "type", "invalid")
TYPE_NAMES = ("string", "number", "integer", "boolean", "object", "array", "null")
OBJECT_KEYWORDS = ("properties", "required", "additionalProperties")
NUMBER_BOUNDS = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf")
# E4 step 3: the order in which one schema's bounds are checked.
BOUND_ORDER = (*NUMBER_BOUNDS, "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems")


@dataclass(frozen=True)
class Vocabulary:
    """What one keyword mode reads; everything else about the visit is common to both."""

    name: str
    # docs/spec/validation.md §2 / E2: the keywords interpreted (`$ref` only when local, E3).
    interpreted: frozenset[str]
    # docs/spec/validation.md §2 / E2: keywords that can admit keys this mode cannot see; an object
    # (a group, E4) carrying one does not check its undeclared keys. A `$ref` that is not
    # interpreted opens too.
    open_keywords: frozenset[str]
    # docs/spec/validation.md §3: a non-`str` key is unexpected only where undeclared keys are checked;
    # E4 4c: extended mode reports it whatever the group says (open, `additionalProperties: true`).
    non_str_keys_always_unexpected: bool
    # E4: a value whose path has more than this many segments is not visited (an invalid
    # issue, E7 `depth`); None: no limit (subset mode cannot recurse, the schema bounds depth).
    depth_limit: int | None
    # E4: an issue identical to one already recorded is recorded once. docs/spec/validation.md §5
    # reports every issue: two non-str keys that print alike (two NaN keys) are two.
    drops_repeats: bool

    def resolves(self, ref: Any) -> bool:
        """E3: the `$ref` is followed in place (interpreted and local)."""
        return "$ref" in self.interpreted and is_local(ref)


SUBSET = Vocabulary(
    name="subset",
    interpreted=frozenset({"type", "required", "enum", "properties", "additionalProperties", "items"}),
    open_keywords=frozenset({
        "patternProperties", "allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "$recursiveRef",
        "dependentSchemas", "dependencies", "if", "then", "else", "unevaluatedProperties",
    }),
    non_str_keys_always_unexpected=False,
    depth_limit=None,
    drops_repeats=False,
)  # fmt: skip
# E2: the keywords extended mode adds; `$defs` / `definitions` hold `$ref` targets only.
ADDED_KEYWORDS = frozenset({
    "$ref", "$defs", "definitions", "allOf", "anyOf", "oneOf", "const", *BOUND_ORDER,
})  # fmt: skip
EXTENDED = dataclasses.replace(
    SUBSET,
    name="extended",
    interpreted=SUBSET.interpreted | ADDED_KEYWORDS,
    # allOf, anyOf, oneOf and a local $ref are interpreted, so they no longer open an object.
    open_keywords=SUBSET.open_keywords - {"allOf", "anyOf", "oneOf", "$ref"},
    non_str_keys_always_unexpected=True,
    depth_limit=256,
    drops_repeats=True,
)
VOCABULARIES = {vocabulary.name: vocabulary for vocabulary in (SUBSET, EXTENDED)}
# Ignored in extended mode without being "not enforced": identifiers and comments (E3).
IGNORED_ANNOTATIONS = frozenset({"$id", "$anchor", "$schema", "$comment"})
# E2: still not interpreted in extended mode (each listed as not enforced).
NOT_INTERPRETED = (
    "not", "if", "then", "else", "dependentSchemas", "dependentRequired", "dependencies",
    "patternProperties", "propertyNames", "unevaluatedProperties", "unevaluatedItems",
    "prefixItems", "additionalItems", "contains", "minContains", "maxContains",
    "minProperties", "maxProperties", "$dynamicRef", "$recursiveRef", "format",
    "contentEncoding", "contentMediaType", "default",
)  # fmt: skip


# ---------- E6: patterns ----------

Matcher = Callable[[str], bool]
PatternHook = Callable[[str], "Matcher | None"]

_SYNTAX = frozenset("^$\\.*+?()[]{}|")
_IDENTITY = frozenset("\\/^$.*+?()[]{}|-")
_CONTROL = frozenset("tnrfv")
_CLASSES = frozenset("dDwWsS")
_HEX = frozenset("0123456789abcdefABCDEF")


class _OutsideE6(Exception):
    pass


class _E6:
    """Recursive descent over the syntax of E6; `normal` is the same pattern for an ECMA
    engine with flag `u` (E6's `\\-` outside a class, an error under `u`, becomes `-`)."""

    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.i = 0
        self.out: list[str] = []

    def peek(self, k: int = 0) -> str:
        return self.p[self.i + k] if self.i + k < len(self.p) else ""

    def take(self, n: int = 1) -> str:
        text = self.p[self.i : self.i + n]
        self.i += n
        self.out.append(text)
        return text

    def parse(self) -> str:
        self.disjunction()
        if self.i != len(self.p):
            raise _OutsideE6(self.p[self.i :])
        return "".join(self.out)

    def disjunction(self) -> None:
        self.alternative()
        while self.peek() == "|":
            self.take()
            self.alternative()

    def alternative(self) -> None:
        while self.peek() not in ("", "|", ")"):
            self.term()

    def term(self) -> None:
        c = self.peek()
        if c in ("^", "$"):
            self.take()
            return self.no_quantifier()
        if self.p.startswith(("\\b", "\\B"), self.i):
            self.take(2)
            return self.no_quantifier()
        if self.p.startswith(("(?=", "(?!"), self.i):
            self.take(3)
            self.group_rest()
            return self.no_quantifier()
        self.atom()
        self.quantifier()
        return None

    def no_quantifier(self) -> None:
        if self.peek() in ("*", "+", "?", "{"):
            raise _OutsideE6("quantified assertion")

    def group_rest(self) -> None:
        self.disjunction()
        if self.peek() != ")":
            raise _OutsideE6("unclosed group")
        self.take()

    def atom(self) -> None:
        c = self.peek()
        if c == "(":
            if self.p.startswith("(?:", self.i):
                self.take(3)
            elif self.peek(1) == "?":
                raise _OutsideE6("group kind")  # named groups, lookbehind, inline flags
            else:
                self.take()
            self.group_rest()
        elif c == "[":
            self.bracket_class()
        elif c == "\\":
            self.escape(in_class=False)
        elif c == "." or c not in _SYNTAX:
            self.take()
        else:
            raise _OutsideE6(c)  # a lone ] { } or a quantifier with nothing before it

    def quantifier(self) -> None:
        c = self.peek()
        if c in ("*", "+", "?"):
            self.take()
        elif c == "{":
            j = self.i + 1
            low = self._digits(j)
            if not low:
                raise _OutsideE6("lone {")
            j += len(low)
            high: str | None = low
            if self.p.startswith(",", j):
                j += 1
                high = self._digits(j)
                j += len(high)
                high = high or None
            if not self.p.startswith("}", j):
                raise _OutsideE6("lone {")
            if high is not None and int(high) < int(low):
                raise _OutsideE6("{n,m} out of order")
            self.take(j + 1 - self.i)
        else:
            return
        if self.peek() == "?":
            self.take()

    def _digits(self, j: int) -> str:
        k = j
        while k < len(self.p) and self.p[k].isascii() and self.p[k].isdigit():
            k += 1
        return self.p[j:k]

    def escape(self, in_class: bool) -> bool:
        """One escape; True when it is a class escape (`\\d` ...), which cannot end a range."""
        c = self.peek(1)
        if c == "-" and not in_class:
            self.i += 2
            self.out.append("-")
        elif c in _IDENTITY or c in _CONTROL:
            self.take(2)
        elif c in _CLASSES:
            self.take(2)
            return True
        elif c == "0":
            if self.peek(2).isascii() and self.peek(2).isdigit():
                raise _OutsideE6("\\0 then a digit")
            self.take(2)
        elif c == "x":
            if not (self.peek(2) in _HEX and self.peek(3) in _HEX and self.peek(2) and self.peek(3)):
                raise _OutsideE6("\\x")
            self.take(4)
        elif c == "u":
            if self.peek(2) == "{":
                end = self.p.find("}", self.i + 3)
                digits = self.p[self.i + 3 : end] if end != -1 else ""
                if not digits or any(d not in _HEX for d in digits) or int(digits, 16) > 0x10FFFF:
                    raise _OutsideE6("\\u{}")
                self.take(end + 1 - self.i)
            else:
                digits = self.p[self.i + 2 : self.i + 6]
                if len(digits) != 4 or any(d not in _HEX for d in digits):
                    raise _OutsideE6("\\u")
                self.take(6)
        else:
            raise _OutsideE6("escape")  # back-references, \p, \c, \k, \b in a class, \a ...
        return False

    def class_atom(self) -> tuple[int | None, bool]:
        """(code point or None for a class escape, parsed)."""
        start = len(self.out)
        if self.peek() == "\\":
            if self.escape(in_class=True):
                return None, True
            text = "".join(self.out[start:])
            return _escape_value(text), True
        if self.peek() == "":
            raise _OutsideE6("unclosed class")
        return ord(self.take()), True

    def bracket_class(self) -> None:
        self.take()
        if self.peek() == "^":
            self.take()
        while self.peek() != "]":
            low, _ = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.take()
                high, _ = self.class_atom()
                if low is None or high is None:
                    raise _OutsideE6("class escape in a range")
                if low > high:
                    raise _OutsideE6("range out of order")
        self.take()


def _escape_value(text: str) -> int:
    c = text[1]
    simple = {"t": 9, "n": 10, "r": 13, "f": 12, "v": 11, "0": 0}
    if c in simple:
        return simple[c]
    if c == "x":
        return int(text[2:4], 16)
    if c == "u":
        return int(text[3:-1] if text[2] == "{" else text[2:6], 16)
    return ord(c)


def e6_syntax(pattern: str) -> str | None:
    """The pattern for an ECMA engine with flag `u` when it is inside E6's syntax, else None."""
    try:
        return _E6(pattern).parse()
    except _OutsideE6:
        return None


@lru_cache(maxsize=4096)
def ecma_pattern(pattern: str) -> Matcher | None:
    """The default pattern hook: E6 syntax, ECMA-262 matching (regress, flag `u`), unanchored."""
    normal = e6_syntax(pattern)
    if normal is None:
        return None
    try:
        compiled = regress.Regex(normal, "u")
    except regress.RegressError:
        return None
    return lambda text: compiled.find(text) is not None


# ---------- JSON values (docs/spec/validation.md §3, §4) ----------


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    return type(value).__name__


def satisfies(value: Any, name: str) -> bool:
    actual = json_type(value)
    if name == "integer":
        return actual == "number" and (isinstance(value, int) or float(value).is_integer())
    return actual == name


def json_equal(a: Any, b: Any) -> bool:
    if json_type(a) != json_type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# ---------- schemas: references, groups ----------

Schema = dict[str, Any]
Segment = Any  # str (a name), int (an index), or ("key", id(key), str(key)) for a non-str key


def is_local(ref: Any) -> bool:
    return isinstance(ref, str) and (ref == "#" or ref.startswith("#/"))


def resolve(root: Any, ref: str) -> Any:
    """E3: the fragment is percent-decoded, then read as an RFC 6901 pointer from `root`."""
    target = root
    pointer = unquote(ref[1:])
    for token in pointer.split("/")[1:] if pointer else []:
        token = token.replace("~1", "/").replace("~0", "~")
        target = target[int(token)] if isinstance(target, list) else target[token]
    return target


def declared_types(schema: Schema) -> list[str]:
    declared = schema["type"]
    return [declared] if isinstance(declared, str) else list(declared)


def object_like(schema: Schema) -> bool:
    return any(k in schema for k in OBJECT_KEYWORDS) or (
        "type" in schema and "object" in declared_types(schema)
    )


def render(path: tuple[Segment, ...]) -> str:
    """docs/spec/validation.md §6: names joined by `.`, indices as `[i]`; a non-str key as `str(key)`."""
    text = ""
    for k, segment in enumerate(path):
        if isinstance(segment, int):
            text += f"[{segment}]"
        else:
            name = segment[-1] if isinstance(segment, tuple) else segment
            text = name if k == 0 else f"{text}.{name}"
    return text


Issue = tuple[str, tuple[Segment, ...], str]  # kind, path segments, line


class _Interpreter:
    def __init__(self, root: Schema, vocabulary: Vocabulary, patterns: PatternHook) -> None:
        self.root = root
        self.vocabulary = vocabulary
        self.reads = vocabulary.interpreted
        self.patterns = patterns
        # visit() results by (id(schema), id(value), path): a visit below a property, an item
        # or an extra key depends on nothing else, and candidates (E5) would otherwise revisit
        # a tree's subtrees exponentially often. Both objects outlive the call.
        self.cache: dict[tuple[int, int, tuple[Segment, ...]], list[Issue]] = {}

    # E4: G(S) without the combinators' selections (in subset mode: S alone)
    def group(self, schema: Any) -> list[Schema]:
        if isinstance(schema, bool):
            return []
        found = [schema]
        if self.vocabulary.resolves(schema.get("$ref")):
            found += self.group(resolve(self.root, schema["$ref"]))
        if "allOf" in self.reads:
            for branch in schema.get("allOf", []):
                found += self.group(branch)
        return found

    def combinators(self, schema: Schema) -> Iterator[list[Any]]:
        for keyword in ("anyOf", "oneOf"):  # within one schema, anyOf before oneOf
            if keyword in schema and keyword in self.reads:
                yield schema[keyword]

    def is_open(self, schema: Schema) -> bool:
        opens = any(k in schema for k in self.vocabulary.open_keywords)
        return opens or ("$ref" in schema and not self.vocabulary.resolves(schema["$ref"]))

    @staticmethod
    def declares(group: list[Schema], declared_extra: set[str], key: Any) -> bool:
        """E4 4c: the key is in `properties` or `required` of a schema of the group, or declared by
        an unresolved combinator. Looked up as written (a dict, then a list): a key whose hash or
        equality raises cannot be read, as in the subset validators."""
        if key in declared_extra:
            return True
        return any(key in s.get("properties", {}) or key in s.get("required", []) for s in group)

    def names_of_combinator(self, branches: list[Any]) -> set[str]:
        """Names declared by any branch: its group, and combinators nested in it, at any depth."""
        names: set[str] = set()
        for branch in branches:
            for schema in self.group(branch):
                names.update(declared_here(schema))
                for nested in self.combinators(schema):
                    names |= self.names_of_combinator(nested)
        return names

    # the visit
    def visit(self, schema: Any, value: Any, path: tuple[Segment, ...]) -> list[Issue]:
        limit = self.vocabulary.depth_limit
        if limit is not None and len(path) > limit:
            return [invalid(path, f"nested more than {limit} levels deep")]
        key = (id(schema), id(value), path)
        if key not in self.cache:
            self.cache[key] = self.visit_group(self.group(schema), 0, value, path, set())
        return self.cache[key]

    def visit_group(
        self, start: list[Schema], resolve_from: int, value: Any, path: tuple[Segment, ...], later: set[str]
    ) -> list[Issue]:
        """Visit `value` against a group whose combinators from position `resolve_from` on are
        not yet resolved; `later` holds names declared by unresolved combinators outside it."""
        for schema in start:  # step 1 over the group as known before any anyOf / oneOf
            issue = type_issue(schema, value, path)
            if issue is not None:
                return [issue]
        records: list[Issue] = []
        group = list(start)
        declared_extra = set(later)
        position = resolve_from
        while position < len(group):
            schema = group[position]
            pending = list(self.combinators(schema))
            for k, branches in enumerate(pending):
                # names of later, unresolved combinators: the rest of this schema's, then those
                # of the schemas after it in the group so far
                ahead = set(later)
                for rest in pending[k + 1 :]:
                    ahead |= self.names_of_combinator(rest)
                for after in group[position + 1 :]:
                    for rest in self.combinators(after):
                        ahead |= self.names_of_combinator(rest)
                chosen = self.choose(branches, group, value, path, ahead | declared_extra, records)
                if chosen is None:
                    declared_extra |= self.names_of_combinator(branches)
                else:
                    group += self.group(branches[chosen])
            position += 1
        return records + self.steps(group, value, path, declared_extra)

    def candidates(
        self, branch: Any, group: list[Schema], value: Any, path: tuple[Segment, ...], ahead: set[str]
    ) -> list[Issue]:
        found = self.visit_group(group + self.group(branch), len(group), value, path, ahead)
        return unique(found)

    def choose(
        self,
        branches: list[Any],
        group: list[Schema],
        value: Any,
        path: tuple[Segment, ...],
        ahead: set[str],
        records: list[Issue],
    ) -> int | None:
        """E5: the index of the selected branch, or None (after recording why)."""
        found = [self.candidates(b, group, value, path, ahead) for b in branches]
        for i, issues_of_branch in enumerate(found):  # rule 1
            if not issues_of_branch:
                return i
        own_groups = [self.group(b) for b in branches]
        tag = discriminator(own_groups)
        if tag is not None and isinstance(value, dict):  # rule 2
            name, tags = tag
            if name not in value:
                records.append(("missing", (*path, name), missing_line(render((*path, name)))))
                return None
            for i, t in enumerate(tags):
                if json_equal(value[name], t):
                    return i
            members = ", ".join(compact(t) for t in tags)
            records.append(invalid((*path, name), f"expected one of {members}"))
            return None
        accepts = [admitted_types(g) for g in own_groups]  # rule 3
        admitting = [
            i for i, names in enumerate(accepts) if names is None or any(satisfies(value, n) for n in names)
        ]
        if not admitting:
            expected: list[str] = []
            for names in accepts:
                expected += [n for n in names or () if n not in expected]
            line = type_line(render(path), " | ".join(expected), json_type(value))
            records.append(("type", path, line))
            return None
        return min(admitting, key=lambda i: len(found[i]))  # rule 4 (min keeps the first on ties)

    def steps(
        self, group: list[Schema], value: Any, path: tuple[Segment, ...], declared_extra: set[str]
    ) -> list[Issue]:
        for schema in group:  # 1. type
            issue = type_issue(schema, value, path)
            if issue is not None:
                return [issue]
        for schema in group:  # 2. const, enum
            if "const" in schema and "const" in self.reads and not json_equal(value, schema["const"]):
                return [invalid(path, f"expected {compact(schema['const'])}")]
            if "enum" in schema and not any(json_equal(value, m) for m in schema["enum"]):
                return [invalid(path, "expected one of " + ", ".join(compact(m) for m in schema["enum"]))]
        out: list[Issue] = []
        for schema in group:  # 3. bounds
            for keyword in BOUND_ORDER:
                if keyword in schema and keyword in self.reads:
                    text = self.broken(keyword, schema[keyword], value)
                    if text is not None:
                        out.append(invalid(path, text))
        if isinstance(value, dict) and any(object_like(s) for s in group):  # 4. objects
            reported: set[str] = set()
            for schema in group:
                for name in schema.get("required", []):
                    if name not in value and name not in reported:
                        reported.add(name)
                        out.append(("missing", (*path, name), missing_line(render((*path, name)))))
            for schema in group:
                for name, sub in schema.get("properties", {}).items():
                    if name in value:
                        out += self.visit(sub, value[name], (*path, name))
            extras = [s["additionalProperties"] for s in group if "additionalProperties" in s]
            always = self.vocabulary.non_str_keys_always_unexpected
            opened = any(self.is_open(s) for s in group)
            free = opened or any(e is True for e in extras)
            # docs/spec/validation.md §2: an open object examines none of its keys (E4 4c: extended mode
            # still reports the non-str ones)
            for key in value if always or not opened else ():
                named = isinstance(key, str)
                if named or not always:  # E4 4c: a non-str key is unexpected before any look-up
                    if self.declares(group, declared_extra, key) or free:
                        continue
                    dicts = [e for e in extras if isinstance(e, dict)]
                    if named and dicts:
                        for extra in dicts:
                            out += self.visit(extra, value[key], (*path, key))
                        continue
                # unexpected; a non-str key's value is never visited (docs/spec/validation.md §3). E4 drops
                # an issue whose path segments repeat: a key is the segment, so two keys that
                # print alike (two NaN objects) stay apart, by identity, never compared with ==
                # (subset mode drops none)
                segment: Segment = key
                if not named:
                    segment = ("key", id(key), str(key))
                out.append(("unexpected", (*path, segment), unexpected_line(render((*path, segment)))))
        if isinstance(value, list):  # 5. arrays
            for schema in group:
                items = schema.get("items")
                if isinstance(items, (dict, bool)):
                    for i, element in enumerate(value):
                        out += self.visit(items, element, (*path, i))
        return out

    def broken(self, keyword: str, k: Any, value: Any) -> str | None:
        """E7: the text after `is invalid: ` when `value` breaks `keyword: k`, else None."""
        kind = json_type(value)
        shown = json.dumps(k)
        if keyword in NUMBER_BOUNDS:
            if kind != "number" or isinstance(k, bool):  # the draft-4 boolean exclusive* is not read
                return None
            finite = not isinstance(value, float) or math.isfinite(value)
            if keyword == "multipleOf":
                ok = finite and Fraction(repr(value)) % Fraction(repr(k)) == 0
                return None if ok else f"expected a multiple of {shown}"
            holds: dict[str, tuple[bool, str]] = {
                "minimum": (finite and value >= k, "greater than or equal to"),
                "exclusiveMinimum": (finite and value > k, "greater than"),
                "maximum": (finite and value <= k, "less than or equal to"),
                "exclusiveMaximum": (finite and value < k, "less than"),
            }
            ok, words = holds[keyword]
            return None if ok else f"expected a number {words} {shown}"
        if keyword in ("minLength", "maxLength", "pattern"):
            if kind != "string":
                return None
            if keyword == "pattern":
                matcher = self.patterns(k)
                ok = matcher is None or matcher(value)
                return None if ok else f"expected a string matching the pattern {k}"
            noun = "character" if k == 1 else "characters"
            if keyword == "minLength":
                return None if len(value) >= k else f"expected at least {shown} {noun}"
            return None if len(value) <= k else f"expected at most {shown} {noun}"
        if kind != "array":
            return None
        if keyword == "uniqueItems":
            if k is not True:
                return None
            for j, element in enumerate(value):
                for i in range(j):
                    if json_equal(value[i], element):
                        return f"expected unique items, but [{j}] repeats [{i}]"
            return None
        noun = "item" if k == 1 else "items"
        if keyword == "minItems":
            return None if len(value) >= k else f"expected at least {shown} {noun}"
        return None if len(value) <= k else f"expected at most {shown} {noun}"


def group(root: Schema, schema: Any, vocabulary: Vocabulary) -> list[Schema]:
    """E4: the group of `schema` below `root` before any anyOf / oneOf selection."""
    return _Interpreter(root, vocabulary, ecma_pattern).group(schema)


def bound_text(keyword: str, k: Any, value: Any, patterns: PatternHook = ecma_pattern) -> str | None:
    """E7: the text after `is invalid: ` when `value` breaks the bound `keyword: k`, else None."""
    return _Interpreter({}, EXTENDED, patterns).broken(keyword, k, value)


def declared_here(schema: Schema) -> list[str]:
    return [*schema.get("properties", {}), *schema.get("required", [])]


def discriminator(groups: list[list[Schema]]) -> tuple[str, list[Any]] | None:
    """E5 rule 2: (P, the tags in branch order), or None."""
    if not all(any(object_like(s) for s in g) for g in groups):
        return None

    def tag_of(g: list[Schema], name: str) -> tuple[bool, Any]:
        for schema in g:
            sub = schema.get("properties", {}).get(name)
            if isinstance(sub, dict):
                if "const" in sub:
                    return True, sub["const"]
                if isinstance(sub.get("enum"), list) and len(sub["enum"]) == 1:
                    return True, sub["enum"][0]
        return False, None

    first_names: list[str] = []
    for schema in groups[0]:
        first_names += [n for n in schema.get("properties", {}) if n not in first_names]
    for name in first_names:
        found = [tag_of(g, name) for g in groups]
        if not all(ok for ok, _ in found):
            continue
        tags = [t for _, t in found]
        if all(not json_equal(tags[i], tags[j]) for j in range(len(tags)) for i in range(j)):
            return name, tags
    return None


def admitted_types(group: list[Schema]) -> list[str] | None:
    """E5 rule 3: Ti, or None for every type."""
    for schema in group:
        if "type" in schema:
            return declared_types(schema)
    for schema in group:
        for keyword in ("const", "enum"):
            if keyword in schema:
                members = [schema["const"]] if keyword == "const" else schema["enum"]
                names: list[str] = []
                for member in members:
                    if json_type(member) not in names:
                        names.append(json_type(member))
                return names
    return None


def type_issue(schema: Schema, value: Any, path: tuple[Segment, ...]) -> Issue | None:
    if "type" not in schema:
        return None
    names = declared_types(schema)
    if any(satisfies(value, n) for n in names):
        return None
    return ("type", path, type_line(render(path), " | ".join(names), json_type(value)))


def type_line(path: str, expected: str, provided: str) -> str:
    return f"The parameter `{path}` type is expected as `{expected}` but provided as `{provided}`"


def missing_line(path: str) -> str:
    return f"The required parameter `{path}` is missing"


def unexpected_line(path: str) -> str:
    return f"An unexpected parameter `{path}` was provided"


def invalid(path: tuple[Segment, ...], text: str) -> Issue:
    return ("invalid", path, f"The parameter `{render(path)}` is invalid: {text}")


def unique(found: list[Issue]) -> list[Issue]:
    """Drop an issue identical to one already recorded (kind, path segments, line)."""
    seen: set[Issue] = set()
    kept: list[Issue] = []
    for issue in found:
        if issue not in seen:
            seen.add(issue)
            kept.append(issue)
    return kept


def issues(
    parameters: Schema, args: Any, vocabulary: Vocabulary = SUBSET, patterns: PatternHook = ecma_pattern
) -> list[tuple[str, str, str]]:
    """(kind, path, line) per issue, grouped by kind in spec order (E4: repeats dropped)."""
    if not isinstance(args, dict):
        line = f"The tool input type is expected as `object` but provided as `{json_type(args)}`"
        return [("type", "", line)]
    limit = sys.getrecursionlimit()
    # three frames per level of the value (visit, visit_group, steps), more through combinators
    sys.setrecursionlimit(max(limit, 20 * (vocabulary.depth_limit or 256) + 2000))
    try:
        found = _Interpreter(parameters, vocabulary, patterns).visit(parameters, args, ())
    finally:
        sys.setrecursionlimit(limit)
    if vocabulary.drops_repeats:
        found = unique(found)
    ordered = sorted(found, key=lambda issue: KIND_ORDER.index(issue[0]))
    return [(kind, render(path), line) for kind, path, line in ordered]


def message(
    tool: str,
    parameters: Schema,
    args: Any,
    vocabulary: Vocabulary = SUBSET,
    patterns: PatternHook = ecma_pattern,
) -> str | None:
    found = issues(parameters, args, vocabulary, patterns)
    if not found:
        return None
    noun = "issue" if len(found) == 1 else "issues"
    return "\n".join([f"{tool} failed due to the following {noun}:", *(line for _, _, line in found)])
