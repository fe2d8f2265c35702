"""Recipes for agent frameworks and SDKs, one module each; each imports its SDK only when it
is itself imported (`import toolgen.runtime` never imports any of them):

* `toolgen.runtime.integrations.mcp_server`: your generated package in front of the `tools/call` of
  an `mcp` `MCPServer` (as middleware) or low-level `Server`;
* `toolgen.runtime.integrations.openai_agents`: a `ToolInputGuardrail` for openai-agents;
* `toolgen.runtime.integrations.pydantic_ai`: an `args_validator` (and `Tool`) for pydantic-ai;
* `toolgen.runtime.integrations.langchain`: a langchain-core `StructuredTool` over a ToolExecutor;
* `toolgen.runtime.integrations.spark`: logged calls checked on Apache Spark, the package shipped to
  the executors (`validate_calls`).
"""
