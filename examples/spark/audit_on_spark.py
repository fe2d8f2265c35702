"""A log of OpenAI tool calls checked on Spark by the generated validators (docs/spark.md).

Run from the project's root: `.venv/bin/python examples/spark/audit_on_spark.py`.
"""

from __future__ import annotations

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from toolgen.runtime.integrations.spark import validate_calls

LOG = "examples/spark/calls.jsonl"  # one OpenAI `tool_calls` entry a line
ENTRY = "id string, function struct<name: string, arguments: string>"


def report(spark: SparkSession, log: str = LOG, package: str = "generated") -> None:
    calls = spark.read.schema(ENTRY).json(log).select("id", "function.name", "function.arguments")
    checked = validate_calls(calls, package)  # the package's folder, shipped to the executors
    verdicts = checked.select("id", "name", "status", F.col("issues.parameter").alias("parameters"))
    verdicts.orderBy("id").show(truncate=False)
    # The audit's parameter table: one row per issue, counted.
    issues = checked.select("name", F.explode("issues").alias("issue")).select("name", "issue.*")
    table = issues.groupBy("name", "parameter", "kind", "detail").count()
    table.orderBy(F.desc("count"), "name", "parameter", "kind").show(truncate=False)


if __name__ == "__main__":
    session = SparkSession.builder.master("local[*]").appName("toolgen audit").getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    report(session)
    session.stop()
