"""The command line, `toolgen` (also `python -m toolgen`). Exit status everywhere: 0 success,
1 "no" (out of sync, invalid call), 2 refused input or unusable files."""

from __future__ import annotations

import importlib.metadata
import json
import math
import os
import shlex
import sys
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from ..base.textui import coloured_diff, counted
from ..front.errors import DeclarationError, Notice, NoticeKind
from ..front.vocabulary import VOCABULARIES
from ..package.command import Target, advised_program, import_command, regenerate_command
from ..sources import stdio as stdio_source
from .config import ConfigError, Settings, package_generator, package_keywords, settings

if TYPE_CHECKING:
    from ..package.build import Build
    from ..package.write import Plan
    from ..readers.auditrun import AuditRun
    from ..readers.package import Package
    from .table_edit import Edit

_PROGRESS_BYTES = 1 << 20  # files larger than this get a progress bar even off a terminal

# Defaults come from the project's [tool.toolgen] table, else these (generator/cli/config.py): an
# option not given is None, so that the table can supply it.
_folder_option = partial(click.option, metavar="DIR", type=click.Path(path_type=Path))
_flag = partial(click.option, is_flag=True)

_schemas_option = _folder_option(
    "--schemas",
    help="Folder of tool declarations (*.json): OpenAI, Anthropic or MCP form, one or many tools "
    "a file.  [default: [tool.toolgen] schemas, else tool_schemas]",
)
_keywords_option = click.option(
    "--keywords",
    type=click.Choice(["subset", "extended"]),
    help="Keyword mode: subset (validation.md) or extended (also $ref, allOf/anyOf/oneOf, const, "
    "bounds, pattern: extended.md).  [default: [tool.toolgen] keywords, else subset]",
)
_package_option = _folder_option(
    "--package",
    "--out",
    "package",
    help="Folder of the generated package to use, e.g. a vendored copy (--out is the same).  "
    "[default: [tool.toolgen] out, else generated, at the project root]",
)
_color_option = click.option(
    "--color/--no-color",
    default=None,
    help="Colour the diff. Default: only when standard output is a terminal.",
)


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _settings(allow: str | None = None, **given: Any) -> Settings:
    """The options in force: the command line's, else the project's [tool.toolgen] table."""
    try:
        kinds = None if allow is None else tuple(k.strip() for k in allow.split(",") if k.strip())
        return settings(allow=kinds, **given)
    except ValueError as exc:
        _fail(f"--allow: {exc}")
    except ConfigError as exc:
        _fail(str(exc))


def _program() -> str:
    """The program a printed fix starts with (generator/command.py): a path such as
    `.venv/bin/toolgen` when PATH would not find this one, an absolute one inside pre-commit."""
    name = click.get_current_context().find_root().info_name or "toolgen"
    return advised_program(name, sys.argv[0] if sys.argv else "", os.environ, sys.executable)


def _version() -> str:
    try:
        return importlib.metadata.version("toolgen")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree never installed
        return "unknown (not installed)"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(_version(), "-V", "--version", prog_name="toolgen", message="%(prog)s %(version)s")
def main() -> None:
    """toolgen: tool declarations in, straight-line Python validators out.

    Every tool's JSON Schema declaration in tool_schemas/ is compiled into one validator
    module of the checked-in package generated/, which an agent calls before running a tool.

    \b
    Typical use:
      toolgen generate                 after editing a declaration
      toolgen check                    in CI or pre-commit: is generated/ up to date?
      toolgen import                   tools defined in code: write their declarations
      toolgen validate Write '{...}'   try one call
      toolgen explain AskUserQuestion  what is checked, what is not
      toolgen audit calls.jsonl        which parameters do models get wrong?
    """


