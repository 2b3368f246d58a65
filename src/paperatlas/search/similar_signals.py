"""More like this on every signal the atlas holds: BM25 of the text's key terms and the
cosine in each stored model's space, each put on one scale and summed with learned weights.

A query is a text (a pasted abstract) or a stored paper (`similar ID`, a paper's page):
the paper's stored vectors are the query in each model's space, its text gives the key
terms. (`recommend` fuses its models' rankings the same way, with weights of its own.)
Each signal's score of a paper is standardised by that signal's mean and spread over the
whole atlas for this query (the same query scores every paper), so a cosine of 0.6 in a
model where every paper scores 0.5 counts for less than 0.4 where they score 0.1. The
fused score is the weighted sum; the candidates are every signal's first `depth` papers.

The weights (SIGNAL_WEIGHTS) were fit by benchmarks/similar_tune.py: a grid over the
weights, scored by NDCG@20 on held-out ICLR 2026 papers of the tuning half (relevance: the
same primary area, plus a shared author keyword) and MAP on one CSFCube fold, each divided
by its best single signal's figure. Alone, the static model ranks best on the first (it
learned the primary areas), MiniLM and BM25 on the second; the weights trade between them.
The figures, and the other halves' single read, are in docs/benchmarks.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

import numpy as np

from paperatlas.search.keyword import key_terms, weighted_ranking
from paperatlas.search.language import detect_language
from paperatlas.search.notes import Note
from paperatlas.search.vectors import (
    MINILM_MODEL,
    embed_query,
    one_blas_thread,
    open_index,
    vector_models_for,
)

KEYWORD = "keyword"  # the BM25 signal's name beside the models'
SIGNAL_WEIGHTS: dict[str, float] = {
    KEYWORD: 0.25,
    "static": 0.5,
    MINILM_MODEL: 1.0,
    "use-multilingual": 0.0,  # read for English texts it added nothing on the tuning data
}
# weights for a text not in English: the keyword index and the English models cannot read it
FOREIGN_WEIGHTS: dict[str, float] = {"use-multilingual": 1.0}
STATS_SAMPLE = 500  # papers whose scores estimate a vector signal's mean and spread
KEYWORD_DEPTH = 300  # the BM25 list's least depth (candidates below it score its last)


@dataclass
class SignalScores:
    """Every candidate's standardised score on every signal used (rows of `ids`)."""

    ids: list[str]
    scores: dict[str, np.ndarray] = field(default_factory=dict)  # signal -> z-score per candidate
    language: str = "en"
    notes: list[str] = field(default_factory=list)
    weights: dict[str, float] = field(default_factory=dict)  # those the signals were chosen by
    terms: list[str] = field(default_factory=list)  # the key terms, most telling first
    keyword: list[tuple[str, float]] = field(default_factory=list)  # (id, BM25) best first
    cosines: dict[str, dict[str, float]] = field(default_factory=dict)  # model -> id -> cosine

    def fused(self, weights: dict[str, float] | None = None) -> list[tuple[str, float]]:
        """(id, weighted sum of the signals' z-scores), best first (by the weights the
        signals were chosen by, unless others are given)."""
        weights = weights if weights is not None else self.weights
        total = np.zeros(len(self.ids))
        for signal, z in self.scores.items():
            total += weights.get(signal, 0.0) * z
        scored = sorted(zip(self.ids, total.tolist()), key=lambda hit: (-hit[1], hit[0]))
        return [(pid, float(score)) for pid, score in scored]

    @property
    def models(self) -> list[str]:
        return [s for s in self.scores if s != KEYWORD]

    def meaning(self) -> list[tuple[str, float]]:
        """(id, cosine) in the most weighted model, best first: what a hit shows as its
        similarity of meaning."""
        if not self.models:
            return []
        model = max(self.models, key=lambda m: self.weights.get(m, 0.0))
        return sorted(self.cosines[model].items(), key=lambda hit: (-hit[1], hit[0]))


def missing_models(store) -> list[str]:
    """The models an English text's likeness weighs that the atlas has no vectors of
    (what `paperatlas embed` would add)."""
    stored = vector_models_for(store, "en")
    return [m for m in (MINILM_MODEL,) if m not in stored and weights_for("en", stored).get(m, 0.0) > 0]


