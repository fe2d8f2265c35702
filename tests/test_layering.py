"""The compiler's folders are its pipeline (issue 37.1), and it installs under one name (issue 36.2).

Read from the source with `ast` (every import: at the top, inside functions, under
TYPE_CHECKING): each package of generator/ has a rank, and no module imports a package of a
higher rank or the CLI; no two modules import each other, directly or round a longer loop; the
writer (the headers it reads, the files it writes, the record) never reaches the planner.
Every import inside generator/ and runtime/ is relative, which is what lets the same files be
`generator`/`runtime` here and `toolgen`/`toolgen.runtime` installed (pyproject.toml).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "generator"

# The pipeline, in order: a module may import its own package and those before it.
RANKS = ("base", "sources", "front", "ir", "plan", "emit", "package", "readers", "cli")
# The writer: what reads and writes headers, files and the record. It must not load the planner
# (nor the renderer, which imports it).
WRITER = ("emit.header", "emit.literal", "package.write", "package.verified")


def _modules(top: Path) -> dict[str, Path]:
    """Module name (relative to `top`, "" for its `__init__`) -> file."""
    found = {}
    for path in sorted(top.rglob("*.py")):
        parts = path.relative_to(top).with_suffix("").parts
        if "templates" in parts:
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules(GENERATOR)


def _package_of(name: str, path: Path) -> str:
    """The package a module's relative imports start from."""
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _imports(name: str, path: Path) -> list[tuple[int, str, bool]]:
    """(line, imported name as written, relative?) for every import of the module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, False) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                found.append((node.lineno, node.module or "", False))
                continue
            base = _package_of(name, path).split(".") if _package_of(name, path) else []
            base = base[: len(base) - (node.level - 1)]
            target = ".".join([*base, node.module] if node.module else base)
            # `from . import x` imports the module x when there is one
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                found.append((node.lineno, sub if sub in MODULES else target, True))
    return found


def _graph() -> dict[str, set[str]]:
    """Module -> the modules of generator/ it imports (by name relative to generator/)."""
    edges: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        imported = _imports(name, path)
        edges[name] = {t for _, t, relative in imported if relative and t in MODULES and t != name}
    return edges


def _rank(module: str) -> int:
    top = module.partition(".")[0]
    if module in ("", "__main__"):  # the docstring of the whole; `python -m toolgen`
        return -1 if module == "" else len(RANKS)
    return RANKS.index(top)


def test_every_module_is_in_a_package_of_the_pipeline() -> None:
    top_level = sorted(p.name for p in GENERATOR.glob("*.py"))
    assert top_level == ["__init__.py", "__main__.py"]
    folders = sorted(p.name for p in GENERATOR.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert folders == sorted(RANKS)


def test_no_module_imports_a_later_stage_or_the_cli() -> None:
    wrong = [
        f"{name or '__init__'} imports {target}"
        for name, targets in _graph().items()
        for target in sorted(targets)
        if _rank(target) > _rank(name)
        or (target.startswith("cli") and not name.startswith(("cli", "__main__")))
    ]
    assert wrong == []


def test_no_import_cycle_between_modules() -> None:
    try:
        tuple(TopologicalSorter(_graph()).static_order())
    except CycleError as exc:
        pytest.fail(f"import cycle: {' -> '.join(exc.args[1])}")


def test_the_writer_never_reaches_the_planner_or_the_renderer() -> None:
    graph = _graph()
    for writer in WRITER:
        reached: set[str] = set()
        todo = [writer]
        while todo:
            for target in graph[todo.pop()] - reached:
                reached.add(target)
                todo.append(target)
        assert not {m for m in reached if m.startswith("plan.") or m == "emit.render"}, writer


def test_a_cycle_or_a_backward_import_would_be_caught(tmp_path: Path) -> None:
    # The checks above read what the source says: the same reading finds these two.
    assert "plan.fast" in _graph()["plan.collector"]
    assert "plan.collector" not in _graph()["plan.fast"]
    assert ("emit.literal" in _graph()["emit.header"]) and ("emit.render" not in _graph()["emit.header"])
    with pytest.raises(CycleError):
        tuple(TopologicalSorter({**_graph(), "plan.fast": {"plan.collector"}}).static_order())
    assert _rank("plan.fast") < _rank("emit.render") < _rank("package.build") < _rank("cli.commands")


def test_every_package_init_is_a_docstring_alone() -> None:
    """Importing `toolgen` (which `import toolgen.runtime` does first) or any of its folders
    runs nothing: each `__init__.py` says its package's one job, what it takes and hands on."""
    for path in MODULES.values():
        if path.name == "__init__.py":
            body = ast.parse(path.read_text("utf-8")).body
            assert len(body) == 1 and isinstance(body[0], ast.Expr), path
            assert isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str), path