@main.command(short_help="Generate one validator module per tool declaration.")
@_schemas_option
@_folder_option(
    "--out",
    help="Folder of the generated package (its import name is the folder's name).  "
    "[default: [tool.toolgen] out, else generated]",
)
@_flag("--check", help="Write nothing; exit 1 and print a diff if the output is not in sync.")
@_keywords_option
@_flag("--strict", help="Treat warnings about declarations as errors (exit 2).")
@click.option(
    "--allow",
    metavar="KINDS",
    help="Comma-separated warnings that do not fail --strict and are not printed: warning kinds "
    "(not-enforced, unchecked-keys, ...) or keywords reported as not enforced (default, format, "
    "...).  [default: [tool.toolgen] allow, else none]",
)
@_color_option
def generate(  # noqa: PLR0913  # click passes one argument per option of the command
    schemas: Path | None,
    out: Path | None,
    check: bool,
    keywords: str | None,
    strict: bool,
    allow: str | None,
    color: bool | None,
) -> None:
    """Generate one validator module per tool declaration.

    Writes only the files whose content changes (atomically) and removes generated modules
    no declaration produces any more. Prints a one-line summary. Exit 0 on success, 1 with
    --check when generated files differ, 2 when a declaration is refused (nothing written).
    """
    options = _settings(allow, schemas=schemas, out=out, keywords=keywords)
    # Imported here: the compiler (jinja2, black) costs a third of a second to import, which
    # the reading commands (validate, explain, audit) should not pay. package.run itself
    # imports neither: a renderer does, when it first renders.
    from ..package.build import style_of
    from ..package.run import Settings as Run
    from ..package.run import generate_package
    from ..package.write import OutputError
    from ..plan.repairs import AdoptionError

    # Refused before any work: a declarations folder that is not there (named with where it
    # came from); generate_package refuses one that could only give an empty package.
    _schemas_exist(options)
    command = _regenerate(options)  # what every header names
    run = Run(
        options.schemas,
        options.out,
        options.keywords,
        command,
        check,
        strict,
        options.allow,
        import_command=_reimport(options),
        repairs=options.repairs,
    )
    try:
        result = generate_package(
            run,
            warned=partial(_warned, options.allow),
            checked=lambda out: _style_note(out, style_of(package_generator(out) or "")),
        )
    except DeclarationError as exc:  # every refusal of the run; with many, how many and where
        for refusal in exc.refusals:
            click.echo(f"error: {refusal}", err=True)
        if len(exc.refusals) > 1:
            files = counted(len({r.file for r in exc.refusals}), "file")
            _fail(f"{len(exc.refusals)} refusals in {files}; nothing written")
        sys.exit(2)
    except OutputError as exc:
        _fail(str(exc))
    except AdoptionError as exc:  # a tool or parameter [tool.toolgen.repairs] names is not declared
        shown = options.config.name if options.config is not None else "pyproject.toml"
        _fail(f"{shown}: {exc}; nothing written")
    out, todo = options.out, result.plan
    if todo is None:
        _fail(f"{len(result.shown)} warning(s) under --strict; nothing written")
    if not check:
        click.echo(_summary(todo, result.build, result.seconds))
    elif todo.in_sync:
        click.echo(f"{out.as_posix()}: in sync ({len(result.build.tools)} tools)")
    else:
        # The fix is spelt for the working directory, starting with the program as it was typed.
        fix = _regenerate(options, Path.cwd(), _program())
        groups = {"changed": todo.changed, "missing": todo.missing, "orphan": todo.orphans}
        _out_of_sync(out, result.diff, groups, f"generated code is out of sync; run: {fix}", color)


def _warned(allow: frozenset[str], shown: tuple[Notice[NoticeKind], ...], hidden: int) -> None:
    """A run's warnings: those shown, then how many of the allowed kinds are not."""
    if shown:  # one write, not one per warning: a large catalogue has thousands
        click.echo("\n".join(map(str, shown)), err=True)
    if hidden:
        kinds = ", ".join(sorted(allow))
        click.echo(f"({hidden} warning(s) of the allowed kinds not shown: {kinds})", err=True)


