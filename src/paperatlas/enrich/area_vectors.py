"""The meaning side of the area classifier: each text's static-embedding vector.

The lexical models of `enrich.areas` see only the terms a text shares with training
papers; the static embedding (`embed/static.py`) places terms by meaning (distilled from
MiniLM) and topic (SVD of ML abstracts), so a paper worded unlike its area's training
papers can still land near them. Only the `meaning` and `topics` blocks are used, each
scaled to unit length: the model's `areas` block is a classifier fit on every training
paper's label, so cross-validation inside the training split could not judge it.

The vectors are read off the area model's own TF-IDF rows instead of tokenising each text
a second time: both use the project's one TF-IDF set-up, so a static vector (sublinear tf
x static idf, summed over the table's terms) is the area row's entries for those terms
re-weighted by idf_static / idf_area, times the table, up to a per-text scale that the
normalisation removes. A static term missing from the area vocabulary is left out (none is
for the shipped models).
"""

from __future__ import annotations

import numpy as np

from paperatlas.embed.base import file_fingerprint
from paperatlas.embed.normalise import normalise_rows
from paperatlas.embed.static import StaticBackend, model_path

BLOCKS = ("meaning", "topics")


def fingerprint() -> str:
    """The shipped static model's fingerprint: an area model is tied to the vectors it was fit on."""
    return file_fingerprint(model_path())


class StaticProjection:
    """TF-IDF rows of an area model's vocabulary -> the static vectors' meaning and topics blocks."""

    def __init__(self, vocabulary: dict[str, int], idf: np.ndarray, backend: StaticBackend | None = None):
        backend = backend or StaticBackend.load()
        pairs = [(j, vocabulary[t]) for t, j in backend.vocabulary.items() if t in vocabulary]
        rows = np.array([p[0] for p in pairs], dtype=np.int64)
        self.columns = np.array([p[1] for p in pairs], dtype=np.int64)
        keep: list[int] = []
        self.blocks: list[slice] = []
        start = 0
        for block, size in backend.meta["blocks"].items():  # in table order
            if block in BLOCKS:
                self.blocks.append(slice(len(keep), len(keep) + size))
                keep.extend(range(start, start + size))
            start += size
        ratio = backend.idf[rows] / np.asarray(idf, dtype=np.float32)[self.columns]
        self.table = (backend.table[np.ix_(rows, np.array(keep, dtype=np.int64))] * ratio[:, None]).astype(
            np.float32
        )

    def features(self, tfidf) -> np.ndarray:
        """[texts, 256] from TF-IDF rows: each block of unit length, the whole of unit length
        (a text with none of the table's terms is all zeros)."""
        raw = np.asarray(tfidf[:, self.columns] @ self.table, dtype=np.float32)
        parts = [normalise_rows(raw[:, block]) for block in self.blocks]
        return np.hstack(parts) / np.float32(np.sqrt(len(parts)))
