"""A search from end to end: the query's language, its candidate rankings (keyword,
vectors, names, translation), their fusion, the caller's filters and the page of hits."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from paperatlas.errors import SearchError
from paperatlas.filters import ALL_PAPERS, Filters
from paperatlas.search import learned as learned_fusion
from paperatlas.search.chinese_text import to_simplified
from paperatlas.search.config import SHIPPED, SearchConfig
from paperatlas.search.filters import allowed_ids, check_paging
from paperatlas.search.framing import topic_part
from paperatlas.search.fusion import KEPT_WEIGHT, Rankings, fuse, fuse_rankings, fusion_for
from paperatlas.search.hits import make_hits
from paperatlas.search.kept_match import kept_matches, kept_ranking
from paperatlas.search.keyword import ceiling as keyword_ceiling
from paperatlas.search.keyword import informative_terms, keyword_ranking
from paperatlas.search.known_paper import known_papers
from paperatlas.search.language import detect_language, language_name
from paperatlas.search.names import name_ranking
from paperatlas.search.notes import Note
from paperatlas.search.query import CJK_RUN, MAX_QUERY_CHARS, query_terms
from paperatlas.search.results import SearchResult
from paperatlas.search.spelling import corrected_query, corrections
from paperatlas.search.translate import query_translation
from paperatlas.search.vectors import (
    MINILM_MODEL,
    MULTILINGUAL_MODEL,
    feedback_ranking,
    is_multilingual,
    open_index,
    vector_models_for,
    vector_ranking,
)

CANDIDATES = 200  # depth of each ranked list before fusion


def candidate_rankings(
    store,
    query: str,
    depth: int = CANDIDATES,
    allowed: AbstractSet[str] | None = None,
    keyword: bool = True,
    vectors: bool = True,
    config: SearchConfig = SHIPPED,
) -> Rankings:
    """The keyword (BM25) and vector rankings of `query`, each `depth` deep, among
    `allowed` papers (all when None). Routes by the query's language. `config`
    (search/config.py) says how: its fusion overrides decide whether the learned fusion and
    MiniLM's list run, its glossary and learned switches the translation of a Chinese
    query. The words of a request around the topic ("有哪些关于…的论文", "papers about …")
    are left out first (`framing.topic_part`), and traditional Chinese characters written
    as simplified (`chinese_text.to_simplified`), unless the config turns them off."""
    fusion = config.fusion_overrides()
    asked = query
    simple = to_simplified(query) if config.simplify and CJK_RUN.search(query) else query
    query = topic_part(simple) if config.topic_framing else simple
    language = detect_language(query)
    translation, weights, used_learned = None, None, False
    if language != "en":
        translation, weights, used_learned = query_translation(
            store, query, language, config.glossary, config.learned, config.glossary_overrides
        )
    framed, corrected = query, None
    if language == "en" and config.spelling:
        fixed = corrections(store, query)
        if fixed:
            # every signal searches the corrected words; a rare word the atlas does know
            # is kept as a keyword too, so its own papers still match
            corrected = query = corrected_query(query, fixed)
    terms = query_terms(translation or query)
    if corrected:
        terms = list(dict.fromkeys(terms + [w for w, (_, known) in fixed.items() if known]))
    notes: list[str] = []
    if framed != asked:
        notes.append(_framing_note(asked, simple, framed))
    model, vec_ranking = None, []
    query_vectors: dict[str, Any] = {}  # model -> the query's vector (learned fusion)
    if vectors and allowed != set():
        models = vector_models_for(store, language)
        if models:
            model = models[0]
            vec_ranking = vector_ranking(store, model, query, depth, allowed, notes, query_vectors)
            # an atlas embedded with `--model static` (or by a version that embedded no more)
            if language == "en" and MINILM_MODEL not in models:
                notes.append(_no_minilm_note(model))
        else:
            notes.append(_no_vectors_note(language, translation, bool(terms), keyword))
    feedback, translated, english = [], [], []
    if vectors and language != "en" and allowed != set():
        english = [m for m in vector_models_for(store, "en") if not is_multilingual(m)]
        if english and translation:
            translated = vector_ranking(store, english[0], translation, depth, allowed, notes)
        elif english:
            feedback = feedback_ranking(store, english[0], vec_ranking, depth, allowed)
    kw_ranking: list[tuple[str, float]] = []
    ceiling = 0.0
    if keyword and allowed != set():
        kw_ranking, ceiling = _keyword_side(store, terms, weights, depth, allowed)
        if not terms and language != "en" and not vectors:
            notes.append(_keywords_cannot_match_note(language))
    named = name_ranking(store, query, allowed) if keyword and allowed != set() else []
    r = Rankings(
        language,
        terms,
        kw_ranking,
        vec_ranking,
        model,
        notes,
        translation,
        translated,
        feedback,
        keyword_ceiling=ceiling,
        named=named,
        glossary_only=bool(translation) and not used_learned,
        term_weights=weights,
        corrected=corrected,
    )
    f = fusion_for(r.fusion_language, fusion)
    learned = bool(f.get("learned")) and language == "en"
    minilm_text = query if language == "en" else translation
    wanted = learned or f.get("minilm_weight", 0.0) > 0
    if vectors and allowed != set() and minilm_text and wanted and _minilm_adds(store, model):
        r.minilm = vector_ranking(store, MINILM_MODEL, minilm_text, depth, allowed, notes, query_vectors)
    if learned and learned_fusion.applies(r):
        _add_pool_cosines(store, r, query_vectors)
    english_model = model if language == "en" else (english[0] if vectors and english else None)
    r.english_model = english_model
    return r


def _keyword_side(
    store, terms: list[str], weights: dict[str, float] | None, depth: int, allowed: AbstractSet[str] | None
) -> tuple[list[tuple[str, float]], float]:
    """The BM25 ranking of `terms` and the most BM25 they can give a paper (its ceiling)."""
    ranked = keyword_ranking(store, terms, depth, allowed, weights)
    ceiling = keyword_ceiling(store, informative_terms(store, terms), weights) if ranked else 0.0
    return ranked, ceiling


def _minilm_adds(store, model: str | None) -> bool:
    """Whether MiniLM's list is a second opinion here: the atlas has its vectors, and the
    main list is not MiniLM's own."""
    return model != MINILM_MODEL and MINILM_MODEL in vector_models_for(store, "en")


