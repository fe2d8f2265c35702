"""The peers: what a user would pick instead, each built from the same declaration.

Every peer gets the schema of the spec's keyword subset, spelled the way it understands:
JSON Schema validators get the declaration with the spec's defaults made explicit
(`additionalProperties: false` where it is absent, required-only names declared, keywords
outside the subset dropped so that nobody does extra work); pydantic gets strict TypedDicts
with extra keys forbidden; msgspec gets Structs with unknown fields forbidden.

A peer is a pair of callables: `check(args)` (the cheapest way to accept a valid call) and
`report(args)` (what a caller would do with an invalid call: every error for the peers that
list them all, the one error raised for the peers that stop at the first).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Union

import fastjsonschema
import jsonschema
import jsonschema_rs
import msgspec
import pydantic
from typing_extensions import NotRequired, TypedDict

# Annotations built at run time from a schema: typed as Any, since no checker can see them.
_List: Any = list
_Dict: Any = dict
_Literal: Any = Literal
_Union: Any = Union
_TypedDict: Any = TypedDict
_NotRequired: Any = NotRequired

SUBSET = ("type", "required", "enum", "properties", "additionalProperties", "items")
OPENING = frozenset(
    {
        "patternProperties", "allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "$recursiveRef",
        "dependentSchemas", "dependencies", "if", "then", "else", "unevaluatedProperties",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Peer:
    name: str
    complete: bool  # lists every error of an invalid call (else stops at the first)
    check: Callable[[Any], object]  # valid calls: returns or raises, result ignored
    report: Callable[[Any], object]  # invalid calls: the errors a caller would show
    valid: Callable[[Any], bool]  # the verdict, checked against ours before timing


def standard(schema: Any) -> Any:
    """The spec's reading of `schema` as plain JSON Schema (draft 2020-12)."""
    if not isinstance(schema, dict):
        return {}
    out: dict[str, Any] = {k: schema[k] for k in SUBSET if k in schema}
    declared = out.get("type")
    types = [declared] if isinstance(declared, str) else (declared or [])
    object_like = "object" in types or any(
        k in schema for k in ("properties", "required", "additionalProperties")
    )
    properties = {name: standard(sub) for name, sub in schema.get("properties", {}).items()}
    for name in schema.get("required", []):
        properties.setdefault(name, {})
    if object_like:
        out["properties"] = properties
        extra = schema.get("additionalProperties", False)
        if any(k in schema for k in OPENING):
            out["additionalProperties"] = True
        else:
            out["additionalProperties"] = standard(extra) if isinstance(extra, dict) else extra
    if isinstance(schema.get("items"), (dict, bool)):
        out["items"] = standard(schema["items"])
    return out


def _raises(check: Callable[[Any], object], errors: tuple[type[BaseException], ...]) -> Callable[[Any], bool]:
    def valid(args: Any) -> bool:
        try:
            check(args)
        except errors:
            return False
        return True

    return valid


def _first_error(
    check: Callable[[Any], object], errors: tuple[type[BaseException], ...]
) -> Callable[[Any], object]:
    def report(args: Any) -> object:
        try:
            check(args)
        except errors as exc:
            return str(exc)
        return None

    return report


# ---------- JSON Schema validators ----------


def jsonschema_peer(schema: dict[str, Any]) -> Peer:
    validator = jsonschema.Draft202012Validator(standard(schema))
    return Peer(
        "jsonschema",
        True,
        validator.is_valid,
        lambda args: [e.message for e in validator.iter_errors(args)],
        validator.is_valid,
    )


def jsonschema_rs_peer(schema: dict[str, Any]) -> Peer:
    validator = jsonschema_rs.validator_for(standard(schema))
    return Peer(
        "jsonschema-rs",
        True,
        validator.is_valid,
        lambda args: [e.message for e in validator.iter_errors(args)],
        validator.is_valid,
    )


def fastjsonschema_peer(schema: dict[str, Any]) -> Peer:
    check = fastjsonschema.compile(standard(schema))
    errors = (fastjsonschema.JsonSchemaException,)
    return Peer("fastjsonschema", False, check, _first_error(check, errors), _raises(check, errors))


# ---------- typed models ----------


