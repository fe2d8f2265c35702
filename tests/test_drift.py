"""Drift caught at run time (issue 36.1): a user's `MCPServer` guarded by
`validation_guard`, its declarations imported with `toolgen import` and its package made by
`toolgen generate`, then started with the SDK's own client. A tool changed after generation
refuses the start with the tools and the project's own commands; `on_stale="pass"` serves
the stale tools unvalidated with a warning on each call; `import` then `generate` bring it
back. `toolgen import` of a server module that imports the package before it exists says
how to break the cycle. The executor and `in_step` compare the same digests."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import shlex
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import mcp_types as types
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer

import generated
from runtime.check import check_call
from runtime.drift import PassingStale, StaleValidators, compare, in_step
from runtime.executor import ToolExecutor
from runtime.integrations.mcp_server import validation_guard
from tests.genpkg import user_package
from tests.import_support import toolgen, write

PYPROJECT = """\
[tool.toolgen]
schemas = "shop/declarations"
out = "shop/validators"
import = ["shop.tools:server"]
"""

# The server names its package by module name: the guard imports it when the server starts,
# so `toolgen import` can import this module before the package is first generated.
SERVER = """\
from mcp.server.mcpserver import MCPServer

from runtime.integrations.mcp_server import validation_guard

RAN = []
guard = validation_guard("shop.validators", on_stale={on_stale!r})
server = MCPServer("shop", lifespan=guard.lifespan, middleware=[guard.middleware])


@server.tool()
def track(parcel_id: str{extra}) -> str:
    \"\"\"Where a parcel is.\"\"\"
    RAN.append("track")
    return "on its way"


