"""Differential tests for extended mode: random declarations, near-valid random inputs.

For every (declaration, input) pair the backend's verdict must equal jsonschema's (Draft
2020-12) on a rewrite with the same meaning (tests/strategies_extended.py says which
declarations are drawn and why the rewrite is exact for them). Backends come from
tests/extended_backends.py: today the reference interpreter; a generated package, once
added to BACKENDS, must also give the reference's message and issues for every pair.

A second differential checks the reference against the checked-in subset generator: on
declarations that use only subset keywords, extended mode means what subset mode means
(extended.md: "Everything in validation.md holds"), so the reference's message must equal
a generated subset package's.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests import reference, strategies
from tests.extended_backends import (
    BACKENDS,
    Backend,
    PackageBackend,
    ReferenceBackend,
    make_backend,
    package_backend,
)
from tests.genpkg import package_for
from tests.reference import EXTENDED
from tests.strategies_extended import SAFE_PATTERNS, Inputs, random_roots, to_jsonschema

SEED = 20261203
SCHEMAS = 120
CHUNKS = 4
EXAMPLES = 150  # per chunk; each example checks PAIRS_PER_EXAMPLE pairs
PAIRS_PER_EXAMPLE = 4
ROOTS = random_roots(SEED, SCHEMAS)
REWRITES = [to_jsonschema(root) for root in ROOTS]
VALIDATORS = [Draft202012Validator(rewrite) for rewrite in REWRITES]
INPUTS = [Inputs(root).values(root) for root in ROOTS]


def tool(i: int) -> str:
    return f"X{i:03d}"


TOOLS = {tool(i): root for i, root in enumerate(ROOTS)}


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Backend:
    return make_backend(request.param, tmp_path_factory, "extended_differential", lambda: TOOLS)


def check_pair(backend: Backend, i: int, args: Any) -> bool:
    """One (declaration, input) pair; returns the verdict (valid?)."""
    message = backend.message(tool(i), args)
    expected = VALIDATORS[i].is_valid(args) if isinstance(args, dict) else False
    assert (message is None) == expected, (ROOTS[i], args, message)
    if backend.kind != "reference":
        assert message == reference.message(tool(i), ROOTS[i], args, EXTENDED), (ROOTS[i], args)
        assert backend.issues(tool(i), args) == reference.issues(ROOTS[i], args, EXTENDED), (ROOTS[i], args)
    return expected


def pairs(chunk: int) -> st.SearchStrategy[list[tuple[int, Any]]]:
    pair = st.one_of([st.tuples(st.just(i), INPUTS[i]) for i in range(chunk, SCHEMAS, CHUNKS)])
    return st.lists(pair, min_size=PAIRS_PER_EXAMPLE, max_size=PAIRS_PER_EXAMPLE)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_verdict_matches_jsonschema(backend: Backend, chunk: int) -> None:
    checked: list[bool] = []

    @strategies.reproducible(EXAMPLES)
    @given(pairs(chunk))
    def run(drawn: list[tuple[int, Any]]) -> None:
        for i, args in drawn:
            checked.append(check_pair(backend, i, args))

    run()
    # Thousands of pairs overall; both verdicts represented in every chunk (valid calls of
    # nested declarations are the rarer kind: at least 1 in 20, about 1 in 6 overall).
    assert len(checked) >= EXAMPLES * PAIRS_PER_EXAMPLE
    assert checked.count(True) >= len(checked) // 20
    assert checked.count(False) >= len(checked) // 10


def test_rewrites_are_valid_draft_2020_12_schemas() -> None:
    for rewrite in REWRITES:
        Draft202012Validator.check_schema(rewrite)


def _keywords(schema: Any, root: Any, seen: set[int]) -> set[str]:
    """Every keyword met from `schema`, through properties, items, combinators and refs."""
    if not isinstance(schema, dict) or id(schema) in seen:
        return set()
    seen.add(id(schema))
    found = set(schema)
    if isinstance(schema.get("type"), list):
        found.add("type list")
    if "$ref" in schema and "$ref" in found and len(schema) > 1 and set(schema) - {"$ref", "description"}:
        found.add("$ref siblings")
    nested: list[Any] = [*schema.get("properties", {}).values(), *schema.get("$defs", {}).values()]
    for keyword in ("items", "additionalProperties"):
        nested.append(schema.get(keyword))
    for keyword in ("allOf", "anyOf", "oneOf"):
        nested += schema.get(keyword, [])
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword, [])
        if branches and all(
            b.get("type") == "object" and "kind" in b.get("properties", {}) for b in branches
        ):
            found.add("discriminated union")
        if any(b.get("type") == "null" for b in branches):
            found.add("nullable")
    if isinstance(schema.get("additionalProperties"), dict):
        found.add("additionalProperties schema")
    if schema.get("$ref") == "#/$defs/Node":
        found.add("recursion")
    if str(schema.get("$ref", "")).count("%") or "~" in str(schema.get("$ref", "")):
        found.add("escaped pointer")
    for sub in nested:
        found |= _keywords(sub, root, seen)
    return found


def test_random_declarations_cover_the_extended_keywords() -> None:
    seen: set[str] = set()
    for root in ROOTS:
        seen |= _keywords(root, root, set())
    wanted = {
        "$ref", "$defs", "allOf", "anyOf", "oneOf", "const", "enum", "minimum", "exclusiveMinimum", "maximum",
        "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems",
        "uniqueItems", "required", "additionalProperties", "additionalProperties schema", "items",
        "discriminated union", "nullable", "recursion", "escaped pointer", "$ref siblings",
        "patternProperties", "if", "dependentSchemas", "format", "minProperties",
    }  # fmt: skip
    assert wanted <= seen, wanted - seen


# ---------- extended mode on subset-only declarations means subset mode ----------

SUBSET_SEED = 20261204
SUBSET_ONLY = frozenset(strategies.OBJECT_KEYWORDS) | {"type", "enum", "items"}


def _subset_only(schema: Any) -> bool:
    if isinstance(schema, bool):
        return True
    if set(schema) - SUBSET_ONLY:
        return False
    nested = [*schema.get("properties", {}).values()]
    for keyword in ("additionalProperties", "items"):
        if isinstance(schema.get(keyword), (dict, bool)):
            nested.append(schema[keyword])
        elif isinstance(schema.get(keyword), list):
            nested += schema[keyword]
    return all(_subset_only(sub) for sub in nested)


SUBSET_ROOTS = [r for r in strategies.random_roots(SUBSET_SEED, 60) if _subset_only(r)][:30]
SUBSET_TOOLS = {f"S{i:02d}": root for i, root in enumerate(SUBSET_ROOTS)}
SUBSET_INPUTS = [strategies.values_for(root, strategies.JSON_VALUES) for root in SUBSET_ROOTS]


def test_reference_equals_a_generated_subset_package_on_subset_declarations(tmp_path: Path) -> None:
    assert len(SUBSET_ROOTS) == 30
    generated = package_backend(package_for(tmp_path, "extended_vs_subset", SUBSET_TOOLS), "subset")
    reference = ReferenceBackend(SUBSET_TOOLS)
    verdicts: list[bool] = []
    pair = st.one_of([st.tuples(st.just(f"S{i:02d}"), SUBSET_INPUTS[i]) for i in range(len(SUBSET_ROOTS))])

    @strategies.reproducible(300)
    @given(st.lists(pair, min_size=3, max_size=3))
    def run(drawn: list[tuple[str, Any]]) -> None:
        for name, args in drawn:
            message = generated.message(name, args)
            assert reference.message(name, args) == message, (SUBSET_TOOLS[name], args)
            assert reference.issues(name, args) == generated.issues(name, args)
            verdicts.append(message is None)

    run()
    assert len(verdicts) == 900
    assert verdicts.count(True) >= 90
    assert verdicts.count(False) >= 90


# ---------- the rewrite's Python spellings of the drawn patterns mean what ECMA means ----------

TRICKY = "abcxyzAB_09١é😀 \t\n\r\u00a0\u2028\u200b\ufeff-"


def test_safe_patterns_python_spelling_matches_the_ecma_engine() -> None:
    spelled = [(ecma, python) for ecma, python in SAFE_PATTERNS if python is not None]
    outcomes: list[bool] = []

    @strategies.reproducible(600)
    @given(st.text(alphabet=TRICKY, max_size=6))
    def run(text: str) -> None:
        for ecma, python in spelled:
            matcher = reference.ecma_pattern(ecma)
            assert matcher is not None
            found = matcher(text)
            assert (re.search(python, text) is not None) == found, (ecma, text)
            outcomes.append(found)

    run()
    assert reference.ecma_pattern(SAFE_PATTERNS[-1][0]) is None  # the one outside E6
    assert outcomes.count(True) >= len(outcomes) // 10
    assert outcomes.count(False) >= len(outcomes) // 10


def _validator_modules(folder: Path) -> list[Path]:
    """The tools' validator modules, not their declaration modules."""
    return [m for m in sorted(folder.glob("x*.py")) if not m.name.endswith("_declaration.py")]


