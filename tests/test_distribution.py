"""The distribution as users get it: `python -m build` (an sdist, then the wheel built from it),
the wheel installed with no extras and not editable into a fresh virtual environment, and the
CLI driven in an unrelated project; and pre-commit installing the hook from this repository.

Marked `dist` (network for the dependencies, about a minute): `make dist-check` runs them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.dist

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 600


def run(
    command: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


def tracked(*paths: str) -> list[str]:
    """This checkout's files (committed or not, ignored ones left out)."""
    listed = run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *paths], ROOT)
    return [name for name in listed.stdout.splitlines() if (ROOT / name).exists()]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel built from it (`python -m build`'s default), from a copy of this
    checkout, so that a build folder never lands in the working tree."""
    base = tmp_path_factory.mktemp("dist")
    source = base / "source"
    for name in tracked():
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target, follow_symlinks=False)
    built = run([sys.executable, "-m", "build", "--outdir", str(base / "out"), str(source)], base)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return base / "out"


@pytest.fixture(scope="module")
def venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment with the wheel installed: no extras, not editable."""
    where = tmp_path_factory.mktemp("venv") / "venv"
    assert run([sys.executable, "-m", "venv", str(where)], where.parent).returncode == 0
    (wheel,) = dist.glob("*.whl")
    installed = run([str(where / "bin" / "pip"), "install", "--quiet", str(wheel)], where.parent)
    assert installed.returncode == 0, installed.stderr[-3000:]
    return where


def installed_name(path: str) -> str:
    """Where a file of this repository lands in the wheel: generator/ is `toolgen`, runtime/ is
    `toolgen.runtime` (pyproject.toml's package-dir)."""
    top, _, rest = path.partition("/")
    return {"generator": "toolgen/", "runtime": "toolgen/runtime/"}[top] + rest


def test_the_wheel_holds_every_package_and_the_templates_and_nothing_else(dist: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    # One import name (issue 36.2): nothing else at the top of site-packages.
    tops = {name.split("/")[0] for name in names}
    assert tops == {"toolgen", "toolgen-0.1.0.dist-info"}
    expected = {installed_name(name) for name in tracked("generator", "runtime") if name.endswith(".py")}
    expected |= {f"toolgen/templates/{p.name}" for p in (ROOT / "templates").iterdir() if p.is_file()}
    assert expected <= set(names)
    assert {n for n in names if n.endswith(".py")} <= expected
    assert {n for n in names if n.endswith(".j2")} == {
        f"toolgen/templates/{p.name}" for p in (ROOT / "templates").glob("*.j2")
    }
    metadata = zipfile.ZipFile(wheel).read("toolgen-0.1.0.dist-info/METADATA").decode()
    requires = [line[len("Requires-Dist: ") :] for line in metadata.splitlines() if "Requires-Dist: " in line]
    assert [r for r in requires if "extra ==" not in r] == [
        "jinja2<4,>=3.1",
        "black==26.10.1",
        "click<9,>=8.1",
        'tomli>=1.1; python_version < "3.11"',
    ]
    entry_points = zipfile.ZipFile(wheel).read("toolgen-0.1.0.dist-info/entry_points.txt").decode()
    assert "toolgen = toolgen.cli.commands:main" in entry_points


def test_the_sdist_holds_the_templates_and_the_sources(dist: Path) -> None:
    (sdist,) = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {f"generator/templates/{p.name}" for p in (ROOT / "templates").glob("*.j2")} <= names
    assert {"pyproject.toml", "README.md", "generator/cli/commands.py", "runtime/executor.py"} <= names


DECLARATION = {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 1},
            "days": {"type": "integer", "minimum": 1, "maximum": 7},
        },
        "required": ["city"],
        "additionalProperties": False,
    },
}


def scratch_project(where: Path) -> Path:
    """A user's project: its own [tool.toolgen] folders and mode, a package `app`."""
    (where / "tools" / "declarations").mkdir(parents=True)
    (where / "app" / "sub").mkdir(parents=True)
    (where / "app" / "__init__.py").write_text("", "utf-8")
    (where / "pyproject.toml").write_text(
        '[project]\nname = "weather-agent"\nversion = "0"\n\n'
        '[tool.toolgen]\nschemas = "tools/declarations"\nout = "app/validators"\nkeywords = "extended"\n',
        "utf-8",
    )
    (where / "tools" / "declarations" / "get_weather.json").write_text(json.dumps(DECLARATION), "utf-8")
    return where


