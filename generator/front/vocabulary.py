"""The keyword vocabularies: what a mode interprets, as data (docs/spec/extended.md E1, E2).

A mode is a `Vocabulary`: the keywords it interprets, each one `Keyword` spec, the keywords
that only describe (annotations) and those that open an object (their presence leaves
undeclared keys unchecked). `EXTENDED` is `SUBSET.extend(...)`, the way fastjsonschema's
drafts extend each other. A bound (step 3 of the visit, E4) is wholly described by its spec:
the JSON type it constrains, its place in step 3's order, what refuses its value, the macro
pair of the templates that renders it (fast path and collector), its line, its explain
label and the bound it cannot cross. A vocabulary defined elsewhere (a test's, say) with a
new bound of an existing macro needs no change to the generator or its templates
(tests/test_vocabulary_keyword.py; docs/how-it-works.md, "One compiler; a mode is a
vocabulary").

Nothing else in the generator lists the keywords a mode interprets.
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any, Literal

# The keywords whose branches E5 selects among (oneOf read as anyOf), in the order one schema's
# combinators are resolved (E4).
CombinatorKeyword = Literal["anyOf", "oneOf"]
# How a bound is tested, the kind generator/plan/fast_code.py (the fast path's test) and
# templates/collector.j2 (the exact line) dispatch on: "number" (a comparison `compare` with K,
# false for a non-finite number), "count" (`len` compared with K), "multiple", "pattern",
# "unique".
Macro = Literal["number", "count", "multiple", "pattern", "unique"]
# A bound's comparison with K: at least, more than, at most, less than.
Comparison = Literal[">=", ">", "<=", "<"]
# The JSON type whose values a bound constrains (a value of another type passes it).
Constrained = Literal["string", "number", "array", "object"]


class Step(IntEnum):
    """The step of the E4 visit that reads a keyword, in the visit's order."""

    GROUP = 0  # shapes the group (references, definitions, combinators): read before the visit
    TYPE = 1
    VALUE = 2  # const, enum
    BOUNDS = 3
    OBJECT = 4  # required, properties, additionalProperties
    ARRAY = 5  # items


_MIRRORED: dict[Comparison, Comparison] = {">=": "<=", ">": "<", "<=": ">=", "<": ">"}
_NEGATED: dict[Comparison, Comparison] = {">=": "<", ">": "<=", "<=": ">", "<": ">="}


def is_number(value: Any) -> bool:
    """A JSON number: int or finite float, never bool."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return not isinstance(value, float) or math.isfinite(value)


def _number_refusal(value: Any) -> str | None:
    return None if is_number(value) else "expected a number" + (", not a boolean" * isinstance(value, bool))


def _multiple_refusal(value: Any) -> str | None:
    found = _number_refusal(value)
    return found if found is not None or value > 0 else "expected a number greater than 0"


def _count_refusal(value: Any) -> str | None:
    # A non-negative integer (`2.0` counts).
    counts = is_number(value) and value >= 0 and (isinstance(value, int) or float(value).is_integer())
    return None if counts else "expected a non-negative integer"


def _boolean_refusal(value: Any) -> str | None:
    return None if isinstance(value, bool) else "expected a boolean"


def _string_refusal(value: Any) -> str | None:
    return None if isinstance(value, str) else "expected a string (an ECMA-262 regular expression)"


def labelled(short: str) -> Callable[[Any], str]:
    """Explain's label of a bound: its short name and K."""
    return lambda k: f"{short} {json.dumps(k, ensure_ascii=False)}"