def _framing_note(asked: str, simple: str, framed: str) -> Note:
    """What the query was searched as, and why: simplified, its request words left out."""
    why = ["in simplified characters"] if simple != asked else []
    why += ["the words asking for papers left out"] if framed != simple else []
    key = "searched_as_" + "_".join(["simplified"] * (simple != asked) + ["framed"] * (framed != simple))
    return Note(f"searched for “{framed}” ({'; '.join(why)})", key, query=framed)


def _no_minilm_note(model: str) -> Note:
    """An English query ranked by meaning without MiniLM: the atlas lacks its vectors."""
    return Note(
        f"this atlas has no {MINILM_MODEL} vectors, so meaning is ranked by {model} "
        f"alone; `paperatlas embed` adds them",
        "no_minilm",
        minilm=MINILM_MODEL,
        model=model,
    )


def _keywords_cannot_match_note(language: str) -> Note:
    """A query in another language searched by keywords alone, which match English words."""
    return Note(
        f"keyword search cannot match a {language_name(language)} query "
        "against English abstracts; search without --mode keyword",
        "keywords_cannot_match",
        language=language,
    )


def _no_vectors_note(language: str, translation: str | None, has_terms: bool, keyword: bool) -> Note:
    """Why a query in `language` found nothing by meaning: the atlas has no vectors for it."""
    if language != "en" and translation:
        return Note(
            f"{language_name(language)} query searched as the English terms of this "
            f"atlas it maps to ({translation}); `paperatlas embed` adds cross-lingual "
            f"meaning ({MULTILINGUAL_MODEL} vectors)",
            "no_vectors_translated",
            language=language,
            translation=translation,
            model=MULTILINGUAL_MODEL,
        )
    if language != "en":
        with_terms = has_terms and keyword
        return Note(
            f"{language_name(language)} query: this atlas has no {MULTILINGUAL_MODEL} "
            f"vectors, so it cannot search by meaning across languages; run "
            f"`paperatlas embed` first"
            + ("; showing keyword matches of its known terms" if with_terms else ""),
            "no_vectors_other_language" + ("_terms" if with_terms else ""),
            language=language,
            model=MULTILINGUAL_MODEL,
        )
    return Note(
        "no vectors in this atlas yet: run `paperatlas embed` to search by meaning"
        + ("; showing keyword matches only" if keyword else ""),
        "no_vectors" + ("_keywords" if keyword else ""),
    )


