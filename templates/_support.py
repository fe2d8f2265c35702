"""Shared run-time helpers of the generated validators: JSON types, equality and messages.

Standard library only. This file is the one place where the wording of a message is
spelled (spec section 6): the generator copies it into each package behind the generated
header, and the modules build their constant lines with the functions below at import.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import NamedTuple

# The `event` of a line written by the run-time failure sink (runtime/failures.py), which
# `toolgen audit` recognises.
FAILURE_EVENT = "tool_input_rejected"

MISSING = "missing"
UNEXPECTED = "unexpected"
TYPE = "type"
INVALID = "invalid"


class Issue(NamedTuple):
    """One problem with a call: its kind, the rendered path, and the message line."""

    kind: str
    path: str
    line: str


# The getter behind `type.__name__`, taken from `type` itself so that no metaclass of an
# argument's class can run code (or raise) when the validator names its type.
_type_name: Callable[[type], str] = type.__dict__["__name__"].__get__


def json_type(x: object) -> str:
    """The JSON type name of a value (spec section 3); other values give their type's name."""
    t = type(x)
    if t is str:
        return "string"
    if x is None:
        return "null"
    if t is bool:
        return "boolean"
    if t is int or t is float:
        return "number"
    if t is dict:
        return "object"
    if t is list:
        return "array"
    if issubclass(t, str):
        return "string"
    if issubclass(t, (int, float)):
        return "number"
    if issubclass(t, dict):
        return "object"
    if issubclass(t, list):
        return "array"
    return _type_name(t)


def is_integral(x: object) -> bool:
    """For a value of JSON type number: does it also satisfy `integer`?"""
    if isinstance(x, int):
        return True
    return isinstance(x, float) and float.is_integer(x)


def json_equal(x: object, member: object) -> bool:
    """JSON equality (spec section 4) between a value and an enum member from a declaration."""
    kind = json_type(x)
    if kind != json_type(member):
        return False
    if kind == "array":
        assert isinstance(x, list) and isinstance(member, list)
        return len(x) == len(member) and all(json_equal(a, b) for a, b in zip(x, member, strict=True))
    if kind == "object":
        assert isinstance(x, dict) and isinstance(member, dict)
        return len(x) == len(member) and all(
            k in x and json_equal(x[k], v) for k, v in member.items()
        )
    return x == member


def json_in(x: object, members: tuple[object, ...]) -> bool:
    return any(json_equal(x, m) for m in members)


def key_text(key: object) -> str:
    """A dict key as a path segment: verbatim for strings, `str(key)` for anything else."""
    if isinstance(key, str):
        return str.__str__(key)
    try:
        text = str(key)
    except Exception:
        return "<" + _type_name(type(key)) + ">"
    return text if isinstance(text, str) else "<" + _type_name(type(key)) + ">"




# The collectors append each issue as a (path, line) pair, flat, to the list of its kind:
# grouping by kind costs nothing and no object is made per issue until one is asked for.


def members_text(members: tuple[object, ...]) -> str:
    """Enum members as a message lists them: compact JSON, joined by ", "."""
    return ", ".join(json.dumps(m, ensure_ascii=False, separators=(", ", ": ")) for m in members)


def missing_line(path: str) -> tuple[str, str]:
    """The (path, line) pair of a "missing" issue at a path known when the module loads."""
    return (path, f"The required parameter `{path}` is missing")


def type_head(path: str, expected: str) -> str:
    """A "type" issue's line up to the provided type's name, for a path known at load."""
    return f"The parameter `{path}` type is expected as `{expected}` but provided as `"




def rejected_line(path: str, text: str) -> tuple[str, str]:
    """The (path, line) pair of an "invalid" issue at a path known when the module loads;
    `text` is what follows `is invalid: `."""
    return (path, f"The parameter `{path}` is invalid: {text}")


# The lines are f-strings: one string built per line, where `+` builds one per operator.
# Every value placed in them is an exact str (paths are built here or by `+` on str).


def missing(out: list[str], path: str) -> None:
    out += (path, f"The required parameter `{path}` is missing")


def unexpected(out: list[str], path: str) -> None:
    out += (path, f"An unexpected parameter `{path}` was provided")




def wrong_type(out: list[str], path: str, expected: str, provided: str) -> None:
    out += (path, f"The parameter `{path}` type is expected as `{expected}` but provided as `{provided}`")




def not_object(out: list[str], provided: str) -> None:
    out += ("", f"The tool input type is expected as `object` but provided as `{provided}`")


def unreadable(exc: BaseException) -> str:
    """The one line for a call whose own Python objects raised while being read.

    Values decoded from JSON never raise; a key whose __eq__ fails, say, does, and yields
    this line instead of an exception: a validator never raises.
    """
    return "The tool input could not be read: " + _type_name(type(exc)) + " was raised"


def headers(tool: str) -> tuple[str, str]:
    """A message's first line and its line break, for one issue and for several."""
    head = tool + " failed due to the following "
    return head + "issue:\n", head + "issues:\n"


def render(
    one: str, many: str, mis: list[str], une: list[str], typ: list[str], inv: list[str]
) -> str | None:
    """The whole message of spec section 6 from a collector's lists, or None when empty."""
    # Find the only non-empty list by truth tests first: one issue is the common failure.
    if mis:
        found = mis if not (une or typ or inv) else [*mis, *une, *typ, *inv]
    elif une:
        found = une if not (typ or inv) else [*une, *typ, *inv]
    elif typ:
        found = typ if not inv else [*typ, *inv]
    elif inv:
        found = inv
    else:
        return None
    if len(found) == 2:
        return one + found[1]
    return many + "\n".join(found[1::2])