def weights_for(language: str, stored: Sequence[str] = ()) -> dict[str, float]:
    """The signals' weights for a text in `language` over an atlas holding the vectors of
    `stored` (its models, best first): the learned ones; a model they do not name (lsa,
    the torch MiniLM) gets the static model's weight; and an atlas whose every model is
    weighted 0 for this language still reads its first one, at weight 1."""
    learned = SIGNAL_WEIGHTS if language == "en" else FOREIGN_WEIGHTS
    weights = {m: learned.get(m, SIGNAL_WEIGHTS["static"]) for m in stored if m not in SIGNAL_WEIGHTS}
    weights.update(learned)
    if stored and not any(weights.get(m, 0.0) > 0 for m in stored):
        weights[stored[0]] = 1.0
    return weights


def signal_scores(
    store,
    text: str,
    depth: int,
    like: Sequence[str] = (),
    exclude: AbstractSet[str] = frozenset(),
    allowed: AbstractSet[str] | None = None,
    weights: dict[str, float] | None = None,
) -> SignalScores:
    """The candidates for papers like `text` (or like the stored papers `like`, whose
    text it is) and their score on each signal that has weight: the first `depth` of
    each signal among `allowed`, less `exclude`."""
    language = detect_language(text)
    stored = vector_models_for(store, language)
    weights = weights if weights is not None else weights_for(language, stored)
    models = [m for m in stored if weights.get(m, 0.0) > 0]
    out = SignalScores(ids=[], language=language, weights=weights)
    if language == "en" and MINILM_MODEL not in stored and weights.get(MINILM_MODEL, 0.0) > 0:
        out.notes.append(
            Note(
                f"this atlas has no {MINILM_MODEL} vectors, so likeness is read from "
                f"{' and '.join(['keywords', *models])} alone; `paperatlas embed` adds them",
                "no_minilm_likeness" if models else "no_minilm_likeness_keywords",
                minilm=MINILM_MODEL,
                models=", ".join(models),
            )
        )
    wide = depth + len(exclude)
    lists: dict[str, list[tuple[str, float]]] = {}
    queries = {}
    with one_blas_thread():
        for model in models:
            index = open_index(store, model)
            qvec = _query_vector(store, index, model, text, like)
            if index is None or qvec is None:
                continue
            queries[model] = (index, qvec, _spread(index, qvec))
            lists[model] = index.search(qvec, wide, allowed)
    keyword_list: list[tuple[str, float]] = []
    if weights.get(KEYWORD, 0.0) > 0 and language == "en":
        terms = key_terms(store, text)
        out.terms = list(terms)
        keyword_list, kw_mean, kw_std = weighted_ranking(
            store, terms, max(depth, KEYWORD_DEPTH), allowed, exclude
        )
    candidates = dict.fromkeys(pid for ranked in lists.values() for pid, _ in ranked[:wide])
    candidates.update((pid, None) for pid, _ in keyword_list[:depth])
    out.ids = [pid for pid in candidates if pid not in exclude]
    if not out.ids:
        return out
    with one_blas_thread():
        for model, (index, qvec, (mean, std)) in queries.items():
            cosine = dict(index.search(qvec, len(out.ids), out.ids))
            out.cosines[model] = cosine
            values = np.array([cosine.get(pid, mean) for pid in out.ids])
            out.scores[model] = (values - mean) / std
    if keyword_list and kw_std > 0:
        out.keyword = keyword_list
        bm25 = dict(keyword_list)
        # a paper below the list scores at most its last; one outside a full list, that
        floor = keyword_list[-1][1] if len(keyword_list) >= max(depth, KEYWORD_DEPTH) else 0.0
        values = np.array([bm25.get(pid, floor) for pid in out.ids])
        out.scores[KEYWORD] = (values - kw_mean) / kw_std
    return out


def _query_vector(store, index, model: str, text: str, like: Sequence[str]):
    """The query in `model`'s space: the mean of the stored papers' vectors when they all
    have one, else the text embedded (by a model that reads long texts in windows, its
    first window: an abstract's second window costs as much again and, on CSFCube's tuning
    fold, changed MAP by 0.1)."""
    if index is None:
        return None
    if like:
        found, vectors = index.vectors_of(like)
        if len(found) == len(like):
            return vectors.mean(axis=0)
    return embed_query(store, model, text, start=True)


def _spread(index, qvec) -> tuple[float, float]:
    """The mean and standard deviation of the query's cosine over a fixed sample of the
    index (every paper when it holds at most STATS_SAMPLE). The query's own papers count
    too, so a paper's similar papers are those of its text, less itself."""
    ids = index.ids
    sample = ids[:: max(1, len(ids) // STATS_SAMPLE)]
    scores = np.array([s for _, s in index.search(qvec, len(sample), sample)])
    if len(scores) < 2:
        return 0.0, 1.0
    return float(scores.mean()), float(scores.std()) or 1.0
