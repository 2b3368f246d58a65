"""Likes, dislikes and collections, and recommendations from them.

A collection is a named set of marks (+1 like, -1 dislike) in the store's `marks` table;
"likes" is the default one. `recommend` ranks the papers not yet marked by a model of
the liked ones, arxiv-sanity style:

- with 5 or more likes, a linear SVM over each paper's features (the stored embedding of
  the most weighted model, static where the atlas has it, beside a TF-IDF vector of title,
  abstract and keywords), liked papers against the rest, dislikes weighted as sure
  negatives;
- with 1-4 likes, too few to fit a classifier, cosine similarity to the likes' centroid
  (minus a share of the similarity to the dislikes' centroid);
- either way, each other stored model with weight in RECOMMEND_WEIGHTS for the mode ranked
  apart, by its cosine to the likes' centroid, and fused as `similar` fuses its signals:
  every score standardised over the papers, summed with the weights. The weights were
  learned by benchmarks/recommend_tune.py on half of its simulated users (ICLR interests
  and CSFCube query-facet pairs, 1 to 20 likes), under the rule that neither kind of ICLR
  user may rank worse than the first ranking alone: from 5 likes MiniLM at 0.1; below,
  none (each fusion that helped the other users cost the primary-area ones).

The TF-IDF vectors are those `embed` saved beside the atlas (`embed/words.py`), fit here only
when missing or stale, so a first recommendation reads them.

Every pick is explained: the liked papers closest to it, and the terms it shares with
what was liked (for the SVM, the terms that pushed its score up most).

The ranking functions (`rank_centroid`, `rank_linear`, `explain`) are pure: arrays in,
(indices, scores, reasons) out, so the benchmark runs them on the full data set without
a store.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from paperatlas.embed.normalise import normalise_rows
from paperatlas.embed.words import word_matrix
from paperatlas.errors import PaperatlasError
from paperatlas.filters import ALL_PAPERS, Filters
from paperatlas.likes import DEFAULT_COLLECTION, check_collection, collection_ids
from paperatlas.paper import shown_title

MIN_LIKES_FOR_CLASSIFIER = 5
DISLIKE_WEIGHT = 0.5  # centroid mode: how much similarity to dislikes subtracts
EMBEDDING_WEIGHT = 1.0  # relative weight of the embedding block vs the TF-IDF block
CENTROID, CLASSIFIER = "centroid similarity", "linear SVM"  # the two modes (`method_for`)
# Each model's weight per mode, over the most weighted stored one's (the first ranking's), chosen
# by benchmarks/recommend_tune.py on its tuning users (ICLR interests and CSFCube query-facet
# pairs, 1-20 likes): the best fusion under which neither kind of ICLR user ranked worse than
# the first ranking alone. From 5 likes MiniLM's cosine adds a little; below, every fusion that
# helped the other users cost the primary-area users, so the centroid reads static alone.
MINILM = "minilm-int8"
RECOMMEND_WEIGHTS: dict[str, dict[str, float]] = {
    CENTROID: {"static": 1.0, MINILM: 0.0, "use-multilingual": 0.0},
    CLASSIFIER: {"static": 1.0, MINILM: 0.1, "use-multilingual": 0.0},
}
SVM_C = 0.01  # strong regularisation: few positives (0.1 and 1 did worse in the benchmark)


# -- features --------------------------------------------------------------------------------


@dataclass
class Features:
    """Per-paper features, rows aligned with `ids`.

    emb: L2-normalised embeddings [n, d] or None (the most weighted model's: the
    classifier's); tfidf: L2-normalised sparse [n, V]; terms: the TF-IDF vocabulary,
    column order; side: the other models' L2-normalised embeddings, ranked beside the first
    ranking (`with_side_signals`) at each mode's weights (`recommend_weights`), or at
    `weights` when given (one weighting for both modes, as a benchmark tries).
    """

    ids: list[str]
    emb: np.ndarray | None
    tfidf: Any
    terms: np.ndarray
    model: str | None = None
    side: dict[str, np.ndarray] = field(default_factory=dict)
    weights: dict[str, float] | None = None

    def index(self) -> dict[str, int]:
        return {pid: i for i, pid in enumerate(self.ids)}

    def side_weights(self, n_likes: int) -> dict[str, float]:
        """Each side model's weight, relative to the first ranking's, for this many likes."""
        main = self.model.split(" + ")[0] if self.model else None
        weights = self.weights or recommend_weights([m for m in (main, *self.side) if m], method_for(n_likes))
        top = weights.get(main, 1.0) if main else 1.0
        return {m: weights.get(m, 0.0) / top for m in self.side if top > 0}

    def models_used(self, n_likes: int) -> str | None:
        """The models that rank for this many likes, "static + minilm-int8" style."""
        if not self.model:
            return None
        used = [m for m, w in self.side_weights(n_likes).items() if w > 0]
        return " + ".join([self.model.split(" + ")[0], *used])


def recommend_weights(stored: Sequence[str], method: str = CLASSIFIER) -> dict[str, float]:
    """Each model's weight in a mode for an atlas holding `stored` (best first):
    RECOMMEND_WEIGHTS; a model it does not name (lsa, the torch MiniLM) gets MiniLM's; and an
    atlas whose every model is weighted 0 still reads its first one."""
    learned = RECOMMEND_WEIGHTS[method]
    weights = {m: learned.get(m, learned[MINILM]) for m in stored}
    if stored and not any(w > 0 for w in weights.values()):
        weights[stored[0]] = 1.0
    return weights


def pick_models(store, model: str | None = None) -> list[str]:
    """The embedding models to use: the one asked for (it must be stored), else every
    stored model that RECOMMEND_WEIGHTS gives weight in a mode for an English text."""
    from paperatlas.search.vectors import vector_models_for

    if model is not None:
        if model not in store.vectors.models():
            raise PaperatlasError(f"no vectors for model {model!r} in {store.path} (run `paperatlas embed`)")
        return [model]
    stored = vector_models_for(store, "en")
    weighted = [recommend_weights(stored, method) for method in RECOMMEND_WEIGHTS]
    return [m for m in stored if any(w[m] > 0 for w in weighted)]


_cache_lock = threading.Lock()
_cache: dict[tuple, Features] = {}


def _store_signature(store, models: list[str]) -> tuple:
    return (
        str(store.path),
        tuple(models),
        store.papers.signature(),
        tuple(store.vectors.count(m) for m in models),
    )


def load_features(store, model: str | None = None) -> Features:
    """Features of every paper in the store (cached per process until the store changes):
    TF-IDF beside the embeddings of `model`, or of every model `pick_models` names."""
    models = pick_models(store, model)
    key = _store_signature(store, models)
    with _cache_lock:
        if key in _cache:
            return _cache[key]
    ids, tfidf, terms = word_matrix(store)
    blocks = {}
    where = {pid: i for i, pid in enumerate(ids)}
    for name in models:
        vec_ids, vectors = store.vectors.get(name)
        if len(vec_ids):
            block = np.zeros((len(ids), vectors.shape[1]), dtype=np.float32)
            for j, pid in enumerate(vec_ids):
                if pid in where:
                    block[where[pid]] = vectors[j]
            blocks[name] = normalise_rows(block)
    features = split_models(ids, blocks, tfidf, terms)
    with _cache_lock:
        _cache.clear()  # one store at a time is plenty; keeps memory flat
        _cache[key] = features
    return features


def split_models(
    ids: list[str], blocks: dict[str, np.ndarray], tfidf, terms, weights: dict[str, float] | None = None
) -> Features:
    """Features from each model's unit rows: the most weighted model's (the first of equals;
    by the classifier's weights unless `weights` are given) is the classifier's embedding;
    each other model with weight is a side signal. With `weights`, those weights hold in both
    modes; without, each mode's own (RECOMMEND_WEIGHTS)."""
    if weights is None:
        every = [recommend_weights(list(blocks), method) for method in RECOMMEND_WEIGHTS]
        used = [m for m in blocks if any(w[m] > 0 for w in every)]
        ranked = recommend_weights(list(blocks), CLASSIFIER)
    else:
        used = [m for m in blocks if weights.get(m, 0.0) > 0]
        ranked = weights
    if not used:
        return Features(ids=ids, emb=None, tfidf=tfidf, terms=terms)
    main = max(used, key=lambda m: ranked.get(m, 0.0))
    side = {m: blocks[m] for m in used if m != main}
    return Features(
        ids=ids,
        emb=blocks[main],
        tfidf=tfidf,
        terms=terms,
        model=" + ".join([main, *side]),  # the classifier's model first: `side_weights` reads it
        side=side,
        weights=weights,
    )


# -- pure ranking -------------------------------------------------------------------------------


def _standardise(scores: np.ndarray) -> np.ndarray:
    std = float(scores.std())
    return (scores - scores.mean()) / std if std > 0 else scores - scores.mean()


def with_side_signals(
    features: Features, scores: np.ndarray, liked: list[int], disliked: Sequence[int] = ()
) -> np.ndarray:
    """The first ranking's scores with each side model's added, as `similar` fuses its
    signals: each standardised over every paper, summed with the models' weights for this
    many likes (the first ranking at weight 1). A side model's score of a paper: its cosine
    to the likes' centroid, less DISLIKE_WEIGHT times that to the dislikes'."""
    weights = {m: w for m, w in features.side_weights(len(liked)).items() if w > 0}
    if not weights:
        return scores
    total = _standardise(np.asarray(scores, dtype=np.float64))
    for name, weight in weights.items():
        matrix = features.side[name]
        cosine = matrix @ _centroid(matrix, list(liked))
        if len(disliked):
            cosine = cosine - DISLIKE_WEIGHT * (matrix @ _centroid(matrix, list(disliked)))
        total += weight * _standardise(np.asarray(cosine, dtype=np.float64))
    return total


def rank_scores(
    features: Features, liked: list[int], disliked: Sequence[int] = (), design=None
) -> tuple[np.ndarray, np.ndarray | None]:
    """(every row's score, the SVM's TF-IDF weights or None): the SVM from
    MIN_LIKES_FOR_CLASSIFIER likes on, else the centroid, with the side models' signals."""
    coef = None
    if method_for(len(liked)) == CLASSIFIER:
        scores, coef = rank_linear(features, liked, disliked, design=design)
        coef = coef[: features.tfidf.shape[1]]  # the TF-IDF block explains by words
    else:
        scores = rank_centroid(features, liked, disliked)
    return with_side_signals(features, scores, liked, disliked), coef


def _centroid(matrix, rows: list[int]) -> np.ndarray:
    centroid = np.asarray(matrix[rows].mean(axis=0)).ravel()
    norm = np.linalg.norm(centroid)
    return centroid / norm if norm else centroid


def rank_centroid(features: Features, liked: list[int], disliked: Sequence[int] = ()) -> np.ndarray:
    """Scores for every row: cosine to the likes' centroid (embedding and TF-IDF averaged),
    minus DISLIKE_WEIGHT times cosine to the dislikes' centroid."""

    def similarity(rows):
        parts = [features.tfidf @ _centroid(features.tfidf, rows)]
        if features.emb is not None:
            parts.append(EMBEDDING_WEIGHT * (features.emb @ _centroid(features.emb, rows)))
        return np.sum(parts, axis=0) / len(parts)

    scores = similarity(list(liked))
    if len(disliked):
        scores = scores - DISLIKE_WEIGHT * similarity(list(disliked))
    return np.asarray(scores, dtype=np.float64).ravel()


def design_matrix(features: Features):
    """The classifier's input: TF-IDF beside the embedding, as one sparse float64 matrix (the
    SVM's own type: it would copy another). Built from the blocks' arrays directly: a sparse
    copy of the dense block, then a stack, took longer than reading the features."""
    if features.emb is None:
        return features.tfidf
    from scipy import sparse

    tfidf = features.tfidf.tocsr()
    n, d = features.emb.shape
    per_row = np.diff(tfidf.indptr)
    # each row holds its TF-IDF entries, then the embedding's d columns after the vocabulary
    words_at = np.arange(tfidf.nnz) + np.repeat(np.arange(n), per_row) * d
    emb_at = ((tfidf.indptr[1:] + np.arange(n) * d)[:, None] + np.arange(d)).ravel()
    data = np.empty(tfidf.nnz + n * d, dtype=np.float64)
    indices = np.empty(tfidf.nnz + n * d, dtype=np.int32)
    data[words_at], indices[words_at] = tfidf.data, tfidf.indices
    data[emb_at] = EMBEDDING_WEIGHT * np.asarray(features.emb, dtype=np.float64).ravel()
    indices[emb_at] = np.tile(np.arange(tfidf.shape[1], tfidf.shape[1] + d, dtype=np.int32), n)
    indptr = tfidf.indptr.astype(np.int64) + np.arange(n + 1) * d
    return sparse.csr_matrix((data, indices, indptr), shape=(n, tfidf.shape[1] + d))


def rank_linear(
    features: Features, liked: list[int], disliked: Sequence[int] = (), design=None
) -> tuple[np.ndarray, np.ndarray]:
    """(scores for every row, the fitted weights) from a linear SVM: liked papers are the
    positives, every other paper a negative; dislikes count as negatives with more weight."""
    from sklearn.svm import LinearSVC

    X = design if design is not None else design_matrix(features)
    n = X.shape[0]
    y = np.zeros(n, dtype=np.int8)
    y[list(liked)] = 1
    weights = np.ones(n, dtype=np.float64)
    if len(disliked):
        weights[list(disliked)] = 3.0
    svm = LinearSVC(C=SVM_C, class_weight="balanced", max_iter=5000, tol=1e-5)
    svm.fit(X, y, sample_weight=weights)
    return svm.decision_function(X).astype(np.float64), svm.coef_.ravel()


def top_unseen(
    scores: np.ndarray, exclude: Iterable[int], k: int, allowed: np.ndarray | None = None
) -> np.ndarray:
    """Indices of the k best-scoring rows that are not excluded (and are allowed)."""
    scores = scores.astype(np.float64, copy=True)
    scores[list(exclude)] = -np.inf
    if allowed is not None:
        scores[~allowed] = -np.inf
    valid = int(np.isfinite(scores).sum())
    k = min(k, valid)
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    top = np.argpartition(-scores, k - 1)[:k]
    return top[np.argsort(-scores[top], kind="stable")]


def explain(
    features: Features,
    row: int,
    liked: list[int],
    coef: np.ndarray | None = None,
    n_closest: int = 2,
    n_terms: int = 5,
) -> tuple[list[tuple[int, float]], list[str]]:
    """Why a row was picked: ([(liked row, cosine)], [shared terms]).

    Terms are those the pick shares with the liked papers, ranked by how much each adds to
    the score: the SVM weight times the pick's TF-IDF value, or (centroid mode) the product
    of the pick's and the likes' mean TF-IDF values.
    """
    matrix = features.emb if features.emb is not None else features.tfidf
    sims = matrix[list(liked)] @ (matrix[row].T if hasattr(matrix, "tocsr") else matrix[row])
    sims = np.asarray(sims.todense() if hasattr(sims, "todense") else sims).ravel()
    order = np.argsort(-sims)[:n_closest]
    closest = [(int(liked[i]), float(sims[i])) for i in order]

    vec = features.tfidf[row]
    cols, values = vec.indices, vec.data
    if len(cols) == 0:
        return closest, []
    liked_mean = np.asarray(features.tfidf[list(liked)].mean(axis=0)).ravel()
    shared = liked_mean[cols] > 0
    if coef is not None:
        contribution = values * coef[cols]
    else:
        contribution = values * liked_mean[cols]
    contribution = np.where(shared & (contribution > 0), contribution, 0.0)
    best = np.argsort(-contribution)[: n_terms * 3]
    terms: list[str] = []
    for j in best:
        if contribution[j] <= 0:
            break
        term = str(features.terms[cols[j]])
        # a bigram already covers its words, and a word its bigram: keep the first seen
        if any(term in t or t in term for t in terms):
            continue
        terms.append(term)
        if len(terms) == n_terms:
            break
    return closest, terms


# -- recommendations ------------------------------------------------------------------------------


@dataclass
class Pick:
    paper_id: str
    score: float
    title: str
    closest: list[dict[str, Any]] = field(default_factory=list)  # [{id, title, similarity}]
    terms: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "reasons": self.reasons}

    @property
    def reasons(self) -> list[str]:
        """Why it was picked, as whole sentences: the liked papers it is closest to, by their
        full titles (a title cut short can name the wrong paper), and the words it shares."""
        sentences = []
        if self.closest:
            titles = [f"“{c['title']}”" for c in self.closest]
            listed = titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]
            sentences.append(f"Close to {listed}, which you liked.")
        if self.terms:
            sentences.append(f"Shares the terms {', '.join(self.terms)}.")
        return sentences


