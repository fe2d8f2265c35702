"""The compiler's pipeline: one accepted tool in, its files out. Read this first.

`compile_tool` runs the stages in order, for one tool whose declaration pass 1 accepted:

1. check  (generator/front/check.py): the declaration in the keyword mode's vocabulary: its
   schema graph and `Checked` (a refusal raises `DeclarationError`; warnings are kept);
2. lower  (generator/ir/lower.py): the semantic IR, a `ToolModule`: what is checked;
3. plan   (generator/plan/module.py): a `ModulePlan`: how the module spells it;
4. render (generator/emit/render.py): the validator module's text; the declaration module's
   from the declaration alone (so a run that renders only that one neither checks nor lowers);
5. format (generator/emit/format.py): black, its mode pinned; every file must parse;
6. header (generator/emit/header.py): the do-not-edit header naming the source, its sha256
   and the body's sha256.

Stage 5 is `finish`: `format_source` at once (a run with few files, and the renderer worker
of generator/package/overlap.py), or a formatter pool's `submit` (a cold run), whose results come
back in order. Stage 6 is the run's (generator/package/build.py `_emit`): each formatted file is
headed as it comes back, in order, since the package digest in `__init__.py` collects every
body's sha256. The run around it, `generate_package` (generator/package/run.py), reads and checks
every declaration first (pass 1) and compiles only the tools whose files it cannot take from the
disk as they are (pass 2); the package's own files are `PackageJob`s through `compile_job`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar

from ..emit.render import render_declaration, render_declarations, render_init, render_tool
from ..front.check import check
from ..front.load import Declaration
from ..front.vocabulary import Vocabulary
from ..ir.lower import lower
from ..ir.names import module_name
from ..plan.module import plan
from ..plan.repairs import ToolAdoption

if TYPE_CHECKING:  # imported by the stages that render, only when a run renders (pass 2)
    import jinja2

T = TypeVar("T")
Finish = Callable[[str, str], T]  # stage 5 of one file: (its name, its rendered body) -> T

DECLARATION = "_declaration"  # `<module>_declaration.py`: one tool's declaration
ToolFile = Literal["validator", "declaration"]  # a tool's two files, in the package's order
TOOL_FILES: tuple[ToolFile, ...] = ("validator", "declaration")


def tool_files(module: str) -> tuple[str, str]:
    """The names of a tool's two files in the package: its validator, its declaration module."""
    return f"{module}.py", f"{module}{DECLARATION}.py"


def compile_tool(
    declaration: Declaration,
    vocabulary: Vocabulary,
    env: jinja2.Environment,
    finish: Finish[T],
    files: tuple[ToolFile, ...] = TOOL_FILES,
    adopted: ToolAdoption | None = None,
) -> list[T]:
    """The tool's `files` through the stages (module docstring), each as `finish` gives it;
    `adopted`: the repair kinds the project adopted for the tool (planned in stage 3)."""
    validator, served = tool_files(module_name(declaration.name))
    done: list[T] = []
    if "validator" in files:
        graph, checked = check(declaration, vocabulary)  # 1. refusals, warnings
        module = lower(declaration, graph, checked)  # 2. what is checked
        spelt = plan(module, adopted)  # 3. how it is spelt
        done.append(finish(validator, render_tool(env, spelt)))  # 4. render, 5. format
    if "declaration" in files:
        done.append(finish(served, render_declaration(env, declaration)))  # 4. render, 5. format
    return done


class ToolJob(NamedTuple):
    """Pass 2's work for one tool: which of its files to compile (the others are on disk)."""

    declaration: Declaration
    files: tuple[ToolFile, ...]
    adopted: ToolAdoption | None = None  # the repairs adopted for it ([tool.toolgen.repairs])


PackageFileKind = Literal["copied", "index", "init"]


class PackageJob(NamedTuple):
    """One of the package's own files: a file copied as it is (`value`: its text), the index
    `_declarations.py` (tool name -> module) or `__init__.py` (`value`: the keyword mode, and
    whether the project adopted repairs)."""

    name: str
    kind: PackageFileKind
    value: Any


Job = ToolJob | PackageJob


def job_files(job: Job) -> tuple[str, ...]:
    """The names of the files `job` gives, in the order `compile_job` gives them."""
    if isinstance(job, PackageJob):
        return (job.name,)
    names = tool_files(module_name(job.declaration.name))
    return tuple(name for name, file in zip(names, TOOL_FILES, strict=True) if file in job.files)


def compile_job(job: Job, vocabulary: Vocabulary, env: jinja2.Environment, finish: Finish[T]) -> list[T]:
    """The files of `job`, in order: a tool's through `compile_tool`, a package file rendered
    (or copied) and finished."""
    if isinstance(job, ToolJob):
        return compile_tool(job.declaration, vocabulary, env, finish, job.files, job.adopted)
    if job.kind == "copied":
        body = str(job.value)
    elif job.kind == "index":
        body = render_declarations(env, job.value)
    else:
        body = render_init(env, *job.value)
    return [finish(job.name, body)]


# (render_tool too: a test swaps the render stage here, where compile_tool looks it up.)
__all__ = [
    "DECLARATION",
    "TOOL_FILES",
    "Job",
    "PackageJob",
    "ToolFile",
    "ToolJob",
    "compile_job",
    "compile_tool",
    "job_files",
    "render_tool",
    "tool_files",
]
