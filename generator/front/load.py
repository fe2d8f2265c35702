"""Stage 1: read declaration files into plain JSON values, refusing what is not strict JSON."""

from __future__ import annotations

import functools
import hashlib
import json
import math
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 has no tomllib
    import tomli as tomllib

from .errors import DeclarationError, pointer_join
from .shapes import tools_in

# What reading a TOML file (read_toml) may raise: each caller refuses it in its own words.
TOML_ERRORS = (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError)

# Arrays and objects nested deeper than this are refused: lowering recurses about three frames
# per schema level, and a refusal with a pointer beats a RecursionError. 200 JSON levels still
# allow a schema nested about 100 object levels (or 200 array levels) deep.
MAX_DEPTH = 200


@dataclass(frozen=True)
class Declaration:
    """One tool declaration as written, before any interpretation of its schema."""

    file: str  # how messages and the generated header name the source file
    sha256: str
    name: str
    parameters: Any
    raw: Any  # the tool's own JSON object as written in the file, for re-emitting it
    pointer: str = "/function/parameters"  # where `parameters` sits inside the file
    listed: bool = False  # one of many tools in its file: refusals and warnings name it

    @property
    def name_pointer(self) -> str:
        """Where the tool's name is written: always a sibling of its parameters."""
        return self.pointer.rsplit("/", 1)[0] + "/name"


class _Pairs(dict[str, Any]):
    """A JSON object that remembers the member names written more than once."""

    duplicates: tuple[str, ...] = ()


class _NonFinite(float):
    """NaN, Infinity or a number too large for a float: decoded, then refused with its pointer."""

    literal = ""


def _pairs(members: list[tuple[str, Any]]) -> _Pairs:
    result = _Pairs(members)
    if len(result) != len(members):
        names = [k for k, _ in members]
        result.duplicates = tuple(k for i, k in enumerate(names) if k in names[:i])
    return result


def _constant(literal: str) -> _NonFinite:
    value = _NonFinite("nan")
    value.literal = literal
    return value


def _number(literal: str) -> float:
    value = float(literal)
    return _constant(literal) if math.isinf(value) else value


def _has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _strict_json(value: Any, file: str, pointer: str, depth: int = 0) -> Any:
    """Turn the decoder's markers into refusals and plain dicts; reject non-Unicode text."""
    if isinstance(value, (list, dict)) and depth >= MAX_DEPTH:
        raise DeclarationError(file, pointer, f"nested more than {MAX_DEPTH} arrays/objects deep")
    if isinstance(value, _NonFinite):
        raise DeclarationError(file, pointer, f"{value.literal} is not a JSON number")
    if isinstance(value, str) and _has_lone_surrogate(value):
        raise DeclarationError(file, pointer, "string is not valid Unicode (lone surrogate)")
    if isinstance(value, list):
        return [_strict_json(v, file, pointer_join(pointer, i), depth + 1) for i, v in enumerate(value)]
    if isinstance(value, dict):
        if isinstance(value, _Pairs) and value.duplicates:
            where = pointer_join(pointer, value.duplicates[0])
            raise DeclarationError(file, where, "member name written more than once")
        result: dict[str, Any] = {}
        for key, member in value.items():
            if _has_lone_surrogate(key):
                raise DeclarationError(file, pointer, "member name is not valid Unicode (lone surrogate)")
            result[key] = _strict_json(member, file, pointer_join(pointer, key), depth + 1)
        return result
    return value


