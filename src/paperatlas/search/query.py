"""A query's keyword terms, and the FTS5 expression that matches them.

User text never reaches FTS5 as syntax: it is cut into alphanumeric terms, each one
quoted, joined with OR (plus the whole phrase for short queries).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from paperatlas.text import STOPWORDS

MAX_QUERY_CHARS = 20_000  # longer text is cut (a pasted paper, not a query)
MAX_TERMS = 32  # distinct keyword terms sent to FTS5

TERM = re.compile(r"[^\W_]+")  # what FTS5's unicode61 tokenizer calls a token
# runs of CJK script (hangul, kana, ideographs): the index holds no such words
CJK_RUN = re.compile("[\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]+")


def query_terms(text: str) -> list[str]:
    """The query's keyword terms as FTS5 will tokenise them: alphanumeric runs of Latin
    (and other alphabetic) script, stop words dropped unless nothing else is left,
    deduplicated, at most MAX_TERMS. CJK runs are left out: the index has no Chinese."""
    raw = _words(text)
    content = [t for t in raw if t not in STOPWORDS]
    terms = list(dict.fromkeys(content or raw))
    return terms[:MAX_TERMS]


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).lower()
    # "中的KV缓存" holds the term "kv": cut runs at CJK characters, keep the rest
    return [t for run in TERM.findall(text) for t in CJK_RUN.split(run) if t]


def term_counts(text: str) -> Counter[str]:
    """Every keyword term of a long text (an abstract) with how often it occurs: the
    words `query_terms` would take, stop words and one-character words dropped, none cut."""
    return Counter(t for t in _words(text) if t not in STOPWORDS and len(t) > 1)


def match_expression(terms: list[str], phrase: bool = True) -> str | None:
    """A safe FTS5 MATCH expression: every term quoted, ORed; the whole phrase too when
    the query is short, so papers using the exact phrase rank first."""
    if not terms:
        return None
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms]
    whole = phrase_expression(terms) if phrase else None
    return " OR ".join(quoted + ([whole] if whole else []))


def phrase_expression(terms: list[str]) -> str | None:
    """The query's terms as one quoted FTS5 phrase, when the query is short enough."""
    if 2 <= len(terms) <= 6:
        return '"' + " ".join(t.replace('"', '""') for t in terms) + '"'
    return None
