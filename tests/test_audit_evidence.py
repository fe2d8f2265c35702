"""The evidence bar of `audit --suggest`: a kind is worth adopting only when it rescues at
least `min_rescued` calls and the lower bound of the 95% Wilson interval of its share of the
rejected calls is at least `min_share`. The interval against published values; the bar on
planted logs at its edges (one call under, one over), in the exact text and JSON the CLI
prints; the `[tool.toolgen.repairs]` lines it prints, read back by a TOML parser; the bar
from the command line and from `[tool.toolgen]`."""

from __future__ import annotations

import json
import math
import re
import statistics
from pathlib import Path
from typing import Any

import pytest
import tomllib

from generator.readers.evidence import (
    DEFAULT_BAR,
    Z95,
    EvidenceBar,
    adoption,
    outward,
    toml_key,
    toml_lines,
    wilson,
)
from generator.readers.repairs import KINDS
from generator.readers.suggestions import ADOPTING
from tests.test_audit_suggest import generated
from tests.toolgen_cli import ROOT, invoke

# The exact reports, two files a planted log: NAME.txt the text (the whole of count-over's,
# the repairs part of the others'; {pkg} stands for the package's folder), NAME.json the
# JSON report's `repairs` object.
REPORTS = ROOT / "tests" / "data" / "audit_evidence"


def test_the_quantile_is_the_normal_distributions() -> None:
    # The quantile to 21 digits (a table of the normal distribution) as the nearest float; the
    # standard library computes it to within a few units in the last place.
    assert float("1.95996398454005423552") == Z95
    assert math.isclose(statistics.NormalDist().inv_cdf(0.975), Z95, rel_tol=1e-15)


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Newcombe, "Two-sided confidence intervals for the single proportion: comparison of
        # seven methods", Statistics in Medicine 17 (1998), table II, method 3 (score, no
        # continuity correction), to the four decimals it prints.
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_the_published_values(
    successes: int, trials: int, low: float, high: float
) -> None:
    assert tuple(round(bound, 4) for bound in wilson(successes, trials)) == (low, high)


@pytest.mark.parametrize(("successes", "trials"), [(1, 2), (3, 14), (10, 56), (10, 55), (99, 100)])
def test_wilson_bounds_are_where_the_score_test_is_exactly_z(successes: int, trials: int) -> None:
    share = successes / trials
    for bound in wilson(successes, trials):
        score = abs(share - bound) / math.sqrt(bound * (1 - bound) / trials)
        assert math.isclose(score, Z95, rel_tol=1e-9)


def test_wilson_closed_forms_at_the_ends() -> None:
    z2 = Z95 * Z95
    low, high = wilson(0, 20)
    assert low == 0.0 and math.isclose(high, z2 / (20 + z2), rel_tol=1e-12)
    low, high = wilson(20, 20)
    assert math.isclose(low, 20 / (20 + z2), rel_tol=1e-12) and high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)  # no trials: every share is possible


def test_outward_rounding_never_shows_a_bound_inside_what_was_computed() -> None:
    low, high = wilson(10, 56)
    assert low < 0.1 < low + 1e-5  # just under a tenth: shown as 9.9%, never 10.0%
    assert outward((low, high), 3) == (0.099, 0.299)
    assert outward(wilson(10, 55), 3) == (0.101, 0.304)


@pytest.mark.parametrize(
    ("rescued", "whole", "clears"),
    [
        (9, 12, False),  # a lower bound of 46.8%, but under ten calls
        (10, 13, True),
        (10, 56, False),  # ten calls, a lower bound of 9.99986%
        (10, 55, True),  # a lower bound of 10.19%
        (1, 1, False),  # 1 of 1 has a lower bound of 20.7%: why the count is part of the bar
    ],
)
def test_the_default_bar_at_its_edges(rescued: int, whole: int, clears: bool) -> None:
    assert EvidenceBar(10, 0.10) == DEFAULT_BAR
    assert DEFAULT_BAR.clears(rescued, whole) is clears


# The planted logs: each call to plan_trip (tests/data/audit_suggest) is rejected and then
# rescued by exactly one kind, or by none.
BASE = {"days": 3, "travellerName": "Ada"}
assert KINDS[:2] == ("number-from-string", "boolean-from-string")  # the kinds planted, first


def call(**changed: Any) -> str:
    return json.dumps({"name": "plan_trip", "arguments": {**BASE, **changed}})


def planted(numbers: int, booleans: int, unrescued: int) -> list[str]:
    """`numbers` calls number-from-string rescues (3 in 5 at `days`, the rest at `budget`),
    `booleans` that boolean-from-string does (`refundable`, `legs[*].confirmed`), and
    `unrescued` that nothing rescues (`"days": "2.5"`)."""
    lines = [call(days="3") if i % 5 < 3 else call(budget="-1.5e3") for i in range(numbers)]
    lines += [
        call(refundable="true") if i % 5 < 3 else call(legs=[{"confirmed": "false"}]) for i in range(booleans)
    ]
    return lines + [call(days="2.5")] * unrescued