@dataclass(frozen=True)
class Keyword:
    """One keyword a vocabulary interprets; the fields after `step` describe a bound (step 3)."""

    name: str
    step: Step  # the step of the visit that reads it (E4)
    # The fields of a bound; "" in a keyword that is none.
    constrains: Constrained | Literal[""] = ""  # the JSON type of the values it applies to
    macro: Macro | Literal[""] = ""  # the macro pair that renders it
    # Its comparison with K, if any; a lower and an upper one of one JSON type that no value can
    # meet together are warned about (E8).
    compare: Comparison | Literal[""] = ""
    # The reason its value is refused (None: accepted).
    refusal: Callable[[Any], str | None] | None = None
    text: Callable[[Any], str] | None = None  # the line after "is invalid: "
    label: Callable[[Any], str] | None = None  # what explain shows
    # When a value means no check (uniqueItems false, the draft-4 boolean form of exclusiveMinimum).
    inert: Callable[[Any], bool] | None = None

    @property
    def lower(self) -> bool:
        """A lower bound (the value must be at least K)."""
        return self.compare.startswith(">")

    @property
    def mirrored(self) -> str:
        """The comparison with K on the left: `K <= x` for `x >= K`."""
        return _MIRRORED[self.compare] if self.compare else ""

    @property
    def fails(self) -> str:
        """The comparison with K that holds when the bound is broken: `x < K` for `x >= K`."""
        return _NEGATED[self.compare] if self.compare else ""

    @property
    def length_of(self) -> str:
        # The Python type whose `len` a count bound reads, per JSON type it constrains.
        return {"string": "str", "array": "list", "object": "dict"}.get(self.constrains, "")

    def shown(self, value: Any) -> str:
        return self.label(value) if self.label is not None else self.name


@dataclass(frozen=True)
class Vocabulary:
    """A keyword mode: what it interprets, what only describes, what opens an object."""

    name: str
    keywords: tuple[Keyword, ...]
    annotations: frozenset[str]
    opening: frozenset[str]
    # For docstrings: how the module names its rules, and each keyword as the docstring lists it.
    rules: str = "spec section 2"
    message: str = "spec section 6"  # where the rules of its message are
    listed: tuple[str, ...] = field(default=())
    # A key that is not a str is unexpected even where undeclared keys are not examined
    # (additionalProperties true, an open keyword): docs/spec/extended.md E4 4c. Subset mode does not
    # look at such an object's keys at all (docs/spec/validation.md §3).
    strict_keys: bool = False
    # `explain`'s reason for each keyword the vocabulary does not interpret (the reader's
    # question is "can I rely on this?", so a reason says what is, or is not, checked), and
    # the reason for any other.
    reasons: tuple[tuple[frozenset[str], str], ...] = ()
    other_reason: str = ""

    def reason(self, keyword: str) -> str:
        """Why `keyword` of a declaration is not enforced, as `explain` says it."""
        return next((text for names, text in self.reasons if keyword in names), self.other_reason)

    @property
    def interpreted(self) -> frozenset[str]:
        return frozenset(k.name for k in self.keywords)

    @property
    def bounds(self) -> tuple[Keyword, ...]:
        """Step 3's keywords, in the order they are checked."""
        return tuple(k for k in self.keywords if k.step == Step.BOUNDS)

    @property
    def enforced(self) -> str:
        """The docstring's paragraph of what a module of this vocabulary enforces."""
        text = f"Enforced ({self.rules}): {', '.join(self.listed)}."
        return textwrap.fill(text, width=92, break_on_hyphens=False, break_long_words=False)

    # Each keyword-only argument replaces or extends one field of the Vocabulary it makes: a
    # parameter object for them would be a second Vocabulary.
    def extend(  # noqa: PLR0913
        self,
        name: str,
        keywords: Iterable[Keyword] = (),
        *,
        after: str = "",
        annotations: Iterable[str] = (),
        closing: Iterable[str] = (),
        rules: str = "",
        message: str = "",
        listed: Iterable[str] = (),
        strict_keys: bool | None = None,
        reasons: Iterable[tuple[frozenset[str], str]] | None = None,
        other_reason: str = "",
    ) -> Vocabulary:
        """This vocabulary plus `keywords` (placed after the keyword `after`, else at the end;
        so in `listed`, the docstring's list), more annotations, and `closing` no longer opening
        an object; `reasons` replace the explanations of what is not interpreted."""
        added = tuple(keywords)
        at = [k.name for k in self.keywords].index(after) + 1 if after else len(self.keywords)
        shown = tuple(listed) or tuple(k.name for k in added)
        place = self.listed.index(after) + 1 if after in self.listed else len(self.listed)
        return replace(
            self,
            name=name,
            keywords=self.keywords[:at] + added + self.keywords[at:],
            annotations=self.annotations | frozenset(annotations),
            opening=self.opening - frozenset(closing),
            rules=rules or self.rules,
            message=message or self.message,
            listed=self.listed[:place] + shown + self.listed[place:],
            strict_keys=self.strict_keys if strict_keys is None else strict_keys,
            reasons=self.reasons if reasons is None else tuple(reasons),
            other_reason=other_reason or self.other_reason,
        )


