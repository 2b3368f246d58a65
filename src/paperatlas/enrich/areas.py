"""ICLR 2026 primary-area classifier: text -> {label, prob, top3} over the 21 areas.

A multinomial logistic regression over two views of the text, both from the default static
embedding model (`paperatlas.static_model`): its TF-IDF terms (words and word pairs) and
its dense unsupervised blocks (MiniLM-distilled meaning + latent topics). No transformer
runs at prediction time, so tens of thousands of abstracts are classified per minute.

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
DENSE_WEIGHT = 0.5  # scale of the dense view next to the (unit-norm) TF-IDF view
C = 4.0  # inverse regularisation of the logistic regression
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


def features(texts: Sequence[str], static=None):
    """Sparse [n, terms + dense] matrix: TF-IDF terms beside the dense unsupervised blocks."""
    from scipy import sparse

    if static is None:
        from paperatlas.embed import get_backend

        static = get_backend("static")
    terms = static.vectorizer.transform(list(texts))
    dense_dims = sum(d for name, d in static.meta["blocks"].items() if name != "areas")
    dense = np.asarray(terms @ static.table[:, :dense_dims], dtype=np.float32)
    norms = np.linalg.norm(dense, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return sparse.hstack([terms, sparse.csr_matrix(DENSE_WEIGHT * dense / norms)]).tocsr()


class AreaClassifier:
    def __init__(self, classes: list[str], coef: np.ndarray, intercept: np.ndarray,
                 static_id: str):
        self.classes = list(classes)
        self.coef = np.asarray(coef, dtype=np.float32)  # [features, classes]
        self.intercept = np.asarray(intercept, dtype=np.float32)
        self.static_id = static_id

    @classmethod
    def fit(cls, texts: Sequence[str], labels: Sequence[str], static=None) -> "AreaClassifier":
        from sklearn.linear_model import LogisticRegression

        static = static or _static()
        X = features(texts, static)
        clf = LogisticRegression(C=C, max_iter=500).fit(X, np.asarray(labels))
        return cls([str(c) for c in clf.classes_], clf.coef_.T, clf.intercept_, _static_id(static))

    def predict_proba(self, texts: Sequence[str], static=None) -> np.ndarray:
        static = static or _static()
        if _static_id(static) != self.static_id:
            raise PaperatlasError("area model was trained with another static embedding model; "
                                  "retrain it: paperatlas train-areas DATA")
        scores = np.asarray(features(texts, static) @ self.coef) + self.intercept
        scores -= scores.max(axis=1, keepdims=True)
        probs = np.exp(scores, dtype=np.float64)
        return probs / probs.sum(axis=1, keepdims=True)

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, classes=np.asarray(json.dumps(self.classes)),
                            coef=self.coef.astype(np.float16), intercept=self.intercept,
                            static_id=np.asarray(self.static_id))

    @classmethod
    def load(cls, path: str | Path | None = None) -> "AreaClassifier":
        path = Path(path) if path is not None else _models_dir() / MODEL_FILE
        if not path.exists():
            raise PaperatlasError(f"{path}: area model missing; train it with "
                                  "`paperatlas train-areas DATA`")
        with np.load(path, allow_pickle=False) as z:
            return cls(json.loads(str(z["classes"])), z["coef"], z["intercept"],
                       str(z["static_id"]))


def _static():
    from paperatlas.embed import get_backend

    return get_backend("static")


def _static_id(static) -> str:
    """Fingerprint of a static model (its vocabulary size, width and table checksum)."""
    table = np.ascontiguousarray(static.table[:64], dtype=np.float16)
    return f"{len(static.vectorizer.vocabulary)}x{static.dim}:" + \
        hashlib.sha1(table.tobytes()).hexdigest()[:12]


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