@pytest.mark.parametrize("top", ["generator", "runtime"])
def test_every_import_of_the_project_is_relative(top: str) -> None:
    """An absolute `generator.`/`runtime.` import would load a second copy of the module under
    the repository's name in an installed `toolgen`, or fail there."""
    absolute = [
        f"{path.relative_to(ROOT)}:{line}: {target}"
        for name, path in _modules(ROOT / top).items()
        for line, target, relative in _imports(name, path)
        if not relative and target.partition(".")[0] in ("generator", "runtime", "toolgen", "generated")
    ]
    assert absolute == []


def test_pyproject_lists_every_package_under_its_installed_name() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"toolgen": "generator", "toolgen.runtime": "runtime"}
    folders = {
        f"toolgen{'.' + name if name else ''}" for name, p in MODULES.items() if p.name == "__init__.py"
    }
    folders |= {
        f"toolgen.runtime{'.' + name if name else ''}"
        for name, p in _modules(ROOT / "runtime").items()
        if p.name == "__init__.py"
    }
    # and the templates, as data (generator/templates links to templates/)
    assert sorted(setuptools["packages"]) == sorted([*folders, "toolgen.templates"])
    assert setuptools["package-data"] == {"toolgen.templates": ["*.j2", "*.py"]}


def test_how_it_works_maps_every_module() -> None:
    text = (ROOT / "docs" / "how-it-works.md").read_text("utf-8")
    # A folder by its path (`generator/front/`), every other module by its file's.
    named = [
        path.relative_to(ROOT).as_posix().removesuffix("__init__.py") if name else "generator/__init__.py"
        for name, path in MODULES.items()
    ]
    missing = [path for path in named if f"`{path}`" not in text]
    assert missing == []


def _installed(code: str) -> str:
    """`code` run where only the installed (here: editable) names resolve, not the repository's."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT / "docs", env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_toolgen_runtime_imports_neither_the_compiler_nor_its_dependencies() -> None:
    code = (
        "import sys\n"
        "import toolgen.runtime\n"
        "toolgen.runtime.ToolExecutor, toolgen.runtime.check_call\n"
        "import toolgen.runtime.integrations\n"
        "print(sorted({n.split('.')[0] for n in sys.modules} & "
        "{'jinja2', 'black', 'click', 'generator', 'runtime', 'generated'}))\n"
        "print(sorted(n for n in sys.modules if n.split('.')[:2] != ['toolgen', 'runtime']"
        " and n.startswith('toolgen')))\n"
    )
    assert _installed(code).splitlines() == ["[]", "['toolgen']"]


def test_python_m_toolgen_and_the_templates_under_the_installed_name() -> None:
    code = (
        "import runpy, sys\n"
        "from toolgen.emit.support import TEMPLATES\n"
        "print(TEMPLATES.joinpath('module.py.j2').is_file())\n"
        "sys.argv = ['toolgen', '--version']\n"
        "try:\n"
        "    runpy.run_module('toolgen', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    print('exit', exc.code)\n"
    )
    assert _installed(code).splitlines() == ["True", "toolgen 0.1.0", "exit 0"]
