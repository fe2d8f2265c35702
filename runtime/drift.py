"""A generated package compared with the tools as they are now, once, when a guard starts.

The package records, for each tool, the digest of the declaration it was generated from
(`declaration_digests()`: name and input schema as canonical JSON, `declaration_digest`).
`compare` takes the live declarations (a server's listing, the tools of an agent) and says
which tools differ; `in_step` acts on it: by default it refuses (StaleValidators, whose
message names the tools and the commands that bring the package back in step), or, with
`on_stale="pass"`, it gives a view of the package that passes the stale tools through
unvalidated, logging a warning on each of their calls. A package in step is returned as it
is, so a guard that found nothing adds nothing to a call.

Standard library only; the package is always the caller's (nothing here imports one).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .check import Issue, Validators, package_name

# What a guard does with the tools whose declaration differs from the package's: refuse to
# start (the default), or pass their calls through unvalidated, with a warning on each.
OnStale = Literal["refuse", "pass"]
ON_STALE: tuple[OnStale, ...] = ("refuse", "pass")

# Warnings go to this logger: on each call of a stale tool under on_stale="pass", and once
# at start. Unconfigured, Python prints warnings to standard error.
LOGGER = logging.getLogger("toolgen.runtime.drift")


class StaleValidators(Exception):
    """The package's declarations differ from the live tools; the message says which tools and
    how to bring the package back in step. `drift` holds the details."""

    def __init__(self, drift: Drift) -> None:
        super().__init__(drift.message())
        self.drift = drift


@dataclass(frozen=True)
class Drift:
    """How a package's declarations differ from the live tools, each group in name order."""

    package: str  # how messages name the package
    live: str  # how messages name the live tools ("the server's tools")
    changed: tuple[str, ...]  # declared in both, not the same declaration
    undeclared: tuple[str, ...]  # live, but the package does not declare them
    unlisted: tuple[str, ...]  # the package declares them, but they are not live
    fix: str  # what brings the package back in step: its commands, in order

    @property
    def stale(self) -> frozenset[str]:
        """The tools whose calls the package would check wrongly (changed) or not at all
        (undeclared). A tool only the package declares is never called here: the package
        may declare tools served elsewhere, so it is named, but is no drift on its own."""
        return frozenset(self.changed + self.undeclared)

    def message(self) -> str:
        lines = [f"{self.package} is out of step with {self.live}:"]
        groups = (
            ("changed since it was generated", self.changed),
            ("not declared in it", self.undeclared),
            ("declared in it, but not among them", self.unlisted),
        )
        lines += [f"  {label}: {', '.join(names)}" for label, names in groups if names]
        lines.append(f"to bring it up to date, {self.fix}")
        return "\n".join(lines)


def compare(validators: Validators, tools: Iterable[object], *, live: str = "the live tools") -> Drift:
    """`validators` against `tools`: each an MCP tool (`name`, `inputSchema` or
    `input_schema`, as a mapping or attributes), an Anthropic tool, or an OpenAI function or
    Responses tool. TypeError for a package that records no digests, or a tool of no such form."""
    recorded, digest = _digests(validators)
    current: dict[str, str | None] = {}
    for tool in tools:
        name, schema = _declaration(tool)
        try:
            current[name] = digest(name, schema)
        except Exception:  # not JSON: it cannot be what the package was generated from
            current[name] = None
    return Drift(
        package=package_name(validators),
        live=live,
        changed=tuple(sorted(n for n in current.keys() & recorded.keys() if current[n] != recorded[n])),
        undeclared=tuple(sorted(current.keys() - recorded.keys())),
        unlisted=tuple(sorted(recorded.keys() - current.keys())),
        fix=_fix(validators),
    )


def in_step(
    validators: Validators,
    tools: Iterable[object],
    *,
    on_stale: OnStale = "refuse",
    live: str = "the live tools",
) -> Validators:
    """The package to validate with, once it is compared with `tools` (see `compare`): the
    package itself when no tool is stale; else StaleValidators (on_stale="refuse"), or a view
    of it that passes the stale tools' calls through unvalidated, a warning logged on each
    (on_stale="pass")."""
    if on_stale not in ON_STALE:
        raise ValueError(f"on_stale: expected one of {', '.join(map(repr, ON_STALE))}, not {on_stale!r}")
    drift = compare(validators, tools, live=live)
    if not drift.stale:
        return validators
    if on_stale == "refuse":
        raise StaleValidators(drift)
    LOGGER.warning("%s\nits stale tools pass through unvalidated until then", drift.message())
    return PassingStale(validators, drift)


class PassingStale:
    """A package whose stale tools pass through: a stale tool's validator accepts every call
    and logs why it was not checked; every other tool is the package's own."""

    def __init__(self, validators: Validators, drift: Drift) -> None:
        self.package = validators
        self.drift = drift
        self.TOOL_NAMES = validators.TOOL_NAMES
        self.__name__ = getattr(validators, "__name__", None)
        self._passes = {name: _passes(name, drift) for name in drift.stale}

    def validator(self, tool_name: str) -> Callable[[object], str | None] | None:
        passes = self._passes.get(tool_name) if type(tool_name) is str else None
        return passes if passes is not None else self.package.validator(tool_name)

    def issues(self, tool_name: str, args: object) -> Sequence[Issue]:
        stale = type(tool_name) is str and tool_name in self._passes
        return () if stale else self.package.issues(tool_name, args)

    def __getattr__(self, name: str) -> Any:  # the declarations, KEYWORDS, ...: the package's
        return getattr(self.package, name)


def _passes(name: str, drift: Drift) -> Callable[[object], str | None]:
    why = f"{name} was called unvalidated: its declaration in {drift.package} is stale; {drift.fix}"

    def passes(args: object) -> None:
        LOGGER.warning(why)

    return passes


def _digests(validators: Validators) -> tuple[Mapping[str, str], Callable[[str, object], str]]:
    digests = getattr(validators, "declaration_digests", None)
    digest = getattr(validators, "declaration_digest", None)
    if digests is None or digest is None:
        raise TypeError(
            f"{package_name(validators)} records no declaration digests: it was generated by an "
            "older toolgen; generate it again"
        )
    recorded: Mapping[str, str] = digests()
    return recorded, digest


def _fix(validators: Validators) -> str:
    """What brings the package back in step, in its own commands (its import command when its
    declarations are imported, then its regenerate command, as its headers name them)."""
    commands = getattr(validators, "fix_commands", None)
    imported, regenerate = commands() if commands is not None else (None, None)
    again = f"`{regenerate}`" if regenerate else "the command that generated it"
    if imported is None:  # written by hand: no command knows what they should say
        return f"make its declarations match the tools, then run from the project root: {again}"
    return f"run from the project root: `{imported}` then {again}"


def _declaration(tool: object) -> tuple[str, object]:
    """(name, input schema) of a live tool in any of the forms `compare` takes."""
    found: Mapping[str, Any]
    if isinstance(tool, Mapping):
        found = tool.get("function", tool) if tool.get("type") == "function" else tool
    else:
        keys = ("name", "inputSchema", "input_schema")
        found = {key: getattr(tool, key) for key in keys if hasattr(tool, key)}
    name = found.get("name")
    for key in ("inputSchema", "input_schema", "parameters"):
        if key in found and isinstance(name, str):
            return name, found[key]
    raise TypeError(f"not a tool declaration (a name and an input schema): {tool!r}"[:300])
