"""Which tool a misspelt name was probably meant for.

The rule and the wording are `toolgen validate`'s (generator/readers/explain.py `suggest`
with close_only, generator/cli/commands.py `_misspelt`): only a name that differs in case, `-`/`_`,
or a letter or two is offered, so a genuinely other tool is never taken for a typo.
Build-time code and the runtime never import each other (the runtime runs without jinja2,
black or click), so the rule is restated here; tests/test_runtime_names.py holds both to the
same answers.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.85  # difflib's ratio on folded names: a letter or two in a name of ten or more
LIMIT = 3


def folded(name: str) -> str:
    """The name as compared: case, `-` and `_` do not count."""
    return name.casefold().replace("-", "").replace("_", "")


def close_names(name: str, known: Iterable[str]) -> list[str]:
    """The known names `name` is probably a typo of, best first (at most three)."""
    by_folded = {folded(k): k for k in sorted(known)}
    close = difflib.get_close_matches(folded(name), list(by_folded), n=LIMIT, cutoff=CUTOFF)
    return [by_folded[k] for k in close]


def meant(name: str, known: Iterable[str]) -> str:
    """ "`get_weather`", "`a` or `b`", or "" when no known name is close."""
    return " or ".join(f"`{k}`" for k in close_names(name, known))
