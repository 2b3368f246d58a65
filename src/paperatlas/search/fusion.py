"""One ranking from several: the keyword (BM25), vector, name and MiniLM lists of a
query, fused with weights chosen on the tuning half of benchmarks/queries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from paperatlas.search import learned

# Fusion of the keyword and vector rankings, chosen on the tuning half of the queries in
# benchmarks/queries (see docs/bench/search.md). "rrf": sum of w / (rrf_k + rank).
# "score": weighted sum of scaled scores; `keyword_scale` "ceiling" divides BM25 by the
# most the query's terms can give (`keyword.ceiling`), so a paper holding the
# query's one rare word ("CIMemories") keeps its full weight even when it is the only
# match; "minmax" scales each list by its own max and min (under which a list's only hit
# scores 0). Vector lists are min-max scaled.
# Weights chosen on the tuning half of the known-item queries (benchmarks/search_eval.py,
# English types: names, titles, paraphrases; see docs/bench/search.md).
# "learned": an English query with MiniLM vectors is ranked by the learned fusion instead
# (search/learned.py, fit on thousands of known-item queries of the tuning half); these
# weights rank the rest (no MiniLM in the atlas: the learned variant without it did not
# beat them in cross-validation) and other languages.
# "score_blend": the learned ranking is fused by reciprocal rank (rrf_k) with the score
# fusion's ranking of the same query at this weight (the learned one at 1), unless the query
# names a paper (then it is a known-item search: a paper's own name as the query, top-1 on
# the 15,602 papers 0.9934 without the blend, 0.9887 with it). The learned fusion was fit
# on one-target known items; on topic searches with many relevant papers the score fusion
# ranks better. Measured (benchmarks: tuning half of the known items, dev
# split of the need-based set, docs/bench/search.md, "the learned fusion blended with the
# score fusion"): need-based nDCG@10 of the
# English queries +0.015 ± 0.007 at 0.5 (+0.011 ± 0.004 at 0.375, +0.017 ± 0.008 at 0.75,
# +0.027 ± 0.015 for the score fusion alone), known-item MRR@10 +0.0005 (the score fusion
# alone: -0.005, paraphrases -0.013).
FUSION: dict[str, Any] = {
    "learned": True,
    "score_blend": 0.5,
    "method": "score",
    "rrf_k": 60,
    "keyword_weight": 2.0,
    "vector_weight": 0.5,
    "keyword_scale": "ceiling",
    "name_weight": 1.0,
    "minilm_weight": 0.5,
    "multilingual_weight": 0.125,
}
# Overrides of FUSION for queries in other languages (their terms come from a learned,
# noisier translation), chosen on the tuning half of the Chinese known-item queries with
# the glossary off.
FUSION_FOREIGN: dict[str, Any] = {
    "keyword_weight": 1.5,
    "vector_weight": 1.0,
    "minilm_weight": 1.0,
    "multilingual_weight": 2.0,
}


# A person's own note or tags holding the query's words (search/kept_match.py): fused
# with the ranking of the paper's own text, whose scores are scaled to [0, 1], at this
# weight times the square of the share of the query's words found: a note holding all of
# them puts its paper first (they wrote it for finding it again), one holding half of them
# (0.375) beside a good match of the papers' text.
KEPT_WEIGHT = 1.5


def fusion_for(language: str, fusion: dict[str, Any] | None = None) -> dict[str, Any]:
    """The fusion settings a query in `language` gets: FUSION, the foreign-language
    overrides, then the caller's. ValueError for a setting FUSION does not have: a
    misspelt or removed one would otherwise change nothing, silently."""
    unknown = sorted(set(fusion or ()) - FUSION.keys())
    if unknown:
        raise ValueError(f"unknown fusion settings {unknown} (known: {sorted(FUSION)})")
    return {**FUSION, **(FUSION_FOREIGN if language != "en" else {}), **(fusion or {})}


SHOWN_TERMS = 10  # a translated query's terms marked in snippets (Rankings.shown_terms)

# BM25 weight factor for a non-English query the glossary could not translate (only its
# stray Latin-script words, e.g. "KV", can match the index).
FOREIGN_KEYWORD_WEIGHT = 0.3


def fuse(rankings: list[tuple], method: str = "rrf", rrf_k: float = 60.0) -> list[tuple[str, float]]:
    """One ranking from several: each is (list of (id, score) best first, weight) or
    (list, weight, ceiling).

    "rrf": score = sum of weight / (rrf_k + rank). "score": a weighted sum (absent = 0)
    of each list's scores divided by its `ceiling` when one is given (an absolute scale:
    a list's only hit keeps its score), else scaled to [0, 1] by the list's own maximum
    and minimum.
    """
    fused: dict[str, float] = {}
    for ranking, weight, *rest in rankings:
        if not ranking or weight <= 0:
            continue
        ceiling = rest[0] if rest else None
        if method == "rrf":
            for rank, (pid, _) in enumerate(ranking, start=1):
                fused[pid] = fused.get(pid, 0.0) + weight / (rrf_k + rank)
        elif method == "score" and ceiling:
            for pid, s in ranking:
                fused[pid] = fused.get(pid, 0.0) + weight * s / ceiling
        elif method == "score":
            scores = [s for _, s in ranking]
            hi, lo = max(scores), min(scores)
            span = hi - lo or 1.0
            for pid, s in ranking:
                fused[pid] = fused.get(pid, 0.0) + weight * (s - lo) / span
        else:
            raise ValueError(f"unknown fusion method {method!r}")
    return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass
class Rankings:
    """The candidate lists for one query, before fusion."""

    language: str
    terms: list[str]  # keyword terms (of the translation, if any)
    keyword: list[tuple[str, float]]  # (id, bm25) best first
    vector: list[tuple[str, float]]  # (id, cosine) best first
    model: str | None
    notes: list[str]
    # Non-English queries only (empty otherwise):
    # the query translated word by word with the glossary, when any of it is known
    translation: str | None = None
    # the translation searched among the English model's vectors
    translated: list[tuple[str, float]] = field(default_factory=list)
    # neighbours, in the English model's space, of the papers the multilingual model
    # ranked first (pseudo-relevance feedback)
    feedback: list[tuple[str, float]] = field(default_factory=list)
    # the most BM25 the keyword terms can give a paper (keyword.ceiling)
    keyword_ceiling: float = 0.0
    # papers whose own name the query is or holds (name_ranking)
    named: list[tuple[str, float]] = field(default_factory=list)
    # the query (or its translation) among the MiniLM vectors, when the atlas has them
    minilm: list[tuple[str, float]] = field(default_factory=list)
    # a non-English query translated by the glossary alone (no learned terms): fused with
    # the English weights, since its terms are as reliable as an English query's
    glossary_only: bool = False
    # the learned fusion's candidates' cosines ("vector": the main model, "minilm"), also
    # for those outside a list's depth (learned.pool_cosines)
    cosines: dict[str, dict[str, float]] = field(default_factory=dict)
    # a translated query's keyword terms -> their weights (None for English)
    term_weights: dict[str, float] | None = None
    # the English model of `translated` and `feedback`
    english_model: str | None = None
    # an English query with misspelt words: what it was searched as (spelling.py)
    corrected: str | None = None

    def shown_terms(self) -> list[str]:
        """The terms a hit's snippet and matched words show: all of an English query's;
        a translated query's SHOWN_TERMS best-weighted (its learned terms run to ~20,
        the weakest of them noise, and each costs a pass over every hit's text)."""
        if not self.term_weights or len(self.terms) <= SHOWN_TERMS:
            return self.terms
        weights = self.term_weights
        keep = set(sorted(self.terms, key=lambda t: -weights.get(t, 0.0))[:SHOWN_TERMS])
        return [t for t in self.terms if t in keep]

    @property
    def fusion_language(self) -> str:
        """The language whose fusion weights apply (`fusion_for`)."""
        return "en" if self.glossary_only else self.language

    def keyword_list(self, fusion: dict[str, Any] | None = None) -> tuple:
        """The keyword list as `fuse` takes it: with its ceiling when the fusion scales
        BM25 by it."""
        fusion = fusion_for(self.fusion_language, fusion)
        if fusion.get("keyword_scale") == "ceiling" and self.keyword_ceiling > 0:
            return (self.keyword, fusion["keyword_weight"], self.keyword_ceiling)
        return (self.keyword, fusion["keyword_weight"])

    def semantic(self, fusion: dict[str, Any] | None = None) -> list[tuple[str, float]]:
        """The vector side alone. English: the vector list. Translated queries: the
        translation's English-model list, with the multilingual list as a light second
        opinion. Untranslated ones: the multilingual list and its feedback list."""
        fusion = fusion_for(self.fusion_language, fusion)
        if self.translated:
            return fuse(
                [(self.translated, 1.0), (self.vector, fusion["multilingual_weight"])], method="score"
            )
        if self.feedback:
            return fuse([(self.vector, 1.0), (self.feedback, 1.0)], method="rrf", rrf_k=fusion["rrf_k"])
        return self.vector


