"""Did you mean: the known names a name is probably a typo of, worded one way for every
command (`validate`, `audit`, `explain`)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def suggest(name: str, known: Iterable[str], close_only: bool = False) -> list[str]:
    """Known names like `name`, best first. close_only (validate): only a name that differs
    in case, `-`/`_`, or a letter or two, so a genuinely other tool is not taken for a typo."""
    if not close_only:
        return difflib.get_close_matches(name, list(known), n=3)
    by_folded = {folded(k): k for k in sorted(known)}
    close = difflib.get_close_matches(folded(name), list(by_folded), n=3, cutoff=0.85)
    return [by_folded[k] for k in close]


def meant(name: str, known: Iterable[str]) -> str:
    """`` `list_issues` ``, or `` `a` or `b` ``: the known names `name` is probably a typo of,
    as validate and audit word them; empty when none is close."""
    return either_of(suggest(name, known, close_only=True))


def either_of(names: Iterable[str]) -> str:
    """`` `a` or `b` ``: names as did-you-mean advice words them."""
    return " or ".join(f"`{name}`" for name in names)


def folded(name: str) -> str:
    """A name with case, `-` and `_` ignored: `task_id`, `TaskId` and `task-id` are one."""
    return name.casefold().replace("-", "").replace("_", "")
