"""Embedding back ends behind one interface, and vectors stored per (paper, model).

Every back end implements `paperatlas.embed.base.EmbeddingBackend` and is registered by
name in `paperatlas.embed.registry`; all load offline from installed packages or files
shipped in `paperatlas/models/` (nothing is fetched from a model hub):

- `static` (DEFAULT_MODEL, `embed/static.py`): a static word-vector model shipped in
  `paperatlas/models/`, fast enough for 15k abstracts in well under 2 minutes.
- `minilm` (`embed/minilm.py`): all-MiniLM-L6-v2, long texts chunked into 256-piece
  windows and pooled; int8 on onnxruntime, or float32 torch with the `torch` extra.
- `minilm-int8` (`embed/minilm_onnx.py`): the int8 ONNX export, search's third signal.
- `use-multilingual` (`embed/use.py`): Universal Sentence Encoder multilingual v3 in
  numpy; 16 languages in one space, the path for Chinese queries against English abstracts.
- `lsa` (`embed/lsa.py`): TF-IDF -> truncated SVD fit on the user's own papers, the fit
  stored in the atlas.

The text embedded for a paper is `embedding_text(title, abstract)` (`embed/vectors.py`,
with the store's side: `embed_store`, `embed_query`, `vector_hash`). Vector indexes are in
`embed/index.py`, embedding on a Ray cluster in `embed/distributed.py`.
"""

from paperatlas.embed.base import EmbeddingBackend
from paperatlas.embed.lsa import LSABackend
from paperatlas.embed.minilm import MiniLM
from paperatlas.embed.minilm_onnx import OnnxMiniLM
from paperatlas.embed.normalise import normalise_rows
from paperatlas.embed.registry import (
    BACKENDS,
    DEFAULT_MODEL,
    SEARCH_MODELS,
    available_backends,
    backend_class,
    get_backend,
    pick_model,
    retrieval_weights,
    weights_fingerprint,
)
from paperatlas.embed.static import StaticBackend
from paperatlas.embed.use import MultilingualBackend
from paperatlas.embed.vectors import BATCH_SIZE, embed_query, embed_store, embedding_text, vector_hash

__all__ = [
    "BACKENDS",
    "BATCH_SIZE",
    "DEFAULT_MODEL",
    "SEARCH_MODELS",
    "EmbeddingBackend",
    "LSABackend",
    "MiniLM",
    "MultilingualBackend",
    "OnnxMiniLM",
    "StaticBackend",
    "available_backends",
    "backend_class",
    "embed_query",
    "embed_store",
    "embedding_text",
    "get_backend",
    "normalise_rows",
    "pick_model",
    "retrieval_weights",
    "vector_hash",
    "weights_fingerprint",
]
