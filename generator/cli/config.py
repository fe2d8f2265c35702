"""A project's own defaults for the commands: the `[tool.toolgen]` table of the project root's
pyproject.toml (docs/cli.md), its paths relative to that file. The command line always wins; a
table that cannot be used is refused, naming file and key. Where neither names a keyword mode,
the package on disk's (its `__init__.py` records it) is kept; a new package gets subset.
"""

from __future__ import annotations

import ast
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..front.errors import NOTICE_KINDS
from ..front.load import TOML_ERRORS, project_root, read_toml
from ..front.vocabulary import ANNOTATIONS, VOCABULARIES
from ..front.vocabulary import KNOWN_NOT_INTERPRETED as ALLOWABLE_KEYWORDS
from ..plan.repairs import KINDS, Adoption, adoption, toml_key

KEYWORD_MODES = tuple(VOCABULARIES)
DEFAULTS: dict[str, str] = {"schemas": "tool_schemas", "out": "generated", "keywords": "subset"}
LISTS = ("allow", "import", "import-stdio")  # keys whose value is a list of strings
# `audit --suggest`'s evidence bar (docs/audit-suggest.md): a count of calls, and a share.
MIN_RESCUED, MIN_SHARE = "suggest-min-rescued", "suggest-min-share"
NUMBERS = (MIN_RESCUED, MIN_SHARE)
# The repair kinds a project adopts (docs/audit-suggest.md, `[tool.toolgen.repairs]`): a table.
REPAIRS = "repairs"
REPAIRS_KEYS = ("all", "tools", "parameters")
KEYS = (*DEFAULTS, *LISTS, *NUMBERS, REPAIRS)
# What `--allow` (and `allow = [...]`) names: a kind of warning (generator/front/errors.py), or a
# JSON Schema keyword that a "not enforced" warning may list; a "not enforced" warning is
# allowed when every keyword it lists is. Keywords the generator interprets in both modes are
# left out: they are never reported as not enforced. Annotations are never reported either, but
# still accepted: a project that allowed `default` before it stopped being reported keeps working.
WARNING_KINDS = tuple(NOTICE_KINDS.values())
ALLOWABLE = frozenset(WARNING_KINDS + ALLOWABLE_KEYWORDS) | ANNOTATIONS


NO_ADOPTION = Adoption()


class ConfigError(Exception):
    """The project's [tool.toolgen] table cannot be used; the message names file and key."""


@dataclass(frozen=True)
class Settings:
    schemas: Path
    out: Path
    keywords: str
    allow: frozenset[str]
    root: Path  # the project root (generator/front/load.py's project_root)
    config: Path | None  # its pyproject.toml when it has one
    # The options that came from the command line: a fix command repeats only these, since
    # the rest is read from the same table again.
    explicit: frozenset[str]
    # The keys the project's table sets.
    configured: frozenset[str] = frozenset()
    # `toolgen import`'s sources from the table (the command line's replace them).
    imports: tuple[str, ...] = ()
    import_stdio: tuple[str, ...] = ()
    # `audit --suggest`'s evidence bar from the table; None: the command line's, else the default.
    min_rescued: int | None = None
    min_share: float | None = None
    # The repair kinds the project adopted (`[tool.toolgen.repairs]`); empty: none.
    repairs: Adoption = NO_ADOPTION

    def origin(self, key: str) -> str:
        """Where a folder option's value came from, for messages."""
        if key in self.explicit:
            return f"--{key}"
        if key in self.configured and self.config is not None:
            return f"[tool.toolgen] {key} in {self.config.name}"
        return f"the default, {DEFAULTS[key]}"


def table(root: Path, here: Path) -> tuple[Path | None, dict[str, Any]]:
    """The root's pyproject.toml and its [tool.toolgen] table; messages name it from `here`."""
    path = root / "pyproject.toml"
    if not path.is_file():
        return None, {}
    shown = Path(os.path.relpath(path, here)).as_posix()
    try:
        data = read_toml(path)
    except TOML_ERRORS as exc:
        raise ConfigError(f"{shown}: cannot be read: {exc}") from exc

    def refused(problem: str) -> ConfigError:
        return ConfigError(f"{shown}: [tool.toolgen] {problem}")

    found = data.get("tool", {}).get("toolgen", {}) if isinstance(data.get("tool"), dict) else {}
    if not isinstance(found, dict):
        raise refused("must be a table")
    for key, value in found.items():
        if key not in KEYS:
            raise refused(f"{key}: unknown key; expected one of {', '.join(KEYS)}")
        if key == REPAIRS:
            if (at := repairs_problem(value)) is not None:
                raise ConfigError(f"{shown}: [tool.toolgen.{at[0]}] {at[1]}")
        elif (problem := value_problem(key, value)) is not None:
            raise refused(f"{key}: {problem}")
    keywords = found.get("keywords")
    if keywords is not None and keywords not in KEYWORD_MODES:
        raise refused(f"keywords: {keywords!r} is not one of {', '.join(KEYWORD_MODES)}")
    return path, found


def value_problem(key: str, value: object) -> str | None:
    """Why `value` cannot be the known key `key`'s, or None: each key has one kind of value (a
    number of the evidence bar, a list of non-empty strings, or a non-empty string)."""
    if key in NUMBERS:
        return number_problem(key, value)
    if key not in LISTS:
        return None if isinstance(value, str) and value else "expected a non-empty string"
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return "expected a list of strings"
    if not all(value):
        return "an empty string in the list"
    if key == "allow":
        try:
            allowed(value)
        except ValueError as exc:
            return str(exc)
    return None