@dataclass
class Recommendations:
    """The `Pick`s, best first, plus how they were made (method, message). Iterates,
    indexes and counts as its picks (`for pick in atlas.recommend()`)."""

    picks: list[Pick] = field(default_factory=list)
    method: str = "none"
    collection: str = DEFAULT_COLLECTION
    n_likes: int = 0
    n_dislikes: int = 0
    model: str | None = None
    message: str = ""
    missing_model: str | None = None  # a model these picks would fuse whose vectors the atlas lacks

    def __iter__(self) -> Iterator[Pick]:
        return iter(self.picks)

    def __len__(self) -> int:
        return len(self.picks)

    def __getitem__(self, index: int) -> Pick:
        return self.picks[index]

    @property
    def hints(self) -> list[str]:
        """What would make these picks better, as sentences: more likes for the classifier,
        a model's vectors to add (`message`)."""
        out = [self.message] if self.message else []
        if 0 < self.n_likes < MIN_LIKES_FOR_CLASSIFIER:
            more = MIN_LIKES_FOR_CLASSIFIER - self.n_likes
            out.append(
                f"Like {more} more paper{'s' if more > 1 else ''} ({MIN_LIKES_FOR_CLASSIFIER} in all) "
                f"and a {CLASSIFIER} learns what you like, instead of the {CENTROID} of your likes."
            )
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "collection": self.collection,
            "method": self.method,
            "model": self.model,
            "likes": self.n_likes,
            "dislikes": self.n_dislikes,
            "message": self.message,
            "hints": self.hints,
            "picks": [p.to_dict() for p in self.picks],
        }