LOGS = {
    "count-under": planted(9, 9, 3),
    "count-over": planted(10, 10, 3),
    "share-over": planted(10, 0, 45),
    "share-under": planted(10, 0, 46),
}


@pytest.fixture(scope="module")
def package_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated(tmp_path_factory)


def write(folder: Path, name: str) -> Path:
    log = folder / f"{name}.jsonl"
    log.write_text("\n".join(LOGS[name]) + "\n", "utf-8")
    return log


def suggest(package_dir: Path, log: Path, *options: str) -> str:
    done = invoke("audit", "--package", str(package_dir), "--suggest", *options, str(log))
    assert (done.exit_code, done.stderr) == (0, ""), done.output
    return done.stdout


def expected(name: str) -> str:
    return (REPORTS / (name if name.endswith(".json") else f"{name}.txt")).read_text("utf-8")


def repairs_part(report: str) -> str:
    """The repairs part of a report (what comes before is the counts of audit)."""
    return report[report.index("repairs of the ") :]


def test_one_call_under_the_count_is_too_few_and_one_over_is_worth_adopting(
    package_dir: Path, tmp_path: Path
) -> None:
    under, over = write(tmp_path, "count-under"), write(tmp_path, "count-over")
    assert repairs_part(suggest(package_dir, under)) == expected("count-under")
    assert suggest(package_dir, over) == expected("count-over").format(pkg=package_dir)


def test_a_lower_bound_just_over_the_share_is_worth_adopting_and_just_under_is_not(
    package_dir: Path, tmp_path: Path
) -> None:
    over, under = write(tmp_path, "share-over"), write(tmp_path, "share-under")
    assert repairs_part(suggest(package_dir, over)) == expected("share-over")
    assert repairs_part(suggest(package_dir, under)) == expected("share-under")


@pytest.mark.parametrize("name", list(LOGS))
def test_the_json_report_gives_each_share_its_interval_and_the_table_that_adopts(
    package_dir: Path, tmp_path: Path, name: str
) -> None:
    data = json.loads(suggest(package_dir, write(tmp_path, name), "--json"))
    # As printed, key order included: what was there before comes first, as it was.
    assert json.dumps(data["repairs"], indent=2, ensure_ascii=False) + "\n" == expected(f"{name}.json")


def printed_toml(report: str) -> str:
    introduced = f"{ADOPTING} where they rescued calls:\n"
    return report[report.index(introduced) + len(introduced) :]


def test_the_printed_lines_are_the_toml_of_the_adopt_table(package_dir: Path, tmp_path: Path) -> None:
    log = write(tmp_path, "count-over")
    toml = printed_toml(suggest(package_dir, log))
    data = json.loads(suggest(package_dir, log, "--json"))
    assert tomllib.loads(toml) == {"tool": {"toolgen": {"repairs": data["repairs"]["adopt"]}}}


def test_toml_lines_quote_what_toml_needs_and_list_kinds_in_their_order() -> None:
    tools = [
        ("null-as-missing", "plan_trip", "notes"),
        ("json-from-string", "plan_trip", "cities"),
        ("array-from-single", "plan_trip", "cities"),
        ("number-from-string", 'odd "tool".v2', "a\\b\tc\x7f"),
        ("number-from-string", "trip", "(input)"),
        ("renamed-parameter", "trip", "task_id -> taskId"),  # not adopted: left out
        ("enum-case", "trip", "Straße ✈ 😀"),
    ]
    kinds = ["number-from-string", "json-from-string", "array-from-single", "enum-case", "null-as-missing"]
    table = adoption(kinds, tools)
    assert table == {
        'odd "tool".v2': {"a\\b\tc\x7f": ["number-from-string"]},
        "plan_trip": {"cities": ["json-from-string", "array-from-single"], "notes": ["null-as-missing"]},
        "trip": {"(input)": ["number-from-string"], "Straße ✈ 😀": ["enum-case"]},
    }
    lines = toml_lines(table)
    assert lines == [
        '[tool.toolgen.repairs.parameters."odd \\"tool\\".v2"]',
        '"a\\\\b\\u0009c\\u007F" = ["number-from-string"]',
        "",
        "[tool.toolgen.repairs.parameters.plan_trip]",
        'cities = ["json-from-string", "array-from-single"]',
        'notes = ["null-as-missing"]',
        "",
        "[tool.toolgen.repairs.parameters.trip]",
        '"(input)" = ["number-from-string"]',
        '"Straße ✈ 😀" = ["enum-case"]',
    ]
    assert tomllib.loads("\n".join(lines)) == {"tool": {"toolgen": {"repairs": {"parameters": table}}}}
    assert (toml_key("plan-trip_2"), toml_key("")) == ("plan-trip_2", '""')


