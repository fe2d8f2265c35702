"""Apache Spark: logged tool calls checked by a generated package on the executors.

    from toolgen.runtime.integrations.spark import validate_calls
    checked = validate_calls(calls, "generated")   # or the imported package module
    checked.groupBy("status").count().show()

`calls` is a DataFrame with one row per call: the tool's name and its arguments as JSON text
(OpenAI's `arguments`, or `to_json` of an object column). The result is the same rows with
two more columns: `status` ("valid", "invalid", "undecodable", "pass-through") and `issues`,
an array of structs (kind, path, line, parameter, detail) as `toolgen audit` counts them.
Each call is read by the package's own `_support.verdict`, the function whose parts the
audit uses, so the two agree on every call.

The package is standard library only, so it is shipped as it is: its folder, zipped, is added
to the session's Python files (`SparkContext.addPyFile`) under the folder's name, and the
executors import it from there; nothing else of toolgen is needed on them. The check is a
plain Python UDF (pickled rows, no pandas or pyarrow). Imports `pyspark`; needs a classic
session (`SparkSession.builder...getOrCreate()`), since the package is added through its
SparkContext.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import os
import shutil
import tempfile
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, StringType, StructField, StructType

ISSUE = StructType(
    [
        StructField("kind", StringType(), False),
        StructField("path", StringType(), False),
        StructField("line", StringType(), False),
        StructField("parameter", StringType(), False),  # positions merged, `(input)` for the root
        StructField("detail", StringType(), False),  # a type issue's `string instead of number`
    ]
)
VERDICT = StructType(
    [StructField("status", StringType(), True), StructField("issues", ArrayType(ISSUE, False), True)]
)

_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed: the same package gives the same zip, byte for byte
_lock = threading.Lock()
# (Spark application id, package name) -> sha256 of the zip shipped under that name: executors
# keep the first package they import, so one name may carry only one package per session.
_shipped: dict[tuple[str, str], str] = {}
_scratch: list[str] = []


def validate_calls(
    calls: DataFrame,
    package: ModuleType | str | os.PathLike[str],
    *,
    name_col: str = "name",
    arguments_col: str = "arguments",
    status_col: str = "status",
    issues_col: str = "issues",
) -> DataFrame:
    """`calls` with `status_col` and `issues_col` added, one verdict per row (lazy, like any
    transformation). `package` is a generated package: the imported module, or its folder.

    A row whose arguments are NULL is read as a call without arguments (`{}`, as the audit
    reads an OpenAI tool call without `arguments`); a row whose name is NULL is no call at all
    and gets a NULL status and no issues (the audit lists such a line as a bad line).
    Raises TypeError for columns that are not strings, ValueError for a missing column or an
    output column that already exists, and for a folder that is not a generated package.
    """
    folder = _folder(package)
    _require_verdict(folder)
    fields = {f.name: f.dataType for f in calls.schema.fields}
    for keyword, column in (("name_col", name_col), ("arguments_col", arguments_col)):
        if column not in fields:
            raise ValueError(f"{keyword}: the DataFrame has no column {column!r} (it has {sorted(fields)})")
        if not isinstance(fields[column], StringType):
            raise TypeError(
                f"{keyword}: the column {column!r} is {fields[column].simpleString()}, not string"
                " (arguments are JSON text: use to_json on an object column)"
            )
    for keyword, column in (("status_col", status_col), ("issues_col", issues_col)):
        if column in fields:
            raise ValueError(f"{keyword}: the DataFrame already has a column {column!r}; pass another name")
    ship(calls.sparkSession, folder)
    # Plain pickled rows: no pandas or pyarrow needed, and the same on every session.
    check = F.udf(_row_verdict(folder.name), VERDICT, useArrow=False)
    verdict = check(F.col(name_col), F.col(arguments_col))
    added: dict[str, Column] = {status_col: verdict["status"], issues_col: verdict["issues"]}
    return calls.withColumns(added)


def _folder(package: ModuleType | str | os.PathLike[str]) -> Path:
    if isinstance(package, ModuleType):
        where = getattr(package, "__file__", None)
        if where is None or Path(where).name != "__init__.py":
            raise ValueError(f"{package.__name__} is not a package folder with an __init__.py")
        return Path(where).resolve().parent
    return Path(package).resolve()


def _require_verdict(folder: Path) -> None:
    """The folder is a package generated by a toolgen that has `verdict` (read on the driver,
    without importing the package there)."""
    support = folder / "_support.py"
    if not (folder / "__init__.py").is_file() or not support.is_file():
        raise ValueError(f"{folder} is not a generated package (no __init__.py and _support.py)")
    spec = importlib.util.spec_from_file_location(f"_toolgen_spark_check_{folder.name}", support)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, "verdict"):
        raise ValueError(f"{folder} was generated by an older toolgen: run `toolgen generate` again")


def package_zip(folder: Path, into: Path) -> Path:
    """The package's .py files in a zip, under the folder's name: what the executors import.
    Compiled modules (`make compile`) are left out: they are built for the driver's machine.
    The zip's name carries a digest of its contents; one already there is not written again."""
    files = {
        (Path(folder.name) / p.relative_to(folder)).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*.py"))
        if "__pycache__" not in p.relative_to(folder).parts
    }
    digest = hashlib.sha256()
    for name, data in files.items():
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    target = into / f"{folder.name}-{digest.hexdigest()[:16]}.zip"
    if not target.exists():
        partial = target.with_suffix(".part")
        with zipfile.ZipFile(partial, "w") as archive:
            for name, data in files.items():
                archive.writestr(zipfile.ZipInfo(name, _ZIP_TIME), data, zipfile.ZIP_DEFLATED)
        partial.replace(target)
    return target


def ship(session: SparkSession, folder: Path) -> None:
    """Add the package to the session's Python files, once; refuse a different package under a
    name already shipped (executors would go on using the first)."""
    context = session.sparkContext
    with _lock:
        if not _scratch:
            _scratch.append(tempfile.mkdtemp(prefix="toolgen-spark-"))
            atexit.register(shutil.rmtree, _scratch[0], True)
        # Spark serves the file from this path for the session's lifetime: it stays until exit.
        archive = package_zip(folder, Path(_scratch[0]))
        key = (context.applicationId, folder.name)
        digest = archive.stem.rsplit("-", 1)[1]
        known = _shipped.get(key)
        if known == digest:
            return
        if known is not None:
            raise ValueError(
                f"a different package named {folder.name!r} was already shipped to this Spark session;"
                " executors keep the first one: use a new session (or another folder name)"
            )
        context.addPyFile(str(archive))
        _shipped[key] = digest


def _row_verdict(name: str) -> Callable[[str | None, str | None], Any]:
    """The UDF's function. Defined in here, it is pickled by value, with only the package's
    name inside: the executors need the shipped package and the standard library, not toolgen."""

    def row_verdict(tool: str | None, arguments: str | None) -> Any:
        import importlib

        package = importlib.import_module(name)
        support = importlib.import_module(name + "._support")
        if tool is None:
            return (None, [])
        status, found = support.verdict(
            package.TOOL_NAMES, package.issues, tool, "{}" if arguments is None else arguments
        )
        parameter, detail = support.parameter, support.detail
        return (status, [(i.kind, i.path, i.line, parameter(i.path), detail(i.kind, i.line)) for i in found])

    return row_verdict
