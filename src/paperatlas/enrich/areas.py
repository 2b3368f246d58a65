"""ICLR 2026 primary-area classifier: text -> {label, prob, top3, tie} over the 21 areas.

Two linear models over the same TF-IDF terms (words and word pairs, tokenised like the
static embedding model): a multinomial logistic regression and a complement naive Bayes,
blended in log space (LR + NB_WEIGHT x NB + PRIOR_WEIGHT x log class share). Both are linear
in the TF-IDF vector, so they fold into one weight matrix. A third model sees meaning rather
than shared terms: a logistic regression over each text's static-embedding vector
(`area_vectors`, read off the same TF-IDF row), added as STATIC_WEIGHT x its log-probabilities.

Bare lists (abstracts without titles) are the common case, so the model is trained for
them: every training paper is given as its abstract alone, and (TITLE_COPY) also with its
title; the recipe was picked by abstract-only accuracy in 5-fold cross-validation inside
the training split (docs/bench/embeddings.md).

Probabilities are calibrated on a calibration fifth of the training split (`_calibration`,
a second hash), scored by a model fit on the other four fifths: the blended scores are
divided by a temperature (lowest log-loss), then the top-1 probability is mapped by an
isotonic regression to how often such a top-1 was right (the other areas rescaled to fill
the rest). The shipped model is then refit on the whole training split with both. A near-tie (top-1 minus top-2 < TIE_MARGIN) is
flagged, so pages show "A or B" instead of a confident-looking single area.

The model ships as `paperatlas/models/areas-v1.npz` (weights as float16, a few MB) and is
rebuilt by `paperatlas train-areas DATA`; it records the static model it was fit with and
refuses to load beside another. It reads any text (title and abstract, or an
abstract alone), not just ICLR rows.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from paperatlas.enrich.area_vectors import StaticProjection
from paperatlas.enrich.area_vectors import fingerprint as static_fingerprint
from paperatlas.errors import InputError, PaperatlasError
from paperatlas.paper import embedding_text
from paperatlas.text import tfidf_vectorizer

MODEL_FILE = "areas-v1.npz"
AREAS_FILE = "iclr2026_primary_areas.txt"
C = 1.5  # inverse regularisation of the lexical LR (5-fold CV in the training split: 4 -> 1.5, top-3 +0.25)
NB_ALPHA = 0.3  # smoothing of the complement naive Bayes
NB_WEIGHT = 2.0  # weight of NB's log-probabilities next to LR's (LR's weight is 1)
TITLE_COPY = True  # train on each abstract alone and also with its title
PRIOR_WEIGHT = -0.5  # x log(class share) added to the blend: big areas were over-predicted (CV)
STATIC_WEIGHT = 0.25  # x the static-vector LR's log-probabilities in the blend (5-fold CV, nested)
STATIC_C = 10.0  # inverse regularisation of that LR
TIE_MARGIN = 0.1  # top-1 and top-2 closer than this: shown as one ("A or B")
MIN_DF = 2  # a term must occur in two training papers
MAX_TERMS = 100_000
MIN_ABSTRACT = 100  # shorter abstracts are placeholders ("na", "."), not training data


def is_held_out(paper_id: str) -> bool:
    """The fixed evaluation split: ~20% of papers, by a hash of their id. Nothing shipped in
    paperatlas/models/ is fit on these papers unless asked (`train-areas --all`), so every
    benchmark figure is measured on them."""
    return int(hashlib.sha1(paper_id.encode("utf-8")).hexdigest()[:8], 16) % 5 == 0


def _models_dir() -> Path:
    return Path(str(resources.files("paperatlas") / "models"))


def area_names() -> list[str]:
    """The 21 ICLR 2026 primary areas, in OpenReview's alphabetical order."""
    text = (_models_dir() / AREAS_FILE).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _paper_text(title: str | None, abstract: str | None) -> str:
    return embedding_text(title, abstract)


def term_features(vocabulary=None, **fit_options):
    """TF-IDF of words and word pairs, tokenised like the static embedding model (the
    project's one TF-IDF set-up)."""
    fit_options.setdefault("ngram_range", (1, 2))
    return tfidf_vectorizer(vocabulary=vocabulary, **fit_options)


