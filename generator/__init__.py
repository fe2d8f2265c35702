"""toolgen's build-time compiler: tool declarations -> straight-line Python validators.

Stages, each a module with one job and pure until the final write (README "How it works"):
load -> check -> lower (IR) -> plan -> render (Jinja2) -> format (black) -> write.
`generator/readers/` holds the tools that read a declaration or a generated package.
"""
