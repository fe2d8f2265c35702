"""`toolgen audit FILE...`: replay recorded tool calls through the validators, running nothing.

Each line of a file is one JSON value holding zero or more tool calls, in any of the shapes
agents log:

* an OpenAI `tool_calls` entry `{"type": "function", "function": {"name", "arguments"}}`
  (arguments a JSON string or an object), an assistant message `{"tool_calls": [...]}`, or
  a whole chat completion `{"choices": [{"message": ...}]}`;
* an OpenAI Responses item `{"type": "function_call", "name", "arguments"}` or response
  `{"output": [...]}`;
* an Anthropic `tool_use` block `{"type": "tool_use", "name", "input"}` or a message or
  response `{"content": [...blocks]}`;
* a plain `{"name", "arguments"}` (or `{"name", "input"}`) object;
* a line of the run-time failure sink (runtime/failures.py): re-validated when it carries
  the arguments, else its recorded issues are counted as they are; a line of a repair the
  runtime made (`tool_input_repaired`) holds no call to replay, and is counted as a repair;
* a JSON array of any of these.

Lines that are not JSON or hold an unrecognised object are counted and listed, never fatal.

A package whose project adopted repair kinds (`[tool.toolgen.repairs]`, its `repair()`)
rejects only what they do not rescue: a call its `repair()` makes valid is counted as
repaired, by kind and parameter, not as rejected, exactly as the run-time guard lets it
through (docs/audit-suggest.md).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base.textui import counted, percent, table
from ..emit.support import repair_module, support_module
from .admits import Schema
from .didyoumean import either_of, suggest
from .evidence import DEFAULT_BAR, EvidenceBar
from .package import Package
from .repairs import Repairs
from .suggestions import repairs_json, repairs_text

# The failure sink's `event`, defined once in templates/_support.py (runtime/failures.py
# reads it from the generated package's copy). A call is read as the Spark recipe
# (runtime/integrations/spark.py) reads it, with the same functions of templates/_support.py:
# arguments decoded, parameters and details named.
_SUPPORT = support_module()
SINK_EVENT: str = _SUPPORT.FAILURE_EVENT
REPAIR_EVENT: str = repair_module().REPAIR_EVENT  # a repair the runtime made and recorded

UNDECODABLE: str = _SUPPORT.UNDECODABLE  # OpenAI arguments that are not JSON: the runtime rejects those too
_MAX_BAD_LISTED = 20
_NO_CALLS_TYPES = frozenset({"text", "tool_result", "thinking", "redacted_thinking", "message", "reasoning"})


class Unrecognised(Exception):
    """A JSON value on a line that holds no recognisable tool call."""


class Malformed(Unrecognised):
    """Something that is clearly a tool call, but broken (a tool_use block without a name)."""


@dataclass(frozen=True)
class RecordedIssue:
    kind: str
    path: str
    line: str


@dataclass(frozen=True)
class Call:
    tool: str
    arguments: Any = None
    has_arguments: bool = True
    undecodable: str | None = None  # why the arguments string is not JSON
    recorded: tuple[RecordedIssue, ...] = ()  # a sink line's issues, when it has no arguments
    repair: tuple[str, str] | None = None  # a sink line of a repair made: (kind, parameter)


def calls_in(value: Any) -> list[Call]:
    """The tool calls a decoded line holds, in order; raises Unrecognised for unknown shapes."""
    if isinstance(value, list):
        return [call for item in value for call in calls_in(item)]
    if not isinstance(value, dict):
        raise Unrecognised(f"expected an object or an array, found {_json_type(value)}")
    if len(value) == 2 and "name" in value and "arguments" in value:
        # The plainest shape, and the commonest in large logs: no other shape has only these
        # two keys, so it is taken without trying the others.
        return [_decoded(_name(value, "call"), value["arguments"])]
    for matches, extract in _SHAPES:
        if matches(value):
            return extract(value)
    raise Unrecognised("no tool call found (keys: " + ", ".join(sorted(map(str, value))[:6]) + ")")


def _json_type(value: Any) -> str:
    names = {str: "a string", bool: "a boolean", int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _name(value: dict[str, Any], what: str) -> str:
    name = value.get("name")
    if not isinstance(name, str):
        raise Malformed(f"{what} without a name")
    return name


def _decoded(name: str, arguments: Any) -> Call:
    """OpenAI sends arguments as a JSON string; some logs store them decoded."""
    if not isinstance(arguments, str):
        return Call(name, arguments)
    decoded, bad = _SUPPORT.decode_arguments(arguments)
    if bad is None:
        return Call(name, decoded)
    return Call(name, None, has_arguments=False, undecodable=bad.line)


def _openai_call(value: dict[str, Any]) -> list[Call]:
    function = value["function"]
    if not isinstance(function, dict):
        raise Malformed("tool call whose function is not an object")
    return [_decoded(_name(function, "tool call"), function.get("arguments", "{}"))]


def _sink_line(value: dict[str, Any]) -> list[Call]:
    tool = value.get("tool")
    issues = value.get("issues")
    if not isinstance(tool, str) or not isinstance(issues, list):
        raise Malformed("failure record without a tool name or an issue list")
    if "arguments" in value:
        return [Call(tool, value["arguments"])]
    recorded = []
    for issue in issues:
        if not isinstance(issue, dict) or not isinstance(issue.get("kind"), str):
            raise Malformed("failure record with a malformed issue")
        recorded.append(RecordedIssue(issue["kind"], str(issue.get("path", "")), str(issue.get("line", ""))))
    return [Call(tool, None, has_arguments=False, recorded=tuple(recorded))]


def _repair_line(value: dict[str, Any]) -> list[Call]:
    tool, kind, parameter = value.get("tool"), value.get("kind"), value.get("parameter")
    if not (isinstance(tool, str) and isinstance(kind, str) and isinstance(parameter, str)):
        raise Malformed("repair record without a tool, a kind or a parameter")
    return [Call(tool, None, has_arguments=False, repair=(kind, parameter))]


def _listed(key: str) -> Callable[[dict[str, Any]], list[Call]]:
    def extract(value: dict[str, Any]) -> list[Call]:
        items = value[key]
        if items is None:  # an assistant message that called no tool
            return []
        if not isinstance(items, list):
            raise Malformed(f"{key} is not a list")
        return [call for item in items for call in _calls_or_none(item)]

    return extract


def _calls_or_none(item: Any) -> list[Call]:
    """Inside a message or response, parts that hold no tool call (a text block) are fine."""
    try:
        return calls_in(item)
    except Malformed:
        raise
    except Unrecognised:
        return []


def _message_without_calls(value: dict[str, Any]) -> list[Call]:
    return []


_SHAPES: tuple[tuple[Callable[[dict[str, Any]], bool], Callable[[dict[str, Any]], list[Call]]], ...] = (
    (lambda v: v.get("event") == SINK_EVENT or ("tool" in v and "issues" in v), _sink_line),
    (lambda v: v.get("event") == REPAIR_EVENT, _repair_line),
    (lambda v: v.get("type") == "function" and "function" in v, _openai_call),
    (
        lambda v: v.get("type") == "function_call",
        lambda v: [_decoded(_name(v, "function_call"), v.get("arguments", "{}"))],
    ),
    (lambda v: v.get("type") == "tool_use", lambda v: [Call(_name(v, "tool_use block"), v.get("input", {}))]),
    (lambda v: "tool_calls" in v, _listed("tool_calls")),
    (lambda v: isinstance(v.get("choices"), list), _listed("choices")),
    (lambda v: isinstance(v.get("output"), list), _listed("output")),
    (lambda v: isinstance(v.get("content"), list), _listed("content")),
    (lambda v: isinstance(v.get("message"), dict), lambda v: calls_in(v["message"])),
    (lambda v: "name" in v and "arguments" in v, lambda v: [_decoded(_name(v, "call"), v["arguments"])]),
    (lambda v: "name" in v and "input" in v, lambda v: [Call(_name(v, "call"), v["input"])]),
    (lambda v: "role" in v or v.get("type") in _NO_CALLS_TYPES, _message_without_calls),
)


@dataclass(frozen=True)
class BadLine:
    file: str
    line: int
    reason: str


@dataclass
class Audit:
    """Counts over every call replayed; `rejected` counts calls, the Counters count issues."""

    files: list[str] = field(default_factory=list)
    lines: int = 0
    calls: int = 0
    passed_through: int = 0  # calls to tools this package has no validator for
    rejected: int = 0
    replayed_from_records: int = 0  # sink lines without arguments: their issues as recorded
    tool_calls: Counter[str] = field(default_factory=Counter)
    tool_rejected: Counter[str] = field(default_factory=Counter)
    validated_tools: set[str] = field(default_factory=set)
    by_parameter: Counter[tuple[str, str, str, str]] = field(default_factory=Counter)
    by_kind: Counter[str] = field(default_factory=Counter)
    bad: list[BadLine] = field(default_factory=list)
    bad_count: int = 0
    repairs: Repairs | None = None  # with --suggest: what each repair kind would rescue
    misspelt: dict[str, tuple[str, ...]] = field(default_factory=dict)  # passed-through name -> meant
    # Calls the package's adopted repairs rescue (not rejected), and per (tool, kind, parameter)
    # the rescued calls repaired there.
    repaired: int = 0
    repaired_at: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    # Repairs the runtime made, as its failure sink recorded them: (tool, kind, parameter) -> lines.
    recorded_repairs: Counter[tuple[str, str, str]] = field(default_factory=Counter)

    @property
    def validated(self) -> int:
        return self.calls - self.passed_through

    def add(self, package: Package, call: Call, schemas: Mapping[str, Schema] | None = None) -> None:
        """One call replayed; with `schemas` (and `repairs` set), a rejected one is repaired too."""
        if call.repair is not None:  # a repair the runtime recorded: no call to replay
            self.recorded_repairs[(call.tool, *call.repair)] += 1
            return
        self.calls += 1
        self.tool_calls[call.tool] += 1
        if call.tool not in package.TOOL_NAMES:
            self.passed_through += 1
            return
        self.validated_tools.add(call.tool)
        issues: Iterable[Any]
        if call.undecodable is not None:
            issues = [RecordedIssue(UNDECODABLE, "", call.undecodable)]
        elif call.has_arguments:
            issues = package.issues(call.tool, call.arguments)
            if issues and self._rescued(package, call):
                return
        else:
            self.replayed_from_records += 1
            issues = call.recorded
        counted = False
        for issue in issues:
            counted = True
            self.by_kind[issue.kind] += 1
            self.by_parameter[(call.tool, _parameter(issue.path), issue.kind, _detail(issue))] += 1
        if counted:
            self.rejected += 1
            self.tool_rejected[call.tool] += 1
            if self.repairs is not None and schemas is not None and (call.has_arguments or call.undecodable):
                schema = schemas.get(call.tool) if call.undecodable is None else None
                self.repairs.add(call.tool, call.arguments, schema, _accepts(package, call.tool))

    def _rescued(self, package: Package, call: Call) -> bool:
        """Does the package's `repair()` (adopted kinds only) make this rejected call valid?"""
        fix = getattr(package, "repair", None)
        if fix is None:
            return False
        made = fix(call.tool, call.arguments)[1]
        if not made:
            return False
        self.repaired += 1
        self.repaired_at.update({(call.tool, r.kind, _parameter_of(r)) for r in made})
        return True

    def merge(self, part: Audit) -> None:
        """Counts of a later part of the input added (bad lines listed in input order)."""
        self.lines += part.lines
        self.calls += part.calls
        self.passed_through += part.passed_through
        self.rejected += part.rejected
        self.replayed_from_records += part.replayed_from_records
        self.tool_calls.update(part.tool_calls)
        self.tool_rejected.update(part.tool_rejected)
        self.validated_tools |= part.validated_tools
        self.by_parameter.update(part.by_parameter)
        self.by_kind.update(part.by_kind)
        self.bad += part.bad[: max(0, _MAX_BAD_LISTED - len(self.bad))]
        self.bad_count += part.bad_count
        if self.repairs is not None and part.repairs is not None:
            self.repairs.merge(part.repairs)
        self.repaired += part.repaired
        self.repaired_at.update(part.repaired_at)
        self.recorded_repairs.update(part.recorded_repairs)

    def bad_line(self, file: str, number: int, reason: str) -> None:
        self.bad_count += 1
        if len(self.bad) < _MAX_BAD_LISTED:
            self.bad.append(BadLine(file, number, reason))