@main.command(
    short_help="Check that the generated package is up to date.",
    params=[p for p in generate.params if p.name != "check"],  # generate's options but --check
)
def check(**options: Any) -> None:
    """Check that the generated package is up to date (same as generate --check).

    Writes nothing. Exit 0 when in sync; 1 with a unified diff (coloured on a terminal) and
    the command that fixes it; 2 when a declaration is refused. Meant for CI and pre-commit.
    """
    click.get_current_context().invoke(generate, check=True, **options)


def _schemas_exist(options: Settings) -> None:
    """A declarations folder that does not exist, named with where it came from."""
    if not options.schemas.is_dir():
        what = "is not a folder" if options.schemas.exists() else "does not exist"
        _fail(
            f"{options.schemas.as_posix()}: the declarations folder {what} (from {options.origin('schemas')})"
        )


def _style_note(out: Path, made: int | None) -> None:
    """Say why a package made with another year's black (`made`, from its `Generator:` line) is
    out of sync whatever its declarations: black's stable style changes only with the year."""
    from ..package.build import black_style

    if made is None or made == black_style():
        return
    installed = importlib.metadata.version("black")
    click.echo(
        f"note: {out.as_posix()} was made with black {made}.x, and this toolgen formats with black "
        f"{installed}: black's style changes with the year, so files can differ in their formatting "
        "alone. Generate and check the package with a black of one year everywhere "
        "(your environment, the pre-commit hook, CI).",
        err=True,
    )


_PACKAGE_FILES = frozenset({"__init__.py", "_support.py", "_declarations.py", "_paths.py", "_repair.py"})


def _summary(todo: Plan, result: Build, seconds: float) -> str:
    """`25 tools: 2 changed, 23 unchanged, 0 removed in 0.4s` (new tools count as changed)."""
    written = set(todo.changed + todo.missing)
    modules = {name.removesuffix(".py").removesuffix("_declaration") for name in written}
    changed = sum(1 for tool in result.tools if tool.module in modules and written.intersection(tool.files))
    package = len(written & _PACKAGE_FILES)
    # A removed tool leaves two orphans, its validator and its declaration module (`_repair.py`,
    # left when a project no longer adopts repairs, is a package file).
    orphans = [name for name in todo.orphans if name not in _PACKAGE_FILES]
    removed = {name.removesuffix(".py").removesuffix("_declaration") for name in orphans}
    extra = f" (+{counted(package, 'package file')})" if package else ""
    return (
        f"{len(result.tools)} tools: {changed} changed, {len(result.tools) - changed} unchanged, "
        f"{len(removed)} removed{extra} in {seconds:.1f}s"
    )


def _regenerate(options: Settings, here: Path | None = None, program: str = "toolgen") -> str:
    """The regenerate command, run from `here` (advice) or the project root (headers)."""
    base = here or options.root
    # What a bare `toolgen generate` run from `base` uses for a new package. A header's
    # command must rebuild the package from its declarations alone; advice is for now,
    # where a bare generate would also keep the mode the package on disk records.
    defaults = _settings(cwd=base, follow_package=False)
    follows = here is not None and "keywords" not in defaults.configured
    recorded = package_keywords(options.out) if follows else None
    target = Target(options.schemas, options.out, options.keywords)
    bare = Target(base / defaults.schemas, base / defaults.out, defaults.keywords)
    return regenerate_command(target, bare, base, options.root, program, recorded)


def _cycle_hint(reason: str, options: Settings) -> str:
    """How to break the cycle when the code imports the package toolgen has not generated
    yet (it is generated from the declarations this import writes); else ""."""
    from ..sources.resolve import not_generated

    package = not_generated(reason, options.root, options.out)
    if package is None:
        return ""
    return (
        f"\nhint: {package} is the package `toolgen generate` writes from these declarations, and it "
        "has not been generated yet, so the code cannot import it while it is being imported. Import "
        f'it when the server starts instead: validation_guard("{package}") takes the package by name '
        "(docs/mcp.md), or import it inside the function that uses it; then run this import again."
    )


