"""The pipeline: load every declaration, lower, render and format it, all in memory."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment

from generator.errors import DeclarationError, Warning
from generator.format import format_source
from generator.ir import ToolModule
from generator.load import read_all
from generator.lower import lower
from generator.render import (
    environment,
    render_declarations,
    render_header,
    render_init,
    render_support,
    render_tool,
)


@dataclass(frozen=True)
class Build:
    files: dict[str, str]  # file name inside the package -> formatted source
    tools: tuple[ToolModule, ...]
    warnings: tuple[Warning, ...]


def build(schemas_dir: Path, reuse: Path | None = None) -> Build:
    """Everything the output package should contain; raises DeclarationError on bad input.

    With `reuse` (the output folder), a tool module already there whose header names the
    same declaration sha256 and generator fingerprint is taken as it is: every declaration
    is still loaded and checked, but only changed tools are rendered and formatted.
    """
    declarations = read_all(schemas_dir)
    tools: list[ToolModule] = []
    warnings: list[Warning] = []
    modules: dict[str, str] = {}
    for declaration in declarations:
        tool, found = lower(declaration)
        clash = modules.setdefault(tool.module, declaration.file)
        if clash != declaration.file:
            raise DeclarationError(
                declaration.file, declaration.name_pointer, f"module name {tool.module} clashes with {clash}"
            )
        tools.append(tool)
        warnings.extend(found)
    env = environment()
    files = {f"{tool.module}.py": _module_source(env, tool, reuse) for tool in tools}
    files["_support.py"] = format_source("_support.py", render_support(env))
    files["_declarations.py"] = format_source(
        "_declarations.py", render_declarations(env, declarations, schemas_dir.as_posix())
    )
    files["__init__.py"] = format_source("__init__.py", render_init(env, tools, schemas_dir.as_posix()))
    return Build(files, tuple(tools), tuple(warnings))


def _module_source(env: Environment, tool: ToolModule, reuse: Path | None) -> str:
    name = f"{tool.module}.py"
    if reuse is not None:
        existing = _read_text(reuse / name)
        if existing is not None and existing.startswith(render_header(env, tool) + "\n"):
            return existing
    return format_source(name, render_tool(env, tool))


def _read_text(path: Path) -> str | None:
    # Only a regular file can be reused: reading a FIFO in the module's place would hang, and
    # whatever else stands there is for write.py to refuse.
    if path.is_symlink() or not path.is_file():
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