def test_the_bar_from_the_command_line(package_dir: Path, tmp_path: Path) -> None:
    log = write(tmp_path, "count-over")
    stricter = repairs_part(suggest(package_dir, log, "--min-rescued", "11"))
    assert stricter.endswith(
        "what it means: too few calls rescued to justify a rule (under 11): number-from-string 10 calls, "
        "boolean-from-string 10 calls; 13.0% no repair rescues: real errors that no rule would hide.\n"
    )
    # 10 of 23 has a lower bound of 25.63%: 25.6% clears it, 25.7% does not.
    assert ADOPTING in suggest(package_dir, log, "--min-share", "0.256")
    higher = suggest(package_dir, log, "--min-share", "0.257")
    assert higher.endswith(
        "what it means: a share too uncertain to justify a rule (lower bound under 25.7%): "
        "number-from-string 43.5% (lower bound 25.6%), boolean-from-string 43.5% (lower bound 25.6%); "
        "13.0% no repair rescues: real errors that no rule would hide.\n"
    )
    data = json.loads(suggest(package_dir, log, "--json", "--min-share", "0.257", "--min-rescued", "3"))
    assert data["repairs"]["evidence_bar"] == {"min_rescued": 3, "min_share": 0.257, "confidence": 0.95}
    assert data["repairs"]["adopt"] == {}


def test_the_bar_from_the_project_table_and_the_command_line_winning(
    package_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = write(tmp_path, "count-over")
    (tmp_path / "pyproject.toml").write_text(
        "[tool.toolgen]\nsuggest-min-rescued = 11\nsuggest-min-share = 0.05\n", "utf-8"
    )
    monkeypatch.chdir(tmp_path)
    data = json.loads(suggest(package_dir, log, "--json"))
    assert data["repairs"]["evidence_bar"] == {"min_rescued": 11, "min_share": 0.05, "confidence": 0.95}
    assert data["repairs"]["adopt"] == {}
    data = json.loads(suggest(package_dir, log, "--json", "--min-rescued", "10"))
    assert data["repairs"]["evidence_bar"] == {"min_rescued": 10, "min_share": 0.05, "confidence": 0.95}
    assert data["repairs"]["adopt"] == json.loads(expected("count-over.json"))["adopt"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--min-share", "0.2"], "error: --min-share is the evidence bar of --suggest; add --suggest\n"),
        (["--min-rescued", "3"], "error: --min-rescued is the evidence bar of --suggest; add --suggest\n"),
    ],
)
def test_the_bar_without_suggest_is_refused(
    package_dir: Path, tmp_path: Path, options: list[str], message: str
) -> None:
    done = invoke("audit", "--package", str(package_dir), *options, str(write(tmp_path, "count-over")))
    assert (done.exit_code, done.stdout, done.stderr) == (2, "", message)


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (["--min-share", "1"], "Invalid value for '--min-share': 1.0 is not in the range 0<=x<1."),
        (["--min-share", "-0.1"], "Invalid value for '--min-share': -0.1 is not in the range 0<=x<1."),
        (["--min-rescued", "0"], "Invalid value for '--min-rescued': 0 is not in the range x>=1."),
    ],
)
def test_a_bar_out_of_range_is_a_usage_error(
    package_dir: Path, tmp_path: Path, options: list[str], problem: str
) -> None:
    log = write(tmp_path, "count-over")
    done = invoke("audit", "--package", str(package_dir), "--suggest", *options, str(log))
    assert done.exit_code == 2
    assert done.stderr.endswith(f"Error: {problem}\n")


def toml_blocks(page: str) -> list[dict[str, Any]]:
    found = re.findall(r"^```toml\n(.*?)^```$", page, re.MULTILINE | re.DOTALL)
    return [tomllib.loads(block) for block in found]


def test_the_docs_show_the_defaults_and_a_table_of_the_format() -> None:
    """docs/audit-suggest.md's TOML blocks are shown, not run: they are read here instead."""
    bar, table = toml_blocks((ROOT / "docs" / "audit-suggest.md").read_text("utf-8"))
    defaults = {"suggest-min-rescued": DEFAULT_BAR.min_rescued, "suggest-min-share": DEFAULT_BAR.min_share}
    assert bar == {"tool": {"toolgen": defaults}}
    repairs = table["tool"]["toolgen"]["repairs"]
    assert set(repairs) == {"all", "tools", "parameters"}
    lists = [repairs["all"], *repairs["tools"].values()]
    lists += [kinds for members in repairs["parameters"].values() for kinds in members.values()]
    assert all(kinds and set(kinds) <= set(KINDS) for kinds in lists)
    # What the report prints is the `parameters` part of the same format.
    assert toml_lines(repairs["parameters"]) == [
        "[tool.toolgen.repairs.parameters.AskUserQuestion]",
        '"questions[*].multiSelect" = ["boolean-from-string"]',
    ]
