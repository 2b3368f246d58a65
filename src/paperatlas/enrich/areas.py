"""ICLR 2026 primary-area classifier: text -> {label, prob, top3} over the 21 areas.

Two linear models over the same TF-IDF terms (words and word pairs, tokenised like the
static embedding model): a multinomial logistic regression and a complement naive Bayes,
blended in log space (LR + NB_WEIGHT x NB, divided by TEMPERATURE). Both are linear in the
TF-IDF vector, so the blend folds into one weight matrix: prediction costs what one model
costs. Every constant was chosen by 5-fold cross-validation inside the training split
(docs/bench/embeddings.md); stacking with the static embedding or kNN gained too little to
pay for an embedding at prediction time.

The model ships as `paperatlas/models/areas-v1.npz` (weights as float16, a few MB) and is
rebuilt by `paperatlas train-areas DATA`. It reads any text (title and abstract, or an
abstract alone), not just ICLR rows.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from paperatlas.errors import InputError, PaperatlasError

MODEL_FILE = "areas-v1.npz"
AREAS_FILE = "iclr2026_primary_areas.txt"
C = 4.0  # inverse regularisation of the logistic regression
NB_ALPHA = 0.3  # smoothing of the complement naive Bayes
NB_WEIGHT = 2.0  # weight of NB's log-probabilities next to LR's (LR's weight is 1)
TEMPERATURE = 1.2  # divides the blended scores: calibrated probabilities (CV log-loss)
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
    from paperatlas.embed import embedding_text

    return embedding_text(title, abstract)


def term_features(vocabulary=None, **fit_options):
    """TF-IDF of words and word pairs, tokenised like the static embedding model."""
    from paperatlas.static_model import term_vectorizer

    return term_vectorizer(vocabulary, **fit_options)


class AreaClassifier:
    """Softmax of a linear function of TF-IDF terms (words and word pairs)."""

    def __init__(self, classes: list[str], vocab: list[str], idf: np.ndarray,
                 coef: np.ndarray, intercept: np.ndarray):
        self.classes = list(classes)
        self.vectorizer = term_features({t: i for i, t in enumerate(vocab)})
        self.vectorizer.idf_ = np.asarray(idf, dtype=np.float32)
        self.coef = np.asarray(coef, dtype=np.float32)  # [terms, classes]
        self.intercept = np.asarray(intercept, dtype=np.float32)

    @classmethod
    def fit(cls, texts: Sequence[str], labels: Sequence[str]) -> "AreaClassifier":
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
        coef = (coef + NB_WEIGHT * nb.feature_log_prob_) / TEMPERATURE
        # a per-term constant shifts every class score alike: drop it (float16 keeps detail)
        coef -= coef.mean(axis=0, keepdims=True)
        vocab = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get)
        return cls([str(c) for c in lr.classes_], vocab, vectorizer.idf_, coef.T,
                   intercept / TEMPERATURE)

    def predict_proba(self, texts: Sequence[str]) -> np.ndarray:
        scores = np.asarray(self.vectorizer.transform(list(texts)) @ self.coef) + self.intercept
        scores -= scores.max(axis=1, keepdims=True)
        probs = np.exp(scores, dtype=np.float64)
        return probs / probs.sum(axis=1, keepdims=True)

    def save(self, path: str | Path) -> None:
        vocab = sorted(self.vectorizer.vocabulary, key=self.vectorizer.vocabulary.get)
        np.savez_compressed(path, classes=np.asarray(json.dumps(self.classes)),
                            vocab=np.asarray(json.dumps(vocab)), idf=self.vectorizer.idf_,
                            coef=self.coef.astype(np.float16), intercept=self.intercept)

    @classmethod
    def load(cls, path: str | Path | None = None) -> "AreaClassifier":
        path = Path(path) if path is not None else _models_dir() / MODEL_FILE
        if not path.exists():
            raise PaperatlasError(f"{path}: area model missing; train it with "
                                  "`paperatlas train-areas DATA`")
        with np.load(path, allow_pickle=False) as z:
            return cls(json.loads(str(z["classes"])), json.loads(str(z["vocab"])), z["idf"],
                       z["coef"], z["intercept"])


_LOADED: dict[str, AreaClassifier] = {}


def predict_areas(texts: Sequence[str], model: AreaClassifier | None = None) -> list[dict[str, Any]]:
    """For each text: {label, prob, top3: [[label, prob], ...]}; probabilities sum to 1."""
    texts = list(texts)
    if not texts:
        return []
    if model is None:
        if "default" not in _LOADED:
            _LOADED["default"] = AreaClassifier.load()
        model = _LOADED["default"]
    probs = model.predict_proba(texts)
    out = []
    for row in probs:
        order = np.argsort(-row)
        top = [[model.classes[i], round(float(row[i]), 4)] for i in order[:3]]
        out.append({"label": top[0][0], "prob": top[0][1], "top3": top})
    return out


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
                    raise InputError(path, f"primary_area {area!r} is not an ICLR 2026 area",
                                     number)
                rows.append({"id": str(row.get("id") or number), "title": row.get("title"),
                             "abstract": row["abstract"], "primary_area": area})
    except (OSError, UnicodeDecodeError, EOFError) as exc:
        raise InputError(path, f"cannot read as JSON Lines ({exc})") from None
    return rows


def train_from_file(data: str | Path, out: str | Path | None = None,
                    include_held_out: bool = False, progress: bool = False) -> dict[str, Any]:
    """Train on labelled rows (held-out split left out unless asked) and save the model."""
    rows = [r for r in read_labelled(data) if len(r["abstract"].strip()) >= MIN_ABSTRACT]
    if not include_held_out:
        rows = [r for r in rows if not is_held_out(r["id"])]
    if len({r["primary_area"] for r in rows}) < 2:
        raise InputError(data, "needs papers from at least two areas")
    texts = [_paper_text(r["title"], r["abstract"]) for r in rows]
    if progress:
        from rich.console import Console

        with Console(stderr=True).status(f"training on {len(rows)} papers"):
            model = AreaClassifier.fit(texts, [r["primary_area"] for r in rows])
    else:
        model = AreaClassifier.fit(texts, [r["primary_area"] for r in rows])
    path = Path(out) if out is not None else _models_dir() / MODEL_FILE
    model.save(path)
    _LOADED.clear()
    return {"papers": len(rows), "areas": len(model.classes), "path": str(path)}
