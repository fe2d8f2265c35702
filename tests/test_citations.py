"""Every section of the specification that the code, the tests and the docs cite exists.

The specification is in the repository, copied byte for byte from the normative documents:
docs/spec/validation.md (the default mode, `subset`; sections `## 1.` to `## 8.`) and
docs/spec/extended.md (the opt-in mode, `extended`; sections `## E1.` to `## E8.`). The code
cites them all over, so that a reader can find the rule a line implements; this test makes
sure that every such citation leads somewhere, and to the file it names.

The citation grammar (what the repository writes; anything else is prose):

* FILE: `validation.md` or `extended.md` written bare, or as a path ending in `spec/`
  (`docs/spec/validation.md`, a page's link `spec/extended.md`). A path to another folder
  (`docs/extended.md`, the user guide) is not the specification. A bare name is the file of
  docs/spec/ (a generated package quotes the spec by name: it ships without docs/).
* SECTION: `§N` is section N of validation.md, `EN` section EN of extended.md; `§N.M` would be
  subsection N.M, which must then be a heading of its own. `§N-§M` / `EN-EM` (or `§N-M`,
  `EN-M`) cites every section from N to M.
* A SECTION right after a FILE (with only spaces, commas, colons, backticks or an opening
  parenthesis between them: `validation.md §7`, `` `validation.md` §5 ``, `extended.md, E1`)
  must be a section of that file: `extended.md §4` is an error even though validation.md
  has a §4.
* ITEM, right after a SECTION: `rule N` or `step N` (optionally with a letter: `step 3c`),
  or a number with a letter (`E4 4c`): item N of the section's numbered list (a line `N. `),
  and with a letter, item `x. ` of the list nested under item N.
* In words, `spec section N` (also `the spec, section N`, `the spec (section N)`, `spec
  sections N-M`) is §N of validation.md: the generated package's own docstrings say so (the
  templates and the vocabulary write them, and subset output does not change for a citation).
* Not citations, so refused where they would pass for one: `section N` in words without
  `spec` before it (write `§N`; `RFC 8259 section 6` cites another document and is left
  alone), a section token glued to more letters or digits (`E4c`, `§5b`: write `E4 4c`),
  and a ruff rule code outside its `# noqa:` comment.

Scanned: every .py, .j2 and .md file of generator/, runtime/, templates/, tests/ (not its
data), benchmarks/ and docs/ (the specification included: it cites itself by the same
grammar), and the README; not this file, whose examples are made up on purpose. The whole
text is scanned, comments, docstrings and strings alike: a message or a `rules=` string that
cites a section must cite a real one too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "docs" / "spec"
SPEC_FILES = ("validation.md", "extended.md")
SCANNED = ("generator", "runtime", "templates", "tests", "benchmarks", "docs")
SUFFIXES = (".py", ".j2", ".md")
# Data; a link to templates/; this file, whose examples are made up on purpose.
SKIPPED = ("tests/data/", "generator/templates/", "tests/test_citations.py")

SECTION_SIGN = "\u00a7"  # the section sign, spelt so that this file's own examples are not citations

FILE = r"(?<![\w./-])(?:(?:[\w.-]+/)*spec/)?(?P<file>validation|extended)\.md(?![\w-])"
# A path that ends in a folder other than spec/ names some other page (docs/extended.md).
OTHER_PATH = re.compile(r"(?<![\w.-])(?:[\w.-]+/)+(?:validation|extended)\.md")
TOKEN = (
    rf"(?<![\w{SECTION_SIGN}])(?P<sign>{SECTION_SIGN}|E)(?P<number>\d+(?:\.\d+)?)"
    rf"(?:-(?:{SECTION_SIGN}|E)?(?P<last>\d+))?(?P<glued>[\w{SECTION_SIGN}]*)"
)
ITEM = r"(?:\s+(?:(?:rule|step)\s+(?P<item>\d+)(?P<letter>[a-z])?|(?P<item2>\d+)(?P<letter2>[a-z]))\b)?"
CITATION = re.compile(rf"(?:{FILE}[\s,:(`]*)?{TOKEN}{ITEM}")
SPEC_WORDS = re.compile(r"\b[Ss]pec\b[,(\s]*(?P<words>sections? (?P<number>\d+)(?:-(?P<last>\d+))?)")
WORDS = re.compile(r"(?<!RFC \d{4} )\b[Ss]ections? \d+(?:-\d+)?")
NOQA = re.compile(r"noqa:[\w ,]*")
HEADING = re.compile(r"^#{2,}\s+(E?\d+(?:\.\d+)*)\.\s", re.MULTILINE)


@dataclass(frozen=True)
class Citation:
    file: str  # the spec file it cites (validation.md, extended.md)
    section: str  # as its heading numbers it: "4", "4.2", "E5"
    item: str  # "" or the numbered item cited: "2", "4c"
    named: bool  # the file was written before the section
    line: int
    text: str


@dataclass(frozen=True)
class Spec:
    """One file of the specification: its sections, and per section the items of its
    numbered list ("1", "2", ... and "4a", "4b", ... for the list nested under item 4)."""

    sections: dict[str, set[str]]

    @classmethod
    def read(cls, text: str) -> Spec:
        sections: dict[str, set[str]] = {}
        starts = list(HEADING.finditer(text))
        for heading, following in zip(starts, [*starts[1:], None], strict=True):
            body = text[heading.end() : following.start() if following is not None else len(text)]
            items: set[str] = set()
            current = ""
            for line in body.splitlines():
                if top := re.match(r"(\d+)\. ", line):
                    current = top.group(1)
                    items.add(current)
                elif (nested := re.match(r"\s+([a-z])\. ", line)) and current:
                    items.add(current + nested.group(1))
            sections[heading.group(1)] = items
        return cls(sections)


def load_specs(folder: Path = SPEC) -> dict[str, Spec]:
    return {name: Spec.read((folder / name).read_text("utf-8")) for name in SPEC_FILES}


def citations(text: str) -> tuple[list[Citation], list[tuple[int, str]]]:
    """The citations of a text, and what it writes that looks like a citation but is none
    (line, text): a section in words, a section token glued to more characters."""
    text = NOQA.sub("", text)
    found: list[Citation] = []
    wrong: list[tuple[int, str]] = []
    for match in CITATION.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        sign, number, last = match["sign"], match["number"], match["last"]
        if match["glued"]:
            wrong.append((line, match.group(0)))
            continue
        prefix = "E" if sign == "E" else ""
        own = "extended.md" if sign == "E" else "validation.md"
        named = match["file"] is not None
        file = f"{match['file']}.md" if named else own
        item = (match["item"] or match["item2"] or "") + (match["letter"] or match["letter2"] or "")
        if last is not None and (not number.isdigit() or int(last) < int(number)):
            wrong.append((line, match.group(0)))  # a range of subsections, or backwards
            continue
        numbers = [number] if last is None else [str(n) for n in range(int(number), int(last) + 1)]
        for n in numbers:
            # A file written before a range binds all of it; an item follows the last section only.
            cited = item if n == numbers[-1] else ""
            found.append(Citation(file, prefix + n, cited, named, line, match.group(0)))
    spelt = {match.span("words") for match in SPEC_WORDS.finditer(text)}
    for match in SPEC_WORDS.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        first, last = int(match["number"]), int(match["last"] or match["number"])
        for n in range(first, last + 1):
            found.append(Citation("validation.md", str(n), "", False, line, match.group(0)))
    for match in WORDS.finditer(text):
        if match.span() not in spelt:
            wrong.append((text.count("\n", 0, match.start()) + 1, match.group(0)))
    return found, wrong


def unresolved(citation: Citation, specs: dict[str, Spec]) -> str | None:
    """Why the citation leads nowhere, or None when its section (and item) exist."""
    spec = specs.get(citation.file)
    if spec is None:
        return f"no such specification file: docs/spec/{citation.file}"
    shown = citation.section if citation.section.startswith("E") else SECTION_SIGN + citation.section
    items = spec.sections.get(citation.section)
    if items is None:
        return f"{citation.file} has no section {shown}"
    if citation.item and citation.item not in items:
        return f"{citation.file} {shown} has no item {citation.item}"
    return None


def problems(text: str, specs: dict[str, Spec]) -> list[str]:
    """Every citation of `text` that leads nowhere, and every near-citation, as
    `line N: <text>: <why>`."""
    found, wrong = citations(text)
    listed = [f"line {line}: {shown!r}: not in the citation grammar" for line, shown in wrong]
    for citation in found:
        why = unresolved(citation, specs)
        if why is not None:
            listed.append(f"line {citation.line}: {citation.text!r}: {why}")
    return listed


def missing_paths(text: str, folder: Path) -> list[str]:
    """The paths to a specification file that `text` (a file in `folder`) writes and that lead
    to no file: from the project root (`docs/spec/...`) or from the folder (a page's link)."""
    missing = []
    for match in OTHER_PATH.finditer(text):
        cited = match.group(0)
        if "/spec/" in f"/{cited}" and not ((ROOT / cited).is_file() or (folder / cited).is_file()):
            missing.append(f"{cited}: no such file")
    return missing


def scanned_files() -> list[Path]:
    paths = [ROOT / "README.md"]
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix in SUFFIXES and path.is_file() and not relative.startswith(SKIPPED):
                paths.append(path)
    return paths


# ---------- the specification is in the repository ----------


def test_the_specification_files_are_in_the_repository() -> None:
    specs = load_specs()
    assert sorted(specs["validation.md"].sections) == [str(n) for n in range(1, 9)]
    assert sorted(specs["extended.md"].sections) == [f"E{n}" for n in range(1, 9)]
    # The numbered lists that the code cites by item.
    assert specs["extended.md"].sections["E4"] == {"1", "2", "3", "4", "4a", "4b", "4c", "5"}
    assert specs["extended.md"].sections["E5"] == {"1", "2", "3", "4"}
    assert specs["validation.md"].sections["5"] == {"1", "2", "3", "3a", "3b", "3c", "4"}


def test_every_cited_section_exists() -> None:
    specs = load_specs()
    found = 0
    listed: list[str] = []
    for path in scanned_files():
        text = path.read_text("utf-8")
        found += len(citations(text)[0])
        shown = path.relative_to(ROOT).as_posix()
        listed += [f"{shown} {problem}" for problem in problems(text, specs)]
        listed += [f"{shown}: {problem}" for problem in missing_paths(text, path.parent)]
    assert listed == []
    assert found > 300  # the scan does see the code's citations


def test_the_code_that_cites_the_spec_names_where_it_is() -> None:
    # A module that cites a section names the specification's file by its path at least once
    # (its first citation, as a rule), so that a reader finds it. The templates are left
    # alone: their text reaches the generated package, which ships without docs/.
    listed = []
    for path in scanned_files():
        relative = path.relative_to(ROOT).as_posix()
        if path.suffix != ".py" or relative.startswith(("docs/", "templates/")):
            continue
        text = path.read_text("utf-8")
        if citations(text)[0] and "docs/spec/" not in text:
            listed.append(relative)
    assert listed == []


# ---------- the grammar, on made-up text through the same functions ----------


S = SECTION_SIGN
V, X = "validation.md", "extended.md"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"validation.md {S}4", [(V, "4", "", True)]),
        (f"docs/spec/validation.md {S}7, E8", [(V, "7", "", True), (X, "E8", "", False)]),
        ("(extended.md E4, E5, E7)", [(X, "E4", "", True), (X, "E5", "", False), (X, "E7", "", False)]),
        ("`extended.md`, E1", [(X, "E1", "", True)]),
        (f"[{S}3](spec/validation.md)", [(V, "3", "", False)]),
        ("E5 rule 2's tags", [(X, "E5", "2", False)]),
        ("E4 step 3 and E4 4c", [(X, "E4", "3", False), (X, "E4", "4c", False)]),
        ("E2-E4", [(X, "E2", "", False), (X, "E3", "", False), (X, "E4", "", False)]),
        (f"{S}2-{S}3", [(V, "2", "", False), (V, "3", "", False)]),
        (f"{S}4.2", [(V, "4.2", "", False)]),
        (
            "the spec, section 6; the spec (sections 2-3)",
            [(V, "6", "", False), (V, "2", "", False), (V, "3", "", False)],
        ),
        ("docs/extended.md (How modules are built), E4: 1 type", [(X, "E4", "", False)]),
        ("I = 1  # noqa: E741, E501", []),
    ],
)
def test_the_grammar_reads_what_the_code_writes(
    text: str, expected: list[tuple[str, str, str, bool]]
) -> None:
    found, wrong = citations(text)
    assert [(c.file, c.section, c.item, c.named) for c in found] == expected
    assert wrong == []


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (f"validation.md {S}9", f"line 1: 'validation.md {S}9': validation.md has no section {S}9"),
        ("E9", "line 1: 'E9': extended.md has no section E9"),
        (f"{S}4.2", f"line 1: '{S}4.2': validation.md has no section {S}4.2"),
        (f"extended.md {S}4", f"line 1: 'extended.md {S}4': extended.md has no section {S}4"),
        ("validation.md E4", "line 1: 'validation.md E4': validation.md has no section E4"),
        ("E5 rule 7", "line 1: 'E5 rule 7': extended.md E5 has no item 7"),
        ("\n\nE4 4d", "line 3: 'E4 4d': extended.md E4 has no item 4d"),
        (f"{S}5 step 3d", f"line 1: '{S}5 step 3d': validation.md {S}5 has no item 3d"),
        ("E7-E9", "line 1: 'E7-E9': extended.md has no section E9"),
        ("E4c", "line 1: 'E4c': not in the citation grammar"),
        ("E501 outside a noqa comment", "line 1: 'E501': extended.md has no section E501"),
        ("as in section 7", "line 1: 'section 7': not in the citation grammar"),
        ("the spec, section 9", "line 1: 'spec, section 9': validation.md has no section §9"),
        ("sections 2-6", "line 1: 'sections 2-6': not in the citation grammar"),
    ],
)
def test_a_made_up_citation_fails(text: str, why: str) -> None:
    assert problems(text, load_specs()) == [why]


def test_a_section_in_words_of_another_document_is_not_a_citation() -> None:
    assert problems("JSON's number grammar (RFC 8259 section 6)", load_specs()) == []


def test_a_missing_specification_file_fails(tmp_path: Path) -> None:
    (tmp_path / "validation.md").write_text("# Rules\n\n## 1. One\n", "utf-8")
    (tmp_path / "extended.md").write_text("# Extended\n\n## E1. One\n", "utf-8")
    specs = load_specs(tmp_path)
    assert problems(f"{S}1 and E1", specs) == []
    assert problems(f"{S}2", specs) == [f"line 1: '{S}2': validation.md has no section {S}2"]


def test_a_path_to_the_specification_that_leads_nowhere_fails(tmp_path: Path) -> None:
    assert missing_paths("(docs/spec/extended.md E4; [rules](spec/validation.md))", ROOT / "docs") == []
    assert missing_paths("[rules](spec/validation.md)", tmp_path) == ["spec/validation.md: no such file"]
    assert missing_paths("docs/specs/extended.md E4", ROOT) == []  # not the spec's folder: not a citation
    assert missing_paths("see tests/spec/extended.md", ROOT) == ["tests/spec/extended.md: no such file"]
