"""The pipeline: load every declaration, lower, render and format it, all in memory."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment

from generator.errors import DeclarationError, Warning
from generator.format import Formatter
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
    # Each file is handed to the formatter as soon as it is rendered, the largest first: with
    # a process pool, black runs while the next files are rendered (generator/format.py).
    formatter = Formatter()
    formatter.submit("_declarations.py", render_declarations(env, declarations, schemas_dir.as_posix()))
    names = ["_declarations.py"]
    kept: dict[str, str] = {}
    for tool in tools:
        name = f"{tool.module}.py"
        existing = _reusable(env, tool, reuse)
        if existing is not None:
            kept[name] = existing
        else:
            formatter.submit(name, render_tool(env, tool))
            names.append(name)
    formatter.submit("_support.py", render_support(env))
    formatter.submit("__init__.py", render_init(env, tools, schemas_dir.as_posix()))
    names += ["_support.py", "__init__.py"]
    formatted = dict(zip(names, formatter.results(), strict=True))
    order = [f"{tool.module}.py" for tool in tools] + ["_support.py", "_declarations.py", "__init__.py"]
    files = {name: kept[name] if name in kept else formatted[name] for name in order}
    return Build(files, tuple(tools), tuple(warnings))


def _reusable(env: Environment, tool: ToolModule, reuse: Path | None) -> str | None:
    """The module already in the output folder, when its header says it can be kept."""
    if reuse is None:
        return None
    existing = _read_text(reuse / f"{tool.module}.py")
    if existing is not None and existing.startswith(render_header(env, tool) + "\n"):
        return existing
    return None


def _read_text(path: Path) -> str | None:
    # Only a regular file can be reused: reading a FIFO in the module's place would hang, and
    # whatever else stands there is for write.py to refuse.
    if path.is_symlink() or not path.is_file():
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
