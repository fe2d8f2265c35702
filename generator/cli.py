"""The command line, `toolgen` (also `python -m generator`). Exit status everywhere: 0 success,
1 "no" (out of sync, invalid call), 2 refused input or unusable files."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from generator.build import Build, build
from generator.command import Target, regenerate_command
from generator.config import ConfigError, Settings, settings
from generator.errors import DeclarationError
from generator.load import project_root
from generator.textui import coloured_diff
from generator.write import OutputError, Plan, check_output_folder, diff, plan_locked, write_locked

if TYPE_CHECKING:
    from generator.readers import audit as audit_module
    from generator.readers.package import Package

_PROGRESS_BYTES = 1 << 20  # files larger than this get a progress bar even off a terminal
_SUPPORT_FILES = frozenset({"__init__.py", "_support.py", "_declarations.py", "_extended.py"})

# Defaults come from the project's [tool.toolgen] table, else these (generator/config.py).
_schemas_option = click.option(
    "--schemas",
    default=None,
    metavar="DIR",
    type=click.Path(path_type=Path),
    help="Folder of tool declarations (*.json): OpenAI, Anthropic or MCP form, one or many tools "
    "a file.  [default: [tool.toolgen] schemas, else tool_schemas]",
)
_out_option = click.option(
    "--out",
    default=None,
    metavar="DIR",
    type=click.Path(path_type=Path),
    help="Folder of the generated package (its import name is the folder's name).  "
    "[default: [tool.toolgen] out, else generated]",
)
_strict_option = click.option(
    "--strict", is_flag=True, help="Treat warnings about declarations as errors (exit 2)."
)
_keywords_option = click.option(
    "--keywords",
    type=click.Choice(["subset", "extended"]),
    default=None,
    help="Keyword mode: subset (validation.md) or extended (also $ref, allOf/anyOf/oneOf, const, "
    "bounds, pattern: extended.md).  [default: [tool.toolgen] keywords, else subset]",
)
_color_option = click.option(
    "--color/--no-color",
    default=None,
    help="Colour the diff. Default: only when standard output is a terminal.",
)


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _refused(exc: DeclarationError) -> NoReturn:
    """Every refusal of the run, one a line; with more than one, how many and where."""
    refusals = exc.refusals
    for refusal in refusals[:-1]:
        click.echo(f"error: {refusal}", err=True)
    if len(refusals) == 1:
        _fail(str(refusals[0]))
    click.echo(f"error: {refusals[-1]}", err=True)
    files = len({r.file for r in refusals})
    _fail(f"{len(refusals)} refusals in {files} file{'s' if files != 1 else ''}; nothing written")


def _settings(schemas: Path | None = None, out: Path | None = None, keywords: str | None = None) -> Settings:
    """The options in force: the command line's, else the project's [tool.toolgen] table."""
    try:
        return settings(schemas=schemas, out=out, keywords=keywords)
    except ConfigError as exc:
        _fail(str(exc))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """toolgen: tool declarations in, straight-line Python validators out.

    Every tool's JSON Schema declaration in tool_schemas/ is compiled into one validator
    module of the checked-in package generated/, which an agent calls before running a tool.

    \b
    Typical use:
      toolgen generate                 after editing a declaration
      toolgen check                    in CI or pre-commit: is generated/ up to date?
      toolgen validate Write '{...}'   try one call
      toolgen explain AskUserQuestion  what is checked, what is not
      toolgen audit calls.jsonl        which parameters do models get wrong?
    """


@main.command()
@_schemas_option
@_out_option
@click.option(
    "--check", is_flag=True, help="Write nothing; exit 1 and print a diff if the output is not in sync."
)
@_keywords_option
@_strict_option
@_color_option
@click.pass_context
def generate(
    ctx: click.Context,
    schemas: Path | None,
    out: Path | None,
    check: bool,
    keywords: str | None,
    strict: bool,
    color: bool | None,
) -> None:
    """Generate one validator module per tool declaration.

    Writes only the files whose content changes (atomically) and removes generated modules
    no declaration produces any more. Prints a one-line summary. Exit 0 on success, 1 with
    --check when generated files differ, 2 when a declaration is refused (nothing written).
    """
    _generate(ctx, _settings(schemas, out, keywords), check, strict, color)


@main.command()
@_schemas_option
@_out_option
@_keywords_option
@_strict_option
@_color_option
@click.pass_context
def check(
    ctx: click.Context,
    schemas: Path | None,
    out: Path | None,
    keywords: str | None,
    strict: bool,
    color: bool | None,
) -> None:
    """Check that the generated package is up to date (same as generate --check).

    Writes nothing. Exit 0 when in sync; 1 with a unified diff (coloured on a terminal) and
    the command that fixes it; 2 when a declaration is refused. Meant for CI and pre-commit.
    """
    _generate(ctx, _settings(schemas, out, keywords), True, strict, color)


def _generate(ctx: click.Context, options: Settings, check: bool, strict: bool, color: bool | None) -> None:
    started = time.perf_counter()
    schemas, out = options.schemas, options.out
    try:
        check_output_folder(out, schemas)
        # --check reuses too: a file is reused only when its bytes are what its header says
        # and the package was written by this generator (generator/build.py).
        result = build(schemas, reuse=out, keywords=options.keywords, command=_regenerate(options))
        for warning in result.warnings:
            click.echo(str(warning), err=True)
        if strict and result.warnings:
            _fail(f"{len(result.warnings)} warning(s) under --strict; nothing written")
        if check:
            _report_drift(ctx, plan_locked(out, result.files), result, options, color)
            return
        todo = write_locked(out, result.files)
    except DeclarationError as exc:
        _refused(exc)
    except OutputError as exc:
        _fail(str(exc))
    click.echo(_summary(todo, result, time.perf_counter() - started))


def _summary(todo: Plan, result: Build, seconds: float) -> str:
    """`25 tools: 2 changed, 23 unchanged, 0 removed in 0.4s` (new tools count as changed)."""
    written = set(todo.changed + todo.missing)
    changed = sum(1 for tool in result.tools if f"{tool.module}.py" in written)
    package = len(written & _SUPPORT_FILES)
    extra = f" (+{package} package file{'s' if package != 1 else ''})" if package else ""
    return (
        f"{len(result.tools)} tools: {changed} changed, {len(result.tools) - changed} unchanged, "
        f"{len(todo.orphans)} removed{extra} in {seconds:.1f}s"
    )


def _regenerate(options: Settings, here: Path | None = None, program: str = "toolgen") -> str:
    """The command that regenerates this package (generator/command.py), run from `here`: the
    working directory in the advice about drift; the project root (default) in its headers,
    so that they do not depend on where the run started."""
    root = project_root(Path.cwd().resolve())
    base = here or root
    try:
        defaults = settings(cwd=base)  # what a bare `toolgen generate` run from `base` uses
    except ConfigError as exc:
        _fail(str(exc))
    target = Target(options.schemas, options.out, options.keywords)
    bare = Target(base / defaults.schemas, base / defaults.out, defaults.keywords)
    return regenerate_command(target, bare, base, root, program)


def _fix_command(ctx: click.Context, options: Settings) -> str:
    return _regenerate(options, Path.cwd(), ctx.find_root().info_name or "toolgen")


def _report_drift(
    ctx: click.Context, todo: Plan, result: Build, options: Settings, color: bool | None
) -> None:
    out = options.out
    if todo.in_sync:
        click.echo(f"{out.as_posix()}: in sync ({len(result.tools)} tools)")
        return
    click.echo(coloured_diff(diff(todo)), nl=False, color=color)
    for label, names in (("changed", todo.changed), ("missing", todo.missing), ("orphan", todo.orphans)):
        for name in names:
            click.echo(f"{label}: {(out / name).as_posix()}", err=True)
    click.echo(
        f"generated code is out of sync; run: {_fix_command(ctx, options)}", err=True, color=color
    )
    sys.exit(1)


def _package(out: Path) -> Package:
    # The readers import the generated package: only the commands that need it load them,
    # so `generate` runs (and repairs) whatever state the output package is in.
    from generator.readers.package import PackageError, import_package

    try:
        return import_package(out)
    except PackageError as exc:
        _fail(str(exc))


@main.command()
@click.argument("tool")
@click.argument("arguments", default="-", metavar="[JSON | -]")
@_out_option
def validate(tool: str, arguments: str, out: Path | None) -> None:
    """Validate one call of TOOL with the generated package, and print the result.

    JSON is the call's arguments as a JSON object; "-" (the default) reads them from
    standard input. Prints the exact message a model would be given. Exit 0 when the call
    is valid, or when TOOL has no validator in the package (MCP and custom tools pass
    through unvalidated); 1 when the call is invalid; 2 when JSON cannot be decoded or the
    package cannot be imported.
    """
    if arguments == "-" and sys.stdin.isatty():
        click.echo("reading the arguments from standard input (end with Ctrl-D)", err=True)
    text = sys.stdin.read() if arguments == "-" else arguments
    try:
        args = json.loads(text)
    except (ValueError, RecursionError) as exc:
        _fail(f"the arguments are not JSON: {exc}")
    out = _settings(out=out).out
    package = _package(out)
    if tool not in package.TOOL_NAMES:
        click.echo(
            f"{tool}: no validator in {out.as_posix()}/ (not a built-in tool); passes through unvalidated"
        )
        return
    message = package.validate(tool, args)
    mode = getattr(package, "KEYWORDS", "subset")
    # Subset mode's output is unchanged; a package generated with --keywords extended says so.
    if message is None:
        click.echo(f"{tool}: valid" + (" (extended keywords)" if mode == "extended" else ""))
        return
    click.echo(message)
    if mode == "extended":
        click.echo(f"(checked with the extended keywords of {out.as_posix()}/)", err=True)
    sys.exit(1)


@main.command()
@click.argument("tool")
@_schemas_option
@_keywords_option
def explain(tool: str, schemas: Path | None, keywords: str | None) -> None:
    """Show what the validator of TOOL checks, and what its declaration says that is not checked.

    Prints a table of the tool's parameters (path, type, required, enum; `[]` is every
    element of an array, `*` any other key of an object) from the same intermediate form
    the validator is generated from, then each declared constraint that is not enforced,
    with the reason. Exit 2 when TOOL is not declared in --schemas.
    """
    from generator.readers import explain as explain_module

    try:
        options = _settings(schemas=schemas, keywords=keywords)
        if options.keywords == "extended":
            click.echo(explain_module.render_extended(explain_module.explain_extended(options.schemas, tool)))
            return
        explanation = explain_module.explain(options.schemas, tool)
    except (DeclarationError, explain_module.UnknownTool) as exc:
        _fail(str(exc))
    click.echo(explain_module.render(explanation))


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path), metavar="FILE...")
@_out_option
@click.option(
    "--json", "as_json", is_flag=True, help="Print the counts as one JSON object instead of tables."
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar. Default: on a terminal, or for files over 1 MB.",
)
def audit(files: tuple[Path, ...], out: Path | None, as_json: bool, progress: bool | None) -> None:
    """Replay recorded tool calls through the validators, running nothing.

    Each FILE is JSON Lines: OpenAI tool_calls entries or assistant messages, Anthropic
    tool_use blocks or messages, {"name", "arguments"} objects, or lines written by the
    run-time failure sink (runtime/failures.py). Reports how many calls would have been
    rejected, by tool, by parameter (array positions merged as [*]) and by issue kind.
    Lines that cannot be read are counted and listed. Exit 0 after a report; 2 when a file
    or the package cannot be read.
    """
    from generator.readers import audit as audit_module

    out = _settings(out=out).out
    package = _package(out)
    result = audit_module.Audit()
    for path in files:
        try:
            _audit_file(result, package, path, progress)
        except OSError as exc:
            _fail(f"{path.as_posix()}: {exc.strerror or exc}")
    if as_json:
        click.echo(json.dumps(audit_module.as_json(result), indent=2, ensure_ascii=False))
    else:
        click.echo(audit_module.render(result, f"{out.as_posix()}/"))


def _audit_file(result: audit_module.Audit, package: Package, path: Path, progress: bool | None) -> None:
    from generator.readers import audit as audit_module

    size = path.stat().st_size
    show = progress if progress is not None else sys.stderr.isatty() or size > _PROGRESS_BYTES
    with path.open("rb") as stream:
        if not show:
            audit_module.audit_stream(result, package, path.as_posix(), stream, _ignore)
            return
        with click.progressbar(length=size, label=f"auditing {path.as_posix()}", file=sys.stderr) as bar:
            audit_module.audit_stream(result, package, path.as_posix(), stream, bar.update)


def _ignore(_: Any) -> None:
    return None