class TermWeights:
    """The TF-IDF rows `term_features(vocabulary)` with `idf_ = idf` gives, computed without
    importing scikit-learn (its import, which pulls in scipy.stats, was ~2 s of every enrich
    run's start) and with the per-term counting in C (Counter). Same steps, same float32
    arithmetic, same order: the terms of embed.terms.term_analyzer (scikit-learn's tokens,
    tests/test_static_terms.py), counts of the known ones, indices sorted, 1 + log(tf) times
    idf, each row divided by its l2 norm summed in float64 term by term as scikit-learn's
    inplace_csr_row_normalize_l2 does (tests/test_areas_classifier.py checks the matrices
    are equal)."""

    def __init__(self, vocabulary: dict[str, int], idf: np.ndarray):
        from paperatlas.embed.terms import term_analyzer

        self.vocabulary = vocabulary
        self.idf = np.asarray(idf, dtype=np.float32)
        self._analyze = term_analyzer(2)

    def transform(self, texts: Sequence[str]):
        from scipy import sparse

        vocabulary = self.vocabulary
        indices: list[int] = []
        counts: list[int] = []
        indptr = [0]
        for text in texts:
            for term, n in Counter(self._analyze(text)).items():
                j = vocabulary.get(term)
                if j is not None:
                    indices.append(j)
                    counts.append(n)
            indptr.append(len(indices))
        X = sparse.csr_matrix(
            (
                np.asarray(counts, dtype=np.float32),
                np.asarray(indices, dtype=np.int32),
                np.asarray(indptr, dtype=np.int32),
            ),
            shape=(len(indptr) - 1, len(vocabulary)),
            dtype=np.float32,
        )
        X.sort_indices()
        data = X.data
        np.log(data, data)
        data += 1.0
        data *= self.idf[X.indices]
        squares = (data * data).astype(np.float64)  # float32 products, summed in float64
        norms = np.ones(X.shape[0], dtype=np.float64)
        for i in range(X.shape[0]):
            lo, hi = X.indptr[i], X.indptr[i + 1]
            if hi > lo:
                total = np.cumsum(squares[lo:hi])[-1]  # one by one, in index order
                if total != 0.0:
                    norms[i] = np.sqrt(total)
        lengths = np.diff(X.indptr)
        X.data = (data.astype(np.float64) / np.repeat(norms, lengths)).astype(np.float32)
        return X


