"""The atlas's titles as search reads them: the papers a normalised title names (a query
that is a paper's exact title opens it: the store's index, or these titles on an atlas
older than it) and the words titles use, with how many titles use
each (what a misspelt query word is corrected to). One pass over the titles, kept until
the indexed text changes."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from paperatlas.cache import StoreCache
from paperatlas.paper import normalise_text
from paperatlas.text import STOPWORDS

# a word a correction may become: letters only, as people type them (no digits, no stems,
# no stop words)
WORD = re.compile(r"[a-z]{3,}")


@dataclass
class Titles:
    by_title: dict[str, list[str]] = field(default_factory=dict)  # normalised title -> ids
    words: Counter[str] = field(default_factory=Counter)  # word -> titles using it
    by_length: dict[int, list[str]] = field(default_factory=dict)  # word length -> words


def _read(store) -> Titles:
    out = Titles()
    for pid, title in store.papers.titles():
        norm = normalise_text(title)
        out.by_title.setdefault(norm, []).append(pid)
        out.words.update(set(WORD.findall(norm)) - STOPWORDS)
    for word in out.words:
        out.by_length.setdefault(len(word), []).append(word)
    return out


_TITLES = StoreCache(max_entries=4)


def titles(store) -> Titles:
    return _TITLES.get(store, "titles", lambda: _read(store), version=store.fts.version)


def papers_titled(store, text: str) -> list[str]:
    """The papers whose title is `text`, ignoring case, punctuation and spacing: the
    store's title index (no read of every title after a commit); a read-only atlas older
    than that index, from the titles read once per change of the indexed text."""
    if store.papers.has_title_index():
        return store.papers.titled(text)
    norm = normalise_text(text)
    return list(titles(store).by_title.get(norm, [])) if norm else []
