"""`make coverage`: how much of what real tool declarations say is enforced, in each mode.

`python -m benchmarks.coverage [--schemas DIR] [--write FILE]` generates the declarations
(default `tests/data/real-tools`) into a throw-away
package in each keyword mode the generator has (`benchmarks/modes.py`), reads what each
generated module says it does not enforce (its `NOT_ENFORCED`), and prints, per source (the
file-name prefix before `__`) and in total, the share of declared properties whose type, and
whose type and every constraint, are enforced. A mode the generator does not have yet shows
`n/a`. The Markdown goes to benchmarks/COVERAGE.md too.

Definitions (the numbers mean exactly this):

* **Declared property**: each member of a `properties` object, of every schema of the
  declaration's `parameters` at any depth. Schemas are found through the keywords that hold
  schemas (`properties`, `patternProperties`, `additionalProperties`, `items` in both forms,
  `prefixItems`, `additionalItems`, `contains`, `propertyNames`, `unevaluatedItems`,
  `unevaluatedProperties`, `allOf` / `anyOf` / `oneOf` branches, `not`, `if` / `then` /
  `else`, `dependentSchemas`, schema-valued `dependencies`, `$defs`, `definitions`), never
  inside `default`, `examples`, `const`, `enum` or unknown keywords. A property is counted
  once, where it is written (a definition used three times counts its properties once),
  and only when the declaration applies it to some value: a definition that no `$ref`
  reaches from the root (openai-agents inlines its models and keeps the unused `$defs`) is
  dead, and its properties are reported apart, below the table, not counted. Which
  properties count depends on the declaration alone, never on the mode.
* **Reached** (per mode): a schema the generated validator applies to some value: the root;
  then, from a reached schema, the schemas under each of its keywords that its module does
  not list as not enforced: `properties` members (when its `type`, if declared, admits
  `object`), `items` (when it admits `array`), `additionalProperties` (idem, and only when no
  keyword able to admit other keys, such as `anyOf` in subset mode or `patternProperties`, is
  listed as not enforced there), the branches of `allOf` / `anyOf` / `oneOf`, and the target
  of a local `$ref`. `$defs` are reached only through a `$ref`.
* **Interpreted**: keyword K of schema S is interpreted when S is reached and S's entry in
  `NOT_ENFORCED` (its JSON pointer, where the schema is written) does not list K.
* **Type enforced**: the property is reached, and either its type is checked, or it declares
  no type at all (no `type`, `enum` or `const` in it, its `$ref` targets or its `allOf` /
  `anyOf` / `oneOf` branches, at any depth: such a property is counted in *untyped*, and has
  nothing to enforce). A schema's type is checked when `type`, `enum` or `const` is
  interpreted on it, or an interpreted `$ref` target or `allOf` branch has its type checked,
  or an interpreted `anyOf` / `oneOf` has every branch's type checked (or declaring none).
* **Fully enforced**: type enforced, and every constraint keyword (CONSTRAINTS below: the
  JSON Schema 2020-12 assertions and applicators, and their draft-7 forms) of every schema
  applied to the property's value is interpreted: the property's schema, its `$ref`
  targets, `allOf` / `anyOf` / `oneOf` branches, `items`, `prefixItems`, `contains`,
  `additionalProperties` schemas, recursively; not the members of its `properties`, which are
  declared properties of their own. Annotations (`title`, `description`, `default`,
  `examples`, `deprecated`, `readOnly`, `writeOnly`, `$comment`), `format` and the content
  keywords (annotations in 2020-12, checked by neither mode: counted apart, in the line
  below the table), `$defs` and unknown keywords (pydantic's `discriminator`) are not
  constraints.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote

from benchmarks.modes import MODES, ROOT, ModeUnavailable, available_modes, build_package, import_folder
from generator.front.load import Declaration, read_all

REAL_TOOLS = ROOT / "tests" / "data" / "real-tools"  # real declarations, see its README
REPORT = ROOT / "benchmarks" / "COVERAGE.md"
SDK_SOURCES = ("pydantic", "openai-agents", "fastmcp", "langchain")

# Keywords that constrain a value (JSON Schema 2020-12 validation and applicator vocabularies,
# core references, and the draft-7 spellings of the same).
CONSTRAINTS = frozenset(
    {
        "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
        "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
        "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties", "required",
        "dependentRequired", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
        "dependentSchemas", "prefixItems", "items", "contains", "properties", "patternProperties",
        "additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
        "$ref", "$dynamicRef", "$recursiveRef", "dependencies", "additionalItems",
    }
)  # fmt: skip
# Annotations in 2020-12 that neither mode checks; reported apart.
FORMATS = ("format", "contentEncoding", "contentMediaType", "contentSchema")
# Keywords able to admit keys a validator cannot see: where one is not interpreted, the
# object's other keys go unchecked (docs/spec/validation.md §2, docs/spec/extended.md E2).
OPENING = frozenset(
    {
        "patternProperties", "allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "$recursiveRef",
        "dependentSchemas", "dependencies", "if", "then", "else", "unevaluatedProperties",
    }
)  # fmt: skip
_TYPED = ("type", "enum", "const")
_IN_PLACE = ("allOf", "anyOf", "oneOf")
# Keywords holding one schema, a list of schemas, or a map of schemas (for finding properties).
_ONE = ("additionalProperties", "additionalItems", "contains", "propertyNames", "unevaluatedItems",
        "unevaluatedProperties", "not", "if", "then", "else", "items")  # fmt: skip
_LIST = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")

_CONTAINERS = ("$defs", "definitions")
_NOT_VALUE = ("properties", *_CONTAINERS)  # members, and schemas applied only by $ref
_ARRAY = ("items", "prefixItems", "additionalItems", "contains", "unevaluatedItems")
_OBJECT = ("additionalProperties", "patternProperties", "propertyNames", "unevaluatedProperties",
           "dependentSchemas", "dependencies")  # fmt: skip

NotEnforced = Mapping[str, frozenset[str]]  # schema pointer -> keywords it does not enforce


def join(pointer: str, token: str | int) -> str:
    text = str(token).replace("~", "~0").replace("/", "~1")
    return f"{pointer}/{text}"


def schemas_under(schema: Any, pointer: str) -> Iterator[tuple[str, str, Any]]:
    """(keyword, pointer, subschema) for every schema held directly by `schema`'s keywords."""
    if not isinstance(schema, dict):
        return
    for keyword, value in schema.items():
        where = join(pointer, keyword)
        if keyword in _MAP and isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(sub, (dict, bool)):  # `dependencies` may map to name lists
                    yield keyword, join(where, name), sub
        elif keyword in _LIST and isinstance(value, list):
            for i, sub in enumerate(value):
                yield keyword, join(where, i), sub
        elif keyword in _ONE and isinstance(value, (dict, bool)):
            yield keyword, where, value


