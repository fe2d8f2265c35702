"""`make byte-gate`: the generator's output on three declaration sets, compared byte for byte
with a recorded manifest (tests/data/byte-gate.json).

The sets: every file of tool_schemas/, the real-tools declarations (tests/data/real-tools)
and the BFCL functions (tests/data/bfcl, converted as `make gencost` converts them, names
distinct), each built in both keyword modes, `subset` and `extended`. Every file a build
writes is hashed (sha256, of which the manifest keeps the first 16 hex digits: 64 bits, so
that a manifest of some 5,700 files stays near 200 KB); any file added, missing or different
fails the gate, named.

Two header lines of `__init__.py` are left out of its hash, because they change whenever the
generator's own code does while no output byte moves: `# Generator:` (the fingerprint of the
output stages' code) and `# Package sha256:` (a digest of the other files' bodies, each
compared on its own). Every other byte of every file counts, headers included.

Too slow for `make test` (black formats some 2,900 modules: about 2 minutes on 2 cores), so
it runs here, in process, with build()'s own pool of formatters. `--record` writes the
manifest from the current output: only for a reviewed change of the output.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks.gencost import bfcl_declarations, write_schemas
from generator.package.build import KEYWORDS, build

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "tests" / "data" / "byte-gate.txt"
DIGITS = 16  # of each sha256 kept (module docstring)
# The header lines that change with the generator's code alone (module docstring).
VOLATILE = (b"# Generator: ", b"# Package sha256: ")
# Every header names the command that regenerates its package: fixed here, so that the bytes
# do not depend on where the gate runs.
MANIFEST_HEAD = (
    "toolgen byte gate (make byte-gate, tests/byte_gate.py): the first 16 hex digits of the sha256 "
    "of each generated file, in keyword modes subset and extended"
)
COMMAND = "toolgen generate --schemas {schemas} --out build --keywords {keywords}"


def digest(name: str, text: str) -> str:
    """sha256 of a generated file's bytes, `__init__.py`'s volatile header lines left out."""
    data = text.encode("utf-8")
    if name == "__init__.py":
        lines = data.splitlines(keepends=True)
        data = b"".join(line for line in lines if not line.startswith(VOLATILE))
    return hashlib.sha256(data).hexdigest()[:DIGITS]


def declaration_sets(scratch: Path) -> Iterator[tuple[str, Path]]:
    """(name, folder of declaration files) of each set; BFCL's written under `scratch`."""
    yield "tool_schemas", ROOT / "tool_schemas"
    yield "real-tools", ROOT / "tests" / "data" / "real-tools"
    bfcl = scratch / "bfcl"  # the folder's name is in the index header: fixed
    write_schemas(bfcl, bfcl_declarations(None))
    yield "bfcl", bfcl


Manifest = dict[str, dict[str, tuple[str, ...]]]  # set -> file name -> digest in each mode


def outputs() -> Manifest:
    """Set -> file name -> its digest in each keyword mode (KEYWORDS' order); "-" where a
    mode's build has no such file."""
    found: dict[str, dict[str, dict[str, str]]] = {}
    with tempfile.TemporaryDirectory(prefix="toolgen-byte-gate-") as scratch:
        for name, schemas in declaration_sets(Path(scratch)):
            for keywords in KEYWORDS:
                started = time.perf_counter()
                command = COMMAND.format(schemas=name, keywords=keywords)
                files = build(schemas, keywords=keywords, command=command).files
                found.setdefault(name, {})[keywords] = {f: digest(f, files[f]) for f in files}
                seconds = time.perf_counter() - started
                print(f"{name} {keywords}: {len(files)} files, {seconds:.1f} s", file=sys.stderr)
    return {
        name: {
            file: tuple(modes[k].get(file, "-") for k in KEYWORDS)
            for file in sorted(set().union(*modes.values()))
        }
        for name, modes in found.items()
    }


def write_manifest(manifest: Manifest) -> str:
    """The manifest's text: a `[set]` line, then `file digest-subset digest-extended` lines."""
    lines = [f"# {MANIFEST_HEAD}"]
    for name, files in manifest.items():
        lines.append(f"[{name}]")
        lines += [" ".join((file, *digests)) for file, digests in files.items()]
    return "\n".join(lines) + "\n"


def read_manifest(text: str) -> Manifest:
    manifest: Manifest = {}
    files: dict[str, tuple[str, ...]] = {}
    for line in text.splitlines():
        if line.startswith("["):
            files = manifest.setdefault(line.strip("[]"), {})
        elif line and not line.startswith("#"):
            file, *digests = line.split(" ")
            files[file] = tuple(digests)
    return manifest


def differences(recorded: Manifest, built: Manifest) -> list[str]:
    """One line per file and mode that is new, gone or different (none: every byte as recorded)."""
    lines = []
    absent = ("-",) * len(KEYWORDS)
    for name in sorted(recorded.keys() | built.keys()):
        was, now = recorded.get(name, {}), built.get(name, {})
        for file in sorted(was.keys() | now.keys()):
            pairs = zip(KEYWORDS, was.get(file, absent), now.get(file, absent), strict=True)
            lines += [
                f"{name} ({k}): {file}: {_change(before, after)}"
                for k, before, after in pairs
                if before != after
            ]
    return lines


def _change(before: str, after: str) -> str:
    if after == "-":
        return "no longer generated"
    return "not recorded" if before == "-" else "bytes differ"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.byte_gate", description=__doc__.split("\n")[0])
    parser.add_argument("--record", action="store_true", help="write the manifest from this output")
    options = parser.parse_args(argv)
    os.chdir(ROOT)  # sources are named relative to the project root in every header
    built = outputs()
    count = sum(d != "-" for files in built.values() for digests in files.values() for d in digests)
    shown = MANIFEST.relative_to(ROOT)
    if options.record:
        MANIFEST.write_text(write_manifest(built), "utf-8")
        print(f"byte gate: recorded {count} files in {shown}")
        return 0
    lines = differences(read_manifest(MANIFEST.read_text("utf-8")), built)
    for line in lines:
        print(line)
    if lines:
        print(f"byte gate: {len(lines)} of {count} files differ from {shown}")
        return 1
    print(f"byte gate: {count} files, every byte as recorded in {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