@server.tool()
def cancel(parcel_id: str) -> str:
    \"\"\"Cancel a shipment.\"\"\"
    RAN.append("cancel")
    return "cancelled"
{more}"""

REFUND = '''

@server.tool()
def refund(order: str) -> str:
    """Refund an order."""
    RAN.append("refund")
    return "refunded"
'''

STALE = (
    "`shop.validators` is out of step with the server's tools:\n"
    "  changed since it was generated: track\n"
    "  not declared in it: refund\n"
    "to bring it up to date, run from the project root: `toolgen import` then `toolgen generate`"
)
BAD_PARCEL = (
    "track failed due to the following issue:\n"
    "The parameter `parcel_id` type is expected as `string` but provided as `number`"
)
NO_PROJECT = "track failed due to the following issue:\nThe required parameter `project` is missing"
NO_ORDER = "refund failed due to the following issue:\nThe required parameter `order` is missing"
BAD_CANCEL = (
    "cancel failed due to the following issue:\n"
    "The parameter `parcel_id` type is expected as `string` but provided as `boolean`"
)


def server_code(on_stale: str = "refuse", *, edited: bool = False) -> str:
    """The server as first written, or after the edit: `track` gains a required `project`
    and a new tool `refund` appears."""
    extra, more = (", project: str", REFUND) if edited else ("", "")
    return SERVER.format(on_stale=on_stale, extra=extra, more=more)


def forget_shop() -> None:
    """A restart: the next import reads the server and the package as they are on disk."""
    for name in [n for n in sys.modules if n == "shop" or n.startswith("shop.")]:
        del sys.modules[name]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    write(tmp_path, {"pyproject.toml": PYPROJECT, "shop/__init__.py": "", "shop/tools.py": server_code()})
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    forget_shop()
    yield tmp_path
    forget_shop()


def import_and_generate() -> None:
    imported, made = toolgen("import"), toolgen("generate")
    assert (imported.exit_code, imported.stderr, made.exit_code) == (0, "", 0), (imported, made)


def start(calls: list[tuple[str, Any]]) -> tuple[ModuleType, list[tuple[bool, str]]]:
    """Start the server afresh with the SDK's in-process client and make `calls`: the server
    module and each result as (is_error, text)."""
    forget_shop()
    import shop.tools  # type: ignore[import-not-found]

    async def conversation() -> list[tuple[bool, str]]:
        async with Client(shop.tools.server) as client:
            results = [await client.call_tool(name, arguments) for name, arguments in calls]
        return [(r.is_error, text(r)) for r in results]

    return shop.tools, asyncio.run(asyncio.wait_for(conversation(), 20))


def text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


def test_a_tool_changed_after_generation_refuses_the_start_until_import_and_generate(
    project: Path,
) -> None:
    import_and_generate()
    server, results = start([("track", {"parcel_id": 3}), ("track", {"parcel_id": "p1"})])
    assert results == [(True, BAD_PARCEL), (False, "on its way")] and server.RAN == ["track"]

    (project / "shop/tools.py").write_text(server_code(edited=True), "utf-8")
    with pytest.raises(StaleValidators) as refused:
        start([("track", {"parcel_id": "p1", "project": "x"})])
    assert str(refused.value) == STALE
    drift = refused.value.drift
    assert (drift.changed, drift.undeclared, drift.unlisted) == (("track",), ("refund",), ())
    assert sys.modules["shop.tools"].RAN == []  # refused before any call

    import_and_generate()
    calls = [
        ("track", {"parcel_id": "p1", "project": "x"}),
        ("track", {"parcel_id": "p1"}),
        ("refund", {}),
        ("refund", {"order": "o1"}),
    ]
    server, results = start(calls)
    assert results == [(False, "on its way"), (True, NO_PROJECT), (True, NO_ORDER), (False, "refunded")]
    assert server.RAN == ["track", "refund"]


def test_a_tool_the_server_no_longer_serves_is_named_but_does_not_refuse_on_its_own(project: Path) -> None:
    import_and_generate()
    code = server_code().replace('@server.tool()\ndef cancel', 'def cancel')
    (project / "shop/tools.py").write_text(code, "utf-8")
    _, results = start([("track", {"parcel_id": 3})])
    assert results == [(True, BAD_PARCEL)]
    drift = compare(sys.modules["shop.validators"], [{"name": "track", "inputSchema": {}}], live="x")
    assert (drift.changed, drift.undeclared, drift.unlisted) == (("track",), (), ("cancel",))
    assert drift.message() == (
        "`shop.validators` is out of step with x:\n"
        "  changed since it was generated: track\n"
        "  declared in it, but not among them: cancel\n"
        "to bring it up to date, run from the project root: `toolgen import` then `toolgen generate`"
    )


def test_on_stale_pass_serves_the_stale_tools_unvalidated_with_a_warning_on_each_call(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (project / "shop/tools.py").write_text(server_code("pass"), "utf-8")
    import_and_generate()
    (project / "shop/tools.py").write_text(server_code("pass", edited=True), "utf-8")
    calls = [
        ("track", {"parcel_id": "p1", "project": "x"}),  # now correct: the stale package would refuse it
        ("refund", {"order": "o1"}),
        ("track", {"parcel_id": "p2", "project": "y"}),
        ("cancel", {"parcel_id": True}),  # unchanged: still validated by the package
    ]
    with caplog.at_level(logging.WARNING, logger="toolgen.runtime.drift"):
        server, results = start(calls)
    assert results == [(False, "on its way"), (False, "refunded"), (False, "on its way"), (True, BAD_CANCEL)]
    assert server.RAN == ["track", "refund", "track"]
    fix = "run from the project root: `toolgen import` then `toolgen generate`"
    stale = f"its declaration in `shop.validators` is stale; {fix}"
    assert [(r.name, r.levelname, r.getMessage()) for r in caplog.records] == [
        ("toolgen.runtime.drift", "WARNING", STALE + "\nits stale tools pass through unvalidated until then"),
        ("toolgen.runtime.drift", "WARNING", f"track was called unvalidated: {stale}"),
        ("toolgen.runtime.drift", "WARNING", f"refund was called unvalidated: {stale}"),
        ("toolgen.runtime.drift", "WARNING", f"track was called unvalidated: {stale}"),
    ]
    assert isinstance(server.guard.validators, PassingStale)
    # What the stale package itself makes of the first call (issue 36's symptom):
    assert sys.modules["shop.validators"].validate(*calls[0]) == (
        "track failed due to the following issue:\nAn unexpected parameter `project` was provided"
    )

    caplog.clear()
    import_and_generate()
    with caplog.at_level(logging.WARNING, logger="toolgen.runtime.drift"):
        server, results = start(calls[:1])
    assert results == [(False, "on its way")] and caplog.records == []
    assert server.guard.validators is sys.modules["shop.validators"]  # in step: the package itself


HINT = (
    "hint: shop.validators is the package `toolgen generate` writes from these declarations, and it "
    "has not been generated yet, so the code cannot import it while it is being imported. Import "
    'it when the server starts instead: validation_guard("shop.validators") takes the package by name '
    "(docs/mcp.md), or import it inside the function that uses it; then run this import again.\n"
)


@pytest.mark.parametrize(
    ("statement", "error"),
    [
        ("import shop.validators", "ModuleNotFoundError: No module named 'shop.validators'"),
        ("from shop import validators", "ImportError: cannot import name 'validators' from 'shop' ({init})"),
        ("from shop.validators import TOOL_NAMES", "ModuleNotFoundError: No module named 'shop.validators'"),
    ],
)
def test_import_explains_a_server_module_that_imports_the_package_before_it_is_generated(
    project: Path, statement: str, error: str
) -> None:
    # The module imports the package at its top, as a user first writes it.
    (project / "shop/tools.py").write_text(statement + "\n" + server_code(), "utf-8")
    result = toolgen("import")
    error = error.format(init=(project / "shop" / "__init__.py").resolve())
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: shop.tools:server: cannot import shop.tools: {error}\n" + HINT
    assert not (project / "shop/declarations").exists()


def test_import_adds_no_hint_for_a_module_that_is_missing_for_another_reason(project: Path) -> None:
    (project / "shop/tools.py").write_text("import shop.helpers\n" + server_code(), "utf-8")
    result = toolgen("import")
    missing = "cannot import shop.tools: ModuleNotFoundError: No module named 'shop.helpers'"
    assert (result.exit_code, result.stderr) == (2, f"error: shop.tools:server: {missing}\n")


def test_the_index_header_names_the_import_command_and_follows_the_configuration(project: Path) -> None:
    import_and_generate()
    index = project / "shop/validators/_declarations.py"
    assert index.read_text("utf-8").splitlines()[3] == "# Import: 'toolgen import'"
    forget_shop()
    import shop.validators  # type: ignore[import-not-found]

    assert shop.validators.fix_commands() == ("toolgen import", "toolgen generate")
    # Without [tool.toolgen] import, the sources its manifest records, then none at all.
    configured = PYPROJECT.replace('import = ["shop.tools:server"]\n', "")
    (project / "pyproject.toml").write_text(configured, "utf-8")
    assert toolgen("generate").exit_code == 0
    assert index.read_text("utf-8").splitlines()[3] == "# Import: 'toolgen import shop.tools:server'"
    (project / "shop/declarations/toolgen-import.toml").unlink()
    assert toolgen("generate").exit_code == 0
    assert index.read_text("utf-8").splitlines()[3].startswith("# Body sha256: ")
    forget_shop()
    import shop.validators

    assert shop.validators.fix_commands() == (None, "toolgen generate")


# ---------- the same comparison without MCP: the executor, check_call through in_step ----------

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer", "maximum": 7}},
    "required": ["city"],
    "additionalProperties": False,
}


@pytest.fixture
def weather(tmp_path: Path) -> Iterator[ModuleType]:
    yield from user_package(tmp_path, "drift_weather", {"get_weather": WEATHER})


def openai_tool(parameters: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": "get_weather", "parameters": parameters}}


def test_formatting_key_order_description_and_number_spelling_are_no_drift(weather: ModuleType) -> None:
    reordered = json.loads(json.dumps(WEATHER, sort_keys=True))
    reordered["properties"]["days"]["maximum"] = 7.0
    described = openai_tool(reordered)
    described["function"]["description"] = "other words"
    live = [
        described,
        {"name": "get_weather", "input_schema": reordered},  # Anthropic's form
        {"type": "function", "name": "get_weather", "parameters": WEATHER},  # Responses'
        types.Tool(name="get_weather", input_schema=reordered),  # the SDK's own object
    ]
    for tool in live:
        assert in_step(weather, [tool]) is weather
    assert ToolExecutor(weather, live_tools=live[:1]).validators is weather
    expected = hashlib.sha256(
        b'["get_weather",{"additionalProperties":false,"properties":{"city":{"type":"string"},'
        b'"days":{"maximum":7,"type":"integer"}},"required":["city"],"type":"object"}]'
    ).hexdigest()
    assert weather.declaration_digests() == {"get_weather": expected}


def test_the_executor_refuses_a_changed_declaration_or_passes_it_with_a_warning(
    weather: ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    changed = json.loads(json.dumps(WEATHER))
    changed["properties"]["days"]["maximum"] = 14
    _, regenerate = weather.fix_commands()
    stale = (
        f"`{weather.__name__}` is out of step with the live tools:\n"
        "  changed since it was generated: get_weather\n"
        "to bring it up to date, make its declarations match the tools, then run from the project root: "
        f"`{regenerate}`"
    )
    with pytest.raises(StaleValidators) as refused:
        ToolExecutor(weather, live_tools=[openai_tool(changed)])
    assert str(refused.value) == stale

    executor = ToolExecutor(weather, live_tools=[openai_tool(changed)], on_stale="pass")
    executor.register_declared("get_weather", lambda args: f"{args['city']} for {args['days']} days")
    with caplog.at_level(logging.WARNING, logger="toolgen.runtime.drift"):
        result = executor.execute("get_weather", {"city": "Oslo", "days": 10})
    assert (result.success, result.content) == (True, "Oslo for 10 days")
    called = (
        f"get_weather was called unvalidated: its declaration in `{weather.__name__}` is stale; make its "
        f"declarations match the tools, then run from the project root: `{regenerate}`"
    )
    assert [r.getMessage() for r in caplog.records] == [
        stale + "\nits stale tools pass through unvalidated until then",
        called,
    ]
    # check_call through in_step: the same view, the same pass; an unchanged package validates.
    passing = in_step(weather, [openai_tool(changed)], on_stale="pass")
    assert check_call(passing, "get_weather", {"city": "Oslo", "days": 10}) is None
    assert check_call(passing, "get_weather", {"city": 3}) is None
    assert check_call(in_step(weather, [openai_tool(WEATHER)]), "get_weather", {"city": 3}) == (
        "get_weather failed due to the following issue:\n"
        "The parameter `city` type is expected as `string` but provided as `number`"
    )


def test_in_step_refuses_what_it_cannot_compare(weather: ModuleType) -> None:
    with pytest.raises(ValueError, match=r"^on_stale: expected one of 'refuse', 'pass', not 'ignore'$"):
        in_step(weather, [], on_stale="ignore")  # type: ignore[arg-type]
    with pytest.raises(TypeError) as no_schema:
        compare(weather, [{"name": "x"}])
    assert str(no_schema.value) == "not a tool declaration (a name and an input schema): {'name': 'x'}"
    older: Any = ModuleType("older")
    older.TOOL_NAMES = frozenset()
    with pytest.raises(TypeError) as no_digests:
        compare(older, [])
    assert str(no_digests.value) == (
        "`older` records no declaration digests: it was generated by an older toolgen; generate it again"
    )
    # A live schema that is not JSON cannot be the declaration: changed, not a crash.
    drift = compare(weather, [openai_tool({"type": "object", "x": object()})])
    assert drift.changed == ("get_weather",)


def test_every_checked_in_declaration_digest_is_its_listing_s_digest() -> None:
    digest = generated.declaration_digest
    listed = {t["name"]: digest(t["name"], t["inputSchema"]) for t in generated.mcp_tools()}
    assert generated.declaration_digests() == listed
    assert in_step(generated, generated.mcp_tools()) is generated
    assert generated.fix_commands() == (None, "make generate")


def test_import_over_stdio_gives_the_same_hint(project: Path) -> None:
    (project / "shop/tools.py").write_text("import shop.validators\n" + server_code(), "utf-8")
    command = f"{shlex.quote(sys.executable)} -m shop.tools"
    result = toolgen("import", "--stdio", command)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: --stdio {shlex.quote(command)}: ")
    assert "ModuleNotFoundError: No module named 'shop.validators'\n" + HINT in result.stderr


def test_the_guard_enters_your_own_lifespan_only_once_the_tools_are_in_step(project: Path) -> None:
    import_and_generate()
    import shop.tools

    entered: list[str] = []

    @asynccontextmanager
    async def mine(app: Any) -> AsyncIterator[dict[str, str]]:
        entered.append(app.name)
        yield {"db": "open"}

    guard = validation_guard("shop.validators")
    server = MCPServer("shop", lifespan=guard.around(mine), middleware=[guard.middleware])
    server.tool()(shop.tools.track)

    async def call() -> types.CallToolResult:
        async with Client(server) as client:
            return await client.call_tool("track", {"parcel_id": 3})

    assert text(asyncio.run(call())) == BAD_PARCEL and entered == ["shop"]
    server.tool(name="refund")(shop.tools.cancel)
    with pytest.raises(StaleValidators) as refused:
        asyncio.run(call())
    assert refused.value.drift.undeclared == ("refund",) and entered == ["shop"]
    # A low-level Server lists its own tools: the lifespan cannot, start(tools) does.
    with pytest.raises(TypeError) as low_level:
        asyncio.run(guard.lifespan(object()).__aenter__())
    assert str(low_level.value).endswith(
        "has no list_tools(): the guard's lifespan is for an MCPServer; for a low-level Server, "
        "call guard.start(tools) with the tools it lists"
    )
    listed = asyncio.run(server.list_tools())
    assert guard.start([t for t in listed if t.name != "refund"]) is sys.modules["shop.validators"]