def repairs_problem(value: object) -> tuple[str, str] | None:
    """Where and why `value` cannot be the `[tool.toolgen.repairs]` table, or None: (the
    table's dotted name, the problem naming its key). `all` is a list of kinds, `tools` a table
    of tool -> kinds, `parameters` a table of tool -> a table of parameter -> kinds."""
    if not isinstance(value, dict):
        return "repairs", "must be a table"
    for key, member in value.items():
        if key not in REPAIRS_KEYS:
            return "repairs", f"{key}: unknown key; expected one of {', '.join(REPAIRS_KEYS)}"
        if key == "all":
            problem = kinds_problem(member)
            if problem is not None:
                return "repairs", f"all: {problem}"
        elif not isinstance(member, dict):
            return "repairs", f"{key}: expected a table"
        for tool, listed in member.items() if isinstance(member, dict) else ():
            found = _tool_problem(key, tool, listed)
            if found is not None:
                return found
    return None


def _tool_problem(key: str, tool: str, listed: object) -> tuple[str, str] | None:
    """What is wrong with one tool's entry under `tools` or `parameters`, where."""
    name = toml_key(tool)
    if key == "tools":
        problem = kinds_problem(listed)
        return None if problem is None else ("repairs.tools", f"{name}: {problem}")
    if not isinstance(listed, dict):
        return "repairs.parameters", f"{name}: expected a table of parameter = [kinds]"
    for parameter, kinds in listed.items():
        problem = kinds_problem(kinds)
        if problem is not None:
            return f"repairs.parameters.{name}", f"{toml_key(parameter)}: {problem}"
    return None


def kinds_problem(value: object) -> str | None:
    """Why `value` cannot be a list of repair kinds, or None."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return "expected a list of repair kinds"
    for kind in value:
        if kind not in KINDS:
            return f"{kind!r} is not a repair kind; expected one of {', '.join(KINDS)}"
    return None


def number_problem(key: str, value: object) -> str | None:
    """Why `value` cannot be the evidence bar's `key`, or None: a count is an integer of at least
    1, a share a number from 0 up to (not including) 1."""
    # TOML's true is a bool, and Python's bool an int: refused as either.
    if key == MIN_RESCUED:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return "expected an integer of at least 1"
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
        return "expected a number from 0 up to 1 (a share: 0.1 is 10%)"
    return None


def allowed(names: list[str] | tuple[str, ...]) -> frozenset[str]:
    """The names of an --allow list, each checked: ValueError names the first unknown one."""
    for name in names:
        if name not in ALLOWABLE:
            raise ValueError(
                f"unknown warning kind {name!r}; expected a warning kind ({', '.join(WARNING_KINDS)}) "
                f"or a keyword reported as not enforced ({', '.join(ALLOWABLE_KEYWORDS)})"
            )
    return frozenset(names)


def settings(
    schemas: Path | None = None,
    out: Path | None = None,
    keywords: str | None = None,
    cwd: Path | None = None,
    allow: tuple[str, ...] | None = None,
    follow_package: bool = True,
) -> Settings:
    """The options in force: the command line's, else the table's, else (the keyword mode) the
    package's, else the defaults; `follow_package` False: as for a package not yet written."""
    here = (cwd or Path.cwd()).resolve()
    root = project_root(here)
    path, found = table(root, here)
    given: dict[str, object] = {"schemas": schemas, "out": out, "keywords": keywords, "allow": allow}

    def path_of(key: str) -> Path:
        value = given[key]
        if isinstance(value, Path):
            return value
        folder = path.parent / found[key] if key in found and path is not None else root / DEFAULTS[key]
        return Path(os.path.relpath(folder, here))  # as the working directory sees it, shortest

    out_folder = path_of("out")
    mode = keywords or found.get("keywords")
    if mode is None and follow_package:
        mode = package_keywords(out_folder)
    return Settings(
        schemas=path_of("schemas"),
        out=out_folder,
        keywords=mode or DEFAULTS["keywords"],
        allow=allowed(allow) if allow is not None else frozenset(found.get("allow", ())),
        root=root,
        config=path,
        explicit=frozenset(key for key, value in given.items() if value is not None),
        configured=frozenset(found),
        imports=tuple(found.get("import", ())),
        import_stdio=tuple(found.get("import-stdio", ())),
        min_rescued=found.get(MIN_RESCUED),
        min_share=float(found[MIN_SHARE]) if MIN_SHARE in found else None,
        repairs=adoption(found.get(REPAIRS, {})),
    )


def _init_lines(out: Path) -> list[str]:
    """The lines of a generated package's `__init__.py` ([] when there is none), unimported."""
    # Only a regular file is read: opening a FIFO left in its place would wait forever.
    init = out / "__init__.py"
    try:
        text = init.read_text("utf-8") if stat.S_ISREG(init.stat().st_mode) else ""
    except (OSError, UnicodeDecodeError):
        return []
    return text.splitlines() if text.startswith("# Generated by toolgen.") else []


def package_generator(out: Path) -> str | None:
    """The `Generator:` field of a generated package's `__init__.py` header (its fingerprint)."""
    for line in _init_lines(out):
        if not line.startswith("#"):
            return None  # the header has ended
        if line.startswith("# Generator: "):
            return line.removeprefix("# Generator: ")
    return None


def package_keywords(out: Path) -> str | None:
    """The keyword mode a generated package's `__init__.py` records, read without importing it."""
    for line in _init_lines(out):
        if line.startswith("KEYWORDS = "):
            try:
                value = ast.literal_eval(line.removeprefix("KEYWORDS = "))
            except (ValueError, SyntaxError):
                return None
            return value if value in KEYWORD_MODES else None
    return None
