"""A query's MiniLM vector moved toward the abstracts it describes, before it is searched.

all-MiniLM-L6-v2 places a short query and a long abstract about the same paper further
apart than two abstracts; one linear map of the query side, learned from the titles and
TL;DRs of the ICLR 2026 papers held in for training and their own abstracts
(scripts/build_query_adapter.py -> models/minilm-query-adapter-v1.npz), narrows that gap.
Papers' stored vectors are unchanged, so an atlas needs no re-embedding; only search
queries are adapted (a paper's text compared with papers, as "more like this" does, is a
document, not a query).
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
ADAPTER_FILE = "minilm-query-adapter-v1.npz"
# the back ends whose query vectors the adapter was fit for: all-MiniLM-L6-v2, int8 (the
# fit's) and float (the same network; its vectors differ from int8's by rounding)
ADAPTED_MODELS = frozenset({"minilm-int8", "minilm"})


@functools.lru_cache(maxsize=1)
def adapter_weights() -> np.ndarray | None:
    """The adapter's matrix (float32, dim x dim), or None when the file is missing."""
    path = MODELS_DIR / ADAPTER_FILE
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as z:
        return np.ascontiguousarray(z["weights"], dtype=np.float32)


def adapt_query(model: str, vector):
    """`vector` (a query's, from `model`) as search compares it with papers: mapped by the
    adapter and unit-normalised for the models it was fit for, else unchanged."""
    weights = adapter_weights() if model in ADAPTED_MODELS else None
    if weights is None:
        return vector
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    if v.shape[0] != weights.shape[0] or not np.any(v):
        return vector
    mapped = v @ weights
    norm = float(np.linalg.norm(mapped))
    return mapped / norm if norm > 0 else vector
