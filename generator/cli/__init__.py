"""The command line: `toolgen` (`commands`), the project's `[tool.toolgen]` defaults
(`config`), `toolgen import`'s declaration files and manifest (`snapshot`) and the compiled
tier (`compile`, `python -m toolgen.cli.compile`). Takes options and a project; hands on
exit statuses and printed results. The last stage: nothing imports it but `__main__`."""
