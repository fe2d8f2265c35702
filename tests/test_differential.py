"""Differential tests for both keyword modes: random declarations, near-valid random inputs.

For every (declaration, input) pair a backend's verdict must equal the jsonschema library's
(Draft 2020-12) on a rewrite with the same meaning (tests/strategies.py: `to_jsonschema` for
the subset, `extended_to_jsonschema` says which extended declarations are drawn and why the
rewrite is exact for them), and a generated package's message and issues must equal the
reference interpreter's (tests/reference.py) in the same vocabulary. Each mode is a
`Sample`: its declarations, inputs, backends and chunking. The declarations are split into
chunks; each chunk is generated into one package (built once per session, so two xdist
workers build in parallel instead of one waiting for the other), then hypothesis draws
thousands of inputs.

A second differential checks the reference against the subset generator: on declarations
that use only subset keywords, extended mode means what subset mode means (docs/spec/extended.md:
"Everything in validation.md holds"), so the extended reading must equal a generated
subset package's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests import reference, strategies
from tests.extended_backends import (
    BACKENDS,
    GENERATE,
    Backend,
    PackageBackend,
    ReferenceBackend,
    package_backend,
)
from tests.genpkg import lint_findings, package_for, shared_package
from tests.reference import EXTENDED, SUBSET, Vocabulary
from tests.strategies import JSON_VALUES, SAFE_PATTERNS, Inputs, reproducible, values_for

# Tool names reach generated code and messages: some carry quotes, newlines and backslashes.
SUFFIXES = ("", ' "q"', "\n'x'", "`b`", " é", "\\", "'''")


@dataclass(frozen=True)
class Sample:
    """One mode's random declarations, the inputs drawn for them, and who answers."""

    vocabulary: Vocabulary
    roots: list[dict[str, Any]]
    rewrites: list[dict[str, Any]]
    inputs: list[st.SearchStrategy[Any]]
    tool: Callable[[int], str]
    backends: tuple[str, ...]  # extended mode also checks the reference against jsonschema
    chunks: int
    examples: int  # per chunk; each example checks `pairs` pairs
    pairs: int

    def members(self, chunk: int) -> range:
        return range(chunk, len(self.roots), self.chunks)

    def tools(self, chunk: int) -> dict[str, Any]:
        return {self.tool(i): self.roots[i] for i in self.members(chunk)}


def _subset_sample() -> Sample:
    roots = strategies.random_roots(20261202, 160)
    return Sample(
        vocabulary=SUBSET,
        roots=roots,
        rewrites=[strategies.to_jsonschema(root) for root in roots],
        inputs=[values_for(root, JSON_VALUES) for root in roots],
        tool=lambda i: f"S{i:03d}{SUFFIXES[i % len(SUFFIXES)]}",
        backends=("generated",),
        chunks=8,
        examples=130,
        pairs=5,
    )


def _extended_sample() -> Sample:
    roots = strategies.random_extended_roots(20261203, 120)
    return Sample(
        vocabulary=EXTENDED,
        roots=roots,
        rewrites=[strategies.extended_to_jsonschema(root) for root in roots],
        inputs=[Inputs(root).values(root) for root in roots],
        tool=lambda i: f"X{i:03d}",
        backends=BACKENDS,
        chunks=4,
        examples=150,
        pairs=4,
    )


SAMPLES = {"subset": _subset_sample(), "extended": _extended_sample()}
VALIDATORS = {mode: [Draft202012Validator(r) for r in s.rewrites] for mode, s in SAMPLES.items()}
CASES = [
    (mode, kind, chunk)
    for mode, sample in SAMPLES.items()
    for kind in sample.backends
    for chunk in range(sample.chunks)
]


def chunk_package(factory: pytest.TempPathFactory, mode: str, chunk: int) -> PackageBackend:
    sample = SAMPLES[mode]
    name = f"differential_{mode}_{chunk}"
    return package_backend(shared_package(factory, name, lambda: sample.tools(chunk), GENERATE[mode]))


def backend_for(factory: pytest.TempPathFactory, mode: str, kind: str, chunk: int) -> Backend:
    sample = SAMPLES[mode]
    if kind == "reference":
        return ReferenceBackend(sample.tools(chunk), sample.vocabulary)
    return chunk_package(factory, mode, chunk)


