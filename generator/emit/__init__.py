"""Turn plans into file text: render with the Jinja2 templates, format with black, add headers.

Takes a `ModulePlan` (`plan`) or a declaration; hands on each generated file's text
(`render`, then `format`) and its do-not-edit header (`header`). Values from a declaration
reach code only as Python literals (`literal`); `support` finds the templates and loads
`templates/_support.py` without jinja2; `openai_strict` decides a declaration's `STRICT`.
The header and literal modules import neither the renderer nor `plan`, so the writer that
reads headers (`package.write`, `package.verified`) never loads the planner.
"""
