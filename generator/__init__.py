"""toolgen's build-time compiler: tool declarations -> straight-line Python validators.

Installed, this package is `toolgen` (the run-time pipeline beside it is `toolgen.runtime`,
from runtime/); in this repository it is imported as `generator`. Every import inside it is
relative, so the same source is both. Its folders are the pipeline, each importing only the
folders before it (tests/test_layering.py; docs/how-it-works.md is the map):

base -> sources -> front -> ir -> plan -> emit -> package -> readers -> cli

`front` reads and checks declarations, `ir` lowers them to what must be checked, `plan`
decides how each module spells it, `emit` turns a plan into formatted file text, `package`
runs the incremental build and writes the package; `readers` are the commands that read a
declaration or a package, `cli` the command line. Nothing here is imported by importing
this package: `import toolgen.runtime` stays free of jinja2, black and click.
"""
