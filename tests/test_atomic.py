"""Nothing lost: interrupted runs leave every file old or new and converge on a re-run; files
without the generated header are never overwritten or deleted; unsafe --out folders are
refused; two generators at once serialise on a lock."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.package.build import build
from generator.package.write import HEADER, locked
from tests.genpkg import plan, write_locked
from tests.reliability import ROOT, declaration, imported, invoke, snapshot, write_schemas


def _tool(name: str, *props: str) -> dict[str, Any]:
    return declaration(
        name,
        {"type": "object", "properties": {p: {"type": "string"} for p in props}, "required": list(props)},
    )


# Old -> new: one module unchanged, two changed, one removed (an orphan), one added.
OLD = [_tool("Alpha", "a"), _tool("Beta", "b"), _tool("Gamma", "g"), _tool("Delta", "d")]
NEW = [_tool("Alpha", "a", "a2"), _tool("Beta", "b"), _tool("Delta", "d", "e"), _tool("Epsilon", "x")]


class Crash(Exception):
    """Stands for the process dying between two file operations."""


@pytest.fixture(scope="module")
def versions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], dict[str, str]]:
    """A folder holding the old output, and the old and new file sets."""
    base = tmp_path_factory.mktemp("versions")
    # One package whose declarations changed between two runs: its headers name one command.
    command = "toolgen generate --schemas schemas --out old"
    old = build(write_schemas(base / "old_schemas", OLD), command=command).files
    new = build(write_schemas(base / "new_schemas", NEW), command=command).files
    write_locked(base / "old", old)
    return base / "old", old, new


def _crash_at(k: int) -> Any:
    calls: list[Path] = []

    def after_write(path: Path) -> None:
        calls.append(path)
        if len(calls) == k:
            raise Crash(path.name)

    return after_write


def assert_each_file_old_or_new(out: Path, old: dict[str, str], new: dict[str, str]) -> None:
    on_disk = snapshot(out)
    assert set(on_disk) <= set(old) | set(new), sorted(on_disk)
    for name, data in on_disk.items():
        assert data in (old.get(name, "").encode(), new.get(name, "").encode()), name
    assert not [n for n in on_disk if n.endswith(".tmp")]


def assert_every_named_tool_imports(out: Path) -> None:
    with imported(out) as package:
        for tool in package.TOOL_NAMES:
            message = package.validate(tool, {})
            assert message is None or message.startswith(f"{tool} failed due to the following issue")


def test_a_fault_between_any_two_writes_leaves_old_or_new_files(
    tmp_path: Path, versions: tuple[Path, dict[str, str], dict[str, str]]
) -> None:
    previous, old, new = versions
    todo = plan(previous, new)
    operations = len(todo.changed + todo.missing + todo.orphans)
    # Alpha and Delta change, Epsilon is new, Gamma an orphan (each a validator and a
    # declaration module), __init__ and _declarations change
    assert operations == 10
    clean = tmp_path / "clean"
    shutil.copytree(previous, clean)
    write_locked(clean, new)
    for k in range(1, operations + 1):
        out = tmp_path / f"pkg_crash_{k}"
        shutil.copytree(previous, out)
        with pytest.raises(Crash):
            write_locked(out, new, after_write=_crash_at(k))
        assert_each_file_old_or_new(out, old, new)
        assert_every_named_tool_imports(out)
        write_locked(out, new)  # the re-run converges on exactly the clean result
        assert snapshot(out) == snapshot(clean)
        assert plan(out, new).in_sync


KILLER = """
import os, signal, sys
from pathlib import Path
from generator.package.build import build
from tests.genpkg import write_locked
count = []
def die(path):
    count.append(path)
    if len(count) == int(sys.argv[3]):
        os.kill(os.getpid(), signal.SIGKILL)