def _reimport(options: Settings) -> str | None:
    """The command, run from the project root, that imports the package's declarations from
    the code (the package names it when a server's tools have drifted from it): a bare
    `toolgen import` when [tool.toolgen] lists the sources, else the sources the folder's
    import manifest records; None when nothing imported them (written by hand)."""
    from ..sources.tool import ImportRefused
    from .snapshot import read_manifest

    sources: list[str] | None = []
    if not (options.imports or options.import_stdio):
        try:
            recorded = read_manifest(options.schemas)
        except ImportRefused:  # import --check reports a bad manifest; it does not stop a generate
            recorded = {}
        sources = list(dict.fromkeys(recorded.values())) or None
    defaults = _settings(cwd=options.root, follow_package=False)
    bare = Target(options.root / defaults.schemas, options.out, options.keywords)
    return import_command(options.schemas, bare, options.root, options.root, sources)


def _out_of_sync(
    folder: Path, diff: str, groups: dict[str, tuple[str, ...]], advice: str, color: bool | None
) -> NoReturn:
    """Drift, for check and import --check: the diff, the files by label and the fix; exit 1."""
    click.echo(coloured_diff(diff), nl=False, color=color)
    for label, names in groups.items():
        for name in names:
            click.echo(f"{label}: {(folder / name).as_posix()}", err=True)
    click.echo(advice, err=True, color=color)
    sys.exit(1)


def _package(options: Settings) -> Package:
    # The readers import the generated package: only the commands that need it load them,
    # so `generate` runs (and repairs) whatever state the output package is in.
    from ..readers.package import NoPackage, PackageError, import_package

    if not options.out.exists():
        origin = "--package" if "out" in options.explicit else options.origin("out")
        _fail(
            f"{options.out.as_posix()}: the package folder does not exist (from {origin}); "
            + _no_package_advice(options)
        )
    try:
        return import_package(options.out)
    except NoPackage as exc:
        _fail(f"{exc}; {_no_package_advice(options)}")
    except PackageError as exc:
        _fail(str(exc))


def _no_package_advice(options: Settings) -> str:
    """Generate a missing package where there are declarations; else say where we looked."""
    schemas = options.schemas
    if schemas.is_dir() and any(p.is_file() for p in schemas.glob("*.json")):
        words = [_program(), "generate"]
        if "out" in options.explicit:
            words += ["--out", options.out.as_posix()]
        return "run: " + " ".join(words)
    where = f"{options.config.as_posix()}" if options.config else "no pyproject.toml"
    found = "has no *.json" if schemas.is_dir() else "not found"
    return (
        f"no declarations to generate it from either ({schemas.as_posix()}: {found}; project root "
        f"{options.root.as_posix()}, {where}); run inside a toolgen project, or give --package DIR"
    )


def _arguments(text: str) -> Any:
    """Strict JSON (no NaN, Infinity or overflowing numbers); ValueError says why."""

    def constant(literal: str) -> Any:
        raise ValueError(f"{literal} is not a JSON number")

    def number(literal: str) -> float:
        value = float(literal)
        if math.isinf(value):
            raise ValueError(f"{literal} is out of range for a JSON number")
        return value

    try:
        return json.loads(text, parse_constant=constant, parse_float=number)
    except RecursionError:
        raise ValueError("nested too deeply") from None


