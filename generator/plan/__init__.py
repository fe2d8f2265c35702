"""Plan one tool's module: how the generated code spells what the IR says to check.

Takes a `ToolModule` (`ir`); hands on a `ModulePlan` (`module`): the fast path's tests
(`fast`), planned first, and the exact collector's functions (`collector`), which reuse the
fast tests to skip values proven valid, with their stable names. Nothing here writes text;
`emit` does. Imports `ir`, `front` and `base` only; `collector` imports `fast`, never the
other way round.
"""
