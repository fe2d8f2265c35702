"""A project's own defaults for the commands: the `[tool.toolgen]` table of its pyproject.toml.

    [tool.toolgen]
    schemas = "tools/declarations"   # default: tool_schemas
    out = "src/agent/validators"     # default: generated
    keywords = "extended"            # default: subset

The table is read from the project root's pyproject.toml (the nearest one at or above the
working directory, as for source names). Its paths are relative to that file's folder, so a
command gives the same answer from any folder of the project; paths given on the command
line are relative to the working directory, as usual. The command line always wins. A
table that cannot be used (an unknown key, a value of the wrong kind) is refused, naming the
file and the key, rather than silently falling back to the defaults.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.load import project_root

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 has no tomllib
    import tomli as tomllib

KEYWORD_MODES = ("subset", "extended")
DEFAULTS: dict[str, str] = {"schemas": "tool_schemas", "out": "generated", "keywords": "subset"}


class ConfigError(Exception):
    """The project's [tool.toolgen] table cannot be used; the message names file and key."""


@dataclass(frozen=True)
class Settings:
    schemas: Path
    out: Path
    keywords: str
    # The options that came from the command line: a fix command repeats only these, since
    # the rest is read from the same table again.
    explicit: frozenset[str]


def table(root: Path, here: Path) -> tuple[Path | None, dict[str, Any]]:
    """The pyproject.toml of the project root and its [tool.toolgen] table ({} when absent);
    messages name the file as seen from `here`, the working directory."""
    path = root / "pyproject.toml"
    if not path.is_file():
        return None, {}
    shown = Path(os.path.relpath(path, here)).as_posix()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{shown}: cannot be read: {exc}") from exc
    found = data.get("tool", {}).get("toolgen", {}) if isinstance(data.get("tool"), dict) else {}
    if not isinstance(found, dict):
        raise ConfigError(f"{shown}: [tool.toolgen] must be a table")
    for key, value in found.items():
        if key not in DEFAULTS:
            raise ConfigError(
                f"{shown}: [tool.toolgen] {key}: unknown key; expected one of {', '.join(DEFAULTS)}"
            )
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{shown}: [tool.toolgen] {key}: expected a non-empty string")
    keywords = found.get("keywords")
    if keywords is not None and keywords not in KEYWORD_MODES:
        raise ConfigError(
            f"{shown}: [tool.toolgen] keywords: {keywords!r} is not one of {', '.join(KEYWORD_MODES)}"
        )
    return path, found


def settings(
    schemas: Path | None = None,
    out: Path | None = None,
    keywords: str | None = None,
    cwd: Path | None = None,
) -> Settings:
    """The options in force: the command line's, else the project's table, else the defaults."""
    here = (cwd or Path.cwd()).resolve()
    path, found = table(project_root(here), here)
    given = {"schemas": schemas, "out": out, "keywords": keywords}

    def path_of(key: str) -> Path:
        value = given[key]
        if isinstance(value, Path):
            return value
        if key in found and path is not None:
            return _relative(path.parent / found[key], here)
        return Path(DEFAULTS[key])

    return Settings(
        schemas=path_of("schemas"),
        out=path_of("out"),
        keywords=keywords if keywords is not None else found.get("keywords", DEFAULTS["keywords"]),
        explicit=frozenset(key for key, value in given.items() if value is not None),
    )


def _relative(target: Path, here: Path) -> Path:
    """A configured folder as seen from the working directory (shortest spelling)."""
    return Path(os.path.relpath(target, here))
