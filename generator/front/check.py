"""Stage 2: check one declaration's schema against docs/spec/validation.md §7 and docs/spec/extended.md E8.

Refuses (raises DeclarationError naming the file and the JSON pointer) or records structured
notices (warnings) and what is declared but not enforced, as the schema graph of the
declaration's vocabulary finds them (generator/front/schema_graph.py). Nothing here builds code or
IR: `generator/ir/lower.py` reads only schemas this stage has accepted.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import errors
from .errors import NotEnforced, Notice, NoticeKind
from .load import Declaration
from .patterns import translate
from .schema_graph import DEFINITIONS, SchemaGraph, analyse
from .vocabulary import EXTENDED, SUBSET, Vocabulary


@dataclass(frozen=True)
class Checked:
    """What checking found in one declaration that was not refused."""

    notices: tuple[Notice[NoticeKind], ...]
    not_enforced: tuple[NotEnforced, ...]  # preorder
    unchecked: tuple[str, ...]  # pointers of objects whose undeclared keys go unchecked


def check(declaration: Declaration, vocabulary: Vocabulary = SUBSET) -> tuple[SchemaGraph, Checked]:
    """Refuse per docs/spec/validation.md §7 and docs/spec/extended.md E8, or say what to warn about."""
    graph = analyse(
        declaration.file,
        declaration.parameters,
        base=declaration.pointer,
        pattern_check=translate,
        vocabulary=vocabulary,
    )
    not_enforced = tuple(NotEnforced(pointer=p, keywords=keywords) for p, keywords in graph.not_enforced)
    # What is not enforced is one notice per tool; the rest as found.
    notices = [
        Notice(w.file, w.pointer, errors.NOTICE_KINDS[w.kind], w.reason)
        for w in graph.warnings
        if w.kind != "not_interpreted"
    ]
    if not_enforced:  # one notice, naming what the opt-in mode would check (definitions: nothing)
        summary = "; ".join(f"{n.pointer}: {', '.join(n.keywords)}" for n in not_enforced)
        listed = tuple(sorted({k for n in not_enforced for k in n.keywords}))
        unread = EXTENDED.interpreted - vocabulary.interpreted - set(DEFINITIONS)
        if more := [k for k in listed if k in unread]:
            summary += f" (--keywords extended would check {', '.join(more)})"
        reason = f"not enforced: {summary}"
        notices.append(Notice(declaration.file, declaration.pointer, errors.NOT_ENFORCED, reason, listed))
    unchecked = tuple(w.pointer for w in graph.warnings if w.kind == "keys_unchecked")
    return graph, Checked(tuple(notices), not_enforced, unchecked)
