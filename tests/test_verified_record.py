"""The record of verified files (issue 22.1, docs/scale.md): an edit reads only what changed,
and the record never makes a file trusted that reading it would not trust. A hand edit that
keeps a file's size and puts its mtime back is still caught (its ctime moved); a declaration
edited the same way is still seen; a missing, corrupt or foreign record only costs reads;
the bytes after edits are a cold generate's, serial and pooled; a declaration that changes
between the two passes is refused with nothing written.

Files count as old enough to record as soon as they are written (MARGIN_NS = 0): the real
margin (2 s) would make these tests wait."""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.front.load import declarations_in as read_declarations
from generator.front.load import read_source as read_declaration
from generator.ir.names import module_name
from generator.package import build as build_module
from generator.package import verified
from tests.test_scale_edits import cold, edit, generate, jobs, some_declarations, tree

__all__ = ["jobs"]  # the fixture, serial and pooled

READ = module_name("Read")
WRITE = module_name("Write")


@pytest.fixture(autouse=True)
def no_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verified, "MARGIN_NS", 0)


def checked_package(tmp_path: Path) -> tuple[Path, Path]:
    """A generated package, then a `--check` that records every file of it."""
    schemas = some_declarations(tmp_path)
    out = tmp_path / "pkg"
    assert generate(schemas, out).exit_code == 0
    assert generate(schemas, out, "--check").exit_code == 0
    return schemas, out


def vouched(out: Path, name: str) -> bool:
    """Whether the record on disk takes `name` as it is now, unread: a tool's module by the
    entry of its declaration file, a package file by its own."""
    record = loaded(out)
    status = os.lstat(out / name)
    if name.startswith("_"):
        return record.package_file(name, status) is not None
    seen = verified.identity(status)
    files = [
        (file, tool[at])
        for path in record._old[0]
        for tool in (record.source(path) or (None, "", ()))[2]
        for file, at in ((f"{tool[1]}.py", 5), (f"{tool[1]}_declaration.py", 7))
    ]
    return seen is not None and (name, seen) in files


