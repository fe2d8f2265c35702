"""Stage 3: render IR into Python source text with the Jinja2 templates."""

from __future__ import annotations

import hashlib
import math
from importlib.metadata import version
from pathlib import Path
from typing import Any

import jinja2

from generator.formats import describe
from generator.ir import ToolModule
from generator.load import Declaration

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def py_literal(value: Any) -> str:
    """The only way user-supplied values reach generated code: as Python literals via repr."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"non-finite number {value!r} cannot be a JSON literal")
        return repr(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(py_literal(v) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no Python literal for {type(value).__name__}")


def doc_text(value: Any) -> str:
    """Text placed inside a triple-quoted docstring: ASCII, one line, every quote escaped."""
    return str(value).encode("unicode_escape").decode("ascii").replace('"', '\\"')


# What decides the bytes of a generated module besides its declaration: the templates, the
# stages after loading, and black. A module whose header names this fingerprint and its
# declaration's sha256 is reused as it is by the next run (generator/build.py).
_OUTPUT_STAGES = ("ir.py", "lower.py", "naming.py", "render.py", "format.py")


def fingerprint() -> str:
    digest = hashlib.sha256(f"black {version('black')}\0".encode())
    here = Path(__file__).resolve().parent
    for path in [*(here / name for name in _OUTPUT_STAGES), *sorted(TEMPLATES.glob("*.j2"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def render_header(env: jinja2.Environment, tool: ToolModule) -> str:
    """The first lines of a tool's module, exactly as render_tool writes them."""
    template = env.from_string('{% from "header.j2" import header %}{{ header(source, sha256) }}')
    return template.render(source=tool.source_file, sha256=tool.sha256)


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        extensions=["jinja2.ext.do"],
    )
    env.filters["py"] = py_literal
    env.filters["doc"] = doc_text
    env.globals["fingerprint"] = fingerprint()
    return env


def render_tool(env: jinja2.Environment, tool: ToolModule) -> str:
    return env.get_template("module.py.j2").render(tool=tool)


def render_support(env: jinja2.Environment) -> str:
    template_source = (TEMPLATES / "support.py.j2").read_bytes()
    return env.get_template("support.py.j2").render(
        source="templates/support.py.j2", sha256=hashlib.sha256(template_source).hexdigest()
    )


def render_init(env: jinja2.Environment, tools: list[ToolModule], schemas_label: str) -> str:
    digest = hashlib.sha256()
    for tool in sorted(tools, key=lambda t: t.tool):
        digest.update(f"{tool.module}\0{tool.sha256}\0".encode("utf-8", "surrogateescape"))
    return env.get_template("init.py.j2").render(
        tools=sorted(tools, key=lambda t: t.tool),
        source=schemas_label,
        sha256=digest.hexdigest(),
    )


def render_declarations(env: jinja2.Environment, declarations: list[Declaration], schemas_label: str) -> str:
    """generated/_declarations.py: each tool's declaration in OpenAI and Anthropic form."""
    ordered = sorted(declarations, key=lambda d: d.name)
    digest = hashlib.sha256()
    for declaration in ordered:
        digest.update(f"{declaration.name}\0{declaration.sha256}\0".encode("utf-8", "surrogateescape"))
    tools = [{"name": d.name, "description": describe(d.raw), "parameters": d.parameters} for d in ordered]
    return env.get_template("declarations.py.j2").render(
        tools=tools, source=schemas_label, sha256=digest.hexdigest()
    )