def check_pair(mode: str, backend: Backend, i: int, args: Any) -> bool:
    """One (declaration, input) pair; returns the verdict (valid?)."""
    sample = SAMPLES[mode]
    name, root = sample.tool(i), sample.roots[i]
    message = backend.message(name, args)
    expected = VALIDATORS[mode][i].is_valid(args) if isinstance(args, dict) else False
    assert (message is None) == expected, (root, args, message)
    if backend.kind != "reference":
        assert message == reference.message(name, root, args, sample.vocabulary), (root, args)
        assert backend.issues(name, args) == reference.issues(root, args, sample.vocabulary), (root, args)
    return expected


def pairs(sample: Sample, chunk: int) -> st.SearchStrategy[list[tuple[int, Any]]]:
    pair = st.one_of([st.tuples(st.just(i), sample.inputs[i]) for i in sample.members(chunk)])
    return st.lists(pair, min_size=sample.pairs, max_size=sample.pairs)


@pytest.mark.parametrize(("mode", "kind", "chunk"), CASES, ids=[f"{m}-{k}-{c}" for m, k, c in CASES])
def test_verdict_matches_jsonschema_and_message_matches_reference(
    tmp_path_factory: pytest.TempPathFactory, mode: str, kind: str, chunk: int
) -> None:
    sample = SAMPLES[mode]
    backend = backend_for(tmp_path_factory, mode, kind, chunk)
    checked: list[bool] = []

    @reproducible(sample.examples)
    @given(pairs(sample, chunk))
    def run(drawn: list[tuple[int, Any]]) -> None:
        for i, args in drawn:
            checked.append(check_pair(mode, backend, i, args))

    run()
    # Thousands of pairs overall; both verdicts represented in every chunk (valid calls are
    # the rarer kind: at least 1 in 20; about 1 in 6 overall, 1 in 10 in the hardest chunks).
    assert len(checked) >= sample.examples * sample.pairs
    assert checked.count(True) >= len(checked) // 20
    assert checked.count(False) >= len(checked) // 10


@pytest.mark.parametrize(("mode", "chunk"), [(m, c) for m, s in SAMPLES.items() for c in range(s.chunks)])
def test_generated_modules_are_lint_clean(
    tmp_path_factory: pytest.TempPathFactory, mode: str, chunk: int
) -> None:
    """The lint the built-in tools' modules pass holds for every random declaration's."""
    folder = Path(chunk_package(tmp_path_factory, mode, chunk).package.__file__ or "").parent
    assert lint_findings(folder) == ""


@pytest.mark.parametrize("mode", SAMPLES)
def test_rewrites_are_valid_draft_2020_12_schemas(mode: str) -> None:
    for rewrite in SAMPLES[mode].rewrites:
        Draft202012Validator.check_schema(rewrite)


def test_random_subset_declarations_cover_the_subset() -> None:
    """The schema sample exercises every feature the differential test claims to cover."""
    seen: set[str] = set()

    def walk(schema: Any) -> None:
        if isinstance(schema, bool):
            seen.add(f"boolean {schema}")
            return
        seen.update(k for k in schema if k != "additionalProperties")
        if isinstance(schema.get("type"), list):
            seen.add("type list")
        extra = schema.get("additionalProperties")
        if extra is not None:
            seen.add(
                f"additionalProperties {type(extra).__name__} {extra if isinstance(extra, bool) else ''}"
            )
        if set(schema.get("required", [])) - set(schema.get("properties", {})):
            seen.add("required without property")
        if isinstance(schema.get("enum"), list) and len({type(m) for m in schema["enum"]}) > 1:
            seen.add("mixed enum")
        for sub in schema.get("properties", {}).values():
            walk(sub)
        if isinstance(extra, dict):
            walk(extra)
        if isinstance(schema.get("items"), (dict, bool)):
            walk(schema["items"])

    for schema in SAMPLES["subset"].roots:
        walk(schema)
    wanted = {
        "type", "type list", "enum", "mixed enum", "properties", "required", "required without property",
        "items", "boolean True", "boolean False", "additionalProperties bool True",
        "additionalProperties bool False", "additionalProperties dict ", "patternProperties", "anyOf",
        "$ref", "if", "unevaluatedProperties", "minLength", "format",
    }  # fmt: skip
    assert wanted <= seen


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
    if schema and _finds_nothing(schema):
        found.add("keywords that find nothing")
    if schema.get("$ref") == "#/$defs/Node":
        found.add("recursion")
    if str(schema.get("$ref", "")).count("%") or "~" in str(schema.get("$ref", "")):
        found.add("escaped pointer")
    for sub in nested:
        found |= _keywords(sub, root, seen)
    return found


