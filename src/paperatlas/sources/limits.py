"""How much one file, record and field may hold: limits every reader applies while it reads, so a
small file cannot make a command take the machine's memory or an hour (a 1 MB gzip that expands
to 1 GB, one title of 200 MB, JSON nested a million levels).

Over a limit, a record is skipped and counted with the reason (the other records still count);
a file that expands past its gzip limit, or nests past what a parser can follow, is refused
with one line. A field the paper does not depend on (one of a record's other keys, kept as
`extra`) is dropped when it is over the field limit, not the whole paper. docs/formats.md lists
the limits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from paperatlas.paper import Paper
from paperatlas.printable import valid_text

# The longest of the 12,406 fit-half ICLR 2026 abstracts has 4,306 characters (the longest
# read from the 12 real-world lists of the evaluation set, 2,919): text over four times that is a
# document (a dictionary, a log), not an abstract.
ABSTRACT_MAX_CHARS = 20_000
TITLE_LIMIT = 2_000  # the longest real titles have about 300

FIELD_LIMIT = ABSTRACT_MAX_CHARS  # any other text (an author's name, a keyword, a link, a tldr)
LIST_LIMIT = 10_000  # authors, keywords or links of one paper (the largest collaborations: ~5,000)
# One line, one JSON record, one CSV field, one block of text. The largest ICLR 2026 record, its
# reviews' scores included, has 6,120 characters.
RECORD_LIMIT = 1024 * 1024
DEPTH_LIMIT = 32  # JSON arrays and objects inside one record; real records nest 3 or 4 deep
# A gzip file may expand to this many times its size (real lists: 2-6 times), or to
# GZIP_MIN_LIMIT bytes, whichever is more.
GZIP_RATIO = 20
GZIP_MIN_LIMIT = 1024 * 1024
# A list written by people (Markdown, HTML, org, reST, text) costs its readers seconds of CPU
# per 100 KB (parsed into a tree, read again line by line, then judged), and `add` a minute
# for 2 MB; real ones hold well under 1 MiB (the largest of the 12 real-world lists: 175 KB).
# Gzipped, one may unzip to no more than what an uncompressed file is asked to bear.
PEOPLE_GZIP_LIMIT = 1024 * 1024

_WORD = re.compile(r"[^\W_]")  # a letter or a digit, in any script

# Lines a document-tree parser is given at most; longer texts are read line by line.
# markdown-it spends 15-20 us of CPU a line (each line tried by every block rule, each break a
# token): 1 MB of 500,000 short lines took 8 s. docutils keeps 2 to 8 KB per element it makes (a
# line of `---` alone is a section and two messages): 1 MB of short lines took 2 GB.
MAX_MARKDOWN_LINES = 200_000
MAX_RST_LINES = 60_000


class TooManyLines(ValueError):
    """A text longer than its parser can hold in memory."""


def has_words(text: str | None) -> bool:
    """Does `text` hold a letter or a digit? Whitespace and punctuation alone (`[[]]`, `...`)
    are no title and no abstract."""
    return bool(text) and _WORD.search(text) is not None  # type: ignore[arg-type]


def size(limit: int) -> str:
    """`1 MiB`, `20,000 characters`: a limit as the messages and docs say it."""
    return f"{limit // (1024 * 1024)} MiB" if limit % (1024 * 1024) == 0 else f"{limit:,} characters"


def too_long(abstract: str) -> str | None:
    """The skip reason of free text far longer than any abstract, else None."""
    if len(abstract) <= ABSTRACT_MAX_CHARS:
        return None
    return f"text longer than any abstract (over {ABSTRACT_MAX_CHARS:,} characters: not a paper)"


def over_limit(paper: Paper) -> str | None:
    """The skip reason of a paper with a field over its limit, else None. A value of `extra`
    over the field limit is dropped from it (the paper does not need it)."""
    if paper.title and len(paper.title) > TITLE_LIMIT:
        return f"title over {TITLE_LIMIT:,} characters (not a title)"
    if reason := too_long(paper.abstract):
        return reason
    for name, values in (
        ("authors", paper.authors),
        ("keywords", paper.keywords),
        ("urls", paper.urls),
        ("code urls", paper.code_urls),
    ):
        if values and (len(values) > LIST_LIMIT or max(map(len, values)) > FIELD_LIMIT):
            if len(values) > LIST_LIMIT:
                return f"more than {LIST_LIMIT:,} {name}"
            return f"one of its {name} over {FIELD_LIMIT:,} characters"
    scalars = (paper.venue, paper.area, paper.decision, paper.id, paper.date, paper.section)
    if max(len(value or "") for value in scalars) > FIELD_LIMIT:
        names = ("venue", "area", "decision", "id", "date", "section")
        name = next(n for n, value in zip(names, scalars) if len(value or "") > FIELD_LIMIT)
        return f"{name} over {FIELD_LIMIT:,} characters"
    if paper.extra:
        for key in [k for k, v in paper.extra.items() if type(v) is str and len(v) > FIELD_LIMIT]:
            del paper.extra[key]
    return None


def too_deep(value: Any, limit: int = DEPTH_LIMIT) -> bool:
    """Do `value`'s lists and dicts nest more than `limit` deep? (Walked without recursion.)"""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def map_strings(value: Any, change: Callable[[str], str]) -> Any:
    """`value` (parsed JSON: strings, lists and mappings of them) with `change` applied to
    every string and key. Readers have bounded its depth (`DEPTH_LIMIT`)."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [map_strings(v, change) for v in value]
    if isinstance(value, Mapping):
        return {change(str(k)): map_strings(v, change) for k, v in value.items()}
    return value


def without_surrogates(value: Any) -> Any:
    """`value` (parsed JSON) with lone surrogates in its strings and keys replaced by U+FFFD."""
    return map_strings(value, valid_text)


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def may_hold_surrogates(text: str) -> bool:
    """Could JSON `text` decode to a lone surrogate (an escape `\\ud800`-`\\udfff`)? A quick
    test for text that is then checked whole."""
    return _SURROGATE_ESCAPE.search(text) is not None


def may_nest_too_deep(text: str) -> bool:
    """Could JSON `text` nest deeper than the limit? (Never deeper than its count of `[` and
    `{`: a test in C that spares most records the walk of `too_deep`.)"""
    return text.count("[") + text.count("{") > DEPTH_LIMIT
