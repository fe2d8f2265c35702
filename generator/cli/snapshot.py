"""`toolgen import`'s output: one MCP-form declaration file per imported tool, and the
manifest (`toolgen-import.toml`) that says which files toolgen wrote from which source.

* A tool's file is `<name>.json` when the name is a safe file name (letters, digits, `_`,
  `-`, `.`; not starting with `.`; at most 100 characters) and no other tool's name differs
  from it only in case (case-insensitive file systems). Otherwise it is the name with every
  character but letters, digits, `_` and `-` replaced by `_`, cut to 64 characters, then `-`
  and the first 8 hex digits of the name's SHA-256: `a/b c` -> `a_b_c-<hash>.json`. The
  tool name inside the file is always the real one.
* The JSON is written deterministically: keys in the source's order, two-space indent,
  non-ASCII characters as themselves, a final newline.
* The manifest, in the same folder, lists the files toolgen owns with their sources. Only
  those are rewritten or removed; every other file in the folder is hand-written, never
  touched, and a tool name or file name it already has is refused.

docs/import.md ("The files", "Ownership") says the same for users.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from ..front.errors import DeclarationError
from ..front.load import TOML_ERRORS, read_declarations, read_toml
from ..package.write import atomic_write, folder_diff, locked
from ..sources.tool import ImportedTool, ImportRefused

MANIFEST = "toolgen-import.toml"
_SAFE = re.compile(r"[A-Za-z0-9_\-][A-Za-z0-9_.\-]{0,99}")
_MANIFEST_HEADER = (
    "# Written by `toolgen import`: the declaration files it owns, each with its source.\n"
    "# A re-run rewrites or removes only these files. Do not edit.\n"
)


def file_names(names: Iterable[str]) -> dict[str, str]:
    """Each tool name's file name (the mapping in this module's docstring)."""
    names = list(names)
    folded = Counter(name.casefold() for name in names)
    return {name: _file_name(name, folded[name.casefold()] > 1) for name in names}


def _file_name(name: str, clashes: bool) -> str:
    if _SAFE.fullmatch(name) and not clashes:
        return f"{name}.json"
    readable = re.sub(r"[^A-Za-z0-9_\-]", "_", name)[:64]
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{readable}-{digest}.json"


def render_manifest(owners: dict[str, str]) -> str:
    lines = [_MANIFEST_HEADER, "[files]\n"]
    # json.dumps spells a TOML basic string (ASCII only: \\uXXXX escapes are valid in both).
    lines += [f"{json.dumps(name)} = {json.dumps(owners[name])}\n" for name in sorted(owners)]
    return "".join(lines)


@dataclass(frozen=True)
class Snapshot:
    folder: Path
    files: dict[str, str]  # file name -> content: every file the import owns, and the manifest
    owners: dict[str, str]  # declaration file name -> source
    changed: tuple[str, ...]
    new: tuple[str, ...]
    removed: tuple[str, ...]  # owned before, offered by no source now

    @property
    def in_sync(self) -> bool:
        return not (self.changed or self.new or self.removed)


def read_manifest(folder: Path) -> dict[str, str]:
    """The files a previous import wrote (file name -> source); {} when there is none."""
    path = folder / MANIFEST
    if not path.exists():
        return {}
    shown = path.as_posix()
    try:
        data = read_toml(path)
    except TOML_ERRORS as exc:
        raise ImportRefused(f"{shown}: the import manifest cannot be read: {exc}") from None
    files = data.get("files", {})
    if set(data) - {"files"} or not isinstance(files, dict):
        raise ImportRefused(f"{shown}: not an import manifest (expected only a [files] table)")
    for name, source in files.items():
        plain = "/" not in name and "\\" not in name and not name.startswith(".") and name.endswith(".json")
        if not (plain and isinstance(source, str)):
            raise ImportRefused(f"{shown}: [files] {name!r}: expected \"FILE.json\" = \"SOURCE\"")
    return dict(files)


def snapshot(folder: Path, tools: list[ImportedTool]) -> Snapshot:
    """What the folder should hold, compared with what it holds; ImportRefused when an
    imported tool would take a hand-written file's name or tool name."""
    previous = read_manifest(folder)
    names = file_names(t.name for t in tools)
    files = {names[t.name]: json.dumps(t.declaration(), indent=2, ensure_ascii=False) + "\n" for t in tools}
    owners = {names[t.name]: t.source for t in tools}
    _refuse_hand_written(folder, tools, names, set(previous))
    files[MANIFEST] = render_manifest(owners)
    new = tuple(n for n in sorted(files) if not (folder / n).is_file())
    changed = tuple(
        n for n in sorted(files) if n not in new and (folder / n).read_bytes() != files[n].encode()
    )
    removed = tuple(sorted(n for n in previous if n not in files and (folder / n).is_file()))
    return Snapshot(folder, files, owners, changed, new, removed)


def _refuse_hand_written(
    folder: Path, tools: list[ImportedTool], names: dict[str, str], owned: set[str]
) -> None:
    """A hand-written declaration keeps its tool names and its file name."""
    by_name = {t.name: t for t in tools}
    wanted = {names[t.name]: t for t in tools}
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.json")):
        if path.name in owned:
            continue
        if path.name in wanted:
            tool = wanted[path.name]
            raise ImportRefused(
                f"{path.as_posix()}: a hand-written file (not written by toolgen import) has the "
                f"file name of tool {tool.name!r} from {tool.source}; rename or remove one of them"
            )
        try:
            declared = [d.name for d in read_declarations(path)]
        except DeclarationError:
            continue  # not readable as declarations: `toolgen generate` refuses it with its reason
        for name in declared:
            if name in by_name:
                raise ImportRefused(
                    f"{path.as_posix()}: declares tool {name!r} by hand, which {by_name[name].source} "
                    "also gives; a hand-written declaration is never overwritten: remove one of the two"
                )


def diff(plan: Snapshot) -> str:
    """A unified diff from the disk to the snapshot, per file (removed files as deletions)."""
    names = sorted(plan.changed + plan.new + plan.removed)
    return folder_diff(plan.folder, names, plan.files, lambda path: path.name not in plan.new)


def check(folder: Path, tools: list[ImportedTool]) -> Snapshot:
    """The comparison, under a shared lock when the folder exists (a run in progress is never
    seen half-done)."""
    with locked(folder, exclusive=False) if folder.is_dir() else nullcontext():
        return snapshot(folder, tools)


def write(folder: Path, tools: list[ImportedTool]) -> Snapshot:
    """Compare and write under the folder's exclusive lock. The manifest is written first
    listing old and new files (a run cut short never leaves an imported file looking
    hand-written), then the changed files, the removals, and the final manifest."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ImportRefused(f"{folder.as_posix()}: cannot create the folder: {exc.strerror or exc}") from None
    with locked(folder):
        plan = snapshot(folder, tools)
        if plan.in_sync:
            return plan
        try:
            claim = {**read_manifest(folder), **plan.owners}
            if set(claim) != set(plan.owners):
                atomic_write(folder / MANIFEST, render_manifest(claim))
            for name in plan.changed + plan.new:
                if name != MANIFEST:
                    atomic_write(folder / name, plan.files[name])
            for name in plan.removed:
                (folder / name).unlink()
            atomic_write(folder / MANIFEST, plan.files[MANIFEST])
        except OSError as exc:
            raise ImportRefused(f"{folder.as_posix()}: cannot write: {exc.strerror or exc}") from None
    return plan