def _finds_nothing(schema: Any) -> bool:
    """No value breaks it: its keywords only descend, into schemas that find nothing."""
    if not isinstance(schema, dict) or set(schema) - {"items", "properties", "additionalProperties"}:
        return False
    nested = [schema[k] for k in ("items", "additionalProperties") if k in schema]
    nested += schema.get("properties", {}).values()
    return all(_finds_nothing(sub) for sub in nested)


def test_random_declarations_cover_the_extended_keywords() -> None:
    seen: set[str] = set()
    for root in SAMPLES["extended"].roots:
        seen |= _keywords(root, root, set())
    wanted = {
        "$ref", "$defs", "allOf", "anyOf", "oneOf", "const", "enum", "minimum", "exclusiveMinimum", "maximum",
        "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems",
        "uniqueItems", "required", "additionalProperties", "additionalProperties schema", "items",
        "discriminated union", "nullable", "recursion", "escaped pointer", "$ref siblings",
        "patternProperties", "if", "dependentSchemas", "format", "minProperties",
        "keywords that find nothing",
    }  # fmt: skip
    assert wanted <= seen, wanted - seen


# ---------- extended mode on subset-only declarations means subset mode ----------

SUBSET_SEED = 20261204
SUBSET_ONLY = frozenset(reference.OBJECT_KEYWORDS) | {"type", "enum", "items"}


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
SUBSET_INPUTS = [values_for(root, JSON_VALUES) for root in SUBSET_ROOTS]


def test_extended_reading_equals_a_generated_subset_package_on_subset_declarations(tmp_path: Path) -> None:
    assert len(SUBSET_ROOTS) == 30
    generated = package_backend(package_for(tmp_path, "extended_vs_subset", SUBSET_TOOLS), "subset")
    extended_reading = ReferenceBackend(SUBSET_TOOLS, EXTENDED)
    verdicts: list[bool] = []
    pair = st.one_of([st.tuples(st.just(f"S{i:02d}"), SUBSET_INPUTS[i]) for i in range(len(SUBSET_ROOTS))])

    @reproducible(300)
    @given(st.lists(pair, min_size=3, max_size=3))
    def run(drawn: list[tuple[str, Any]]) -> None:
        for name, args in drawn:
            message = generated.message(name, args)
            assert extended_reading.message(name, args) == message, (SUBSET_TOOLS[name], args)
            assert extended_reading.issues(name, args) == generated.issues(name, args)
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

    @reproducible(600)
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


def _validator_modules(mode: str, factory: pytest.TempPathFactory) -> list[Path]:
    """The tools' validator modules of every chunk's package, not their declaration modules."""
    folders = [
        Path(chunk_package(factory, mode, c).package.__file__ or "").parent
        for c in range(SAMPLES[mode].chunks)
    ]
    return [m for f in folders for m in sorted(f.glob("x*.py")) if not m.name.endswith("_declaration.py")]


def test_random_declarations_exercise_every_collector_form(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The generated collectors come in three forms (generator/plan/collector.py): direct visits
    only (issues appended in place), direct visits handing over a list visit's issues, and
    list visits only (recursion, candidates). The differential above compares all three with
    the reference only if the random declarations get each of them often enough."""
    forms = {"direct": 0, "mixed": 0, "list": 0}
    for module in _validator_modules("extended", tmp_path_factory):
        text = module.read_text("utf-8")
        direct = "def _visit_args(" not in text  # the arguments' visit is direct: `_collect` itself
        listed = "def _visit_" in text or "def _branch_" in text
        forms["mixed" if direct and listed else "direct" if direct else "list"] += 1
    count = len(SAMPLES["extended"].roots)
    assert sum(forms.values()) == count
    assert min(forms.values()) >= count // 20, forms


def test_random_declarations_exercise_every_fast_path_form(tmp_path_factory: pytest.TempPathFactory) -> None:
    """validate() tests a nested object or array in place when it has one user
    (generator/plan/fast.py FastPlan.embed), else through a `_check_<name>` helper: the
    differential above checks both forms only if the random declarations get each."""
    forms = {"embedded": 0, "helper": 0}
    for module in _validator_modules("extended", tmp_path_factory):
        text = module.read_text("utf-8")
        fast = text[text.index("def validate(") : text.index("def _message(")]
        forms["embedded"] += bool(re.search(r"\b(n1 = |w1 = |for e1 in )", fast))
        forms["helper"] += "def _check_" in text
    assert min(forms.values()) >= len(SAMPLES["extended"].roots) // 20, forms