@main.command(short_help="Validate a call (or JSON Lines of calls) with the package.")
@click.argument("tool", required=False)
@click.argument("arguments", default="-", metavar="[JSON | -]")
@_package_option
def validate(tool: str | None, arguments: str, package: Path | None) -> None:
    """Validate one call of TOOL with the generated package, and print the result.

    JSON is the call's arguments as a JSON object; "-" (the default) reads them from
    standard input. Prints the exact message a model would be given. Exit 0 when the call
    is valid, or when TOOL has no validator in the package (MCP and custom tools pass
    through unvalidated); 1 when the call is invalid, or when TOOL is not validated but is
    close to a tool that is (a misspelt name: "did you mean"); 2 when JSON cannot be decoded
    (NaN and Infinity are not JSON) or the package cannot be imported.

    Without TOOL, standard input is JSON Lines of calls, each {"tool": NAME, "args": {...}}
    or [NAME, {...}]; one result line is printed per call, as LINE: RESULT (blank lines are
    skipped), and the exit status is 1 when any call is invalid, misspelt or unreadable.
    """
    options = _settings(out=package)
    if arguments == "-" and sys.stdin.isatty():
        what = "the arguments" if tool is not None else "JSON Lines of calls"
        click.echo(f"reading {what} from standard input (end with Ctrl-D)", err=True)
    if tool is None:
        loaded = _package(options)
        failed = 0
        for number, line in enumerate(sys.stdin, start=1):
            if line.strip():
                result, ok = _one_line(line, loaded)
                failed += not ok
                _say(f"{number}: {result}")
        if failed:
            click.echo(f"{failed} call(s) failed", err=True)
            sys.exit(1)
        return
    text = sys.stdin.read() if arguments == "-" else arguments
    if arguments == "-" and not text.strip():
        _fail(
            "no arguments: standard input (read when no JSON follows the tool name) was empty; "
            "give the call's JSON after the tool name, or pipe it in"
        )
    try:
        args = _arguments(text)
    except ValueError as exc:
        _fail(f"the arguments are not JSON: {exc}")
    loaded = _package(options)
    if tool not in loaded.TOOL_NAMES:
        line, passes = _no_validator(tool, loaded, f" in {options.out.as_posix()}/")
        _say(line)
        sys.exit(0 if passes else 1)
    mode = getattr(loaded, "KEYWORDS", "subset")
    # Subset mode's output is unchanged; a package generated with --keywords extended says so.
    if (message := loaded.validate(tool, args)) is None:
        _say(f"{tool}: valid" + (" (extended keywords)" if mode == "extended" else ""))
        return
    _say(message)
    if mode == "extended":
        click.echo(f"(checked with the extended keywords of {options.out.as_posix()}/)", err=True)
    sys.exit(1)


def _say(text: str) -> None:
    # A result may quote a lone surrogate (legal in a JSON escape, not in UTF-8): shown escaped.
    click.echo(text.encode("utf-8", "backslashreplace").decode("utf-8"))


def _no_validator(tool: str, package: Package, where: str = "") -> tuple[str, bool]:
    """The result line for a tool without validator, and whether it passes (unless a typo)."""
    from ..readers.didyoumean import meant

    if typo_of := meant(tool, package.TOOL_NAMES):
        return f"{tool}: no validator{where}; did you mean {typo_of}?", False
    return f"{tool}: no validator{where} (not a built-in tool); passes through unvalidated", True


def _one_line(line: str, package: Package) -> tuple[str, bool]:
    """One JSON Lines call checked: the result line, and whether it counts as a success."""
    try:
        value = _arguments(line)
    except ValueError as exc:
        return f"error: not JSON: {exc}", False
    if isinstance(value, dict) and set(value) == {"tool", "args"}:
        tool, args = value["tool"], value["args"]
    elif isinstance(value, list) and len(value) == 2:
        tool, args = value
    else:
        return 'error: expected {"tool": NAME, "args": {...}} or [NAME, {...}]', False
    if not isinstance(tool, str):
        return "error: the tool name is not a string", False
    if tool not in package.TOOL_NAMES:
        return _no_validator(tool, package)
    if not (issues := package.issues(tool, args)):
        return f"{tool}: valid", True
    return f"{tool}: invalid: " + "; ".join(issue.line for issue in issues), False


@main.command(short_help="Show what a tool's validator checks, and what not.")
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
    from ..readers import explain as explain_module

    try:
        options = _settings(schemas=schemas, keywords=keywords)
        _schemas_exist(options)
        explanation = explain_module.explain(options.schemas, tool, VOCABULARIES[options.keywords])
        click.echo(explain_module.render(explanation))
    except (DeclarationError, explain_module.UnknownTool) as exc:
        _fail(str(exc))


