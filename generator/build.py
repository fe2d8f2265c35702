"""The pipeline, in memory: load -> check -> lower -> plan -> render -> format, plus headers.

`build` returns every file the output package should hold; generator/write.py compares them
with the disk and writes. With `reuse` (the output folder), a file already there is taken as
it is, without rendering, when generator/header.py says it can be trusted: its header is
intact and names the same source and sha256, its body matches the body sha256 in its header,
and the package's `__init__.py` names this generator's fingerprint and the digest of exactly
the files on disk. Anything else is rendered again, so reuse never keeps a stale or edited file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import tokenize
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from generator import header as hdr
from generator.check import check, check_extended
from generator.command import BUILT_IN, Target, regenerate_command
from generator.errors import DeclarationError, Notice, Refusals
from generator.format import MODE, Formatter, format_source
from generator.ir import ExtendedTool, ToolModule
from generator.load import (
    Declaration,
    display_name,
    name_refusal,
    project_root,
    read_declarations,
    schema_files,
)
from generator.lower import lower, lower_extended
from generator.plan import plan, plan_extended
from generator.render import (
    EXTENDED,
    SUPPORT,
    TEMPLATES,
    environment,
    render_declarations,
    render_extended,
    render_init,
    render_tool,
)

GENERATOR = Path(__file__).resolve().parent
# Every module whose code decides the bytes of a generated file (a test keeps this list
# complete). The CLI, the writer, the compiled tier and the readers do not.
OUTPUT_STAGES = (
    "build.py", "check.py", "collector.py", "command.py", "errors.py", "format.py", "header.py", "ir.py",
    "load.py", "lower.py", "names.py", "openai_strict.py", "patterns.py", "plan.py", "refusals.py",
    "render.py", "schema_graph.py", "shapes.py", "support.py",
)  # fmt: skip
NOT_OUTPUT = (
    "__init__.py", "__main__.py", "cli.py", "compile.py", "config.py", "pool.py", "snapshot.py", "textui.py",
    "write.py",
)  # fmt: skip


def _code(text: str) -> str:
    """Python source without its comments and blank lines: comment-only edits do not count."""
    comments = [
        (token.start, token.end)
        for token in tokenize.generate_tokens(io.StringIO(text).readline)
        if token.type == tokenize.COMMENT
    ]
    lines = text.splitlines()
    for (row, start), (_, end) in reversed(comments):
        line = lines[row - 1]
        lines[row - 1] = line[:start] + line[end:]
    return "\n".join(line.rstrip() for line in lines if line.strip())


KEYWORDS = ("subset", "extended")  # extended.md E1; the first is the default


def fingerprint(keywords: str = "subset") -> str:
    """What decides a file's bytes besides its source: the keyword mode (extended.md E1), the
    output stages' code (comments left out), every template, black's version and mode."""
    digest = hashlib.sha256(f"keywords {keywords}\0black {version('black')}\0{MODE!r}\0".encode())
    for name in OUTPUT_STAGES:
        digest.update(name.encode() + b"\0" + _code((GENERATOR / name).read_text("utf-8")).encode() + b"\0")
    for path in sorted(TEMPLATES.iterdir()):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Build:
    files: dict[str, str]  # file name inside the package -> its whole text
    tools: tuple[ToolModule | ExtendedTool, ...]
    warnings: tuple[Notice, ...]
    rendered: tuple[str, ...] = ()  # the files rendered (not reused) by this build


def build(
    schemas_dir: Path, reuse: Path | None = None, keywords: str = "subset", command: str | None = None
) -> Build:
    """Everything the output package should contain; raises DeclarationError on bad input.

    `keywords` is the mode of extended.md E1: "subset" (validation.md) or "extended".
    `command`, which every header names, regenerates the package (generator/command.py); by
    default the one for `reuse` (else generated/) as a project without [tool.toolgen] has it."""
    if keywords not in KEYWORDS:
        raise ValueError(f"unknown keyword mode {keywords!r}")
    if command is None:
        root = project_root(Path.cwd().resolve())
        target = Target(schemas_dir, reuse if reuse is not None else BUILT_IN.out, keywords)
        command = regenerate_command(target, BUILT_IN, root, root)
    declarations, tools, warnings = _accepted(schemas_dir, keywords == "extended")
    extended = keywords == "extended"
    current = fingerprint(keywords)
    trusted = _trusted(reuse, current) if reuse is not None else {}
    env = environment()
    files: dict[str, str] = {}
    rendered: list[str] = []
    # Each file to render is handed to the formatter as soon as it is rendered: with a
    # process pool, black runs while the next files are rendered (generator/format.py).
    formatter = Formatter()
    pending: list[tuple[str, str, str]] = []  # (file name, source label, source sha256)

    def place(name: str, source: str, source_sha: str, body: str | Callable[[], str]) -> None:
        found = trusted.get(name)
        if (
            found is not None
            and found.fields["Source sha256"] == source_sha
            and found.source == source
            and found.command == command
        ):
            files[name] = found.text
            return
        files[name] = ""  # keeps the file order; filled in once formatted
        formatter.submit(name, body() if callable(body) else body)
        pending.append((name, source, source_sha))
        rendered.append(name)

    label = display_name(schemas_dir)
    # The largest file first, so that it does not start last and leave the other cores idle.
    place(
        "_declarations.py",
        label,
        _digest((d.name, d.sha256) for d in declarations),
        lambda: render_declarations(env, declarations),
    )
    for tool in tools:

        def body(tool: ToolModule | ExtendedTool = tool) -> str:
            if isinstance(tool, ExtendedTool):
                return render_extended(env, plan_extended(tool))
            return render_tool(env, plan(tool))

        place(f"{tool.module}.py", tool.source_file, tool.sha256, body)
    support = SUPPORT.read_bytes()
    support_sha = hashlib.sha256(support).hexdigest()
    place("_support.py", "templates/_support.py", support_sha, support.decode("utf-8"))
    if extended:
        engine = EXTENDED.read_bytes()
        place(
            "_extended.py",
            "templates/_extended.py",
            hashlib.sha256(engine).hexdigest(),
            engine.decode("utf-8"),
        )
    for (name, source, source_sha), text in zip(pending, formatter.results(), strict=True):
        files[name] = hdr.with_header(source, source_sha, text, command=command)
    order = [*(f"{t.module}.py" for t in tools), "_support.py", *(["_extended.py"] if extended else [])]
    files = {name: files[name] for name in [*order, "_declarations.py"]}
    bodies = [(name, hdr.sha256(hdr.split(text)[1])) for name, text in files.items()]
    init_body = format_source("__init__.py", render_init(env, {t.tool: t.module for t in tools}, keywords))
    files["__init__.py"] = hdr.with_header(
        label,
        _digest((t.module, t.sha256) for t in tools),
        init_body,
        (("Generator", current), ("Package sha256", hdr.package_digest(bodies))),
        command,
    )
    rendered.append("__init__.py")
    return Build(files, tuple(tools), tuple(warnings), tuple(rendered))


def _accepted(
    schemas_dir: Path, extended: bool
) -> tuple[list[Declaration], list[ToolModule | ExtendedTool], list[Notice]]:
    """Every declaration, checked and lowered; raises every refusal of the run at once.

    One refusal per file that cannot be read as declarations, else one per refused tool
    (its first: what the checker finds past it may only follow from it), in file order."""
    declarations: list[Declaration] = []
    tools: list[ToolModule | ExtendedTool] = []
    warnings: list[Notice] = []
    refusals: list[DeclarationError] = []
    names: dict[str, Declaration] = {}
    modules: dict[str, str] = {}
    for path in schema_files(schemas_dir):
        try:
            found = read_declarations(path)
        except DeclarationError as exc:
            refusals.append(exc)
            continue
        for declaration in found:
            named = declaration.name if declaration.listed else ""
            try:
                tool, notices = _lowered(declaration, extended, names, modules)
            except DeclarationError as exc:
                refusals.append(exc.of_tool(named))
                continue
            declarations.append(declaration)
            tools.append(tool)
            warnings.extend(dataclasses.replace(n, tool=named) for n in notices)
    if len(refusals) == 1:
        raise refusals[0]
    if refusals:
        raise Refusals(refusals)
    return declarations, tools, warnings


def _lowered(
    declaration: Declaration, extended: bool, names: dict[str, Declaration], modules: dict[str, str]
) -> tuple[ToolModule | ExtendedTool, tuple[Notice, ...]]:
    refusal = name_refusal(names, declaration)
    if refusal is not None:
        raise refusal
    tool: ToolModule | ExtendedTool
    if extended:
        graph, checked = check_extended(declaration)
        tool = lower_extended(declaration, graph, checked)
    else:
        checked = check(declaration)
        tool = lower(declaration, checked)
    clash = modules.setdefault(tool.module, declaration.file)
    if clash != declaration.file:
        raise DeclarationError(
            declaration.file, declaration.name_pointer, f"module name {tool.module} clashes with {clash}"
        )
    return tool, checked.notices


def module_body(declaration: Declaration) -> str:
    """One tool module's formatted body (no header), straight through the stages."""
    tool = lower(declaration, check(declaration))
    return format_source(f"{tool.module}.py", render_tool(environment(), plan(tool)))


