"""Every tool of every source, in the order given; two sources naming one tool are refused."""

from __future__ import annotations

from pathlib import Path

from . import stdio
from .kinds import tools_of
from .resolve import resolve
from .tool import ImportedTool, ImportRefused


def collect(
    sources: tuple[str, ...], commands: tuple[str, ...], root: Path, timeout: float = stdio.TIMEOUT
) -> list[ImportedTool]:
    found: list[ImportedTool] = []
    for source in sources:
        found += tools_of(resolve(source, root), source)
    for command in commands:
        found += stdio.tools(command, timeout)
    first: dict[str, ImportedTool] = {}
    for tool in found:
        earlier = first.setdefault(tool.name, tool)
        if earlier is not tool:
            if earlier.source == tool.source:
                raise ImportRefused(f"{tool.source}: gives two tools named {tool.name!r}")
            raise ImportRefused(f"tool {tool.name!r} is given by both {earlier.source} and {tool.source}")
    return found
