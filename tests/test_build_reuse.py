"""A re-run reuses the modules of unchanged declarations, judged by their header alone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from generator.build import build
from generator.render import fingerprint

ROOT = Path(__file__).resolve().parent.parent


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    for name in ("Read.json", "Write.json"):
        shutil.copyfile(ROOT / "tool_schemas" / name, schemas / name)
    out = tmp_path / "out"
    out.mkdir()
    for name, text in build(schemas).files.items():
        (out / name).write_text(text, encoding="utf-8")
    return schemas, out


def _module(out: Path, prefix: str) -> Path:
    return next(out.glob(prefix + "_*.py"))


def test_header_names_the_generator_fingerprint(tmp_path: Path) -> None:
    _, out = _setup(tmp_path)
    lines = _module(out, "read").read_text(encoding="utf-8").splitlines()
    assert lines[3] == f"# Generator: {fingerprint()}"
    assert len(fingerprint()) == 16


def test_unchanged_declaration_reuses_the_file_on_disk(tmp_path: Path) -> None:
    schemas, out = _setup(tmp_path)
    read = _module(out, "read")
    marked = read.read_text(encoding="utf-8") + "# kept as it was\n"
    read.write_text(marked, encoding="utf-8")
    assert build(schemas, reuse=out).files[read.name] == marked
    # Without reuse (what --check does) the same module is rendered afresh.
    assert build(schemas).files[read.name] == marked.removesuffix("# kept as it was\n")


def test_changed_declaration_is_rendered_again(tmp_path: Path) -> None:
    schemas, out = _setup(tmp_path)
    write = _module(out, "write")
    write.write_text(write.read_text(encoding="utf-8") + "# stale\n", encoding="utf-8")
    declaration = json.loads((schemas / "Write.json").read_text(encoding="utf-8"))
    declaration["function"]["parameters"]["properties"]["mode"] = {"type": "string"}
    (schemas / "Write.json").write_text(json.dumps(declaration), encoding="utf-8")
    source = build(schemas, reuse=out).files[write.name]
    assert "# stale" not in source
    assert '"mode"' in source
