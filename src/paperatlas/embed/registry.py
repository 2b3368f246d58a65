"""The one table of embedding back ends (name -> class), and what is decided by name:
loading one (once per process), its description, fingerprint and search weights, and
which stored model a map or a recommendation uses.

Adding a back end: a module with an `EmbeddingBackend` subclass, one line in BACKENDS.
"""

from __future__ import annotations

import threading

import numpy as np

from paperatlas.embed.base import EmbeddingBackend
from paperatlas.embed.lsa import LSABackend
from paperatlas.embed.minilm import MiniLM, MiniLMFirst256
from paperatlas.embed.minilm_onnx import OnnxMiniLM
from paperatlas.embed.static import StaticBackend
from paperatlas.embed.use import MultilingualBackend
from paperatlas.errors import PaperatlasError

DEFAULT_MODEL = StaticBackend.name
# Every vector signal search fuses: the default model's list, MiniLM's (the English learned
# fusion, search/learned.py) and the multilingual model's (Chinese queries). `paperatlas
# embed` with no model computes these, so a default atlas searches as the benchmarks do.
SEARCH_MODELS = (DEFAULT_MODEL, OnnxMiniLM.name, MultilingualBackend.name)

BACKENDS: dict[str, type[EmbeddingBackend]] = {
    cls.name: cls
    for cls in (StaticBackend, MiniLM, MultilingualBackend, LSABackend, OnnxMiniLM, MiniLMFirst256)
}

_LOADED: dict[tuple[str, int | None], EmbeddingBackend] = {}
# The web app's first concurrent requests would otherwise each load the same model.
_LOAD_LOCK = threading.Lock()
_FINGERPRINTS: dict[str, str] = {}


def available_backends() -> dict[str, str]:
    """Back-end name -> one-line description (the ones `--model` accepts)."""
    return {name: cls.description for name, cls in BACKENDS.items() if cls.listed}


def backend_class(name: str | None) -> type[EmbeddingBackend]:
    name = name or DEFAULT_MODEL
    cls = BACKENDS.get(name)
    if cls is None:
        raise PaperatlasError(
            f"unknown embedding model {name!r}; choose one of: {', '.join(available_backends())}"
        )
    return cls


def get_backend(name: str | None = None, store=None, threads: int | None = None) -> EmbeddingBackend:
    """A loaded back end, cached per process. A per-store back end (lsa) is loaded from
    `store` on every call (its fit changes with the store; unfitted when it has none).
    `threads`: cores a batch may use, for back ends that use them (one instance each)."""
    cls = backend_class(name)
    if cls.per_store:
        return cls.load(store=store)
    key = (cls.name, threads if cls.uses_threads else None)
    loaded = _LOADED.get(key)
    if loaded is not None:  # the usual case: no lock, so concurrent requests never queue
        return loaded
    with _LOAD_LOCK:
        if key not in _LOADED:
            _LOADED[key] = cls.load(threads=threads)
        return _LOADED[key]


def weights_fingerprint(model: str) -> str:
    """`model`'s fingerprint (see EmbeddingBackend.fingerprint), computed once per process."""
    if model not in _FINGERPRINTS:
        _FINGERPRINTS[model] = backend_class(model).fingerprint()
    return _FINGERPRINTS[model]


def retrieval_weights(model: str) -> np.ndarray | None:
    """Per-dimension weights that vector search applies to `model`'s stored and query
    vectors, or None to search them as stored."""
    cls = BACKENDS.get(model)
    return cls.retrieval_weights() if cls is not None else None


def pick_model(store, ids: list[str] | None = None, model: str | None = None) -> str | None:
    """The embedding model to use: the one asked for; else, of the models with vectors in
    the store, the one covering most of `ids` (of all papers when None), the default model
    first among equals, then by name. None when the store holds no vectors."""
    if model:
        return model
    stored = store.vectors.models()
    if not stored:
        return None
    if ids is None:

        def coverage(m: str) -> int:
            return store.vectors.signature(m)[0]

    else:
        wanted = set(ids)

        def coverage(m: str) -> int:
            return sum(1 for pid in store.vectors.state(m) if pid in wanted)

    return min(stored, key=lambda m: (-coverage(m), m != DEFAULT_MODEL, m))