def _accepts(package: Package, tool: str) -> Callable[[Any], bool]:
    return lambda arguments: not package.issues(tool, arguments)


def _parameter_of(repair: Any) -> str:
    """A repair's parameter as the report names it: a rename as `key -> name`, like --suggest's."""
    if repair.kind == "renamed-parameter":
        return f"{_parameter(repair.path)} -> {repair.parameter.rpartition('.')[2]}"
    return str(repair.parameter)


def _parameter(path: str) -> str:
    """Paths aggregated over array positions: `questions[0].header` -> `questions[*].header`."""
    parameter: str = _SUPPORT.parameter(path)
    return parameter


def _detail(issue: Any) -> str:
    detail: str = _SUPPORT.detail(issue.kind, issue.line)
    return detail


def audit_lines(
    audit: Audit,
    package: Package,
    name: str,
    first: int,
    lines: Iterable[bytes],
    schemas: Mapping[str, Schema] | None = None,
) -> None:
    """Replay `lines` (each with its end of line) of file `name`, the first being line `first`."""
    for number, raw in enumerate(lines, start=first):
        if not raw.strip():
            continue
        audit.lines += 1
        for call in _line_calls(audit, name, number, raw):
            audit.add(package, call, schemas)


def _line_calls(audit: Audit, name: str, number: int, raw: bytes) -> list[Call]:
    try:
        return calls_in(json.loads(raw.decode("utf-8")))
    except UnicodeDecodeError as exc:
        audit.bad_line(name, number, f"not UTF-8 text (byte {exc.start})")
    except ValueError as exc:
        audit.bad_line(name, number, f"not JSON: {exc}")
    except RecursionError:
        audit.bad_line(name, number, "nested too deeply")
    except Unrecognised as exc:
        audit.bad_line(name, number, str(exc))
    return []