def _reasons(*table: tuple[str, str]) -> tuple[tuple[frozenset[str], str], ...]:
    """`Vocabulary.reasons` from (the keywords, joined by ", "; the reason) pairs."""
    return tuple((frozenset(names.split(", ")), text) for names, text in table)


def _is_false(value: Any) -> bool:
    return value is False


# Keywords that describe a value and constrain none (JSON Schema's annotations, and the
# identifiers of a document): no validator checks them, so no command or docstring ever lists
# them as "not enforced" (docs/decisions.md). `default` is among them: arguments are never
# changed (docs/spec/validation.md §1), so a default is never filled in, and nothing is lost.
ANNOTATIONS = frozenset(
    {"default", "title", "description", "examples", "deprecated", "readOnly", "writeOnly", "$comment"}
    | {"$schema", "$id"}
)

SUBSET = Vocabulary(
    name="subset",
    keywords=(
        Keyword("type", Step.TYPE),
        Keyword("enum", Step.VALUE),
        Keyword("required", Step.OBJECT),
        Keyword("properties", Step.OBJECT),
        Keyword("additionalProperties", Step.OBJECT),
        Keyword("items", Step.ARRAY),
    ),
    annotations=ANNOTATIONS,
    opening=frozenset(
        {"patternProperties", "allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "$recursiveRef"}
        | {"dependentSchemas", "dependencies", "if", "then", "else", "unevaluatedProperties"}
    ),
    listed=("type", "required", "enum", "properties", "additionalProperties", "items"),
    reasons=_reasons(
        (
            "format, pattern, contentEncoding, contentMediaType",
            "string formats and patterns are not checked",
        ),
        ("minLength, maxLength", "string lengths are not checked"),
        (
            "minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf",
            "numeric ranges are not checked",
        ),
        (
            "minItems, maxItems, uniqueItems, contains, minContains, maxContains, prefixItems",
            "array sizes and contents beyond `items` are not checked",
        ),
        (
            "minProperties, maxProperties, propertyNames, patternProperties, dependentRequired",
            "object constraints beyond properties, required and additionalProperties are not checked",
        ),
        (
            "oneOf, anyOf, allOf, not, if, then, else, $ref, $defs, definitions",
            "combinators and references are not interpreted",
        ),
        ("const", "const is not checked (a one-member enum is)"),
        ("items (tuple form)", "tuple-form items are not interpreted"),
    ),
    other_reason="outside the keyword subset of the spec (section 2)",
)


def _number(name: str, compare: Comparison, prefix: str) -> Keyword:
    return Keyword(
        name,
        Step.BOUNDS,
        constrains="number",
        macro="number",
        compare=compare,
        refusal=_number_refusal,
        text=lambda k: prefix + json.dumps(k),  # K as json.dumps writes the declared number
        label=labelled(compare),
        # The draft-4 boolean form of exclusiveMinimum / exclusiveMaximum is not interpreted.
        inert=(lambda k: isinstance(k, bool)) if name.startswith("exclusive") else None,
    )


def count(
    name: str, constrains: Constrained, compare: Comparison, prefix: str, noun: str, plural: str = ""
) -> Keyword:
    """A bound on `len` of a string, an array or an object (macro "count")."""
    return Keyword(
        name,
        Step.BOUNDS,
        constrains=constrains,
        macro="count",
        compare=compare,
        refusal=_count_refusal,
        # the noun singular when K == 1 (so also for `1.0`)
        text=lambda k: f"{prefix}{json.dumps(k)} {noun if k == 1 else plural or noun + 's'}",
        label=labelled(name),
    )


EXTENDED = SUBSET.extend(
    "extended",
    (
        *(Keyword(n, Step.GROUP) for n in ("$ref", "$defs", "definitions", "allOf", "anyOf", "oneOf")),
        Keyword("const", Step.VALUE),
        _number("minimum", ">=", "expected a number greater than or equal to "),
        _number("exclusiveMinimum", ">", "expected a number greater than "),
        _number("maximum", "<=", "expected a number less than or equal to "),
        _number("exclusiveMaximum", "<", "expected a number less than "),
        Keyword(
            "multipleOf",
            Step.BOUNDS,
            constrains="number",
            macro="multiple",
            refusal=_multiple_refusal,
            text=lambda k: "expected a multiple of " + json.dumps(k),
            label=labelled("multipleOf"),
        ),
        count("minLength", "string", ">=", "expected at least ", "character"),
        count("maxLength", "string", "<=", "expected at most ", "character"),
        Keyword(
            "pattern",
            Step.BOUNDS,
            constrains="string",
            macro="pattern",
            refusal=_string_refusal,
            text=lambda k: "expected a string matching the pattern " + str(k),
            label=lambda k: f"pattern {k}",  # verbatim, as its line writes it
        ),
        count("minItems", "array", ">=", "expected at least ", "item"),
        count("maxItems", "array", "<=", "expected at most ", "item"),
        # Its line names the repeating indexes: written by the collector (_paths.repeat).
        Keyword(
            "uniqueItems",
            Step.BOUNDS,
            constrains="array",
            macro="unique",
            refusal=_boolean_refusal,
            inert=_is_false,
        ),
    ),
    annotations=("$anchor",),
    closing=("allOf", "anyOf", "oneOf", "$ref"),
    rules="extended.md E2",
    message="extended.md E7",
    reasons=_reasons(
        (
            "format, contentEncoding, contentMediaType, pattern",
            "string formats (and patterns outside ECMA-262's E6 syntax) are not checked",
        ),
        ("not, if, then, else, dependentSchemas, dependencies", "conditionals are not interpreted"),
    ),
    other_reason="outside the keywords extended mode interprets (extended.md E2)",
    strict_keys=True,
    listed=(
        *("$ref (local)", "$defs", "definitions", "allOf", "anyOf", "oneOf (as anyOf)", "const", "minimum"),
        *("exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength"),
        *("pattern", "minItems", "maxItems", "uniqueItems"),
    ),
)

VOCABULARIES = {v.name: v for v in (SUBSET, EXTENDED)}  # docs/spec/extended.md E1; subset is the default

# Every keyword a "not enforced" warning may list and `--allow` may name: the JSON Schema
# keywords neither mode interprets, and those only extended mode does (annotations never).
KNOWN_NOT_INTERPRETED = (
    "format", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems",
    "minProperties", "maxProperties", "const", "$ref", "$defs", "definitions", "allOf", "anyOf",
    "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependentRequired",
    "dependencies", "patternProperties", "propertyNames", "unevaluatedProperties",
    "unevaluatedItems", "prefixItems", "additionalItems", "contains", "minContains",
    "maxContains", "contentEncoding", "contentMediaType", "contentSchema", "$anchor", "$dynamicRef",
    "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "nullable", "discriminator",
)  # fmt: skip
