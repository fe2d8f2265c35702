"""Stage 5: render a planned module into Python source text with the Jinja2 templates.

`templates/module.py.j2` lays out a tool module; the fast path's statements come from the
planner's code model (generator/plan/fast_code.py) spelled by generator/emit/python.py, placed
by `templates/checks.j2`; the collector's macros are `templates/collector.j2`. `_support.py`
is a plain Python file, copied. Every value taken from a declaration reaches generated code
through `py` (a Python literal, via repr), `code` (the code model, whose values go through the
same `py_literal`) or, inside a docstring, `doc`. The header is added after formatting
(generator/emit/header.py).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..front.shapes import describe
from ..plan.code import Expr, Item, Not, Value, Var
from ..plan.collector_code import bound_broken, direct_guard, exact_fails, undeclared_guard
from ..plan.fast import FastValue, paired
from ..plan.fast_code import helper_body, proven, validate_body
from ..plan.module import ModulePlan
from .literal import py_literal
from .openai_strict import qualifies
from .python import expression, statements
from .support import REPAIR as REPAIR
from .support import SUPPORT as SUPPORT
from .support import TEMPLATES as TEMPLATES
from .support import support_module

if TYPE_CHECKING:  # imported when an environment is made: a run that renders nothing never loads it
    import jinja2

# The templates are package data of the compiler's top package (generator/emit/support.py; here
# generator/templates links to templates/): found the same way in a checkout and in a wheel.
PATHS = TEMPLATES / "_paths.py"  # the list visits' helpers (issues at path tuples), copied


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def identifier(value: Any) -> str:
    """A name the generator made (generator/plan/) placed as code: only [A-Za-z0-9_], checked."""
    if not isinstance(value, str) or not _IDENTIFIER.fullmatch(value):
        raise ValueError(f"not a generated identifier: {value!r}")
    return value


def doc_text(value: Any) -> str:
    """Text placed inside a triple-quoted docstring: ASCII, one line, every quote escaped."""
    return str(value).encode("unicode_escape").decode("ascii").replace('"', '\\"')


def environment() -> jinja2.Environment:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        extensions=["jinja2.ext.do"],
    )
    env.filters.update(py=py_literal, doc=doc_text, ident=identifier, tuple=tuple, paired=paired)
    env.filters["pyml"] = lambda value: py_literal(value, trailing=True)
    env.filters["code"] = lambda expr: "" if expr is None else expression(expr)
    env.globals.update(fast_validate=fast_validate, fast_helper=fast_helper, unproven_test=unproven_test)
    env.globals.update(var=Var, item=Item, member=member, bound_broken=bound_broken, exact_fails=exact_fails)
    env.globals.update(direct_guard=direct_guard, undeclared_guard=undeclared_guard)
    return env


def fast_validate(plan: ModulePlan) -> str:
    """validate()'s fast path (generator/plan/fast_code.py), as Python statements."""
    return statements(validate_body(plan))


def fast_helper(plan: ModulePlan, fv: FastValue) -> str:
    """The body of the fast helper of `fv`, as Python statements."""
    return statements(helper_body(plan, fv))


def member(subject: Expr, name: str) -> Expr:
    """The member `name` (a declared name: a literal, never code) of the object `subject`."""
    return Item(subject, Value(name))


def unproven_test(plan: ModulePlan, fv: FastValue, value: Expr) -> Expr:
    """The collector's test that a child `value` is not proven valid by its fast test `fv`."""
    return Not(proven(plan, fv, value))


def render_tool(env: jinja2.Environment, plan: ModulePlan) -> str:
    """A tool module's body (no header)."""
    return env.get_template("module.py.j2").render(tool=plan.tool, plan=plan)


def render_init(env: jinja2.Environment, keywords: str = "subset", repairs: bool = False) -> str:
    """`__init__.py`'s body: the same for every package of a keyword mode (docs/spec/extended.md
    E1), so that it
    does not grow with the catalogue; the tool table lives in `_declarations.py`. With
    `repairs` (the project adopted some), it also offers `repair()`."""
    return env.get_template("init.py.j2").render(keywords=keywords, repairs=repairs)


def render_declarations(env: jinja2.Environment, modules: dict[str, str]) -> str:
    """`_declarations.py`'s body: tool name -> module, in name order, and the functions that
    build the declarations asked for from the tools' declaration modules."""
    return env.get_template("declarations.py.j2").render(modules=sorted(modules.items()))


def render_declaration(env: jinja2.Environment, declaration: Any) -> str:
    """`<module>_declaration.py`'s body: one tool's declaration as written, and whether
    OpenAI strict mode accepts it as it is."""
    tool = {
        "name": declaration.name,
        "description": describe(declaration.raw),
        "parameters": declaration.parameters,
        "strict": qualifies(declaration.parameters),
        # The same function the package checks a live tool with (its copy of _support.py).
        "digest": support_module().declaration_digest(declaration.name, declaration.parameters),
    }
    return env.get_template("declaration.py.j2").render(tool=tool)