def decode(text: str, file: str) -> Any:
    """Decode strict JSON: no NaN/Infinity, no overflowing numbers, no duplicate names."""
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_number)
    except json.JSONDecodeError as exc:
        raise DeclarationError(
            file, "", f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except ValueError as exc:  # e.g. an integer longer than Python's digit limit
        raise DeclarationError(file, "", f"not valid JSON: {exc}") from None
    except RecursionError:
        raise DeclarationError(file, "", "not valid JSON: nested too deeply") from None
    return _strict_json(value, file, "")


def project_root(cwd: Path) -> Path:
    """The project of a working directory, found as pyproject-based tools find theirs: the
    nearest folder at or above cwd whose pyproject.toml has a [tool.toolgen] table, else the
    nearest folder with any pyproject.toml (a project using the defaults), else cwd itself."""
    nearest: Path | None = None
    for folder in (cwd, *cwd.parents):
        candidate = folder / "pyproject.toml"
        try:
            status = candidate.stat()
        except OSError:
            continue
        if not stat.S_ISREG(status.st_mode):
            continue
        if _has_table(str(candidate), status.st_mtime_ns, status.st_size):
            return folder
        nearest = nearest or folder
    return nearest or cwd


@functools.lru_cache(maxsize=64)
def _has_table(path: str, _mtime_ns: int, _size: int) -> bool:
    """Whether the file has a [tool.toolgen] table; a file that cannot be read says yes, so
    the commands stop there and refuse it with its name (generator/cli/config.py)."""
    # Keyed on the file's stat: display_name asks once per declaration file.
    try:
        data = read_toml(Path(path))
    except TOML_ERRORS:
        return True
    tool = data.get("tool")
    return isinstance(tool, dict) and "toolgen" in tool


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file's top-level table (config, the import manifest, project_root's probe)."""
    return tomllib.loads(path.read_text(encoding="utf-8"))


def display_name(path: Path) -> str:
    """How messages and headers name a source: relative to the project root when inside it
    (so the same run from any folder of the project writes the same bytes), else its name."""
    return labeller()(path)


def read_declarations(path: Path) -> list[Declaration]:
    """Every tool declared in one file (shapes: generator/front/shapes.py), in the order written."""
    file = display_name(path)
    return declarations_in(read_source(path, file), file)


def read_source(path: Path, file: str) -> bytes:
    """A declaration file's bytes; `file` names it in the refusal when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise DeclarationError(file, "", f"cannot read the file: {exc.strerror or exc}") from None


def declarations_in(data: bytes, file: str) -> list[Declaration]:
    """Every tool declared in one file's bytes, in the order written (`file` names it)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DeclarationError(file, "", f"not UTF-8 text (byte {exc.start})") from None
    digest = hashlib.sha256(data).hexdigest()
    return [
        Declaration(file, digest, found.name, found.parameters, found.raw, found.pointer, found.listed)
        for found in tools_in(decode(text, file), file)
    ]


def labeller() -> Callable[[Path], str]:
    """display_name with the project root found once: for runs over thousands of files."""
    root = project_root(Path.cwd().resolve())
    resolved_folder = functools.cache(Path.resolve)  # each folder resolved once, not per file

    def label(path: Path) -> str:
        resolved = path.resolve() if path.is_symlink() else resolved_folder(path.parent) / path.name
        try:
            return resolved.relative_to(root).as_posix()
        except ValueError:
            return path.name

    return label


def schema_files(schemas_dir: Path) -> list[Path]:
    """The *.json files directly inside the folder, in file-name order."""
    if not schemas_dir.is_dir():
        raise DeclarationError(str(schemas_dir), "", "schemas folder not found")
    return [p for p in sorted(schemas_dir.glob("*.json")) if p.is_file()]


def name_refusal(first: dict[str, Declaration], declaration: Declaration) -> DeclarationError | None:
    """The refusal of a tool name already declared (`first`: the earlier tools by name)."""
    earlier = first.setdefault(declaration.name, declaration)
    if earlier is declaration:
        return None
    where = earlier.file if earlier.file != declaration.file else earlier.name_pointer
    return DeclarationError(
        declaration.file,
        declaration.name_pointer,
        f"tool name {declaration.name!r} is already declared in {where}",
    )


def read_all(schemas_dir: Path) -> list[Declaration]:
    """Every tool of every *.json directly inside the folder, in file-name order, names unique."""
    declarations = [d for p in schema_files(schemas_dir) for d in read_declarations(p)]
    first: dict[str, Declaration] = {}
    for declaration in declarations:
        if (refusal := name_refusal(first, declaration)) is not None:
            raise refusal
    return declarations