@main.command(short_help="Replay recorded tool calls, running nothing.")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path), metavar="FILE...")
@_package_option
@_flag("--json", "as_json", help="Print the counts as one JSON object instead of tables.")
@_flag(
    "--suggest",
    help="Also report what each repair kind (a compatibility rule one might adopt) would rescue "
    "of the rejected calls.",
)
@click.option(
    "--min-rescued",
    type=click.IntRange(min=1),
    metavar="N",
    help="With --suggest: a kind is worth adopting only when it rescues at least N calls.  "
    "[default: [tool.toolgen] suggest-min-rescued, else 10]",
)
@click.option(
    "--min-share",
    type=click.FloatRange(0, 1, max_open=True),
    metavar="SHARE",
    help="With --suggest: ... and when the lower bound of the 95% Wilson interval of its share "
    "of the rejected calls is at least SHARE (0.1 is 10%).  "
    "[default: [tool.toolgen] suggest-min-share, else 0.1]",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    metavar="N",
    help="Replay in N processes.  [default: the cores this process may use, within TOOLGEN_JOBS]",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar. Default: on a terminal, or for files over 1 MB.",
)
def audit(  # noqa: PLR0913  # click passes one argument per option of the command
    files: tuple[Path, ...],
    package: Path | None,
    as_json: bool,
    suggest: bool,
    min_rescued: int | None,
    min_share: float | None,
    jobs: int | None,
    progress: bool | None,
) -> None:
    """Replay recorded tool calls through the validators, running nothing.

    Each FILE is JSON Lines: OpenAI tool_calls entries or assistant messages, Anthropic
    tool_use blocks or messages, {"name", "arguments"} objects, or lines written by the
    run-time failure sink (runtime/failures.py); "-" is standard input, and gzip-compressed
    input (a .jsonl.gz) is read as it is, both as streams. Reports how many calls would have
    been rejected, by tool, by parameter (array positions merged as [*]) and by issue kind;
    with --suggest, also how many rejected calls each repair kind would rescue, the kinds
    whose evidence clears the bar (--min-rescued, --min-share) and the [tool.toolgen.repairs]
    lines that adopt them. Lines that cannot be read are counted and listed. Exit 0 after a
    report; 2 when a file or the package cannot be read.
    """
    from ..base.pool import usable_workers
    from ..readers import audit as audit_module
    from ..readers.auditrun import AuditRun, Replayer
    from ..readers.evidence import evidence_bar

    options = _settings(out=package)
    if not suggest and (min_rescued is not None or min_share is not None):
        given = "--min-rescued" if min_rescued is not None else "--min-share"
        _fail(f"{given} is the evidence bar of --suggest; add --suggest")
    bar = evidence_bar((min_rescued, min_share), (options.min_rescued, options.min_share))
    out = options.out
    loaded = _package(options)
    run = AuditRun(Replayer.load(out, suggest, loaded), out, jobs or usable_workers())
    try:
        for path in files:
            _audit_file(run, path, progress)
    except BaseException:
        run.abandon()
        raise
    result = run.finish()
    result.misspelt = audit_module.misspelt(result, loaded.TOOL_NAMES)
    if as_json:
        click.echo(json.dumps(audit_module.as_json(result, bar), indent=2, ensure_ascii=False))
    else:
        click.echo(audit_module.render(result, f"{out.as_posix()}/", bar))