class AreaClassifier:
    """Softmax of a linear function of TF-IDF terms (words and word pairs)."""

    def __init__(
        self,
        classes: list[str],
        vocab: list[str],
        idf: np.ndarray,
        coef: np.ndarray,
        intercept: np.ndarray,
        calibration: tuple[np.ndarray, np.ndarray] | None = None,
        static: tuple[np.ndarray, np.ndarray, float] | None = None,
    ):
        self.classes = list(classes)
        self.vocabulary = {t: i for i, t in enumerate(vocab)}
        self.idf = np.asarray(idf, dtype=np.float32)
        self._vectorizer: Any = None  # scikit-learn's, built only when asked for
        self._terms: TermWeights | None = None
        self.coef = np.asarray(coef, dtype=np.float32)  # [terms, classes]
        self.intercept = np.asarray(intercept, dtype=np.float32)
        # top-1 probability -> how often such a top-1 was right (isotonic, calibration fifth)
        self.calibration = calibration
        # the LR over static vectors (area_vectors): coef [256, classes], intercept, blend weight
        self.static = (
            None if static is None else (np.asarray(static[0]), np.asarray(static[1]), float(static[2]))
        )
        self._projection: StaticProjection | None = None  # built on first use

    @property
    def vectorizer(self):
        """scikit-learn's TfidfVectorizer with this model's terms (what `fit` used; prediction
        uses `transform`, which gives the same matrix without importing scikit-learn)."""
        if self._vectorizer is None:
            self._vectorizer = term_features(self.vocabulary)
            self._vectorizer.idf_ = self.idf
        return self._vectorizer

    def transform(self, texts: Sequence[str]):
        """The texts' TF-IDF rows: `self.vectorizer.transform(texts)`, entry for entry."""
        if self._terms is None:
            self._terms = TermWeights(self.vocabulary, self.idf)
        return self._terms.transform(texts)

    def projection(self) -> StaticProjection:
        if self._projection is None:
            self._projection = StaticProjection(self.vocabulary, self.idf)
        return self._projection

    @classmethod
    def fit(cls, texts: Sequence[str], labels: Sequence[str], temperature: float = 1.0) -> AreaClassifier:
        from sklearn.linear_model import LogisticRegression
        from sklearn.naive_bayes import ComplementNB

        vectorizer = term_features(min_df=MIN_DF, max_df=0.5, max_features=MAX_TERMS)
        X = vectorizer.fit_transform(list(texts))
        y = np.asarray(labels)
        lr = LogisticRegression(C=C, max_iter=500).fit(X, y)
        nb = ComplementNB(alpha=NB_ALPHA).fit(X, y)
        coef, intercept = lr.coef_, lr.intercept_
        if len(lr.classes_) == 2:  # binary LR keeps one score; softmax over [0, score]
            coef = np.vstack([np.zeros_like(coef), coef])
            intercept = np.concatenate([[0.0], intercept])
        # NB's class score is X @ feature_log_prob_ (no prior with 2+ classes): linear too
        coef = (coef + NB_WEIGHT * nb.feature_log_prob_) / temperature
        share = np.array([np.mean(y == c) for c in lr.classes_])
        intercept = intercept + PRIOR_WEIGHT * np.log(share)
        # a per-term constant shifts every class score alike: drop it (float16 keeps detail)
        coef -= coef.mean(axis=0, keepdims=True)
        vocab = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get)
        static, projection = None, None
        if STATIC_WEIGHT:
            projection = StaticProjection(vectorizer.vocabulary_, vectorizer.idf_)
            vectors = LogisticRegression(C=STATIC_C, max_iter=1000).fit(projection.features(X), y)
            s_coef, s_intercept = vectors.coef_, vectors.intercept_
            if len(lr.classes_) == 2:
                s_coef = np.vstack([np.zeros_like(s_coef), s_coef])
                s_intercept = np.concatenate([[0.0], s_intercept])
            static = (s_coef.T, s_intercept, STATIC_WEIGHT / temperature)
        model = cls(
            [str(c) for c in lr.classes_],
            vocab,
            vectorizer.idf_,
            coef.T,
            intercept / temperature,
            static=static,
        )
        model._projection = projection
        return model

    def scores(self, texts: Sequence[str]) -> np.ndarray:
        """The (tempered) log-linear class scores; softmax of these is predict_proba."""
        X = self.transform(list(texts))
        scores = np.asarray(X @ self.coef) + self.intercept
        if self.static is not None:
            coef, intercept, weight = self.static
            # einsum, not @: on a busy machine BLAS threads cost more CPU than this small product
            # (docs/bench/embeddings.md, the section "a meaning signal in the blend")
            logits = np.einsum("ij,jk->ik", self.projection().features(X), coef) + intercept
            scores += weight * _log_softmax(logits)
        return scores

    def predict_proba(self, texts: Sequence[str], temperature: float = 1.0) -> np.ndarray:
        scores = self.scores(texts) / temperature
        scores -= scores.max(axis=1, keepdims=True)
        probs = np.exp(scores, dtype=np.float64)
        probs /= probs.sum(axis=1, keepdims=True)
        return recalibrate(probs, self.calibration) if self.calibration is not None else probs

    def save(self, path: str | Path) -> None:
        vocab = sorted(self.vocabulary, key=self.vocabulary.__getitem__)
        calibration: dict[str, Any] = (
            {} if self.calibration is None else {"cal_x": self.calibration[0], "cal_y": self.calibration[1]}
        )
        if self.static is not None:
            calibration.update(
                static_coef=self.static[0].astype(np.float32),
                static_intercept=self.static[1].astype(np.float32),
                static_weight=np.float32(self.static[2]),
                static_model=np.asarray(static_fingerprint()),
            )
        np.savez_compressed(
            path,
            classes=np.asarray(json.dumps(self.classes)),
            vocab=np.asarray(json.dumps(vocab)),
            idf=self.idf,
            coef=self.coef.astype(np.float16),
            intercept=self.intercept,
            **calibration,
        )

    @classmethod
    def load(cls, path: str | Path | None = None) -> AreaClassifier:
        path = Path(path) if path is not None else _models_dir() / MODEL_FILE
        if not path.exists():
            raise PaperatlasError(f"{path}: area model missing; train it with `paperatlas train-areas DATA`")
        with np.load(path, allow_pickle=False) as z:
            calibration = (z["cal_x"], z["cal_y"]) if "cal_x" in z.files else None
            static = None
            if "static_coef" in z.files:
                if str(z["static_model"]) != static_fingerprint():
                    raise PaperatlasError(
                        f"{path}: fit on another static embedding model than the one installed; "
                        "retrain it with `paperatlas train-areas DATA`"
                    )
                static = (z["static_coef"], z["static_intercept"], float(z["static_weight"]))
            return cls(
                json.loads(str(z["classes"])),
                json.loads(str(z["vocab"])),
                z["idf"],
                z["coef"],
                z["intercept"],
                calibration,
                static,
            )


