"""More like this: the papers most like one paper or a free text, on every signal the
atlas holds (`similar_signals`)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from paperatlas.errors import SearchError
from paperatlas.filters import ALL_PAPERS, Filters
from paperatlas.paper import embedding_text
from paperatlas.search.filters import allowed_ids, check_paging
from paperatlas.search.fusion import SHOWN_TERMS
from paperatlas.search.hits import make_hits
from paperatlas.search.language import language_name
from paperatlas.search.query import MAX_QUERY_CHARS
from paperatlas.search.results import SearchResult
from paperatlas.search.similar_signals import SignalScores, signal_scores
from paperatlas.search.vectors import MULTILINGUAL_MODEL


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
        full = store.resolve_id(str(paper_id).strip())
        if full is None:
            raise SearchError(f"no paper with id {paper_id!r} (or the prefix is ambiguous)")
        paper = store.get_paper(full)
        text = embedding_text(paper.get("title"), paper.get("abstract"))
        exclude = full
        query_label = full
    else:
        assert text is not None  # one of the two is given (checked above)
        if not text.strip():
            raise SearchError("empty text: paste an abstract or a paragraph")
        if len(text) > MAX_QUERY_CHARS:
            notes.append(f"text cut to its first {MAX_QUERY_CHARS:,} characters")
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