def same_size_edit(path: Path, old: bytes, new: bytes) -> None:
    """Replace bytes by as many others and put the mtime back, as a careful hand would."""
    assert len(old) == len(new)
    before = os.stat(path)
    data = path.read_bytes()
    assert data.count(old) >= 1
    path.write_bytes(data.replace(old, new, 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert after.st_ctime_ns != before.st_ctime_ns


def test_the_record_lives_beside_the_package_never_in_it(tmp_path: Path) -> None:
    _, out = checked_package(tmp_path)
    cache = tmp_path / ".toolgen-cache"
    assert sorted(p.name for p in cache.iterdir()) == [".gitignore", "pkg.record"]
    assert (cache / ".gitignore").read_text("utf-8") == "# Created by toolgen: a cache, never committed.\n*\n"
    assert not [name for name in tree(out) if not name.endswith(".py")]
    assert vouched(out, f"{READ}.py") and vouched(out, f"{READ}_declaration.py")


def test_a_hand_edit_keeping_size_and_mtime_is_caught_though_the_record_vouched_for_the_file(
    tmp_path: Path,
) -> None:
    schemas, out = checked_package(tmp_path)
    expected = tree(out)
    module = out / f"{READ}.py"
    assert vouched(out, module.name)
    same_size_edit(module, b"return None", b"return 0   ")
    assert not vouched(out, module.name)  # the ctime moved: no user can set it back
    drift = generate(schemas, out, "--check")
    assert drift.exit_code == 1
    assert f"changed: {module.as_posix()}" in drift.output
    assert "\n-            return 0   \n+            return None\n" in drift.output
    done = generate(schemas, out)
    assert done.exit_code == 0, done.output
    assert tree(out) == expected
    assert generate(schemas, out, "--check").exit_code == 0


def test_a_declaration_edited_keeping_size_and_mtime_is_seen(tmp_path: Path) -> None:
    schemas, out = checked_package(tmp_path)
    source = schemas / "Read.json"
    data = source.read_bytes()
    description = json.loads(data)["function"]["description"]
    word = next(w.encode() for w in description.split() if w.islower() and data.count(w.encode()) == 1)
    same_size_edit(source, word, word.upper())  # one word of its description, in capitals
    assert generate(schemas, out, "--check").exit_code == 1
    done = generate(schemas, out)
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("4 tools: 1 changed, 3 unchanged, 0 removed (+1 package file)")
    expected, _ = cold(schemas, out)
    assert tree(out) == expected


def _other_generator(data: Any) -> Any:
    return (data[0], "another generator", *data[2:])


def _wrong_shape(data: Any) -> Any:
    return {"not": "a record"}


def _bad_entries(data: Any) -> Any:
    return (*data[:4], {name: (1, 2) for name in data[4]}, {name: (1, 2) for name in data[5]})


def _bad_tools(data: Any) -> Any:
    """Entries of the right shape whose tools are not: a name that is a number, a short tool,
    a warning that is not four values."""
    bad = (
        (1, "m", 0, False, (), None, None, None, None),
        ("t", "m"),
        ("t", "m", 0, False, ((1,),), None, None, None, None),
    )
    entries = {name: (entry[0], entry[1], (bad[i % 3],)) for i, (name, entry) in enumerate(data[4].items())}
    return (*data[:4], entries, data[5])


DAMAGES: dict[str, Callable[[Path], object]] = {
    "missing": lambda path: path.unlink(),
    "truncated": lambda path: path.write_bytes(path.read_bytes()[:-7]),
    "garbage": lambda path: path.write_bytes(b"\0" * 40),
    "other generator": lambda path: _resealed(path, _other_generator),
    "wrong shape": lambda path: _resealed(path, _wrong_shape),
    "bad entries": lambda path: _resealed(path, _bad_entries),
    "bad tools": lambda path: _resealed(path, _bad_tools),
}


def test_a_missing_or_damaged_record_only_costs_reads(tmp_path: Path) -> None:
    schemas, out = checked_package(tmp_path)
    expected = tree(out)
    record = tmp_path / ".toolgen-cache" / "pkg.record"
    for kind, damage in DAMAGES.items():
        damage(record)
        assert not vouched(out, f"{READ}.py"), kind
        assert generate(schemas, out, "--check").exit_code == 0, kind
        assert vouched(out, f"{READ}.py"), kind  # read again, and recorded again
        assert tree(out) == expected
    DAMAGES["garbage"](record)  # and an edit with no record to go by
    edit(schemas / "Write.json", " (edited)")
    done = generate(schemas, out)
    assert done.exit_code == 0, done.output
    fresh, _ = cold(schemas, out)
    assert tree(out) == fresh


def _resealed(path: Path, change: Callable[[Any], Any]) -> None:
    """A record changed inside, with a checksum that holds: only its content can refuse it."""
    data, _ = verified._chunk(path.read_bytes(), 0)
    assert data is not None
    path.write_bytes(verified._sealed(marshal.dumps(change(data))))


def test_an_edit_reads_only_the_edited_declaration_and_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    schemas, out = checked_package(tmp_path)
    edit(schemas / "Edit.json", " (edited)")
    opened: list[str] = []
    read_generated = build_module._read

    def spy_generated(path: Path) -> Any:
        opened.append(path.name)
        return read_generated(path)

    def spy_declaration(path: Path, file: str) -> bytes:
        opened.append(path.name)
        return read_declaration(path, file)

    monkeypatch.setattr(build_module, "_read", spy_generated)
    monkeypatch.setattr(build_module, "read_source", spy_declaration)
    done = generate(schemas, out)
    assert done.exit_code == 0, done.output
    # Pass 1 reads the changed file and pass 2 reads it again (no bytes held in between).
    assert opened == ["__init__.py", "Edit.json", "Edit.json"]


def test_edits_with_the_record_give_the_bytes_of_a_cold_generate(tmp_path: Path, jobs: str) -> None:
    schemas, out = checked_package(tmp_path)
    for step in range(3):
        if step == 0:
            edit(schemas / "Read.json", " (edited)")
        elif step == 1:
            shutil.copyfile(schemas / "Write.json", schemas / "Copy.json")
            data = json.loads((schemas / "Copy.json").read_text("utf-8"))
            data["function"]["name"] = "Copy"
            (schemas / "Copy.json").write_text(json.dumps(data), "utf-8")
        else:
            (schemas / "Edit.json").unlink()
        done = generate(schemas, out)
        assert done.exit_code == 0, done.output
        assert generate(schemas, out, "--check").exit_code == 0
        expected, warnings = cold(schemas, out)
        assert tree(out) == expected
        assert done.stderr == warnings


def test_a_declaration_changed_between_the_passes_is_refused_with_nothing_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    schemas, out = checked_package(tmp_path)
    before = tree(out)
    edit(schemas / "Read.json", " (edited)")
    emit = build_module._emit

    def changed_meanwhile(*args: Any, **kwargs: Any) -> Any:
        edit(schemas / "Read.json", " (again)")
        return emit(*args, **kwargs)

    monkeypatch.setattr(build_module, "_emit", changed_meanwhile)
    done = generate(schemas, out)
    assert done.exit_code == 2
    assert done.output == "error: Read.json: /: the file changed while toolgen was reading it; run it again\n"
    assert tree(out) == before
    monkeypatch.setattr(build_module, "_emit", emit)
    assert generate(schemas, out).exit_code == 0
    expected, _ = cold(schemas, out)
    assert tree(out) == expected


@pytest.fixture
def slack(monkeypatch: pytest.MonkeyPatch) -> None:
    """Appends until the slack reaches the whole record: an edit of a 4-tool package leaves
    a quarter of its entries stale, which the real share (1/4) would rewrite at once."""
    monkeypatch.setattr(verified, "_SLACK", 1)


def record_file(tmp_path: Path) -> Path:
    return tmp_path / ".toolgen-cache" / "pkg.record"


def loaded(out: Path) -> verified.Record:
    """The record of `out` as the next run reads it (for the command its headers name)."""
    from generator.package.build import fingerprint

    first = (out / "__init__.py").read_text("utf-8").splitlines()[0]
    command = first.removeprefix("# Generated by toolgen. DO NOT EDIT: change the source and run `")
    return verified.Record(out, fingerprint(), command.removesuffix("`."))


def test_a_run_that_learns_entries_appends_them_as_one_chunk(tmp_path: Path, slack: None) -> None:
    schemas, out = checked_package(tmp_path)
    before = record_file(tmp_path).read_bytes()
    appended = loaded(out)._appended
    edit(schemas / "Read.json", " (edited)")
    assert generate(schemas, out).exit_code == 0
    assert generate(schemas, out, "--check").exit_code == 0  # reads and records the new files
    after = record_file(tmp_path).read_bytes()
    assert len(after) > len(before) and after.startswith(before)  # appended, not rewritten
    record = loaded(out)
    assert record._appended == appended + len(after) - len(before)
    assert vouched(out, f"{READ}.py") and vouched(out, f"{READ}_declaration.py")
    # A run that learns nothing leaves the record as it is.
    assert generate(schemas, out, "--check").exit_code == 0
    assert record_file(tmp_path).read_bytes() == after
    expected = tree(out)
    fresh, _ = cold(schemas, out)
    assert expected == fresh


def test_a_hand_edit_of_a_file_an_appended_chunk_vouched_for_is_caught(tmp_path: Path, slack: None) -> None:
    schemas, out = checked_package(tmp_path)
    edit(schemas / "Read.json", " (edited)")
    assert generate(schemas, out).exit_code == 0
    assert generate(schemas, out, "--check").exit_code == 0
    assert loaded(out)._appended > 0
    expected = tree(out)
    module = out / f"{READ}.py"
    assert vouched(out, module.name)
    same_size_edit(module, b"return None", b"return 0   ")
    assert not vouched(out, module.name)
    drift = generate(schemas, out, "--check")
    assert drift.exit_code == 1
    assert "\n-            return 0   \n+            return None\n" in drift.output
    assert generate(schemas, out).exit_code == 0
    assert tree(out) == expected


def test_a_damaged_last_chunk_is_ignored_and_the_record_written_whole(tmp_path: Path, slack: None) -> None:
    schemas, out = checked_package(tmp_path)
    edit(schemas / "Read.json", " (edited)")
    assert generate(schemas, out).exit_code == 0
    assert generate(schemas, out, "--check").exit_code == 0
    path = record_file(tmp_path)
    path.write_bytes(path.read_bytes()[:-3])  # a run killed while appending
    record = loaded(out)
    assert record._whole  # written whole by the next save
    assert vouched(out, f"{WRITE}.py")  # the first chunk still holds
    assert not vouched(out, f"{READ}.py")  # its entry was in the damaged chunk
    expected = tree(out)
    assert generate(schemas, out, "--check").exit_code == 0
    record = loaded(out)
    assert not record._whole and record._appended == 0  # one chunk again
    assert vouched(out, f"{READ}.py") and vouched(out, f"{WRITE}.py")
    assert tree(out) == expected


def chunks(path: Path) -> int:
    """How many chunks the record holds (every one sound)."""
    raw, position, count = path.read_bytes(), 0, 0
    while position < len(raw):
        data, end = verified._chunk(raw, position)
        length = int.from_bytes(raw[position + 32 : position + 40], "little")
        assert data is not None and end == position + 40 + length
        position, count = end, count + 1
    return count


def test_a_record_past_its_slack_is_written_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    schemas, out = checked_package(tmp_path)
    monkeypatch.setattr(verified, "_SLACK", 10**9)  # any appended chunk is too much
    seen = set()
    for step in range(2):
        edit(schemas / "Read.json", f" (edit {step})")
        assert generate(schemas, out).exit_code == 0
        seen.add(chunks(record_file(tmp_path)))
        assert generate(schemas, out, "--check").exit_code == 0
        seen.add(chunks(record_file(tmp_path)))
    assert seen == {1, 2}  # one chunk appended, then the record written whole by the next save
    assert vouched(out, f"{READ}.py")
    expected = tree(out)
    fresh, _ = cold(schemas, out)
    assert expected == fresh


def test_long_lived_freezes_the_heap_only_for_the_block_and_only_when_nothing_else_did() -> None:
    import gc

    assert gc.isenabled() and gc.get_freeze_count() == 0
    with verified.long_lived():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with verified.long_lived():
            pass
        assert gc.get_freeze_count() == frozen  # someone else's freeze is left alone
    finally:
        gc.unfreeze()


def test_the_package_digest_sorting_names_is_the_headers_digest() -> None:
    from generator.emit import header
    def one_update_per_sorted_pair(pairs: Any) -> str:  # the digest as the header docs define it
        digest = hashlib.sha256()
        for name, body_sha in sorted(pairs):
            digest.update(f"{name}\0{body_sha}\0".encode("utf-8", "surrogateescape"))
        return digest.hexdigest()

    # Names that are prefixes of others, and characters below and above the separator's.
    shas = {"a": "1", "a.b": "2", "ab": "3", "a_b": "4", "b": "5", "A": "6", "a\tb": "7", "é": "8"}
    expected = one_update_per_sorted_pair(shas.items())
    assert header.package_digest(shas) == expected
    assert header.package_digest(dict(reversed(list(shas.items())))) == expected


def test_the_record_keeps_one_entry_per_declaration_file_with_its_tools_and_their_files(
    tmp_path: Path,
) -> None:
    schemas, out = checked_package(tmp_path)
    record = loaded(out)
    assert sorted(record._old[0]) == sorted(p.name for p in schemas.iterdir())
    printed: list[str] = []
    for path in record._old[0]:
        seen, sha, tools = record.source(path)
        assert seen == verified.identity(os.stat(schemas / path))
        assert sha == hashlib.sha256((schemas / path).read_bytes()).hexdigest()
        ((name, module, position, listed, notes, *files),) = tools
        assert (module, position, listed) == (module_name(name), 0, False)
        assert name == json.loads((schemas / path).read_text("utf-8"))["function"]["name"]
        for generated, (file_seen, body) in zip(
            (f"{module}.py", f"{module}_declaration.py"), (files[:2], files[2:]), strict=True
        ):
            assert file_seen == verified.identity(os.lstat(out / generated))
            assert f"# Body sha256: {body}\n" in (out / generated).read_text("utf-8")
        printed += [f"warning: {path}: {pointer}: {reason}" for pointer, _, reason, _ in notes]
    # The warnings a cold run prints, in the form the declaration modules' headers keep them.
    _, warnings = cold(schemas, out)
    assert sorted(printed) == sorted(warnings.splitlines())
    (note,) = record.source("WebFetch.json")[2][0][4]
    reason = "not enforced: /function/parameters/properties/url: format"
    assert note[1:] == ("not-enforced", reason, ("format",))
    # The package's own files are kept by name, with their headers.
    assert sorted(record._old[1]) == ["_declarations.py", "_paths.py", "_support.py"]


def test_a_hand_edit_of_a_package_file_the_record_vouched_for_is_caught(tmp_path: Path) -> None:
    schemas, out = checked_package(tmp_path)
    expected = tree(out)
    support = out / "_support.py"
    assert vouched(out, support.name)
    same_size_edit(support, b"Standard library only.", b"Standard library ONLY.")
    assert not vouched(out, support.name)
    drift = generate(schemas, out, "--check")
    assert drift.exit_code == 1
    assert f"changed: {support.as_posix()}" in drift.output
    assert generate(schemas, out).exit_code == 0
    assert tree(out) == expected


def test_a_stale_record_put_back_vouches_only_for_files_that_did_not_change(tmp_path: Path) -> None:
    schemas, out = checked_package(tmp_path)
    before = record_file(tmp_path).read_bytes()
    edit(schemas / "Read.json", " (edited)")
    assert generate(schemas, out).exit_code == 0
    record_file(tmp_path).write_bytes(before)  # the record of the package as it was before the edit
    # Its entries name the old identities of Read.json and of the files written since.
    assert not vouched(out, f"{READ}.py") and not vouched(out, f"{READ}_declaration.py")
    assert vouched(out, f"{WRITE}.py") and vouched(out, f"{WRITE}_declaration.py")
    assert generate(schemas, out, "--check").exit_code == 0
    assert vouched(out, f"{READ}.py")  # read, and recorded again
    expected, _ = cold(schemas, out)
    assert tree(out) == expected


def test_a_tool_moved_to_another_file_is_written_again_naming_it(tmp_path: Path, jobs: str) -> None:
    schemas, out = checked_package(tmp_path)
    (schemas / "Read.json").rename(schemas / "Reader.json")  # the same bytes, another name
    done = generate(schemas, out)
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("4 tools: 1 changed, 3 unchanged, 0 removed")
    assert "# Source: 'Reader.json'\n" in (out / f"{READ}.py").read_text("utf-8")
    assert generate(schemas, out, "--check").exit_code == 0
    expected, _ = cold(schemas, out)
    assert tree(out) == expected


def test_unchanged_declaration_files_are_not_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    schemas, out = checked_package(tmp_path)
    edit(schemas / "Edit.json", " (edited)")
    parsed: list[str] = []

    def spy(data: bytes, file: str) -> Any:
        parsed.append(file)
        return read_declarations(data, file)

    monkeypatch.setattr(build_module, "declarations_in", spy)
    done = generate(schemas, out)
    assert done.exit_code == 0, done.output
    assert parsed == ["Edit.json", "Edit.json"]  # pass 1 checks it, pass 2 renders it
    record_file(tmp_path).unlink()  # no record: the tools come from the declaration modules' headers
    parsed.clear()
    assert generate(schemas, out, "--check").exit_code == 0
    assert parsed == []


def test_a_file_dated_past_what_the_record_holds_is_read_every_time(tmp_path: Path) -> None:
    schemas, out = checked_package(tmp_path)
    future = 2**63 + 10**18  # nanoseconds since 1970: past 2262
    os.utime(out / f"{READ}.py", ns=(future, future))
    if os.stat(out / f"{READ}.py").st_mtime_ns != future:
        pytest.fail("this file system cannot hold such a date")
    assert verified.identity(os.stat(out / f"{READ}.py")) is None
    assert generate(schemas, out, "--check").exit_code == 0  # read, and still in sync
    assert not vouched(out, f"{READ}.py")  # never recorded
    assert vouched(out, f"{WRITE}.py")
    expected, _ = cold(schemas, out)
    assert tree(out) == expected
