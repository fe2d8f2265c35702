"""Any black of the pinned year (issue 36.3): the fingerprint names black's style year, not its
release, and a package made with another year's black is said to be, by `check` and `generate`.

black changes its stable style only in the first release of a calendar year, so a package is
made "with black 26.x". Here the other year is black's reported version patched in-process
(the formatting is the installed black's either way); tests/test_distribution.py installs two
real releases of one year and compares the bytes they write.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path

import pytest

from generator.package import build as build_module
from generator.package.build import fingerprint, style_of
from tests.toolgen_cli import invoke

ROOT = Path(__file__).resolve().parent.parent
TIMING = re.compile(r" in \d+\.\ds$")


@pytest.fixture
def black_version(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Make black report another version (fingerprints are cached: forgotten both ways)."""

    def report(installed: str) -> None:
        fingerprint.cache_clear()
        monkeypatch.setattr(
            build_module, "version", lambda name: installed if name == "black" else metadata.version(name)
        )

    yield report
    monkeypatch.undo()
    fingerprint.cache_clear()


def test_the_fingerprint_names_the_style_year_and_not_the_release(
    black_version: Callable[[str], None],
) -> None:
    black_version("26.1.0")
    first = fingerprint()
    black_version("26.10.1")
    assert fingerprint() == first
    assert re.fullmatch(r"[0-9a-f]{16} \(black 26\.x\)", first)
    assert style_of(first) == 26
    black_version("25.12.0")
    other = fingerprint()
    assert other.endswith(" (black 25.x)") and other[:16] != first[:16]
    assert style_of(other) == 25
    assert style_of("1d9b91b6f4b2c4d1") is None  # a package made before the year was named


NOTE = (
    "note: pkg was made with black 25.x, and this toolgen formats with black {installed}: black's "
    "style changes with the year, so files can differ in their formatting alone. Generate and "
    "check the package with a black of one year everywhere (your environment, the pre-commit "
    "hook, CI)."
)


def test_a_package_made_with_another_years_black_is_reported_by_check_and_generate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, black_version: Callable[[str], None]
) -> None:
    (tmp_path / "s").mkdir()
    for name in ("Read.json", "Write.json"):
        shutil.copyfile(ROOT / "tool_schemas" / name, tmp_path / "s" / name)
    (tmp_path / "pyproject.toml").write_text('[tool.toolgen]\nschemas = "s"\nout = "pkg"\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    installed = metadata.version("black")
    black_version("25.12.0")
    made = invoke("generate")
    assert (made.exit_code, made.stderr) == (0, "")
    init = (tmp_path / "pkg" / "__init__.py").read_text("utf-8").splitlines()
    assert init[3] == f"# Generator: {fingerprint()}" and init[3].endswith(" (black 25.x)")
    before = {p.name: p.read_bytes() for p in (tmp_path / "pkg").glob("*.py")}

    black_version(installed)  # the black this environment has: another year's
    checked = invoke("check")
    assert checked.exit_code == 1
    assert checked.stderr == (
        NOTE.format(installed=installed) + "\n"
        "changed: pkg/__init__.py\n"
        "generated code is out of sync; run: toolgen generate\n"
    )
    # Only the Generator line (and the digest beside it) differs: the formatting itself is the
    # installed black's in both runs.
    assert f"-# Generator: {init[3].removeprefix('# Generator: ')}" in checked.stdout.splitlines()
    assert f"+# Generator: {fingerprint()}" in checked.stdout.splitlines()

    regenerated = invoke("generate")
    assert regenerated.exit_code == 0
    assert regenerated.stderr == NOTE.format(installed=installed) + "\n"
    assert (
        TIMING.sub("", regenerated.stdout) == "2 tools: 0 changed, 2 unchanged, 0 removed (+1 package file)\n"
    )
    after = {p.name: p.read_bytes() for p in (tmp_path / "pkg").glob("*.py")}
    assert {n for n in after if after[n] != before[n]} == {"__init__.py"}

    again = invoke("check")
    assert (again.exit_code, again.stdout, again.stderr) == (0, "pkg: in sync (2 tools)\n", "")


def test_a_package_of_the_same_year_and_one_without_a_year_are_not_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, black_version: Callable[[str], None]
) -> None:
    (tmp_path / "s").mkdir()
    shutil.copyfile(ROOT / "tool_schemas" / "Read.json", tmp_path / "s" / "Read.json")
    (tmp_path / "pyproject.toml").write_text('[tool.toolgen]\nschemas = "s"\nout = "pkg"\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    installed = metadata.version("black")
    year = installed.split(".")[0]
    black_version(f"{year}.1.0")  # the first release of the installed black's year
    assert invoke("generate").exit_code == 0
    black_version(installed)
    same = invoke("check")
    assert (same.exit_code, same.stderr) == (0, "")
    # A package written before the Generator line named the year: nothing to say about black.
    init = tmp_path / "pkg" / "__init__.py"
    text = init.read_text("utf-8")
    init.write_text(text.replace(f" (black {year}.x)\n", "\n", 1), "utf-8")
    stale = invoke("check")
    assert stale.exit_code == 1
    assert stale.stderr == "changed: pkg/__init__.py\ngenerated code is out of sync; run: toolgen generate\n"