def recommend(
    store,
    collection: str = DEFAULT_COLLECTION,
    k: int = 30,
    model: str | None = None,
    filters: Filters = ALL_PAPERS,
) -> Recommendations:
    """The k best unseen papers for a collection, each with its reasons.

    `filters` (paperatlas/filters.py) narrow the candidates; the model is always fit
    against the whole store.
    """
    collection = check_collection(collection)
    liked_ids, disliked_ids = collection_ids(store, collection)
    if not liked_ids:
        known = store.marks.collections()
        hint = (
            f"; collections with likes: {', '.join(sorted(known))}"
            if known
            else "; like some first: `paperatlas like ID…`"
        )
        return Recommendations(
            collection=collection,
            n_dislikes=len(disliked_ids),
            message=f"no liked papers in collection {collection!r}{hint}",
        )
    if k <= 0:
        raise PaperatlasError(f"k must be positive, not {k}")

    features = load_features(store, model)
    where = features.index()
    liked = [where[i] for i in liked_ids if i in where]
    disliked = [where[i] for i in disliked_ids if i in where]
    allowed = None
    if filters.narrows():
        keep = {p["id"] for p in store.papers.iter(filters, id_only=True)}
        allowed = np.fromiter((pid in keep for pid in features.ids), dtype=bool, count=len(features.ids))

    ids, scores, why = rank(features, liked, disliked, k, allowed)
    papers = {p["id"]: p for p in store.papers.iter(ids=ids + [features.ids[i] for i in liked])}
    picks = [
        Pick(
            paper_id=pid,
            score=round(score, 4),
            title=shown_title(papers[pid]),
            closest=[
                {"id": cid, "title": shown_title(papers[cid]), "similarity": round(sim, 3)}
                for cid, sim in reason["closest"]
            ],
            terms=reason["terms"],
        )
        for pid, score, reason in zip(ids, scores, why)
    ]
    missing = None if (model or not picks) else _missing_model(store, len(liked))
    message = (
        "no unseen papers match the filters"
        if not picks
        else f"this atlas has no {missing} vectors, which recommendations from {len(liked)} likes"
        " fuse; `paperatlas embed` adds them"
        if missing
        else ""
    )
    return Recommendations(
        picks,
        method=method_for(len(liked)),
        collection=collection,
        n_likes=len(liked),
        n_dislikes=len(disliked),
        model=features.models_used(len(liked)),
        message=message,
        missing_model=missing,
    )