def _log_softmax(scores: np.ndarray) -> np.ndarray:
    scores = scores - scores.max(axis=1, keepdims=True)
    return scores - np.log(np.exp(scores).sum(axis=1, keepdims=True))


_LOADED: dict[str, AreaClassifier] = {}


def predict_areas(texts: Sequence[str], model: AreaClassifier | None = None) -> list[dict[str, Any]]:
    """For each text: {label, prob, top3: [[label, prob], ...], tie}; probabilities sum to
    1 over the 21 areas. `tie` is True when the top two are within TIE_MARGIN: the area is
    a toss-up between them and is shown as "top-1 or top-2"."""
    texts = list(texts)
    if not texts:
        return []
    if model is None:
        if "default" not in _LOADED:
            _LOADED["default"] = AreaClassifier.load()
        model = _LOADED["default"]
    probs = model.predict_proba(texts)
    # the three best of every row at once (a list can hold hundreds of thousands of papers)
    order = np.argsort(-probs, axis=1)[:, :3]
    best = np.take_along_axis(probs, order, axis=1).tolist()
    classes = model.classes
    out = []
    for indices, values in zip(order.tolist(), best):
        top = [[classes[i], round(v, 4)] for i, v in zip(indices, values)]
        tie = len(top) > 1 and top[0][1] - top[1][1] < TIE_MARGIN
        out.append({"label": top[0][0], "prob": top[0][1], "top3": top, "tie": tie})
    return out


def area_label(predicted: dict[str, Any] | None) -> str:
    """How a predicted area is named on a page or in an export: its label, or "A or B"
    when the top two are a near-tie."""
    if not predicted:
        return ""
    top = predicted.get("top3") or []
    if predicted.get("tie") and len(top) > 1:
        return f"{top[0][0]} or {top[1][0]}"
    return str(predicted.get("label") or "")


def top3_text(predicted: dict[str, Any] | None, sep: str = " · ") -> str:
    """The top 3 with their probabilities: "reinforcement learning 62% · optimization 20% · ..."."""
    return sep.join(f"{label} {prob:.0%}" for label, prob in (predicted or {}).get("top3") or [])


# -- training ------------------------------------------------------------------------------------


def read_labelled(path: str | Path) -> list[dict[str, Any]]:
    """Rows {id, title, abstract, primary_area} from a JSON Lines file (gzip ok)."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, "no such file")
    opener = gzip.open if path.suffix == ".gz" else open
    known = set(area_names())
    by_stem = {a.rstrip(". "): a for a in known}
    rows = []
    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(path, f"not JSON ({exc.msg})", number) from None
                if not isinstance(row, dict) or not row.get("abstract"):
                    raise InputError(path, "expected an object with an abstract", number)
                area = row.get("primary_area")
                area = by_stem.get(str(area).rstrip(". "), area)  # "…, etc" vs "…, etc."
                if area not in known:
                    raise InputError(path, f"primary_area {area!r} is not an ICLR 2026 area", number)
                rows.append(
                    {
                        "id": str(row.get("id") or number),
                        "title": row.get("title"),
                        "abstract": row["abstract"],
                        "primary_area": area,
                    }
                )
    except (OSError, UnicodeDecodeError, EOFError) as exc:
        raise InputError(path, f"cannot read as JSON Lines ({exc})") from None
    return rows


def training_texts(rows: Sequence[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """The texts a model is fit on: each paper's abstract alone and, with TITLE_COPY, also
    its title and abstract (a bare list must not be a case the model never saw)."""
    texts, labels = [], []
    for r in rows:
        texts.append(_paper_text(None, r["abstract"]))
        labels.append(r["primary_area"])
        if TITLE_COPY and r.get("title"):
            texts.append(_paper_text(r["title"], r["abstract"]))
            labels.append(r["primary_area"])
    return texts, labels


def _calibration(paper_id: str) -> bool:
    """The calibration fifth of the training split (a second hash, independent of is_held_out)."""
    return int(hashlib.sha1(("v" + paper_id).encode("utf-8")).hexdigest()[:8], 16) % 5 == 0


def fit_temperature(scores: np.ndarray, y: np.ndarray) -> float:
    """The temperature T minimising the log-loss of softmax(scores / T) on labels y."""
    from scipy.optimize import minimize_scalar

    def loss(log_t: float) -> float:
        z = scores / np.exp(log_t)
        z = z - z.max(axis=1, keepdims=True)
        return float(np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(y)), y]))

    return float(np.exp(minimize_scalar(loss, bounds=(-3.0, 3.0), method="bounded").x))


def recalibrate(probs: np.ndarray, calibration: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Each row's top-1 probability mapped through the isotonic map (x -> y), the other
    areas scaled to fill the rest; the order of the areas is kept."""
    out = probs.copy()
    rows = np.arange(len(probs))
    top = probs.argmax(axis=1)
    c = probs[rows, top]
    second = np.sort(probs, axis=1)[:, -2] if probs.shape[1] > 1 else np.zeros(len(probs))
    g = np.interp(c, calibration[0], calibration[1])
    # never below what keeps it first once the others are rescaled: g >= p2 (1 - g) / (1 - c)
    g = np.clip(np.maximum(g, second / np.maximum(1 - c + second, 1e-12) + 1e-6), 1e-6, 1 - 1e-6)
    scale = (1 - g) / np.maximum(1 - c, 1e-12)
    out *= scale[:, None]
    out[rows, top] = g
    return out


