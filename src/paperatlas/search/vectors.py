"""The vector side of search: which stored models a query is searched with, the query's
vector, and the papers nearest to it (plus pseudo-relevance feedback)."""

from __future__ import annotations

import sys
from collections.abc import Set as AbstractSet
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

import numpy as np

from paperatlas.cache import StoreCache
from paperatlas.errors import PaperatlasError
from paperatlas.search.notes import Note
from paperatlas.search.query_adapter import adapt_query

if TYPE_CHECKING:  # embed is imported when a query needs it: it loads slowly
    from paperatlas.embed import EmbeddingBackend

# the multilingual model users are told to embed with, and the space of the learned
# Chinese vocabulary (translate_vocabulary.build_vocabulary)
MULTILINGUAL_MODEL = "use-multilingual"
# all-MiniLM-L6-v2 (int8, onnxruntime): fused as a third signal when the atlas has its
# vectors (`paperatlas embed --model minilm-int8`); its weight was tuned for this model
# (fusion's "minilm_weight"), so it is chosen by name
MINILM_MODEL = "minilm-int8"

FEEDBACK_DOCS = 3  # papers whose vector centroid re-queries the index (feedback)

# the stored models: a scan of the embeddings table, kept while no model's vectors change
_MODELS = StoreCache(max_entries=4)
_FITTED = StoreCache(max_entries=4)  # back ends fitted per store (lsa), by their vectors
_THREADPOOL: list[Any] = []


def vector_models_for(store, language: str) -> list[str]:
    """Models to try, best first, for a query in `language`: for English the default
    model, the other English ones, then the multilingual ones; for any other language
    the multilingual ones (their vectors of the English abstracts share its space)."""
    from paperatlas.embed import DEFAULT_MODEL

    stored = _MODELS.get(store, "models", store.vectors.models, version=store.vectors.models_version)
    multilingual = sorted(m for m in stored if is_multilingual(m))
    if language == "en":
        order = [DEFAULT_MODEL, *sorted(m for m in stored if m not in multilingual), *multilingual]
    else:
        order = multilingual
    return [m for m in dict.fromkeys(order) if m in stored]


def is_multilingual(model: str) -> bool:
    """Whether `model`'s back end reads more languages than English, in one space."""
    from paperatlas.embed import BACKENDS

    backend = BACKENDS.get(model)
    return backend is not None and len(backend.languages) > 1


def one_blas_thread() -> AbstractContextManager[Any]:
    """A context where BLAS uses one thread: one query gains nothing from threads, and
    on a busy machine their spinning costs tens of milliseconds a call."""
    if not _THREADPOOL:
        try:
            from threadpoolctl import ThreadpoolController

            _THREADPOOL.append(ThreadpoolController())
        except Exception:  # threadpoolctl missing or confused: run as is
            _THREADPOOL.append(None)
    if _THREADPOOL[0] is None:
        return nullcontext()
    return _THREADPOOL[0].limit(limits=1, user_api="blas")


def query_backend(store, model: str) -> EmbeddingBackend:
    """The back end that embeds queries for `model`'s stored vectors, on one thread (one
    short query gains nothing from more)."""
    from paperatlas.embed import backend_class, get_backend

    if backend_class(model).per_store:  # fitted per store (lsa): reloaded when its vectors change
        return _FITTED.get(
            store,
            model,
            lambda: get_backend(model, store=store),
            version=lambda: store.vectors.version(model),
        )
    return get_backend(model, threads=1)


def embed_query(store, model: str, text: str, start: bool = False):
    """`text`'s vector in `model`'s space (`start`: from as much of its start as the model
    reads in one pass, `EmbeddingBackend.embed_start`)."""
    backend = query_backend(store, model)
    with one_blas_thread():
        return backend.embed_start(text) if start else backend.embed([text])[0]


def open_index(store, model: str):
    """The vector index of `model`'s stored vectors (None when there are none)."""
    from paperatlas.embed.index import open_index

    # the first search after a large embed builds the graph: show progress on a terminal
    return open_index(store, model, progress=sys.stderr.isatty())


def vector_ranking(
    store,
    model: str,
    text: str,
    depth: int,
    allowed: AbstractSet[str] | None,
    notes: list[str],
    keep: dict[str, Any] | None = None,
) -> list[tuple[str, float]]:
    """(id, cosine) of the `depth` papers nearest to `text` among `allowed`, best first
    (the query's vector adapted to papers where the model has an adapter, `adapt_query`);
    a reason the model could not be used goes to `notes`; `keep` (when given) receives
    the query's vector under the model's name, for scoring papers outside the list."""
    index = open_index(store, model)
    if index is None:
        return []
    try:
        qvec = embed_query(store, model, text)
    except PaperatlasError as exc:  # e.g. vectors whose model cannot load here
        notes.append(
            Note(f"cannot search by meaning with {model}: {exc}", "model_failed", model=model, error=str(exc))
        )
        return []
    qvec = np.asarray(adapt_query(model, qvec), dtype=np.float32)
    if not np.isfinite(qvec).all() or float(np.abs(qvec).max(initial=0.0)) == 0.0:
        return []  # no word of the text is known to the model: it says nothing of meaning
    if keep is not None:
        keep[model] = qvec
    with one_blas_thread():
        ranked = index.search(qvec, depth, allowed)
    # a paper with nothing in common with the query (cosine <= 0) is no match by meaning
    return [(pid, s) for pid, s in ranked if s > 0.0]


def feedback_ranking(
    store, model: str, vec_ranking, depth: int, allowed: AbstractSet[str] | None
) -> list[tuple[str, float]]:
    """The rank-weighted centroid of the first FEEDBACK_DOCS papers of a ranking,
    searched again among `model`'s vectors. After a cross-lingual search, the English
    model places English abstracts more precisely than the multilingual model; after a
    hybrid search, it finds papers near the best hits that share no word with the query."""
    index = open_index(store, model) if vec_ranking else None
    if index is None:
        return []
    top = [pid for pid, _ in vec_ranking[:FEEDBACK_DOCS]]
    found, vectors = index.vectors_of(top)
    if not found:
        return []
    weights = [1.0 / (1 + top.index(pid)) for pid in found]
    centroid = (vectors * np.asarray(weights, dtype=np.float32)[:, None]).sum(axis=0)
    with one_blas_thread():
        return index.search(centroid, depth, allowed)