def _missing_model(store, n_likes: int) -> str | None:
    """What `embed` would add: MiniLM, where this many likes would fuse its vectors and the
    atlas has none."""
    from paperatlas.search.vectors import vector_models_for

    if RECOMMEND_WEIGHTS[method_for(n_likes)][MINILM] <= 0 or MINILM in vector_models_for(store, "en"):
        return None
    return MINILM


def method_for(n_likes: int) -> str:
    return CLASSIFIER if n_likes >= MIN_LIKES_FOR_CLASSIFIER else CENTROID


def rank(
    features: Features,
    liked: list[int],
    disliked: Sequence[int] = (),
    k: int = 30,
    allowed: np.ndarray | None = None,
) -> tuple[list[str], list[float], list[dict]]:
    """The pure core of `recommend`: (ids, scores, why) of the k best rows that are neither
    liked nor disliked; why = {"closest": [(liked id, cosine)], "terms": [shared terms]}."""
    liked, disliked = list(liked), list(disliked)
    scores, coef = rank_scores(features, liked, disliked)
    top = top_unseen(scores, liked + disliked, k, allowed)
    why = []
    for row in top:
        closest, terms = explain(features, int(row), liked, coef)
        why.append({"closest": [(features.ids[r], sim) for r, sim in closest], "terms": terms})
    return [features.ids[i] for i in top], [float(scores[i]) for i in top], why
