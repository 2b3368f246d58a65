"""The atlas's titles as search reads them: the papers a normalised title names (a query
that is a paper's exact title opens it: the store's index, or these titles on an atlas
older than it) and the words titles use, with how many titles use
each (what a misspelt query word is corrected to). One pass over the titles, kept until
the titles change; a commit that only added papers (`paperatlas add` while the app
serves) is taken in by reading the new papers' titles alone (store/generation.py
`TableMark`), which gives the table a read of every title in rowid order gives."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

from paperatlas.cache import StoreCache
from paperatlas.paper import normalise_text
from paperatlas.store.generation import TableMark, table_mark, titles_changes
from paperatlas.text import STOPWORDS

# a word a correction may become: letters only, as people type them (no digits, no stems,
# no stop words)
WORD = re.compile(r"[a-z]{3,}")


@dataclass
class Titles:
    by_title: dict[str, list[str]] = field(default_factory=dict)  # normalised title -> ids
    words: Counter[str] = field(default_factory=Counter)  # word -> titles using it
    by_length: dict[int, list[str]] = field(default_factory=dict)  # word length -> words, first seen first
    mark: TableMark | None = None  # the papers table these titles were read from; None: read again


def _take_in(out: Titles, rows: Iterable[tuple[str, str]]) -> None:
    for pid, title in rows:
        norm = normalise_text(title)
        out.by_title[norm] = [*out.by_title.get(norm, []), pid]  # a new list: kept tables share theirs
        for word in set(WORD.findall(norm)) - STOPWORDS:
            if word not in out.words:
                out.by_length.setdefault(len(word), []).append(word)
            out.words[word] += 1


def _read(store) -> Titles:
    mark = table_mark(store, "papers")
    out = Titles(mark=mark)
    _take_in(out, store.papers.titles())
    if mark is not None and titles_changes(store) != mark.changes:
        out.mark = None  # a commit during the read: these titles are no base to extend
    return out


def _extended(store, kept: Titles) -> Titles:
    """`kept` with the titles of the papers added since it was read, when adding papers
    is all that changed the titles; else every title read again."""
    if kept.mark is None:
        return _read(store)
    now = table_mark(store, "papers", since=kept.mark.last)
    if now is None or not now.only_added(kept.mark):
        return _read(store)
    out = Titles(
        by_title=dict(kept.by_title),
        words=Counter(kept.words),
        by_length={n: list(words) for n, words in kept.by_length.items()},
        mark=now,
    )
    _take_in(out, store.papers.titles(after=kept.mark.last))
    if titles_changes(store) != now.changes:
        out.mark = None
    return out


def _version(store) -> Hashable:
    count = titles_changes(store)
    return store.fts.version() if count is None else count  # no count: the indexed text


_TITLES = StoreCache(max_entries=4)


def titles(store) -> Titles:
    return _TITLES.get(
        store,
        "titles",
        lambda: _read(store),
        version=lambda: _version(store),
        extend=lambda kept: _extended(store, kept),
    )


def papers_titled(store, text: str) -> list[str]:
    """The papers whose title is `text`, ignoring case, punctuation and spacing: the
    store's title index (no read of every title after a commit); a read-only atlas older
    than that index, from the titles read once per change of the indexed text."""
    if store.papers.has_title_index():
        return store.papers.titled(text)
    norm = normalise_text(text)
    return list(titles(store).by_title.get(norm, [])) if norm else []