def declared_properties(schema: Any, pointer: str) -> Iterator[str]:
    """The pointer of every declared property (see the module docstring), in document order."""
    for keyword, where, sub in schemas_under(schema, pointer):
        if keyword == "properties":
            yield where
        yield from declared_properties(sub, where)


def not_enforced_of(module: ModuleType) -> dict[str, frozenset[str]]:
    """A generated module's NOT_ENFORCED as pointer -> keywords.

    An entry such as `("…/items", ("items (tuple form)",))` (the keyword qualified, at the
    pointer of its own value) is recorded as `items` not enforced at the parent schema.
    """
    found: dict[str, set[str]] = {}
    for pointer, keywords in module.NOT_ENFORCED:
        for keyword in keywords:
            base = keyword.split(" (")[0]
            at = pointer
            if base != keyword and pointer.endswith(join("", base)):
                at = pointer[: -len(join("", base))]
            found.setdefault(at, set()).add(base)
    return {pointer: frozenset(names) for pointer, names in found.items()}


def _types_admit(schema: dict[str, Any], name: str) -> bool:
    declared = schema.get("type")
    if declared is None:
        return True
    names = [declared] if isinstance(declared, str) else declared
    return not isinstance(names, list) or name in names


class Reading:
    """One declaration's parameters as one mode's generated module reads them."""

    def __init__(self, parameters: Any, root: str, not_enforced: NotEnforced) -> None:
        self.parameters = parameters
        self.root = root
        self.not_enforced = not_enforced
        self.schemas: dict[str, Any] = {}  # every schema found, by pointer
        self._index(parameters, root)
        self.reached = self._reach()
        self.live = self._live()

    def _index(self, schema: Any, pointer: str) -> None:
        self.schemas[pointer] = schema
        for _, where, sub in schemas_under(schema, pointer):
            self._index(sub, where)

    def interpreted(self, pointer: str, keyword: str) -> bool:
        schema = self.schemas.get(pointer)
        return (
            pointer in self.reached
            and isinstance(schema, dict)
            and keyword in schema
            and keyword not in self.not_enforced.get(pointer, frozenset())
        )

    def ref_target(self, pointer: str) -> str | None:
        """The pointer of the local `$ref` target of the schema at `pointer`, if it exists."""
        schema = self.schemas.get(pointer)
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
            return None
        target = self.root
        for token in unquote(ref[1:]).split("/")[1:]:
            target = join(target, token.replace("~1", "/").replace("~0", "~"))
        return target if target in self.schemas else None

    def applied(self, pointer: str) -> Iterator[tuple[str, str]]:
        """(keyword, pointer) of the schemas a validator applies from the schema at `pointer`,
        as far as its declaration says (whether that keyword is interpreted is not asked here)."""
        schema = self.schemas.get(pointer)
        if not isinstance(schema, dict):
            return
        opened = any(k in schema and k in self.not_enforced.get(pointer, ()) for k in OPENING)
        admits = {
            "properties": _types_admit(schema, "object"),
            "items": _types_admit(schema, "array"),
            "additionalProperties": _types_admit(schema, "object") and not opened,
        }
        for keyword, where, _ in schemas_under(schema, pointer):
            if admits.get(keyword, keyword in _IN_PLACE):
                yield keyword, where
        target = self.ref_target(pointer)
        if target is not None:
            yield "$ref", target

    def _reach(self) -> frozenset[str]:
        reached = {self.root}
        todo = [self.root]
        while todo:
            pointer = todo.pop()
            for keyword, where in self.applied(pointer):
                if keyword not in self.not_enforced.get(pointer, frozenset()) and where not in reached:
                    reached.add(where)
                    todo.append(where)
        return frozenset(reached)

    def _live(self) -> frozenset[str]:
        """The schemas the declaration applies to some value, whatever a mode interprets:
        everything under the root but `$defs` / `definitions`, plus what local `$ref`s reach."""
        live = {self.root}
        todo = [self.root]
        while todo:
            pointer = todo.pop()
            subs = [w for k, w, _ in schemas_under(self.schemas[pointer], pointer) if k not in _CONTAINERS]
            target = self.ref_target(pointer)
            for where in [*subs, *([target] if target is not None else [])]:
                if where not in live:
                    live.add(where)
                    todo.append(where)
        return frozenset(live)

    # ---------- one property ----------

    def in_place(self, pointer: str) -> Iterator[tuple[str, str]]:
        """(keyword, pointer) of the schemas applied in place: $ref targets and branches."""
        for keyword, where in self.applied(pointer):
            if keyword in _IN_PLACE or keyword == "$ref":
                yield keyword, where

    def declares_type(self, pointer: str, seen: frozenset[str] = frozenset()) -> bool:
        schema = self.schemas.get(pointer)
        if not isinstance(schema, dict) or pointer in seen:
            return False
        if any(k in schema for k in _TYPED):
            return True
        return any(self.declares_type(where, seen | {pointer}) for _, where in self.in_place(pointer))

    def type_checked(self, pointer: str, seen: frozenset[str] = frozenset()) -> bool:
        if pointer in seen or pointer not in self.reached:
            return False
        if any(self.interpreted(pointer, k) for k in _TYPED):
            return True
        seen = seen | {pointer}
        schema = self.schemas[pointer]
        target = self.ref_target(pointer)
        if target is not None and self.interpreted(pointer, "$ref") and self.type_checked(target, seen):
            return True
        for keyword in _IN_PLACE:
            if not self.interpreted(pointer, keyword):
                continue
            branches = [join(join(pointer, keyword), i) for i in range(len(schema[keyword]))]
            if keyword == "allOf" and any(self.type_checked(b, seen) for b in branches):
                return True
            # A branch that declares no type admits every type: nothing is left to check there.
            if keyword != "allOf" and all(
                self.type_checked(b, seen) or not self.declares_type(b) for b in branches
            ):
                return True
        return False

    def value_schemas(self, pointer: str) -> Iterator[str]:
        """The schemas applied to the value itself or to parts of it that are not declared
        properties: in place, items, prefixItems, contains, additionalProperties."""
        seen = {pointer}
        todo = [pointer]
        while todo:
            current = todo.pop()
            yield current
            schema = self.schemas.get(current)
            if not isinstance(schema, dict):
                continue
            subs = [
                where
                for keyword, where, _ in schemas_under(schema, current)
                if keyword not in _NOT_VALUE
                and (keyword not in _ARRAY or _types_admit(schema, "array"))
                and (keyword not in _OBJECT or _types_admit(schema, "object"))
            ]
            target = self.ref_target(current)
            for where in [*subs, *([target] if target is not None else [])]:
                if where not in seen:
                    seen.add(where)
                    todo.append(where)

    def verdict(self, pointer: str) -> Verdict:
        typed = self.declares_type(pointer)
        type_enforced = pointer in self.reached and (not typed or self.type_checked(pointer))
        values = list(self.value_schemas(pointer))
        fully = type_enforced and all(
            self.interpreted(where, keyword)
            for where in values
            if isinstance(self.schemas[where], dict)
            for keyword in self.schemas[where]
            if keyword in CONSTRAINTS
        )
        formats = any(isinstance(self.schemas[w], dict) and any(k in self.schemas[w] for k in FORMATS)
                      for w in values)  # fmt: skip
        return Verdict(typed, type_enforced, fully, formats)