def fit_isotonic(probs: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The isotonic map from a top-1 probability to the share of such top-1s that are right."""
    from sklearn.isotonic import IsotonicRegression

    conf = probs.max(axis=1)
    iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip", increasing=True)
    iso.fit(conf, (probs.argmax(axis=1) == y).astype(float))
    return (np.asarray(iso.X_thresholds_, dtype=np.float32), np.asarray(iso.y_thresholds_, dtype=np.float32))


def calibrated_fit(rows: Sequence[dict[str, Any]]) -> tuple[AreaClassifier, float]:
    """Fit on the rows with a calibrated temperature: the temperature is fit on the
    calibration fifth's abstracts (alone) with a model of the other four fifths, then the
    model is refit on all rows with it. Returns the model and the temperature."""
    fit_rows = [r for r in rows if not _calibration(r["id"])]
    cal_rows = [r for r in rows if _calibration(r["id"])]
    temperature, calibration = 1.0, None
    if cal_rows and len({r["primary_area"] for r in fit_rows}) >= 2:
        model = AreaClassifier.fit(*training_texts(fit_rows))
        known = {c: i for i, c in enumerate(model.classes)}
        cal_rows = [r for r in cal_rows if r["primary_area"] in known]
        if cal_rows:
            scores = model.scores([_paper_text(None, r["abstract"]) for r in cal_rows])
            y = np.array([known[r["primary_area"]] for r in cal_rows])
            temperature = fit_temperature(scores, y)
            # temperature alone leaves the blend over-confident at the top and under-confident
            # in the middle (reliability table): an isotonic map of the top-1 fixes the shape
            calibration = fit_isotonic(
                model.predict_proba([_paper_text(None, r["abstract"]) for r in cal_rows], temperature), y
            )
    model = AreaClassifier.fit(*training_texts(rows), temperature=temperature)
    model.calibration = calibration
    return model, temperature


def train_from_file(
    data: str | Path, out: str | Path | None = None, include_held_out: bool = False, progress: bool = False
) -> dict[str, Any]:
    """Train on labelled rows (held-out split left out unless asked) and save the model."""
    rows = [r for r in read_labelled(data) if len(r["abstract"].strip()) >= MIN_ABSTRACT]
    if not include_held_out:
        rows = [r for r in rows if not is_held_out(r["id"])]
    if len({r["primary_area"] for r in rows}) < 2:
        raise InputError(data, "needs papers from at least two areas")
    if progress:
        from rich.console import Console

        with Console(stderr=True).status(f"training on {len(rows)} papers"):
            model, temperature = calibrated_fit(rows)
    else:
        model, temperature = calibrated_fit(rows)
    path = Path(out) if out is not None else _models_dir() / MODEL_FILE
    model.save(path)
    _LOADED.clear()
    return {
        "papers": len(rows),
        "areas": len(model.classes),
        "path": str(path),
        "temperature": round(temperature, 3),
    }