def test_every_command_works_in_a_users_project_from_a_subfolder(venv: Path, tmp_path: Path) -> None:
    project = scratch_project(tmp_path / "weather")
    toolgen = str(venv / "bin" / "toolgen")
    sub = project / "app" / "sub"

    generated = run([toolgen, "generate"], sub)
    assert generated.returncode == 0, generated.stderr
    assert generated.stdout.startswith("1 tools: 1 changed, 0 unchanged, 0 removed (+4 package files) in ")
    assert sorted(p.name for p in (project / "app" / "validators").glob("*.py")) == [
        "__init__.py",
        "_declarations.py",
        "_paths.py",
        "_support.py",
        "get_weather_e33637ee.py",
        "get_weather_e33637ee_declaration.py",
    ]
    head = (project / "app" / "validators" / "__init__.py").read_text("utf-8").splitlines()[0]
    assert head == "# Generated by toolgen. DO NOT EDIT: change the source and run `toolgen generate`."

    checked = run([toolgen, "check"], sub)
    assert (checked.returncode, checked.stdout) == (0, "../validators: in sync (1 tools)\n")

    call = run([toolgen, "validate", "get_weather", '{"city": "", "days": 9}'], sub)
    assert (call.returncode, call.stdout) == (
        1,
        "get_weather failed due to the following issues:\n"
        "The parameter `city` is invalid: expected at least 1 character\n"
        "The parameter `days` is invalid: expected a number less than or equal to 7\n",
    )
    explained = run([toolgen, "explain", "get_weather"], sub)
    assert explained.returncode == 0
    assert explained.stdout.splitlines()[:5] == [
        "get_weather  (tools/declarations/get_weather.json, module get_weather_e33637ee.py)",
        "keywords: extended",
        "",
        "parameter  type     required  enum / const  bounds and branches",
        "city       string   yes                     minLength 1",
    ]
    call_line = json.dumps({"name": "get_weather", "arguments": {"city": 3}})
    (sub / "calls.jsonl").write_text(call_line + "\n", "utf-8")
    audited = run([toolgen, "audit", "calls.jsonl"], sub)
    assert audited.returncode == 0, audited.stderr
    assert audited.stdout.splitlines()[:2] == [
        "1 file, 1 line, 1 tool call, 0 bad lines",
        "would be rejected: 1 of 1 validated call (100.0%); passed through: 0 (tools without a validator "
        "in ../validators/)",
    ]
    version = run([toolgen, "--version"], sub)
    assert version.stdout == "toolgen 0.1.0\n"
    python = str(venv / "bin" / "python")
    as_module = run([python, "-m", "toolgen", "check"], sub)
    assert (as_module.returncode, as_module.stdout) == (0, "../validators: in sync (1 tools)\n")

    script = 'import app.validators as v; print(v.validate("get_weather", {"city": 3}))'
    own = run([python, "-c", script], project)
    assert own.stdout == (
        "get_weather failed due to the following issue:\n"
        "The parameter `city` type is expected as `string` but provided as `number`\n"
    )
    # The wheel installs no package of validators that could shadow (or be) the project's own,
    # and no generic name (`generator`, `runtime`) that a project's own folder would shadow.
    for name in ("generated", "generator", "runtime"):
        stray = run([python, "-c", f"import {name}"], project)
        assert stray.returncode == 1 and f"No module named '{name}'" in stray.stderr
    # The runtime comes with it, standard library only, and serves the project's own tools,
    # validated by the project's own package (issue 20.6); a misspelt name gets the suggestion.
    agent = (
        "import sys\n"
        "import app.validators as v\n"
        "from toolgen.runtime import ToolExecutor\n"
        "executor = ToolExecutor(v)\n"
        "executor.register_declared('get_weather', lambda args: 'sunny in ' + args['city'])\n"
        "for name, args in (('get_weather', {'city': 'Oslo'}), ('get_weather', {'city': ''}),"
        " ('get_wether', {'city': 'Oslo'})):\n"
        "    print(executor.execute(name, args).text())\n"
        "print(sorted({n.split('.')[0] for n in sys.modules} & {'jinja2', 'black', 'click'}))\n"
    )
    runtime = run([python, "-c", agent], project)
    assert runtime.stdout == (
        "sunny in Oslo\n"
        "get_weather failed due to the following issue:\n"
        "The parameter `city` is invalid: expected at least 1 character\n"
        "No such tool available: get_wether. Did you mean `get_weather`?\n"
        "[]\n"
    ), runtime.stderr
    # The SDK recipes under the installed name (their SDKs are the user's to install).
    recipe = run([python, "-c", "import toolgen.runtime.integrations.mcp_server"], project)
    assert "ModuleNotFoundError: No module named 'mcp_types'" in recipe.stderr, recipe.stderr


def _git(cwd: Path, *args: str) -> str:
    done = run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _hook_repository(where: Path) -> str:
    """This checkout as the git repository pre-commit installs the hook from; its commit."""
    for name in tracked():
        target = where / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target, follow_symlinks=False)
    _git(where, "init", "-q")
    _git(where, "add", "-A")
    _git(where, "commit", "-q", "-m", "toolgen")
    return _git(where, "rev-parse", "HEAD").strip()


def test_the_pre_commit_hook_installs_its_own_toolgen(tmp_path: Path) -> None:
    hooks = tmp_path / "toolgen-repo"
    rev = _hook_repository(hooks)
    project = scratch_project(tmp_path / "weather")
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks}\n    rev: {rev}\n    hooks:\n      - id: toolgen-check\n", "utf-8"
    )
    # This checkout's toolgen (installed editable in the test's own environment), as typed.
    generate = [sys.executable, "-m", "toolgen", "generate"]
    assert run(generate, project).returncode == 0
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    # No toolgen on PATH: only what git and pre-commit's own environments need.
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    hook = [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"]

    in_sync = run(hook, project, env)
    assert in_sync.returncode == 0, in_sync.stdout + in_sync.stderr
    assert "toolgen check" in in_sync.stdout and "Passed" in in_sync.stdout

    edited = {**DECLARATION, "description": "Current weather for a city, now."}
    (project / "tools" / "declarations" / "get_weather.json").write_text(json.dumps(edited), "utf-8")
    drifted = run(hook, project, env)
    assert drifted.returncode == 1
    assert "+++ b/app/validators/get_weather_e33637ee_declaration.py" in drifted.stdout
    assert '+DESCRIPTION: Any = "Current weather for a city, now."' in drifted.stdout.splitlines()
    assert "generated code is out of sync; run: toolgen generate" in drifted.stdout

    assert run(generate, project).returncode == 0
    repaired = run(hook, project, env)
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