def misspelt(audit: Audit, validated: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Passed-through tool names that are probably typos of validated ones (as `validate` says)."""
    names = sorted(validated)
    found = {tool: tuple(suggest(tool, names, close_only=True)) for tool in audit.tool_calls}
    return {
        tool: meant for tool, meant in sorted(found.items()) if meant and tool not in audit.validated_tools
    }


def _sorted(counter: Counter[Any]) -> Iterator[tuple[Any, int]]:
    return iter(sorted(counter.items(), key=lambda item: (-item[1], item[0])))


def as_json(audit: Audit, bar: EvidenceBar = DEFAULT_BAR) -> dict[str, Any]:
    return {
        "files": audit.files,
        "lines": audit.lines,
        "bad_lines": audit.bad_count,
        "calls": audit.calls,
        "validated": audit.validated,
        "passed_through": audit.passed_through,
        "rejected": audit.rejected,
        "repaired": audit.repaired,
        "counted_from_records": audit.replayed_from_records,
        "by_tool": [
            {
                "tool": tool,
                "validated": tool in audit.validated_tools,
                "calls": calls,
                "rejected": audit.tool_rejected[tool],
            }
            for tool, calls in sorted(
                audit.tool_calls.items(), key=lambda i: (-audit.tool_rejected[i[0]], -i[1], i[0])
            )
        ],
        "by_parameter": [
            {"tool": t, "parameter": p, "kind": k, "detail": d, "count": n}
            for (t, p, k, d), n in _sorted(audit.by_parameter)
        ],
        "by_kind": [{"kind": k, "issues": n} for k, n in _sorted(audit.by_kind)],
        "bad": [{"file": b.file, "line": b.line, "reason": b.reason} for b in audit.bad],
        "misspelt": [
            {"tool": tool, "calls": audit.tool_calls[tool], "meant": list(meant)}
            for tool, meant in audit.misspelt.items()
        ],
        "repaired_by": _repair_rows(audit.repaired_at, "calls"),
        "recorded_repairs": _repair_rows(audit.recorded_repairs, "repairs"),
        **({"repairs": repairs_json(audit.repairs, bar)} if audit.repairs is not None else {}),
    }


def _repair_rows(counter: Counter[tuple[str, str, str]], noun: str) -> list[dict[str, Any]]:
    return [{"tool": t, "kind": k, "parameter": p, noun: n} for (t, k, p), n in _sorted(counter)]


def _tool_row(entry: dict[str, Any]) -> tuple[object, ...]:
    if not entry["validated"]:
        return (entry["tool"], entry["calls"], "-", "not validated")
    return (entry["tool"], entry["calls"], entry["rejected"], percent(entry["rejected"], entry["calls"]))


def render(audit: Audit, package_label: str, bar: EvidenceBar = DEFAULT_BAR) -> str:
    data = as_json(audit, bar)
    rows: list[tuple[object, ...]]
    out = [
        f"{counted(len(audit.files), 'file')}, {counted(audit.lines, 'line')}, "
        f"{counted(audit.calls, 'tool call')}, {counted(audit.bad_count, 'bad line')}",
        f"would be rejected: {audit.rejected} of {counted(audit.validated, 'validated call')} "
        f"({percent(audit.rejected, audit.validated)}); passed through: {audit.passed_through} "
        f"(tools without a validator in {package_label})",
    ]
    if audit.replayed_from_records:
        records = counted(audit.replayed_from_records, "failure record")
        out.append(f"({records} without arguments counted as recorded)")
    if audit.repaired:
        out.append(
            f"repaired by the kinds adopted in [tool.toolgen.repairs]: {counted(audit.repaired, 'call')}, "
            "not counted as rejected"
        )
        rows = [(r["tool"], r["kind"], r["parameter"], r["calls"]) for r in data["repaired_by"]]
        out += ["", table(("tool", "kind", "parameter", "calls"), rows, (False, False, False, True))]
    if audit.recorded_repairs:
        total = sum(audit.recorded_repairs.values())
        out += ["", f"repairs the runtime made and recorded (failure-sink lines): {total}"]
        rows = [(r["tool"], r["kind"], r["parameter"], r["repairs"]) for r in data["recorded_repairs"]]
        out.append(table(("tool", "kind", "parameter", "repairs"), rows, (False, False, False, True)))
    if data["by_tool"]:
        rows = [_tool_row(t) for t in data["by_tool"]]
        out += ["", table(("tool", "calls", "rejected", "share"), rows, (False, True, True, True))]
    if audit.misspelt:
        out += ["", "passed through, probably misspelt:"] + [
            f"  {tool} ({counted(audit.tool_calls[tool], 'call')}): did you mean {either_of(meant)}?"
            for tool, meant in audit.misspelt.items()
        ]
    if data["by_parameter"]:
        rows = [(p["tool"], p["parameter"], p["kind"], p["detail"], p["count"]) for p in data["by_parameter"]]
        out += ["", table(("tool", "parameter", "kind", "detail", "issues"), rows, (False,) * 4 + (True,))]
    if data["by_kind"]:
        rows = [(k["kind"], k["issues"]) for k in data["by_kind"]]
        out += ["", table(("kind", "issues"), rows, (False, True))]
    if audit.repairs is not None:
        out += ["", repairs_text(audit.repairs, audit.replayed_from_records, bar)]
    if audit.bad:
        out += ["", "bad lines:"] + [f"  {b.file}:{b.line}: {b.reason}" for b in audit.bad]
        if audit.bad_count > len(audit.bad):
            out.append(f"  ... and {audit.bad_count - len(audit.bad)} more")
    return "\n".join(out)
