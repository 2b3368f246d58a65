"""The default embedding back end: a static term-vector model shipped as one small file.

A text is cut into words and word pairs (the TF-IDF vocabulary of the model, English,
lower case); its vector is the TF-IDF-weighted mean of the vectors of its terms, then
L2-normalised. Thousands of abstracts per second on one core; no torch, and no
scikit-learn at run time (`embed/terms.py` cuts text as its vectorizer does). Each term's
vector concatenates blocks built by `scripts/build_static.py` (see there and
docs/bench/embeddings.md):

- meaning: the term embedded by all-MiniLM-L6-v2 (distillation into a static table),
- topics: latent semantic directions of ML abstracts (SVD of TF-IDF),
- areas: how strongly the term points to each ICLR primary area (a linear classifier's
  weights), so that papers of one research area sit together.

Every block was fit on the training part of the ICLR 2026 data only (the papers that
`enrich.areas.is_held_out` leaves out are the evaluation set).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import numpy as np

from paperatlas.embed.base import EmbeddingBackend, file_fingerprint
from paperatlas.embed.normalise import normalise_rows
from paperatlas.embed.terms import term_analyzer
from paperatlas.errors import PaperatlasError
from paperatlas.text import tfidf_vectorizer

MODEL_FILE = "static-v1.npz"
# Search keeps this share of the area block's weight. The map wants one research area's
# papers together; a topical query wants topical neighbours, whatever their area. Chosen
# among 1, 1/2, 1/4 and 0 on the dev half of benchmarks/queries (docs/bench/search.md).
RETRIEVAL_AREA_SHARE = 0.5
# From this many texts one sparse matrix product (scipy) is faster than a numpy product per
# text; below it, scipy is not imported (0.3 s of a fresh process placing a short list).
SPARSE_FROM = 200


def model_path() -> Path:
    return Path(str(resources.files("paperatlas") / "models" / MODEL_FILE))


def term_vectorizer(vocabulary=None, ngram_range=(1, 2), **kwargs):
    """The tokenisation and weighting every static-model term table is keyed by: the
    project's one TF-IDF set-up (`paperatlas.text.tfidf_vectorizer`), words and word pairs."""
    return tfidf_vectorizer(vocabulary=vocabulary, ngram_range=ngram_range, **kwargs)


def _existing(path: str | Path | None) -> Path:
    path = Path(path) if path is not None else model_path()
    if not path.exists():
        raise PaperatlasError(
            f"{path}: static model file missing; rebuild it with "
            "scripts/build_static.py or reinstall paperatlas"
        )
    return path


def read_meta(path: str | Path | None = None) -> dict:
    """The model file's description (its blocks, their weights, ...) without loading the
    term table (a millisecond instead of two seconds)."""
    with np.load(_existing(path), allow_pickle=False) as z:
        return json.loads(str(z["meta"]))


def area_weights(meta: dict) -> np.ndarray:
    """Per-dimension weights for search: the area block scaled by RETRIEVAL_AREA_SHARE."""
    blocks = meta.get("blocks", {})
    weights = np.ones(sum(blocks.values()), dtype=np.float32)
    start = 0
    for block, size in blocks.items():  # in table order
        if block == "areas":
            weights[start : start + size] = RETRIEVAL_AREA_SHARE
        start += size
    return weights


class StaticBackend(EmbeddingBackend):
    name = "static"
    description = (
        "static word vectors distilled from all-MiniLM-L6-v2 and tuned on ML abstracts (default; fastest)"
    )

    def __init__(
        self,
        vocab: list[str],
        idf: np.ndarray,
        table: np.ndarray,
        name: str = "static",
        meta: dict | None = None,
        ngram_range=(1, 2),
    ):
        self.name = name
        self.vocabulary = {t: i for i, t in enumerate(vocab)}
        self.idf = np.asarray(idf, dtype=np.float32)
        self.ngram_range = tuple(ngram_range)
        self.table = np.asarray(table, dtype=np.float32)
        self.dim = int(self.table.shape[1])
        self.meta = meta or {}
        # the vectorizer's tokens without importing scikit-learn (embed/terms.py)
        self._analyzer = term_analyzer(self.ngram_range[1])

    @property
    def vectorizer(self):
        """The equivalent fitted scikit-learn vectorizer (for scripts that fit with it)."""
        vectorizer = term_vectorizer(self.vocabulary, ngram_range=self.ngram_range)
        vectorizer.idf_ = self.idf
        return vectorizer

    @classmethod
    def load(
        cls, path: str | Path | None = None, name: str = "static", *, store=None, threads=None
    ) -> StaticBackend:
        path = _existing(path)
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            return cls(
                json.loads(str(z["vocab"])),
                z["idf"],
                z["table"],
                name=name,
                meta=meta,
                ngram_range=tuple(meta.get("ngram_range", (1, 2))),
            )

    @classmethod
    def fingerprint(cls) -> str:
        """The shipped file's bytes: a rebuilt model file makes old vectors stale."""
        return file_fingerprint(model_path())

    @classmethod
    def retrieval_weights(cls) -> np.ndarray:
        return area_weights(read_meta())

    @classmethod
    def info(cls) -> dict:
        meta = read_meta()
        return {k: meta[k] for k in ("blocks", "version") if k in meta}

    def save(self, path: str | Path) -> None:
        vocab = sorted(self.vocabulary, key=self.vocabulary.__getitem__)
        np.savez_compressed(
            path,
            vocab=np.asarray(json.dumps(vocab)),
            idf=self.idf.astype(np.float32),
            table=self.table.astype(np.float16),
            meta=np.asarray(json.dumps(self.meta)),
        )

    def encode(self, texts: list[str]) -> np.ndarray:
        if len(texts) < SPARSE_FROM:
            out = np.zeros((len(texts), self.dim), dtype=np.float32)
            for i, text in enumerate(texts):
                out[i] = self._embed_one(text)
        else:
            out = np.asarray(self._weights(texts) @ self.table, dtype=np.float32)
        return normalise_rows(out)  # a text with no known term stays the zero vector

    def _counts(self, text: str) -> dict[int, int]:
        """How often each known term (by its row) occurs in the text."""
        vocabulary = self.vocabulary
        counts: dict[int, int] = {}
        for term in self._analyzer(text):
            j = vocabulary.get(term)
            if j is not None:
                counts[j] = counts.get(j, 0) + 1
        return counts

    def _tfidf(self, rows: np.ndarray, tf: np.ndarray) -> np.ndarray:
        """Sublinear tf x idf, as TfidfVectorizer weighs terms before its l2 norm (which
        drops out when the embedding is normalised)."""
        return (1.0 + np.log(tf.astype(np.float32))) * self.idf[rows]

    def _embed_one(self, text: str) -> np.ndarray:
        counts = self._counts(text)
        rows = np.fromiter(counts, dtype=np.int64, count=len(counts))
        tf = np.fromiter(counts.values(), dtype=np.float32, count=len(counts))
        return self._tfidf(rows, tf) @ self.table[rows]

    def _weights(self, texts: list[str]):
        """The texts' term weights as one sparse matrix (texts x vocabulary)."""
        from scipy import sparse

        indptr, rows, tf = [0], list[int](), list[int]()
        for text in texts:
            counts = self._counts(text)
            rows.extend(counts)
            tf.extend(counts.values())
            indptr.append(len(rows))
        indices = np.asarray(rows, dtype=np.int64)
        data = self._tfidf(indices, np.asarray(tf, dtype=np.float32))
        return sparse.csr_matrix((data, indices, indptr), shape=(len(texts), len(self.vocabulary)))
