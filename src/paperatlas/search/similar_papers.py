"""More like this: the papers most like one paper or a free text, on every signal the
atlas holds (`similar_signals`); a server's table of every paper's similar papers
(`precompute_similar`, `similar_to_paper`)."""

from __future__ import annotations

import os
import threading
from collections.abc import Set as AbstractSet
from typing import Any

from paperatlas.errors import SearchError
from paperatlas.filters import ALL_PAPERS, Filters
from paperatlas.paper import embedding_text
from paperatlas.search.filters import allowed_ids, check_paging
from paperatlas.search.fusion import SHOWN_TERMS
from paperatlas.search.hits import make_hits
from paperatlas.search.language import language_name
from paperatlas.search.notes import Note
from paperatlas.search.query import MAX_QUERY_CHARS
from paperatlas.search.results import SearchResult
from paperatlas.search.similar_signals import SignalScores, signal_scores
from paperatlas.search.vectors import MULTILINGUAL_MODEL, open_index, vector_models_for


def similar(
    store,
    paper_id: str | None = None,
    text: str | None = None,
    k: int = 10,
    offset: int = 0,
    filters: Filters = ALL_PAPERS,
) -> SearchResult:
    """The papers closest in meaning to one paper (by id or unique id prefix) or to a
    free text (an abstract being written, a paragraph from a paper), among those
    `filters` let through."""
    if (paper_id is None) == (text is None):
        raise SearchError("give either a paper id or a text to find similar papers")
    check_paging(k, offset)
    notes: list[str] = []
    exclude: str | None = None
    if paper_id is not None:
        full = store.papers.resolve_id(str(paper_id).strip())
        if full is None:
            raise SearchError(f"no paper with id {paper_id!r} (or the prefix is ambiguous)")
        paper = store.papers.get(full)
        text = embedding_text(paper.get("title"), paper.get("abstract"))
        exclude = full
        query_label = full
    else:
        assert text is not None  # one of the two is given (checked above)
        if not text.strip():
            raise SearchError("empty text: paste an abstract or a paragraph")
        if len(text) > MAX_QUERY_CHARS:
            notes.append(
                Note(
                    f"text cut to its first {MAX_QUERY_CHARS:,} characters",
                    "text_cut",
                    limit=f"{MAX_QUERY_CHARS:,}",
                )
            )
            text = text[:MAX_QUERY_CHARS]
        query_label = text
    allowed = allowed_ids(store, filters)
    ranking, signals = similar_ranking(store, text, offset + k, exclude=exclude, allowed=allowed)
    page = ranking[offset : offset + k]
    # a hit shows the key terms it holds and its cosine in the most weighted model
    hits = make_hits(store, page, offset, signals.terms[:SHOWN_TERMS], signals.keyword, signals.meaning())
    return SearchResult(
        query=query_label,
        hits=hits,
        total=len(ranking),
        offset=offset,
        k=k,
        language=signals.language,
        mode="similar",
        model=" + ".join(signals.models) or None,
        notes=notes + signals.notes,
        signals=(["keywords"] if signals.keyword else []) + list(signals.models),
    )


def similar_ranking(
    store, text: str, depth: int, exclude: str | None = None, allowed: AbstractSet[str] | None = None
) -> tuple[list[tuple[str, float]], SignalScores]:
    """(the `depth` papers most like `text`, best first; the signals they were read from),
    on every signal the atlas holds (`similar_signals`). `exclude`: the paper whose text it
    is: its stored vectors are the query and it is left out."""
    own = [exclude] if exclude is not None else []
    signals = signal_scores(store, text, depth, like=own, exclude=frozenset(own), allowed=allowed)
    if not signals.scores:
        language = signals.language
        which = "" if language == "en" else f" ({MULTILINGUAL_MODEL} for a {language_name(language)} text)"
        raise SearchError(f"nothing to compare with{which}: run `paperatlas embed` first")
    return signals.fused()[:depth], signals


# A paper page shows its similar papers; fusing every signal costs a few ms of CPU a paper
# (key terms, their BM25 list, each model's cosines), so a server works them out for every
# paper once, in the background. The table is kept while the vectors it was read from are
# the ones search uses (as the starting code's table of nearest neighbours was): an `add`
# while serving leaves it in use, and the papers it adds, which have no vectors yet, join
# the table's lists when `embed` gives them some (the vectors change: pages rank afresh).
SIMILAR_TABLE_MAX_PAPERS = 20_000  # ~5 ms a paper: ~100 s of one core at the most
_TABLES: dict[str, _SimilarTable] = {}  # database path -> its table
_TABLES_LOCK = threading.Lock()
_MAX_TABLES = 4  # stores a process keeps tables for (a server has one)


class _SimilarTable:
    """(paper id, depth) -> its similar papers, read from the vector indexes `indexes`."""

    def __init__(self, store) -> None:
        self.indexes = _indexes(store)
        self.ranked: dict[tuple[str, int], list[tuple[str, float]]] = {}

    def current(self, store) -> bool:
        """Are the store's vector indexes still the ones the table was read from?"""
        now = _indexes(store)
        return len(now) == len(self.indexes) and all(
            model == was_model and index is was for (model, index), (was_model, was) in zip(now, self.indexes)
        )


def _indexes(store) -> list[tuple[str, Any]]:
    """(model, its vector index) of every stored model: the same objects while the
    vectors are unchanged (search's index cache)."""
    return [(model, open_index(store, model)) for model in vector_models_for(store, "en")]


def similar_to_paper(store, paper_id: str, text: str, depth: int) -> list[tuple[str, float]]:
    """`similar_ranking(store, text, depth, exclude=paper_id)`, the stored paper's own
    text, from the server's table when it holds the paper and the vectors are unchanged."""
    path = os.path.abspath(store.path)
    table = _TABLES.get(path)
    if table is not None and (found := table.ranked.get((paper_id, depth))) is not None:
        if table.current(store):
            return found
        with _TABLES_LOCK:  # out of date for good: its old indexes go with it
            if _TABLES.get(path) is table:
                del _TABLES[path]
    ranked, _ = similar_ranking(store, text, depth, exclude=paper_id)
    return ranked


def precompute_similar(store, depth: int) -> bool:
    """Work out every paper's `depth` most similar papers now, for `similar_to_paper` (a
    server's background preload). False when the store is too big for it, has no vectors,
    or its vectors changed before the table was done."""
    if store.papers.count() > SIMILAR_TABLE_MAX_PAPERS:
        return False
    table = _SimilarTable(store)
    if not table.indexes:
        return False  # no vectors: pages say so themselves
    path = os.path.abspath(store.path)
    with _TABLES_LOCK:
        _TABLES.pop(path, None)
        _TABLES[path] = table
        while len(_TABLES) > _MAX_TABLES:  # the oldest goes
            del _TABLES[next(iter(_TABLES))]
    ids = store.papers.ids()
    for start in range(0, len(ids), 500):
        for paper in store.papers.get_many(ids[start : start + 500]):
            if not table.current(store):
                return False
            text = embedding_text(paper.get("title"), paper.get("abstract"))
            try:
                table.ranked[(paper["id"], depth)], _ = similar_ranking(
                    store, text, depth, exclude=paper["id"]
                )
            except SearchError:
                return False
    return True