def test_random_declarations_exercise_every_collector_form(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The generated collectors come in three forms (generator/collector.py): direct visits
    only (issues appended in place), direct visits handing over a list visit's issues, and
    list visits only (recursion, candidates). The differential above compares all three with
    the reference only if the random declarations get each of them often enough."""
    backend = make_backend("generated", tmp_path_factory, "extended_differential", lambda: TOOLS)
    assert isinstance(backend, PackageBackend)
    folder = Path(backend.package.__file__ or "").parent
    forms = {"direct": 0, "mixed": 0, "list": 0}
    for module in _validator_modules(folder):
        text = module.read_text("utf-8")
        direct = "def _visit_args(" not in text  # the arguments' visit is direct: `_collect` itself
        listed = "def _visit_" in text or "def _branch_" in text
        forms["mixed" if direct and listed else "direct" if direct else "list"] += 1
    assert sum(forms.values()) == SCHEMAS
    assert min(forms.values()) >= SCHEMAS // 20, forms


def test_random_declarations_exercise_every_fast_path_form(tmp_path_factory: pytest.TempPathFactory) -> None:
    """validate() tests a nested object or array in place when it has one user
    (generator/plan.py FastPlan.embed), else through a `_check_<name>` helper: the
    differential above checks both forms only if the random declarations get each."""
    backend = make_backend("generated", tmp_path_factory, "extended_differential", lambda: TOOLS)
    assert isinstance(backend, PackageBackend)
    folder = Path(backend.package.__file__ or "").parent
    forms = {"embedded": 0, "helper": 0}
    for module in _validator_modules(folder):
        text = module.read_text("utf-8")
        fast = text[text.index("def validate(") : text.index("def _message(")]
        forms["embedded"] += bool(re.search(r"\b(n1 = |w1 = |for e1 in )", fast))
        forms["helper"] += "def _check_" in text
    assert min(forms.values()) >= SCHEMAS // 20, forms
