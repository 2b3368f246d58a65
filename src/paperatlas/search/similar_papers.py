"""More like this: the papers closest in meaning to one paper or to a free text."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from paperatlas.errors import SearchError
from paperatlas.paper import embedding_text
from paperatlas.search.filters import allowed_ids, check_paging, filters_of
from paperatlas.search.hits import make_hits
from paperatlas.search.language import detect_language, language_name
from paperatlas.search.query import MAX_QUERY_CHARS
from paperatlas.search.results import SearchResult
from paperatlas.search.vectors import MULTILINGUAL_MODEL, embed_query, open_index, vector_models_for


def similar(
    store,
    paper_id: str | None = None,
    text: str | None = None,
    k: int = 10,
    offset: int = 0,
    list_name: str | None = None,
    area: str | None = None,
    kind: str | None = None,
    decision: str | None = None,
    has_code: bool | None = None,
) -> SearchResult:
    """The papers closest in meaning to one paper (by id or unique id prefix) or to a
    free text (an abstract being written, a paragraph from a paper)."""
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
    allowed = allowed_ids(store, filters_of(list_name, area, kind, decision, has_code))
    ranking, model, language = similar_ranking(store, text, offset + k, exclude, allowed)
    page = ranking[offset : offset + k]
    hits = make_hits(store, page, offset, [], [], ranking)
    return SearchResult(
        query=query_label,
        hits=hits,
        total=len(ranking),
        offset=offset,
        k=k,
        language=language,
        mode="similar",
        model=model,
        notes=notes,
    )


def similar_ranking(
    store, text: str, depth: int, exclude: str | None = None, allowed: AbstractSet[str] | None = None
) -> tuple[list[tuple[str, float]], str, str]:
    """(the `depth` papers closest to `text`, model, language). With `exclude` (the paper
    whose text it is), that paper's stored vector is the query and it is left out."""
    language = detect_language(text)
    models = vector_models_for(store, language)
    if not models:
        which = "" if language == "en" else f" ({MULTILINGUAL_MODEL} for a {language_name(language)} text)"
        raise SearchError(f"no vectors to compare with{which}: run `paperatlas embed` first")
    model = models[0]
    index = open_index(store, model)
    if exclude is not None and allowed is None:
        known = index.neighbours(exclude, depth)  # see precompute_similar
        if known is not None:
            return known, model, language
    qvec = None
    if exclude is not None:
        got, matrix = store.get_vectors(model, [exclude])
        qvec = matrix[0] if got else None
    if qvec is None:
        qvec = embed_query(store, model, text)
    ranked = index.search(qvec, depth + (1 if exclude else 0), allowed)
    return [h for h in ranked if h[0] != exclude][:depth], model, language


SIMILAR_TABLE_K = 20  # similar papers kept per paper by precompute_similar
SIMILAR_TABLE_MAX_PAPERS = 25_000  # a table costs n² products: ~3 s at 15k, ~8 s at 25k


def precompute_similar(store) -> bool:
    """Find every paper's SIMILAR_TABLE_K most similar papers now (in the English model's
    index, the one `similar_ranking` uses for English papers), for a server: a paper page
    then looks them up. False when the store is too large or has no vectors."""
    models = vector_models_for(store, "en")
    index = open_index(store, models[0]) if models else None
    if index is None or len(index) > SIMILAR_TABLE_MAX_PAPERS:
        return False
    return index.build_neighbours(SIMILAR_TABLE_K)  # False for a graph index (no table)