def _add_pool_cosines(store, r: Rankings, query_vectors: dict[str, Any]) -> None:
    """The learned fusion judges every candidate on every model, not only the candidates a
    model ranked within its own list: each model's cosine with every candidate of the pool."""
    ids = learned_fusion.pool_ids(r)
    for key, name in (("vector", r.model), ("minilm", MINILM_MODEL)):
        if name in query_vectors:
            r.cosines[key] = learned_fusion.pool_cosines(open_index(store, name), query_vectors[name], ids)


def answering_signals(r: Rankings) -> list[str]:
    """The signals that ranked some paper for this query: "keywords", "names" (a paper's
    own name in the query) and each vector model, in that order."""
    found = ["keywords"] if r.keyword else []
    found += ["names"] if r.named else []
    models = [r.model] if r.vector and r.model else []
    if r.english_model and (r.translated or r.feedback):
        models.append(r.english_model)
    if r.minilm:
        models.append(MINILM_MODEL)
    return found + list(dict.fromkeys(models))


def search(
    store,
    query: str,
    k: int = 20,
    offset: int = 0,
    filters: Filters = ALL_PAPERS,
    method: str = "auto",
    config: SearchConfig = SHIPPED,
) -> SearchResult:
    """Rank the papers `filters` let through for `query`; return hits offset..offset+k.

    `method`: "auto"/"hybrid" (both when vectors exist), "keyword" (BM25 only) or
    "semantic" (vectors only). `config`: how to rank (search/config.py; benchmarks pass
    the variants they measure).
    """
    if query is None or not str(query).strip():
        raise SearchError("empty query: give some words to search for")
    if method not in ("auto", "hybrid", "keyword", "semantic"):
        raise SearchError(f"unknown search method {method!r} (auto, hybrid, keyword, semantic)")
    check_paging(k, offset)
    query = str(query)
    cut_note = []
    if len(query) > MAX_QUERY_CHARS:
        cut_note.append(
            Note(
                f"query cut to its first {MAX_QUERY_CHARS:,} characters",
                "query_cut",
                limit=f"{MAX_QUERY_CHARS:,}",
            )
        )
        query = query[:MAX_QUERY_CHARS]
    allowed = allowed_ids(store, filters)
    r = candidate_rankings(
        store,
        query,
        depth=max(CANDIDATES, offset + k),
        allowed=allowed,
        keyword=method != "semantic",
        vectors=method != "keyword",
        config=config,
    )
    ranked, mode = fuse_rankings(r, config.fusion_overrides())
    kept = kept_matches(store, query, allowed) if method != "semantic" else {}
    if kept:  # only then: with no note or tag matching, the paper's own text ranks alone
        ranked = fuse([(ranked, 1.0), (kept_ranking(kept), KEPT_WEIGHT, 1.0)], method="score")
        mode = mode if r.keyword or r.vector else "keyword"
    known, known_by = known_papers(store, query)
    known = [pid for pid in known if allowed is None or pid in allowed]
    if known:  # the paper the query names comes first, whatever the signals say
        top, first = (ranked[0][1] if ranked else 1.0), set(known)
        ranked = [(pid, top) for pid in known] + [h for h in ranked if h[0] not in first]
    if r.language != "en" and r.vector:
        mode = "cross-lingual"
    if allowed is not None and not allowed:
        r.notes.append(Note("no paper matches the filters", "no_match_filters"))
    elif not ranked and not r.notes:
        r.notes.append(Note("no paper matches this query", "no_match_query"))
    page = ranked[offset : offset + k]
    seen = {pid for pid, _ in r.vector}
    semantic = r.vector + [h for h in r.translated + r.feedback if h[0] not in seen]
    hits = make_hits(store, page, offset, r.shown_terms(), r.keyword, semantic, kept)
    return SearchResult(
        query=query,
        hits=hits,
        total=len(ranked),
        offset=offset,
        k=k,
        language=r.language,
        mode=mode,
        model=r.model,
        notes=cut_note + r.notes,
        read_as=r.translation,  # None for English: only other languages are translated
        signals=answering_signals(r) + (["notes"] if kept else []),
        corrected=r.corrected,
        identified_by=known_by if known else None,
        identified=known,
    )
