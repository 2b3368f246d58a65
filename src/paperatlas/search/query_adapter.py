"""A query's vector moved toward the abstracts it describes, before it is searched.

An embedding model places a short query and a long abstract about the same paper further
apart than two abstracts; one linear map of the query side per model, learned from the
titles and TL;DRs of the ICLR 2026 papers held in for training and their own abstracts
(scripts/build_query_adapter.py -> models/<model>-query-adapter-v1.npz), narrows that gap.
Papers' stored vectors are unchanged, so an atlas needs no re-embedding; only search
queries are adapted (a paper's text compared with papers, as "more like this" does, is a
document, not a query).
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
# model -> its adapter's file. all-MiniLM-L6-v2's was fit on the int8 model's vectors; the
# float model ("minilm", the torch extra) is the same network, its vectors differ by rounding.
# The `static` model has none: one fit the same way (scripts/build_query_adapter.py --model
# static) lifts static alone a lot (held-out paraphrases 0.54 -> 0.73 MRR@10), but with the
# fusion refit on it a query naming a paper no longer ranked it first when MiniLM preferred
# another (tests/test_search_learned.py); measured, not shipped (docs/bench/search.md).
# use-multilingual's was fit on English titles and TL;DRs alone, yet it carries over to
# Chinese queries in the same space (the Chinese tuning half, USE alone: MRR@10 0.38 ->
# 0.49), the cross-lingual list of every Chinese query.
ADAPTER_FILES = {
    "minilm-int8": "minilm-query-adapter-v1.npz",
    "minilm": "minilm-query-adapter-v1.npz",
    "use-multilingual": "use-multilingual-query-adapter-v1.npz",
}


@functools.lru_cache(maxsize=4)
def adapter_weights(model: str) -> np.ndarray | None:
    """`model`'s adapter matrix (float32, dim x dim), or None when it has none."""
    name = ADAPTER_FILES.get(model)
    path = MODELS_DIR / name if name else None
    if path is None or not path.exists():
        return None
    with np.load(path, allow_pickle=False) as z:
        return np.ascontiguousarray(z["weights"], dtype=np.float32)


def adapt_query(model: str, vector):
    """`vector` (a query's, from `model`) as search compares it with papers: mapped by the
    model's adapter and unit-normalised, or unchanged for a model without one (and for a
    vector of nothing: a query none of whose words the model knows)."""
    weights = adapter_weights(model)
    if weights is None:
        return vector
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    if v.shape[0] != weights.shape[0] or not np.any(v):
        return vector
    mapped = v @ weights
    norm = float(np.linalg.norm(mapped))
    return mapped / norm if norm > 0 else vector
