"""Text read from a file is stored without the characters a viewer acts on instead of showing.

A title holding ESC sequences (a window title, a screen clear, an OSC-8 link), C0/C1 controls
or a bidi override (U+202E reads the rest of a line backwards: `gnp.exe` shown as `exe.png`)
would pass them on to every file made from the atlas — CSV, BibTeX, RIS, CSL-JSON, JSONL,
Markdown and HTML digests, feeds, calendars — and to whatever opens those files. They are taken
out once, as each paper is read (`sources.read`), rather than by each writer: every writer,
the web pages and a library user reading the atlas then get text that is safe as stored, and
a writer added later cannot forget. Newlines and tabs stay (an abstract's paragraphs); what is
taken out is what `printable.for_terminal` takes out. docs/formats.md says so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from paperatlas.paper import Paper
from paperatlas.printable import for_terminal, has_controls
from paperatlas.sources.limits import map_strings

_TEXTS = ("title", "abstract", "id", "venue", "area", "decision", "section", "date")
_LISTS = ("authors", "keywords", "urls", "code_urls")
# how repr writes what `for_terminal` takes out: C0 but tab and newline, DEL, C1, the bidi
# controls, lone surrogates
_ESCAPED = re.compile(r"\\(?:x[0-9a-f]{2}|r|u(?:202[a-e]|206[6-9]|d[89a-f][0-9a-f]{2}))")


def make_inert(paper: Paper) -> None:
    """Take control characters, escape sequences and bidi controls out of every text of
    `paper`, its `extra` and `identifiers` included (in place)."""
    if not _may_hold_controls(paper):
        return
    for name in _TEXTS:
        if value := getattr(paper, name):
            setattr(paper, name, for_terminal(value))
    for name in _LISTS:
        if values := getattr(paper, name):
            setattr(paper, name, [for_terminal(v) for v in values])
    if paper.identifiers:
        paper.identifiers = {k: for_terminal(v) for k, v in paper.identifiers.items()}
    if paper.extra:
        paper.extra = map_strings(paper.extra, for_terminal)


def _may_hold_controls(paper: Paper) -> bool:
    """A quick test that spares nearly every paper the walk: its texts (the keys and string
    values of `extra` among them) searched as one; a list or mapping in `extra` as its repr,
    which writes each such character as an escape (`\\x1b`, `\\u202e`, `\\r`; a backslash
    in the text may match too: then the walk finds nothing to take out)."""
    texts = [value for name in _TEXTS if (value := getattr(paper, name))]
    for name in _LISTS:
        texts.extend(getattr(paper, name))
    texts.extend(paper.identifiers.values())
    nested = []
    if paper.extra:
        texts.extend(map(str, paper.extra))
        for value in paper.extra.values():
            if type(value) is str:
                texts.append(value)
            elif isinstance(value, (list, Mapping)):
                nested.append(value)
    if has_controls("\n".join(texts)):
        return True
    return bool(nested) and _ESCAPED.search(repr(nested)) is not None
