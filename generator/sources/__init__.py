"""`toolgen import`: tool declarations read from the code that defines the tools.

A source is `module.path:attribute` (resolve.py, kinds.py and one adapter module per
framework) or an MCP server started over stdio (stdio.py); collect.py gathers every source's
tools into `ImportedTool`s, which generator/cli/snapshot.py writes as declaration files. The
frameworks are imported only when a source needs them: a type is recognised by the module
names of its classes, never by importing a framework to compare with.
"""
