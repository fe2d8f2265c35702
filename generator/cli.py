"""The command line: `python -m generator generate [--schemas DIR] [--out DIR] [--check]`."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from generator.build import build
from generator.errors import DeclarationError
from generator.write import OutputError, apply, diff, plan


@click.group()
def main() -> None:
    """toolgen: tool declarations in, straight-line Python validators out."""


@main.command()
@click.option(
    "--schemas",
    default="tool_schemas",
    show_default=True,
    type=click.Path(path_type=Path),
    help="Folder of tool declarations (*.json, one tool each).",
)
@click.option(
    "--out",
    default="generated",
    show_default=True,
    type=click.Path(path_type=Path),
    help="Folder of the generated package (its import name is the folder's name).",
)
@click.option(
    "--check", is_flag=True, help="Write nothing; exit 1 and print a diff if the output is not in sync."
)
@click.option("--strict", is_flag=True, help="Treat warnings about declarations as errors (exit 2).")
def generate(schemas: Path, out: Path, check: bool, strict: bool) -> None:
    """Generate one validator module per tool declaration."""
    started = time.perf_counter()
    try:
        # --check renders everything: a hand edit below an intact header must show up.
        result = build(schemas, reuse=None if check else out)
        for warning in result.warnings:
            click.echo(str(warning), err=True)
        if strict and result.warnings:
            click.echo(f"error: {len(result.warnings)} warning(s) under --strict; nothing written", err=True)
            sys.exit(2)
        todo = plan(out, result.files)
        if check:
            if todo.in_sync:
                click.echo(f"{out.as_posix()}: in sync ({len(result.tools)} tools)")
                return
            click.echo(diff(todo), nl=False)
            for label, names in (
                ("changed", todo.changed),
                ("missing", todo.missing),
                ("orphan", todo.orphans),
            ):
                for name in names:
                    click.echo(f"{label}: {(out / name).as_posix()}", err=True)
            click.echo("generated code is out of sync; run: python -m generator generate", err=True)
            sys.exit(1)
        apply(todo)
    except (DeclarationError, OutputError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    written = len(todo.changed) + len(todo.missing)
    click.echo(
        f"{len(result.tools)} tools: {written} written, {len(result.files) - written} unchanged, "
        f"{len(todo.orphans)} removed in {time.perf_counter() - started:.1f}s"
    )