def _audit_file(run: AuditRun, path: Path, progress: bool | None) -> None:
    import zlib

    from ..readers.auditrun import opened

    if path.as_posix() == "-" and sys.stdin.isatty():
        click.echo("reading JSON Lines of calls from standard input (end with Ctrl-D)", err=True)
    try:
        with opened(path, sys.stdin.buffer) as source:
            size = source.size
            show = progress if progress is not None else sys.stderr.isatty() or (size or 0) > _PROGRESS_BYTES
            if size is None or not show:
                run.feed(source, lambda _: None)
                return
            with click.progressbar(length=size, label=f"auditing {source.name}", file=sys.stderr) as bar:
                run.feed(source, bar.update)
    except (OSError, EOFError, zlib.error) as exc:
        _fail(f"{path.as_posix()}: {getattr(exc, 'strerror', None) or exc}")


@main.command("import", short_help="Write declarations from the code that defines the tools.")
@click.argument("sources", nargs=-1, metavar="[SOURCE]...")
@click.option(
    "--stdio",
    "commands",
    multiple=True,
    metavar="COMMAND",
    help="An MCP server to start over stdio and list the tools of (split like a shell command "
    "line, run without a shell; repeatable).  [default: [tool.toolgen] import-stdio]",
)
@click.option(
    "--add",
    "added",
    multiple=True,
    metavar="SOURCE",
    help="A SOURCE to import as well (repeatable): the configured sources and those of the files "
    "imported before are imported too, so nothing imported is removed.",
)
@click.option(
    "--stdio-add",
    "stdio_added",
    multiple=True,
    metavar="COMMAND",
    help="An MCP server over stdio (as --stdio) to import as well, keeping the others (repeatable).",
)
@_flag(
    "--save",
    help="Write this run's sources to [tool.toolgen] import / import-stdio in pyproject.toml, so "
    "that a bare `toolgen import` (and the pre-commit hook) uses them.",
)
@_schemas_option
@_flag("--check", help="Write nothing; exit 1 and print a diff if the declarations differ.")
@click.option(
    "--timeout",
    default=stdio_source.TIMEOUT,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="How long a --stdio server may take to start and list its tools.",
)
@_color_option
def import_(  # noqa: PLR0913  # click passes one argument per option of the command
    sources: tuple[str, ...],
    commands: tuple[str, ...],
    added: tuple[str, ...],
    stdio_added: tuple[str, ...],
    save: bool,
    schemas: Path | None,
    check: bool,
    timeout: float,
    color: bool | None,
) -> None:
    """Write one declaration file per tool from the code that defines the tools.

    Each SOURCE is module.path:attribute, imported with the project root on sys.path: an
    MCPServer or FastMCP server, a pydantic BaseModel subclass, an openai-agents
    FunctionTool, a LangChain BaseTool, a pydantic-ai Tool, or a list, tuple or dict of these.
    Without SOURCE or --stdio, the sources are [tool.toolgen] import and import-stdio.

    SOURCE and --stdio replace the configured sources for this run: the files of the tools
    they do not give are removed. To import a source as well, keeping every other, use
    --add SOURCE or --stdio-add COMMAND; --save writes the run's sources to [tool.toolgen].

    Files are written in MCP form into --schemas, and recorded in its toolgen-import.toml:
    a re-run rewrites only changed files and removes only the files of tools no source
    offers any more; hand-written declarations are never touched. Exit 0 on success; 1 with
    --check when the declarations differ from the code (a unified diff and the command that
    fixes it); 2 when a source fails or a tool clashes with another (nothing written).
    """
    from ..package.write import OutputError
    from ..sources.collect import collect
    from ..sources.tool import ImportRefused
    from . import snapshot
    from .table_edit import TableError

    options = _settings(schemas=schemas)
    if (added or stdio_added) and (sources or commands):
        _fail(
            "--add and --stdio-add import as well as the configured sources; SOURCE and --stdio "
            "replace them: give one kind or the other; nothing written"
        )
    if save and check:
        _fail("--save writes pyproject.toml and --check writes nothing: give one or the other")
    # The sources as given, for the fix of drift: those of [tool.toolgen] are not repeated.
    given = [*sources, *(word for command in commands for word in ("--stdio", command))]
    given += [word for source in added for word in ("--add", source)]
    given += [word for command in stdio_added for word in ("--stdio-add", command)]
    folder = options.schemas
    try:
        if added or stdio_added:
            sources, commands = _with_added(options, snapshot.read_manifest(folder), added, stdio_added)
        elif not given:
            sources, commands = options.imports, options.import_stdio
        if not (sources or commands):
            _fail(
                "no sources: give module.path:attribute or --stdio COMMAND, or list them in "
                "[tool.toolgen] import / import-stdio of pyproject.toml; nothing written"
            )
        # Checked before anything is written: a table that cannot take them stops the run.
        saving = _save_edit(options, sources, commands) if save else None
        tools = collect(sources, commands, options.root, timeout)
        started = time.perf_counter()
        plan = snapshot.check(folder, tools) if check else snapshot.write(folder, tools)
        if saving is not None:
            saving.write()
    except ImportRefused as exc:
        _fail(str(exc) + _cycle_hint(str(exc), options))
    except (OutputError, TableError) as exc:
        _fail(str(exc))
    if check and plan.in_sync:
        click.echo(f"{folder.as_posix()}: in sync with the code ({counted(len(plan.owners), 'tool')})")
        return
    if check:
        words = ["import", *given]
        if "schemas" in options.explicit:
            words += ["--schemas", folder.as_posix()]
        groups = {"changed": plan.changed, "new": plan.new, "removed": plan.removed}
        # The program is spelt for the shell already (it may be `python -m generator`).
        advice = f"declarations are out of sync with the code; run: {_program()} {shlex.join(words)}"
        _out_of_sync(folder, snapshot.diff(plan), groups, advice, color)  # exit 1
    # Counted in tools, so the manifest is left out: `owners` has one declaration file a tool.
    changed = sum(n in plan.owners for n in plan.changed)
    new = sum(n in plan.owners for n in plan.new)
    click.echo(
        f"{counted(len(plan.owners), 'tool')} imported into {folder.as_posix()}: {changed} changed, "
        f"{new} new, {len(plan.owners) - changed - new} unchanged, {len(plan.removed)} removed"
        f" in {time.perf_counter() - started:.1f}s"
    )
    if saving is not None:
        click.echo(str(saving))
    elif added or stdio_added:
        click.echo(_unsaved(options, sources, commands), err=True)


