"""runtime/integrations/spark.py on a real local Spark session: one row per call with its exact
status and issues, the same counts as `toolgen audit` on the same calls, the package shipped to
executors that have neither toolgen nor this repository, refusals, and docs/spark.md's example."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import StringType

import generated
from examples.spark.audit_on_spark import LOG, report
from runtime.integrations.spark import validate_calls
from tests.test_docs import blocks
from tests.toolgen_cli import ROOT, invoke

# One session for the module; with `make test` (-n 2, --dist loadgroup) one worker runs them all.
pytestmark = [pytest.mark.spark, pytest.mark.xdist_group("spark")]

CALLS = "id string, name string, arguments string"
ASK = json.dumps(
    {
        "questions": [
            {"question": "Which database?", "header": "Database", "multiSelect": "false",
             "options": [{"label": "Postgres", "description": "a server"},
                         {"label": "SQLite", "description": "a file"}]},
            {"question": "Which auth?", "header": "Auth", "multiSelect": "true",
             "options": [{"label": "OAuth", "description": "a provider"},
                         {"label": "Password", "description": "local"}]},
        ]
    }
)  # fmt: skip
ROWS: list[tuple[str, str | None, str | None]] = [
    ("valid", "Read", '{"file_path": "/repo/app.py", "offset": 10, "limit": 40}'),
    ("named wrong", "TaskUpdate", '{"id": "2", "status": "completed"}'),
    ("nested", "AskUserQuestion", ASK),
    ("not an object", "Read", "[1, 2]"),
    ("python dict", "Read", "{'file_path': 'app.py'}"),
    ("empty text", "Read", ""),
    ("mcp", "mcp__github__create_issue", '{"title": "Flaky test"}'),
    ("custom, not JSON", "my_custom_tool", "not json"),
    ("no arguments", "TaskGet", None),
    ("no name", None, "{}"),
]
TYPE_LINE = "The parameter `{}` type is expected as `{}` but provided as `{}`"
EXPECTED: list[tuple[Any, ...]] = [
    ("valid", "Read", ROWS[0][2], "valid", []),
    ("named wrong", "TaskUpdate", ROWS[1][2], "invalid", [
        ("missing", "taskId", "The required parameter `taskId` is missing", "taskId", ""),
        ("unexpected", "id", "An unexpected parameter `id` was provided", "id", ""),
    ]),
    ("nested", "AskUserQuestion", ASK, "invalid", [
        ("type", f"questions[{i}].multiSelect",
         TYPE_LINE.format(f"questions[{i}].multiSelect", "boolean", "string"),
         "questions[*].multiSelect", "string instead of boolean")
        for i in (0, 1)
    ]),
    ("not an object", "Read", "[1, 2]", "invalid", [
        ("type", "", "The tool input type is expected as `object` but provided as `array`", "(input)",
         "array instead of object"),
    ]),
    ("python dict", "Read", "{'file_path': 'app.py'}", "undecodable", [
        ("undecodable", "", "arguments are not JSON: Expecting property name enclosed in double quotes: "
         "line 1 column 2 (char 1)", "(input)", ""),
    ]),
    ("empty text", "Read", "", "undecodable", [
        ("undecodable", "", "arguments are not JSON: Expecting value: line 1 column 1 (char 0)",
         "(input)", ""),
    ]),
    ("mcp", "mcp__github__create_issue", ROWS[6][2], "pass-through", []),
    ("custom, not JSON", "my_custom_tool", "not json", "pass-through", []),
    ("no arguments", "TaskGet", None, "invalid", [
        ("missing", "taskId", "The required parameter `taskId` is missing", "taskId", ""),
    ]),
    ("no name", None, "{}", None, []),
]  # fmt: skip


@pytest.fixture(scope="module")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SparkSession]:
    """A local session whose Python workers cannot import toolgen: they run the base interpreter
    (not this virtual environment) in an empty folder (the JVM's, inherited: not this
    repository), so all they have of the package is what the recipe ships."""
    empty = tmp_path_factory.mktemp("spark-workdir")
    base_python = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    here = os.getcwd()
    os.chdir(empty)  # the JVM starts here, and its Python workers with it
    try:
        session = (
            SparkSession.builder.master("local[1]")
            .appName("toolgen-tests")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "1")
            # A few small jobs: a JVM that starts fast beats one that compiles for the long run.
            .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
            .config("spark.sql.codegen.wholeStage", "false")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.pyspark.python", str(base_python))
            .getOrCreate()
        )
    finally:
        os.chdir(here)
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This repository's package under a name nothing else provides (it imports relatively)."""
    folder = tmp_path_factory.mktemp("vendored") / "shipped_tools"
    shutil.copytree(ROOT / "generated", folder, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return folder


def as_tuples(frame: DataFrame) -> list[tuple[Any, ...]]:
    return [
        (*row[:4], [tuple(issue) for issue in row["issues"]])
        for row in frame.collect()  # one partition: the input's order
    ]


def test_every_kind_of_call_gets_its_row_with_its_exact_issues(spark: SparkSession, shipped: Path) -> None:
    checked = validate_calls(spark.createDataFrame(ROWS, CALLS), shipped)
    assert checked.columns == ["id", "name", "arguments", "status", "issues"]
    assert as_tuples(checked) == EXPECTED


def test_the_counts_are_toolgen_audits_on_the_same_calls(
    spark: SparkSession, shipped: Path, tmp_path: Path
) -> None:
    # The same calls as an OpenAI log: a NULL argument column is an entry without `arguments`
    # (which the audit reads as `{}`), a NULL name an entry the audit lists as a bad line.
    log = tmp_path / "calls.jsonl"
    entries = []
    for call_id, name, arguments in ROWS:
        function = {"name": name} if arguments is None else {"name": name, "arguments": arguments}
        entries.append(json.dumps({"id": call_id, "type": "function", "function": function}) + "\n")
    log.write_text("".join(entries), "utf-8")
    result = invoke("audit", "--json", "--package", str(shipped), str(log))
    assert result.exit_code == 0, result.output
    audit = json.loads(result.output)

    rows = validate_calls(spark.createDataFrame(ROWS, CALLS), shipped).collect()
    calls = [row for row in rows if row["status"] is not None]
    statuses = Counter(row["status"] for row in calls)
    by_parameter = Counter(
        (row["name"], issue["parameter"], issue["kind"], issue["detail"])
        for row in calls
        for issue in row["issues"]
    )
    assert statuses == {"invalid": 4, "undecodable": 2, "pass-through": 2, "valid": 1}
    assert audit["bad_lines"] == len(rows) - len(calls) == 1
    assert audit["calls"] == len(calls)
    assert audit["passed_through"] == statuses["pass-through"]
    assert audit["rejected"] == statuses["invalid"] + statuses["undecodable"]
    keys = ("tool", "parameter", "kind", "detail")
    assert {tuple(p[k] for k in keys): p["count"] for p in audit["by_parameter"]} == by_parameter
    kinds = Counter(key[2] for key in by_parameter.elements())
    assert {k["kind"]: k["issues"] for k in audit["by_kind"]} == kinds


def test_the_executors_import_only_the_shipped_package(spark: SparkSession, shipped: Path) -> None:
    validate_calls(spark.createDataFrame(ROWS[:1], CALLS), shipped).collect()

    def where(_: int) -> str:
        import importlib.util

        found = {name: importlib.util.find_spec(name) for name in ("runtime", "generator", "generated")}
        package = importlib.import_module("shipped_tools")
        missing = sorted(n for n, spec in found.items() if spec is None)
        return json.dumps({"missing": missing, "from": package.__file__})

    [row] = spark.range(1).select(F.udf(where, StringType(), useArrow=False)("id")).collect()
    seen = json.loads(row[0])
    assert seen["missing"] == ["generated", "generator", "runtime"]
    assert Path(seen["from"]).parent.parent.name.startswith("shipped_tools-")
    assert Path(seen["from"]).parent.parent.suffix == ".zip"


def test_the_imported_package_module_is_shipped_the_same_way(spark: SparkSession) -> None:
    checked = validate_calls(spark.createDataFrame(ROWS[1:2], CALLS), generated)
    assert as_tuples(checked) == EXPECTED[1:2]


def test_refusals_name_the_column_or_the_folder(spark: SparkSession, shipped: Path, tmp_path: Path) -> None:
    calls = spark.createDataFrame(ROWS, CALLS)
    as_map = "name string, arguments map<string,string>"
    objects = spark.createDataFrame([("Read", {"file_path": "a"})], as_map)
    with pytest.raises(TypeError) as raised:
        validate_calls(objects, shipped)
    assert str(raised.value) == (
        "arguments_col: the column 'arguments' is map<string,string>, not string"
        " (arguments are JSON text: use to_json on an object column)"
    )
    with pytest.raises(ValueError) as missing:
        validate_calls(calls, shipped, name_col="tool")
    assert str(missing.value) == (
        "name_col: the DataFrame has no column 'tool' (it has ['arguments', 'id', 'name'])"
    )
    with pytest.raises(ValueError) as taken:
        validate_calls(calls.withColumn("status", F.lit("new")), shipped)
    assert str(taken.value) == "status_col: the DataFrame already has a column 'status'; pass another name"
    renamed = validate_calls(calls.withColumn("status", F.lit("new")), shipped, status_col="verdict")
    assert renamed.columns == ["id", "name", "arguments", "status", "verdict", "issues"]

    with pytest.raises(ValueError) as not_package:
        validate_calls(calls, tmp_path)
    assert str(not_package.value) == f"{tmp_path} is not a generated package (no __init__.py and _support.py)"
    old = tmp_path / "old_tools"
    old.mkdir()
    (old / "__init__.py").write_text("", "utf-8")
    (old / "_support.py").write_text("FAILURE_EVENT = 'tool_input_rejected'\n", "utf-8")
    with pytest.raises(ValueError) as too_old:
        validate_calls(calls, old)
    assert str(too_old.value) == f"{old} was generated by an older toolgen: run `toolgen generate` again"

    # Executors keep the first package imported under a name: the same one again adds nothing,
    # another one under it is refused.
    validate_calls(calls, shipped)
    added = [Path(f).name for f in spark.sparkContext.listFiles if "/shipped_tools-" in f]
    assert len(added) == 1 and added[0].endswith(".zip")
    other = tmp_path / "elsewhere" / "shipped_tools"
    shutil.copytree(shipped, other)
    (other / "__init__.py").write_text((shipped / "__init__.py").read_text("utf-8") + "# edited\n", "utf-8")
    with pytest.raises(ValueError) as clash:
        validate_calls(calls, other)
    assert str(clash.value) == (
        "a different package named 'shipped_tools' was already shipped to this Spark session;"
        " executors keep the first one: use a new session (or another folder name)"
    )


def test_the_example_of_docs_spark_md_prints_what_the_page_shows(
    spark: SparkSession, capsys: pytest.CaptureFixture[str]
) -> None:
    page = blocks((ROOT / "docs" / "spark.md").read_text("utf-8"))
    [at] = [i for i, b in enumerate(page) if b.options == "file=examples/spark/audit_on_spark.py"]
    script, output = page[at], page[at + 1]
    assert script.text == (ROOT / "examples" / "spark" / "audit_on_spark.py").read_text("utf-8")
    assert output.kind == "text"
    report(spark, str(ROOT / LOG), str(ROOT / "generated"))
    assert capsys.readouterr().out == output.text

