"""Rebuild src/paperatlas/models/static-v1.npz, the default embedding model.

    .venv/bin/python scripts/build_static.py [DATA] [--out PATH] [--cache DIR]

DATA is ../shared/data/iclr2026.jsonl.gz (title, abstract, primary_area). Only papers that
`paperatlas.enrich.areas.is_held_out` does NOT select are used (the held-out ~20% stay
unseen for the benchmarks), and placeholder abstracts (< 100 characters) are dropped.

Term table, one row per vocabulary term (words and word pairs, TF-IDF weighted):
1. meaning (128 dims): each term embedded by all-MiniLM-L6-v2, reduced by PCA — a static
   distillation of MiniLM on an ML vocabulary (runs offline on the packaged model).
2. topics (128 dims): SVD components of the TF-IDF matrix of the training abstracts.
3. areas (21 dims): weights of a logistic regression from TF-IDF to the primary area,
   centred per term, so papers of one research area sit nearer each other.
Each block is scaled so that its part of a document vector has unit mean norm, then
weighted (WEIGHTS). Deterministic: fixed seeds, no sampling.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
from iclr_data import DEFAULT_DATA, is_held_out, load_rows, real_abstract, texts_of  # noqa: E402

VOCAB_SIZE = 24_000
MEANING_DIMS = 128
TOPIC_DIMS = 128
WEIGHTS = {
    "meaning": 1.0,
    "topics": 1.0,
    "areas": 1.6,
}  # chosen by kNN on a validation part of the training split


def training_rows(rows):
    return [r for r in rows if real_abstract(r) and not is_held_out(r["id"])]


def term_meaning(terms: list[str], cache: Path | None) -> np.ndarray:
    """MiniLM vector of every term (cached: it is the slow step)."""
    import hashlib

    key = hashlib.sha1("\n".join(terms).encode()).hexdigest()[:12]
    path = cache / f"terms_minilm_{key}.npy" if cache else None
    if path is not None and path.exists():
        return np.load(path)
    # the model the shipped table was built with (the torch extra)
    from paperatlas.embed.minilm import TorchMiniLM

    minilm = TorchMiniLM(chunk=False, batch_size=512)
    vecs = np.vstack([minilm.embed(terms[i : i + 2048]) for i in range(0, len(terms), 2048)])
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, vecs)
    return vecs


def unit_scale(weights, block: np.ndarray) -> np.ndarray:
    """Scale a block so the mean norm of its document vectors is 1."""
    norms = np.linalg.norm(np.asarray(weights @ block), axis=1)
    return block / max(float(norms[norms > 0].mean()), 1e-9)


def build(rows, cache: Path | None, weights=None, log=print):
    from sklearn.decomposition import PCA, TruncatedSVD
    from sklearn.linear_model import LogisticRegression

    from paperatlas.embed.static import StaticBackend, term_vectorizer

    weights = weights or WEIGHTS
    texts = texts_of(rows)
    labels = np.array([r["primary_area"] for r in rows])
    t0 = time.time()
    vectorizer = term_vectorizer(min_df=3, max_df=0.5, max_features=VOCAB_SIZE)
    X = vectorizer.fit_transform(texts)
    vocab = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get)
    log(f"vocabulary {len(vocab)} terms from {len(texts)} papers ({time.time() - t0:.0f}s)")

    meaning = term_meaning(vocab, cache)
    meaning = PCA(MEANING_DIMS, random_state=0).fit_transform(meaning).astype(np.float32)
    log(f"meaning block ({time.time() - t0:.0f}s)")
    topics = TruncatedSVD(TOPIC_DIMS, random_state=0).fit(X).components_.T.astype(np.float32)
    log(f"topics block ({time.time() - t0:.0f}s)")
    clf = LogisticRegression(C=4.0, max_iter=300).fit(X, labels)
    areas = clf.coef_.T.astype(np.float32)
    areas -= areas.mean(axis=1, keepdims=True)
    log(f"areas block ({time.time() - t0:.0f}s)")

    blocks = {"meaning": meaning, "topics": topics, "areas": areas}
    table = np.hstack([weights[name] * unit_scale(X, block) for name, block in blocks.items()])
    meta = {
        "blocks": {name: block.shape[1] for name, block in blocks.items()},
        "weights": weights,
        "papers": len(texts),
        "ngram_range": [1, 2],
        "areas": [str(c) for c in clf.classes_],
        "fit_on": "ICLR 2026 training split (paperatlas.enrich.areas.is_held_out == False)",
    }
    return StaticBackend(vocab, vectorizer.idf_, table, meta=meta)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--out", default=str(REPO / "src" / "paperatlas" / "models" / "static-v1.npz"))
    parser.add_argument("--cache", default="/work/cache/static_build")
    args = parser.parse_args()
    rows = training_rows(load_rows(args.data))
    model = build(rows, Path(args.cache) if args.cache else None)
    model.save(args.out)
    size = Path(args.out).stat().st_size / 1e6
    print(f"wrote {args.out} ({size:.1f} MB, {len(model.vectorizer.vocabulary)} terms, dim {model.dim})")


if __name__ == "__main__":
    main()