def _with_added(
    options: Settings, manifest: dict[str, str], added: tuple[str, ...], stdio_added: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`--add`'s sources: the configured ones, then those of files imported before (e.g. by a
    run that named its sources), then the added ones; each once, in that order."""
    earlier = dict.fromkeys(manifest.values())
    commands = [c for label in earlier if (c := stdio_source.command_of(label)) is not None]
    modules = [label for label in earlier if stdio_source.command_of(label) is None]
    sources = dict.fromkeys([*options.imports, *modules, *added])
    stdio = dict.fromkeys([*options.import_stdio, *commands, *stdio_added])
    return tuple(sources), tuple(stdio)


def _pyproject(options: Settings) -> tuple[Path, str]:
    """The project's pyproject.toml (to be created when it has none), and its name for messages."""
    path = options.config or options.root / "pyproject.toml"
    return path, Path(os.path.relpath(path, Path.cwd())).as_posix()


def _save_edit(options: Settings, sources: tuple[str, ...], commands: tuple[str, ...]) -> Edit:
    from .table_edit import prepare

    return prepare(*_pyproject(options), {"import": sources, "import-stdio": commands})


def _unsaved(options: Settings, sources: tuple[str, ...], commands: tuple[str, ...]) -> str:
    """What --add without --save leaves to know: the table does not list the run's sources."""
    missing = [s for s in sources if s not in options.imports]
    missing += [stdio_source.label(c) for c in commands if c not in options.import_stdio]
    _, shown = _pyproject(options)
    return (
        f"note: [tool.toolgen] in {shown} does not list {', '.join(missing)}: a bare "
        f"`{_program()} import` (and the pre-commit hook) would remove what they gave; "
        "add --save to list them there"
    )