@dataclass(frozen=True)
class Verdict:
    typed: bool  # declares a type (else counted as untyped)
    type_enforced: bool
    fully_enforced: bool
    formats: bool  # carries a format / content annotation, which no mode checks


@dataclass(frozen=True)
class PropertyCount:
    source: str
    tool: str
    pointer: str
    typed: bool
    formats: bool
    by_mode: Mapping[str, tuple[bool, bool]]  # mode -> (type enforced, fully enforced)
    dead: bool = False  # in a definition no $ref reaches: reported apart, not counted


def source_of(declaration: Declaration) -> str:
    return Path(declaration.file).name.split("__")[0]


_PACKAGES = itertools.count()


def generated_not_enforced(schemas: Path, mode: str, scratch: Path) -> dict[str, dict[str, frozenset[str]]]:
    """Tool name -> its module's NOT_ENFORCED, generated from `schemas` in `mode`."""
    folder = build_package(schemas, scratch / mode / f"toolgen_coverage_{mode}_{next(_PACKAGES)}", mode)
    package = import_folder(folder, mode)
    found = {}
    for tool in sorted(package.TOOL_NAMES):
        module = sys.modules[package.validator(tool).__module__]
        found[tool] = not_enforced_of(module)
    return found


def count(
    declarations: list[Declaration], not_enforced: Mapping[str, Mapping[str, NotEnforced]]
) -> list[PropertyCount]:
    """Every declared property of every declaration, with its verdict in each mode given."""
    found: list[PropertyCount] = []
    for declaration in declarations:
        readings = {
            mode: Reading(declaration.parameters, declaration.pointer, tools[declaration.name])
            for mode, tools in not_enforced.items()
        }
        plain = Reading(declaration.parameters, declaration.pointer, {})
        for pointer in declared_properties(declaration.parameters, declaration.pointer):
            if pointer not in plain.live:
                found.append(PropertyCount(source_of(declaration), declaration.name, pointer, False,
                                           False, {}, dead=True))  # fmt: skip
                continue
            verdicts = {mode: reading.verdict(pointer) for mode, reading in readings.items()}
            base = plain.verdict(pointer)
            found.append(
                PropertyCount(
                    source_of(declaration),
                    declaration.name,
                    pointer,
                    base.typed,
                    base.formats,
                    {mode: (v.type_enforced, v.fully_enforced) for mode, v in verdicts.items()},
                )
            )
    return found