def fuse_rankings(r: Rankings, fusion: dict[str, Any] | None = None) -> tuple[list[tuple[str, float]], str]:
    """(fused ranking, mode) from the keyword side and the vector side."""
    fusion = fusion_for(r.fusion_language, fusion)
    if fusion.get("learned") and (r.keyword or r.named) and learned.applies(r):
        mode = "hybrid" if r.keyword else "semantic"
        ranked = learned.learned_ranking(r)
        blend = fusion.get("score_blend", 0.0)
        if blend > 0 and not r.named:  # a query naming a paper is a known-item search
            scored, _ = fuse_rankings(r, {**fusion, "learned": False})
            ranked = fuse([(ranked, 1.0), (scored, blend)], method="rrf", rrf_k=fusion["rrf_k"])
        return ranked, mode
    semantic = r.semantic(fusion)
    named = [(r.named, fusion.get("name_weight", 0.0), 1.0)] if r.named else []
    if not semantic and not named:
        return r.keyword, "keyword"
    if not r.keyword and not named:
        return semantic, "semantic"
    lists: list[tuple[Any, ...]] = list(named)
    if r.keyword:
        keyword = r.keyword_list(fusion)
        if r.language != "en" and not r.translation:  # only stray Latin words to match
            keyword = (keyword[0], keyword[1] * FOREIGN_KEYWORD_WEIGHT, *keyword[2:])
        lists.append(keyword)
    if semantic:
        lists.append((semantic, fusion["vector_weight"]))
    if r.minilm:
        lists.append((r.minilm, fusion.get("minilm_weight", 0.0)))
    mode = "hybrid" if r.keyword and semantic else "keyword" if r.keyword else "semantic"
    fused = fuse(lists, method=fusion["method"], rrf_k=fusion["rrf_k"])
    # a paper that scored nothing on any list (the last of a min-max scaled list) is not
    # a hit: listing it would show a result with no matched term and no meaning
    return [(pid, s) for pid, s in fused if s > 0.0], mode