def _digest(pairs: Iterable[tuple[str, str]]) -> str:
    digest = hashlib.sha256()
    for name, sha in sorted(pairs):
        digest.update(f"{name}\0{sha}\0".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _read(path: Path) -> str | None:
    # Only a regular file can be reused: reading a FIFO in a module's place would hang, and
    # whatever else stands there is for write.py to refuse. Bytes, not text mode: a file
    # with CRLF line endings must not read as the LF file it is not.
    if path.is_symlink() or not path.is_file():
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _trusted(out: Path, current: str) -> dict[str, hdr.Parsed]:
    """The files of `out` that may be reused as they are (see the module docstring)."""
    index = _read(out / "__init__.py")
    parsed_index = hdr.parse(index) if index is not None else None
    if parsed_index is None or parsed_index.fields.get("Generator") != current:
        return {}
    found: dict[str, hdr.Parsed] = {}
    for path in sorted(out.glob("*.py")):
        if path.name == "__init__.py":
            continue
        text = _read(path)
        if text is None or not text.startswith(hdr.HEADER):
            continue
        parsed = hdr.parse(text)
        if parsed is None:
            return {}  # a generated file edited by hand: render everything again
        found[path.name] = parsed
    recorded = parsed_index.fields.get("Package sha256")
    if recorded != hdr.package_digest((name, p.body_sha256) for name, p in found.items()):
        return {}
    return found


__all__ = ["Build", "Declaration", "build", "fingerprint", "module_body", "render_tool"]