def measure(schemas: Path) -> tuple[list[Declaration], list[PropertyCount], dict[str, str]]:
    """Generate `schemas` in every mode and count; also mode -> why it is not available."""
    declarations = read_all(schemas)
    not_enforced: dict[str, dict[str, dict[str, frozenset[str]]]] = {}
    unavailable: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="toolgen-coverage-") as scratch:
        for mode in MODES:
            try:
                not_enforced[mode] = generated_not_enforced(schemas, mode, Path(scratch))
            except ModeUnavailable as exc:
                unavailable[mode] = str(exc)
    return declarations, count(declarations, not_enforced), unavailable


# ---------- the table ----------


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}% ({part}/{whole})" if whole else "-"


def table(
    declarations: list[Declaration], counts: list[PropertyCount], unavailable: Mapping[str, str]
) -> str:
    sources = sorted({source_of(d) for d in declarations})
    tools = {s: sum(1 for d in declarations if source_of(d) == s) for s in sources}
    groups: list[tuple[str, list[str]]] = [(s, [s]) for s in sources]
    sdk = [s for s in SDK_SOURCES if s in sources]
    if sdk:
        groups.append((f"SDK-written ({', '.join(sdk)})", sdk))
    groups.append(("**total**", sources))
    head = ["source", "tools", "properties", "untyped"]
    for mode in MODES:
        head += [f"{mode}: type enforced", f"{mode}: fully enforced"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, members in groups:
        rows = [c for c in counts if c.source in members and not c.dead]
        untyped = sum(not c.typed for c in rows)
        cells = [label, str(sum(tools[s] for s in members)), str(len(rows)), str(untyped)]
        for mode in MODES:
            if mode in unavailable:
                cells += ["n/a", "n/a"]
                continue
            cells.append(_share(sum(c.by_mode[mode][0] for c in rows), len(rows)))
            cells.append(_share(sum(c.by_mode[mode][1] for c in rows), len(rows)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def report(schemas: Path, declarations: list[Declaration], counts: list[PropertyCount],
           unavailable: Mapping[str, str]) -> str:  # fmt: skip
    shown = schemas.resolve()
    try:
        where = shown.relative_to(ROOT).as_posix()
    except ValueError:
        where = shown.as_posix()
    notes = [f"{mode}: n/a, {why}." for mode, why in unavailable.items()]
    formats = sum(c.formats for c in counts if not c.dead)
    dead = [c for c in counts if c.dead]
    by_source = sorted({c.source for c in dead})
    dead_line = (
        f"Not counted: {len(dead)} properties of definitions that no `$ref` reaches ("
        + ", ".join(f"{s}: {sum(c.source == s for c in dead)}" for s in by_source)
        + ")."
        if dead
        else "Not counted: no property of an unused definition."
    )
    return "\n".join(
        [
            "# Real-tools coverage",
            "",
            f"`make coverage` (`python -m benchmarks.coverage`): the {len(declarations)} declarations of",
            f"`{where}` generated in each mode; of their declared properties, the share",
            "whose type, and whose type and every constraint, the generated validators enforce.",
            "Definitions: the docstring of `benchmarks/coverage.py`.",
            "",
            table(declarations, counts, unavailable),
            "",
            "Properties carrying `format` (or a content keyword), an annotation in JSON Schema 2020-12",
            f"that neither mode checks and that is not counted as a constraint: {formats}.",
            dead_line,
            *(["", *notes] if notes else []),
            "",
        ]
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.coverage", description=__doc__.split("\n")[0])
    parser.add_argument("--schemas", type=Path, default=REAL_TOOLS, help="folder of declarations")
    parser.add_argument("--write", type=Path, default=REPORT, help="the Markdown file written")
    args = parser.parse_args(argv)
    print(f"modes: {', '.join(available_modes())}", file=sys.stderr)
    declarations, counts, unavailable = measure(args.schemas)
    text = report(args.schemas, declarations, counts, unavailable)
    args.write.write_text(text, encoding="utf-8")
    print(text, end="")


if __name__ == "__main__":
    main()
