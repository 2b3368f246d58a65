"""`lsa`: TF-IDF (unigrams + bigrams) reduced by truncated SVD, fit on the user's own papers.

No model at all: the fit is stored in the atlas (`embed_models` table, an npz: no pickle),
so queries are embedded later in the same space. A refit is another space, so it drops
every stored `lsa` vector.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from paperatlas.embed.base import EmbeddingBackend
from paperatlas.embed.normalise import normalise_rows
from paperatlas.embed.static import term_vectorizer
from paperatlas.errors import PaperatlasError

LSA_DIMS = 256


class LSABackend(EmbeddingBackend):
    """TF-IDF (unigrams + bigrams) reduced by truncated SVD; fit with `fit(texts)`."""

    name = "lsa"
    description = "TF-IDF + SVD fit on your own papers (no model)"
    per_store = True

    def __init__(self) -> None:
        self.vectorizer: Any = None  # a fitted TfidfVectorizer
        self.components: Any = None  # [dim, vocab] float32, None until fit

    @property
    def fitted(self) -> bool:
        return self.components is not None

    @property
    def dim(self) -> int:  # type: ignore[override]
        return LSA_DIMS if self.components is None else int(self.components.shape[0])

    @classmethod
    def load(cls, *, store=None, threads: int | None = None) -> LSABackend:
        """The fit saved in `store` (unfitted when there is none yet)."""
        blob = store.vectors.get_model(cls.name) if store is not None else None
        return cls.from_bytes(blob) if blob is not None else cls()

    @classmethod
    def fit_store(cls, store, texts: list[str], force: bool) -> tuple[LSABackend, bool]:
        backend = cls.load(store=store)
        if backend.fitted and not force:
            return backend, False
        backend = cls().fit(texts)
        with store.transaction():
            store.vectors.put_model(cls.name, backend.to_bytes(), {"papers": len(texts), "dim": backend.dim})
            store.vectors.delete(cls.name)
        return backend, True

    def fit(self, texts: Sequence[str], dims: int = LSA_DIMS, seed: int = 0) -> LSABackend:
        from sklearn.decomposition import TruncatedSVD

        texts = list(texts)
        if len(texts) < 3:
            raise PaperatlasError(
                "lsa: needs at least 3 papers to fit; add more or pick another model (--model static)"
            )
        min_df = 2 if len(texts) >= 50 else 1
        vectorizer = term_vectorizer(min_df=min_df, max_df=0.5, max_features=50_000)
        try:
            tfidf = vectorizer.fit_transform(texts)
        except ValueError:  # every word is a stop word or too rare
            vectorizer = term_vectorizer(ngram_range=(1, 1), min_df=1)
            tfidf = vectorizer.fit_transform(texts)
        dims = max(1, min(dims, tfidf.shape[0] - 1, tfidf.shape[1] - 1))
        svd = TruncatedSVD(n_components=dims, random_state=seed, algorithm="randomized", n_iter=5)
        svd.fit(tfidf)
        self.vectorizer = vectorizer
        self.components = svd.components_.astype(np.float32)
        return self

    def encode(self, texts: list[str]) -> np.ndarray:
        tfidf = self.vectorizer.transform(texts)
        return normalise_rows(np.asarray(tfidf @ self.components.T))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not self.fitted:  # an unfitted model says so even for an empty batch
            raise PaperatlasError("lsa: not fitted yet; run `paperatlas embed --model lsa` first")
        return super().embed(texts)

    # persisted as an npz (no pickle): vocabulary, idf, SVD components
    def to_bytes(self) -> bytes:
        vocab = sorted(self.vectorizer.vocabulary_, key=self.vectorizer.vocabulary_.get)
        buf = io.BytesIO()
        np.savez_compressed(
            buf,
            vocab=np.asarray(json.dumps(vocab)),
            idf=self.vectorizer.idf_,
            components=self.components,
            ngram=np.asarray(self.vectorizer.ngram_range),
        )
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, blob: bytes) -> LSABackend:
        with np.load(io.BytesIO(blob), allow_pickle=False) as z:
            vocab = json.loads(str(z["vocab"]))
            vectorizer = term_vectorizer(
                {w: i for i, w in enumerate(vocab)}, ngram_range=tuple(int(n) for n in z["ngram"])
            )
            vectorizer.idf_ = z["idf"]
            backend = cls()
            backend.vectorizer = vectorizer
            backend.components = z["components"]
        return backend
