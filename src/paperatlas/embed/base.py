"""The interface every embedding back end implements.

A back end is a class registered by name in `paperatlas.embed.registry`. What the rest
of paperatlas needs to know about one is on the class, so no caller tests a name or an
attribute: what it is (`name`, `description`), the vectors it makes (`dim`, `languages`,
`max_length`), what makes its stored vectors stale (`fingerprint()`), how search weighs
them (`retrieval_weights()`), how to get one ready (`load()`), and `embed(texts)`.

`embed` returns float32 [n, dim], rows L2-normalised, deterministic (a text's vector does
not depend on the rest of its batch). A subclass implements `encode` for a non-empty
list; `embed` handles the empty batch and the dtype once for all.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

WARM_UP_TEXT = "Warming up: a short abstract that runs the model once."


class EmbeddingBackend(ABC):
    name: str = ""
    description: ClassVar[str] = ""
    dim: int = 0
    languages: tuple[str, ...] = ("en",)
    # word pieces read per pass (a longer text is windowed), None when the whole text is read
    max_length: int | None = None
    # Fit on the atlas's own papers and kept in the store (lsa): loaded from the store,
    # (re)fit by `embed_store` via `fit_store`, never spread over Ray workers.
    per_store: ClassVar[bool] = False
    # `load(threads=...)` sets how many cores a batch uses (search loads a one-thread copy
    # for queries; a Ray actor one per its CPUs); otherwise one instance serves everyone.
    uses_threads: ClassVar[bool] = False
    # offered to users (`--model`, `paperatlas models`); False for benchmark-only variants
    listed: ClassVar[bool] = True

    @classmethod
    def load(cls, *, store: Any = None, threads: int | None = None) -> EmbeddingBackend:
        """A ready instance. `store`: the atlas a per-store back end was fit on;
        `threads`: cores a batch may use (None: the back end's default)."""
        return cls()

    @classmethod
    def fingerprint(cls) -> str:
        """What identifies the weights behind this back end ("" when nothing does). It goes
        into every stored vector's hash, so new weights make old vectors stale instead of
        mixing two spaces. Cheap: no model is loaded."""
        return ""

    @classmethod
    def retrieval_weights(cls) -> np.ndarray | None:
        """Per-dimension weights search applies to stored and query vectors, or None to
        search them as stored."""
        return None

    @classmethod
    def info(cls) -> dict[str, Any]:
        """Facts about the model worth recording with what is built from its vectors
        (a reference map's metadata); {} when there are none."""
        return {}

    @classmethod
    def fit_store(cls, store: Any, texts: list[str], force: bool) -> tuple[EmbeddingBackend, bool]:
        """Per-store back ends only: the instance fit on `store` (fit on `texts` and saved
        there when it has none or `force`), and whether it was fit now (every stored vector
        of the old fit is then gone)."""
        raise NotImplementedError(f"{cls.name} is not fit per store")

    @abstractmethod
    def encode(self, texts: list[str]) -> np.ndarray:
        """Vectors [len(texts), dim] of a non-empty list, rows L2-normalised."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self.encode(texts), dtype=np.float32)

    def warm_up(self) -> None:
        """Run the model once on a short text: what it builds on first use (a session,
        caches) is then part of its start-up, not of the first batch's time (the time
        left of a whole store's embedding is paced by the batches after the start-up)."""
        self.embed([WARM_UP_TEXT])

    def embed_start(self, text: str) -> np.ndarray:
        """One text's vector from as much of its start as one pass of the model reads: a
        long query (an abstract) answered now. Back ends that read a text whole in one
        pass give its vector."""
        return self.embed([text])[0]


def file_fingerprint(path: Path) -> str:
    """A shipped model file's fingerprint: the start of its bytes' SHA-1 ("" when missing)."""
    return hashlib.sha1(path.read_bytes()).hexdigest()[:12] if path.exists() else ""


def package_fingerprint(package: str) -> str:
    """A packaged model's fingerprint: the version of the package carrying its weights."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return ""