write_locked(Path(sys.argv[2]), build(Path(sys.argv[1])).files, after_write=die)
"""


def test_a_killed_generator_leaves_old_or_new_files_and_a_rerun_converges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # file names in headers are relative to the working folder
    schemas = Path("tool_schemas")
    old = build(write_schemas(schemas, OLD)).files
    out = tmp_path / "generated"
    write_locked(out, old)
    new = build(write_schemas(schemas, NEW)).files
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-c", KILLER, "tool_schemas", "generated", "2"]
    killed = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    on_disk = snapshot(out)
    assert sum(on_disk.get(n) == new[n].encode() and old.get(n) != new[n] for n in new) == 2
    # Killed between two renames: the files not yet renamed are still staged, in temp files
    # that are ours (dot-name, .tmp, our header) and invisible to imports; the re-run removes them.
    staged = {n: data for n, data in on_disk.items() if n.startswith(".") and n.endswith(".tmp")}
    assert staged and all(data.startswith(HEADER.encode()) for data in staged.values())
    for name in staged:
        (out / name).rename(tmp_path / name)
    assert_each_file_old_or_new(out, old, new)
    assert_every_named_tool_imports(out)
    for name in staged:
        (tmp_path / name).rename(out / name)
    rerun = invoke(tmp_path)
    assert rerun.exit_code == 0, rerun.output
    assert snapshot(out) == {n: c.encode() for n, c in new.items()}


def test_stale_temp_files_of_a_killed_run_are_removed_only_if_ours(tmp_path: Path) -> None:
    schemas = write_schemas(tmp_path / "tool_schemas", OLD)
    out = tmp_path / "generated"
    generate = build(schemas).files
    out.mkdir()
    ours = out / ".alpha_0.py.k2j4.tmp"
    ours.write_text(HEADER + " half a module\n", "utf-8")
    theirs = out / ".notes.py.k2j4.tmp"
    theirs.write_text("someone's draft\n", "utf-8")
    write_locked(out, generate)
    assert not ours.exists()
    assert theirs.read_text("utf-8") == "someone's draft\n"


# ---------- files without the header ----------


def test_hand_written_files_survive_and_generated_orphans_go(
    tmp_path: Path, versions: tuple[Path, dict[str, str], dict[str, str]]
) -> None:
    previous, old, new = versions
    out = tmp_path / "generated"
    shutil.copytree(previous, out)
    (out / "helpers.py").write_text("# mine\nVALUE = 1\n", "utf-8")
    (out / "README.txt").write_text("notes", "utf-8")
    (out / "sub").mkdir()
    (out / "sub" / "x.py").write_text(HEADER + "\n", "utf-8")
    orphans = [n for n in old if n not in new]
    write_locked(out, new)
    assert (out / "helpers.py").read_text("utf-8") == "# mine\nVALUE = 1\n"
    assert (out / "README.txt").read_text("utf-8") == "notes"
    assert (out / "sub" / "x.py").read_text("utf-8") == HEADER + "\n"
    assert orphans and not any((out / n).exists() for n in orphans)


def _in_the_way_file(path: Path) -> None:
    path.write_text("# hand-written, no header\n", "utf-8")


def _in_the_way_folder(path: Path) -> None:
    path.mkdir()


def _in_the_way_symlink(path: Path) -> None:
    path.symlink_to(path.parent.parent / "elsewhere.py")


def _in_the_way_fifo(path: Path) -> None:
    os.mkfifo(path)


@pytest.mark.parametrize(
    "make", [_in_the_way_file, _in_the_way_folder, _in_the_way_symlink, _in_the_way_fifo]
)
@pytest.mark.parametrize("target", ["__init__.py", "module"])
def test_refuses_to_overwrite_anything_without_the_header(
    tmp_path: Path, versions: tuple[Path, dict[str, str], dict[str, str]], make: Any, target: str
) -> None:
    previous, _, new = versions
    write_schemas(tmp_path / "tool_schemas", NEW)
    out = tmp_path / "generated"
    shutil.copytree(previous, out)
    name = target if target != "module" else next(n for n in new if n.startswith("epsilon_"))
    (out / name).unlink(missing_ok=True)
    (tmp_path / "elsewhere.py").write_text(HEADER + " but not ours to replace\n", "utf-8")
    make(out / name)
    before = snapshot(out)
    result = invoke(tmp_path)
    assert result.exit_code == 2
    assert "refusing to overwrite files without the generated header: " + name in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert snapshot(out) == before


# ---------- unsafe output folders ----------


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    write_schemas(project / "tool_schemas", OLD[:1])
    (project / "pyproject.toml").write_text("[project]\nname = 'x'\n", "utf-8")
    (project / "src").mkdir()
    return project


@pytest.mark.parametrize(
    ("cwd", "out", "reason"),
    [
        ("project", "pyproject.toml", "exists and is not a folder"),
        ("project", "tool_schemas", "must not be inside the schemas folder"),
        ("project", "tool_schemas/pkg", "must not be inside the schemas folder"),
        ("project", ".", "must not be the project root"),
        ("project", "src/..", "must not be the project root"),
        ("project/src", "..", "must not be the project root"),
        ("project", "..", "must not be the project root"),
    ],
)
def test_refuses_unsafe_output_folders(tmp_path: Path, cwd: str, out: str, reason: str) -> None:
    project = _project(tmp_path)
    before = snapshot(tmp_path)
    schemas = os.path.relpath(project / "tool_schemas", tmp_path / cwd)
    result = invoke(tmp_path / cwd, "--schemas", schemas, "--out", out)
    assert result.exit_code == 2
    assert reason in result.stderr and isinstance(result.exception, SystemExit)
    assert snapshot(tmp_path) == before


def test_without_pyproject_the_working_folder_is_the_root(tmp_path: Path) -> None:
    write_schemas(tmp_path / "tool_schemas", OLD[:1])
    result = invoke(tmp_path, "--out", ".")
    assert result.exit_code == 2 and "must not be the project root" in result.stderr
    assert invoke(tmp_path, "--out", "pkg").exit_code == 0


# ---------- two generators at once ----------


def _start(cwd: Path, schemas: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "generator", "generate", "--schemas", schemas, "--out", "generated"]
    return subprocess.Popen(
        command, cwd=cwd, env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )


def test_a_second_generator_waits_for_the_lock(
    tmp_path: Path, versions: tuple[Path, dict[str, str], dict[str, str]]
) -> None:
    previous, _, _ = versions
    write_schemas(tmp_path / "new", NEW)
    out = tmp_path / "generated"
    shutil.copytree(previous, out)
    before = snapshot(out)
    with locked(out):
        child = _start(tmp_path, "new")
        assert child.stderr is not None
        line = child.stderr.readline()  # printed once the child finds the folder locked
        assert line == "generated: waiting for another toolgen run to finish\n"
        assert snapshot(out) == before  # it waits: nothing written while the lock is held
    assert child.wait(timeout=120) == 0
    assert invoke(tmp_path, "--schemas", "new", "--check").exit_code == 0


def test_two_generators_started_together_leave_one_complete_output(tmp_path: Path) -> None:
    many_a = [_tool(f"A{i}", "a", f"p{i}") for i in range(3)]
    many_b = [_tool(f"B{i}", "b", f"q{i}") for i in range(3)]
    write_schemas(tmp_path / "a", many_a)
    write_schemas(tmp_path / "b", many_b)
    children = [_start(tmp_path, "a"), _start(tmp_path, "b")]
    for child in children:
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
    in_sync = [invoke(tmp_path, "--schemas", s, "--check").exit_code for s in ("a", "b")]
    assert sorted(in_sync) == [0, 1]  # exactly one complete output, not a mix of both
    assert not [p for p in (tmp_path / "generated").iterdir() if p.name.endswith(".tmp")]