def _python_type(schema: Any, name: str, make_object: Callable[[dict[str, Any], str], Any]) -> Any:
    """The annotation for `schema`; objects with declared properties go through `make_object`."""
    if not isinstance(schema, dict):
        return Any
    if "enum" in schema:
        return _Literal[tuple(schema["enum"])]
    declared = schema.get("type")
    types = [declared] if isinstance(declared, str) else (declared or [])
    if not types:
        return Any
    options: list[Any] = []
    for kind in types:
        if kind == "string":
            options.append(str)
        elif kind == "number":
            options.append(float)
        elif kind == "integer":
            options.append(int)
        elif kind == "boolean":
            options.append(bool)
        elif kind == "null":
            options.append(type(None))
        elif kind == "array":
            options.append(_List[_python_type(schema.get("items", {}), name + "Item", make_object)])
        elif kind == "object":
            options.append(_object_type(schema, name, make_object))
    return options[0] if len(options) == 1 else _Union[tuple(options)]


def _object_type(schema: dict[str, Any], name: str, make_object: Callable[[dict[str, Any], str], Any]) -> Any:
    extra = schema.get("additionalProperties", False)
    if schema.get("properties") or schema.get("required"):
        if isinstance(extra, dict):
            # A typed model with declared keys plus typed extra keys: the built-in tools
            # only have this where the declared keys share the extra keys' type.
            return _Dict[str, _python_type(extra, name + "Extra", make_object)]
        return make_object(schema, name)
    if extra is True:
        return _Dict[str, Any]
    if isinstance(extra, dict):
        return _Dict[str, _python_type(extra, name + "Extra", make_object)]
    return make_object(schema, name)


STRICT = pydantic.ConfigDict(strict=True, extra="forbid")


def _typed_dict(schema: dict[str, Any], name: str) -> Any:
    required = schema.get("required", [])
    fields: dict[str, Any] = {}
    for prop, sub in schema.get("properties", {}).items():
        annotation = _python_type(sub, name + "_" + prop, _typed_dict)
        fields[prop] = annotation if prop in required else _NotRequired[annotation]
    for prop in required:
        fields.setdefault(prop, Any)
    model = _TypedDict(name, fields)
    model.__pydantic_config__ = STRICT
    return model


def pydantic_peer(tool: str, schema: dict[str, Any]) -> Peer:
    adapter = pydantic.TypeAdapter(_typed_dict(schema, _identifier(tool)))
    check = adapter.validate_python
    errors = (pydantic.ValidationError,)

    def report(args: Any) -> object:
        try:
            check(args)
        except pydantic.ValidationError as exc:
            return exc.errors()
        return None

    return Peer("pydantic", True, check, report, _raises(check, errors))


def _struct(schema: dict[str, Any], name: str) -> Any:
    required = schema.get("required", [])
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    rename: dict[str, str] = {}
    names = list(schema.get("properties", {})) + [
        n for n in required if n not in schema.get("properties", {})
    ]
    for i, prop in enumerate(names):
        sub = schema.get("properties", {}).get(prop, {})
        field = f"f{i}"
        rename[field] = prop
        annotation = _python_type(sub, name + "_" + field, _struct)
        if prop in required:
            fields.append((field, annotation))
        else:
            fields.append((field, _Union[annotation, msgspec.UnsetType], msgspec.UNSET))
    fields.sort(key=lambda f: len(f) == 3)  # required fields first, as Structs demand
    return msgspec.defstruct(name, fields, rename=rename, forbid_unknown_fields=True)


def msgspec_peer(tool: str, schema: dict[str, Any]) -> Peer:
    struct = _struct(schema, _identifier(tool))

    def check(args: Any) -> object:
        return msgspec.convert(args, struct, strict=True)

    errors = (msgspec.ValidationError,)
    return Peer("msgspec", False, check, _first_error(check, errors), _raises(check, errors))


def _identifier(tool: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in tool) or "Tool"


def build_peers(tool: str, schema: dict[str, Any]) -> list[Peer]:
    return [
        jsonschema_peer(schema),
        fastjsonschema_peer(schema),
        jsonschema_rs_peer(schema),
        pydantic_peer(tool, schema),
        msgspec_peer(tool, schema),
    ]
