"""toolgen's build-time compiler: tool declarations -> straight-line Python validators.

Stages, each a module with one job and pure until the final write:
load -> lower (IR) -> render (Jinja2) -> format (black, ast.parse) -> write.
"""