def issues_of(
    mis: list[str], une: list[str], typ: list[str], inv: list[str]
) -> tuple[Issue, ...]:
    """The structured form of a collector's lists, grouped by kind in spec order."""
    found: list[Issue] = []
    for kind, pairs in ((MISSING, mis), (UNEXPECTED, une), (TYPE, typ), (INVALID, inv)):
        for k in range(0, len(pairs), 2):
            found.append(Issue(kind, pairs[k], pairs[k + 1]))
    return tuple(found)


# What a module passes for a kind its top-level collector never reports: never appended to.
NO_ISSUES: list[str] = []


# A generated module's collector: appends each issue as a (path, line) pair to the list of
# its kind (missing, unexpected, type, invalid).
Collector = Callable[[object, list[str], list[str], list[str], list[str]], None]


# issues_from spells out its four lists: a shared helper returning them as a tuple cost
# about a quarter of an invalid call (TaskUpdate, several issues, measured).
def issues_from(collect: Collector, args: object) -> tuple[Issue, ...]:
    """Run a module's collector on a call; its issues, grouped by kind in spec order."""
    mis: list[str] = []
    une: list[str] = []
    typ: list[str] = []
    inv: list[str] = []
    try:
        collect(args, mis, une, typ, inv)
    except Exception as exc:
        return (Issue(INVALID, "", unreadable(exc)),)
    return issues_of(mis, une, typ, inv)


# ---------- one logged call's verdict: `toolgen audit` and the Spark recipe ----------
# (runtime/integrations/spark.py runs `verdict` on the executors from the package shipped
# there, so both read a call the same way.)

UNDECODABLE = "undecodable"  # the issue kind of arguments sent as text that is not JSON
# A call's status: rejected calls are the invalid and the undecodable ones.
VALID = "valid"
REJECTED = "invalid"
PASS_THROUGH = "pass-through"  # a tool the package has no validator for (MCP, custom)

_POSITION = re.compile(r"\[\d+\]")
_EXPECTED = re.compile(r"expected as `([^`]*)` but provided as `([^`]*)`$")


def undecodable_issue(why: str) -> Issue:
    """The one issue of a call whose arguments text is not JSON (`why`: the decoder's error)."""
    return Issue(UNDECODABLE, "", "arguments are not JSON: " + why)


def decode_arguments(text: str) -> tuple[object, Issue | None]:
    """Arguments sent as JSON text (OpenAI's `arguments`): (value, None), or (None, the issue)."""
    try:
        return json.loads(text), None
    except (ValueError, RecursionError) as exc:
        return None, undecodable_issue(str(exc))


def verdict(
    tool_names: frozenset[str],
    issues: Callable[[str, object], tuple[Issue, ...]],
    tool: str,
    arguments_text: str,
) -> tuple[str, tuple[Issue, ...]]:
    """A logged call whose arguments are JSON text: its status and issues (none when it is
    valid or passes through). A tool not in `tool_names` passes through unread."""
    if tool not in tool_names:
        return PASS_THROUGH, ()
    arguments, bad = decode_arguments(arguments_text)
    if bad is not None:
        return UNDECODABLE, (bad,)
    found = issues(tool, arguments)
    return (REJECTED if found else VALID), found


def parameter(path: str) -> str:
    """An issue's parameter for counting: array positions merged (`questions[*].header`),
    `(input)` for the arguments as a whole."""
    return _POSITION.sub("[*]", path) if path else "(input)"


def detail(kind: str, line: str) -> str:
    """What a type issue's line says was sent instead (`string instead of number`); else ""."""
    if kind != TYPE:
        return ""
    found = _EXPECTED.search(line)
    return f"{found.group(2)} instead of {found.group(1)}" if found else ""


def message(tool: str, issues: tuple[Issue, ...]) -> str | None:
    """The whole message of spec section 6, or None when there is no issue."""
    if not issues:
        return None
    noun = "issue:" if len(issues) == 1 else "issues:"
    lines = [tool + " failed due to the following " + noun]
    lines.extend(issue.line for issue in issues)
    return "\n".join(lines)


# ---------- drift: a tool's declaration as the server lists it ----------


def _canonical(value: object) -> object:
    """The JSON value with every number that is a whole number written as an int (a schema's
    `1.0` and `1` mean the same), so that how a number was spelt is not a difference."""
    if type(value) is float and float.is_integer(value):
        return int(value)
    if isinstance(value, dict):
        return {key: _canonical(member) for key, member in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canonical(item) for item in value]
    return value


def declaration_digest(name: str, input_schema: object) -> str:
    """The sha256 of a tool's name and input schema as canonical JSON: keys sorted at every
    level, no whitespace, non-ASCII as itself, whole numbers as ints. The formatting of a
    declaration, the order of its keys and the tool's description are no difference; any
    other change of the schema is, annotations (`title`, `default`, ...) included. Raises
    for what is not JSON (the runtime reads that as a changed declaration)."""
    canonical = [name, _canonical(input_schema)]
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# ---------- extended mode (extended.md E5, E7): the text after "is invalid: " ----------

DEPTH_TEXT = "nested more than 256 levels deep"
def repeat_text(j: int, i: int) -> str:
    return "expected unique items, but [" + str(j) + "] repeats [" + str(i) + "]"


def const_text(k: object) -> str:
    return "expected " + members_text((k,))


def one_of_members(members: str) -> str:
    return "expected one of " + members


def one_of_text(members: tuple[object, ...]) -> str:
    return "expected one of " + members_text(members)


def rejected(out: list[str], path: str, text: str) -> None:
    """An "invalid" issue of extended mode: `text` is what follows `is invalid: `."""
    out += (path, f"The parameter `{path}` is invalid: {text}")


def type_name(x: object) -> str:
    return _type_name(type(x))
