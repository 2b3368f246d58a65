"""A display title written by a small learned sequence model, in numpy: NOT used by the
product (below the extractive titles on validation, docs/bench/titles.md); the
decoder `build_title_seq.py` scores its model with, kept for a later try.

A pointer-generator (`build_title_seq.py` beside it fits it with torch on the training split):
the abstract's first SRC_MAX word tokens go through a 2-layer transformer encoder; a GRU
decoder with attention writes the title one lower-cased token at a time, at each step either
emitting one of the most frequent title words ("for", "via", ":", "learning") or copying a
token of the abstract (the attention is the pointer). Copied words keep the abstract's casing
("SP-VLA", "LLMs"). Greedy or beam decoding, at most MAX_TOKENS tokens, no repeated trigram,
and the title may not end on a function word or punctuation (the end token is masked after
one). `TitleSeq.title(text)` -> the title, or None for a text the vocabulary mostly lacks.
"""

from __future__ import annotations

import re
from contextlib import AbstractContextManager, nullcontext
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

MODEL_FILE = "title-seq-v1.npz"
SRC_MAX = 200  # abstract tokens the encoder reads
MAX_TOKENS = 20  # title tokens written at most
MAX_CHARS = 110
MIN_TOKENS = 1  # title tokens written at least
BEAM = 1  # hypotheses kept while decoding
LENGTH_POWER = 1.0  # a hypothesis scores its log chance over its length ** this
MIN_KNOWN = 0.7  # share of the abstract's words the source vocabulary must know
PAD, UNK, BOS = 0, 1, 2  # source vocabulary ids
EOS_OUT, OUT_UNK = 0, 1  # output vocabulary ids
SHAPES = 8  # token shape (lower, Capitalised, other capitals, digits) x sentence start

_TOKEN = re.compile(r"\w(?:[\w'’.\-+]*\w)?|[^\w\s]")
_SENT_STOP = frozenset(".!?")
FUNCTION_WORDS = frozenset(
    "a an the of to for in on with and or by our its their this these that is are be we "
    "from as at into via it his her than such both either each over under through using "
    "towards toward without within between across".split()
)
_NO_SPACE_BEFORE = frozenset(":,;.)]?!")
_NO_SPACE_AFTER = frozenset("([")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def shape(tok: str, sentence_start: bool) -> int:
    if any(c.isdigit() for c in tok):
        s = 3
    elif tok[:1].isupper() and (len(tok) == 1 or tok[1:].islower() or not any(c.isalpha() for c in tok[1:])):
        s = 1
    elif any(c.isupper() for c in tok):
        s = 2
    else:
        s = 0
    return s + 4 * sentence_start


def source(text: str) -> tuple[list[str], list[int]]:
    """The encoder's tokens of an abstract (surface forms) and their shape ids."""
    toks = tokens(text)[:SRC_MAX]
    shapes, start = [], True
    for t in toks:
        shapes.append(shape(t, start))
        start = t in _SENT_STOP
    return toks, shapes


def render(words: list[str], surface: dict[str, str]) -> str:
    """Join title tokens with the abstract's casing; first letter (and after ': ') upper."""
    out: list[str] = []
    for w in words:
        s = surface.get(w, w)
        if out and (s in _NO_SPACE_BEFORE or out[-1] in _NO_SPACE_AFTER or s == "-" or out[-1] == "-"):
            out[-1] = out[-1] + s
        else:
            out.append(s)
    text = " ".join(out)
    text = re.sub(r"(^|: )(\w)", lambda m: m.group(1) + m.group(2).upper(), text)
    return text


def surface_forms(toks: list[str], shapes: list[int]) -> dict[str, str]:
    """lower-cased word -> how the abstract writes it (a form seen mid-sentence wins; a word
    seen only at sentence starts as "The" stays lower-case)."""
    mid: dict[str, str] = {}
    first: dict[str, str] = {}
    for t, s in zip(toks, shapes):
        low = t.lower()
        if s < 4:
            mid.setdefault(low, t)
        elif s % 4 == 2 or s % 4 == 3:  # "LLMs" / "GPT-4" at a sentence start
            first.setdefault(low, t)
    return {**first, **mid}


class TitleSeq:
    """The model's weights (float32) and vocabularies."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self.src_vocab = str(arrays["src_vocab"]).split("\n")
        self.out_vocab = str(arrays["out_vocab"]).split("\n")
        self.src_index = {w: i for i, w in enumerate(self.src_vocab)}
        self.out_index = {w: i for i, w in enumerate(self.out_vocab)}
        self.w = {
            k: np.asarray(v, dtype=np.float32)
            for k, v in arrays.items()
            if k not in ("src_vocab", "out_vocab")
        }
        self.layers = int(self.w["layers"][0])
        self.heads = int(self.w["heads"][0])

    # ---- encoder ----
    def encode(self, ids: np.ndarray, shapes: np.ndarray) -> np.ndarray:
        w = self.w
        x = w["emb"][ids] + w["shape_emb"][shapes] + w["pos_emb"][: len(ids)]
        n, d = x.shape
        h = self.heads
        for i in range(self.layers):
            p = f"enc{i}."
            y = _layer_norm(x, w[p + "ln1.w"], w[p + "ln1.b"])
            qkv = y @ w[p + "qkv.w"].T + w[p + "qkv.b"]
            q, k, v = (qkv[:, j * d : (j + 1) * d].reshape(n, h, d // h).transpose(1, 0, 2) for j in range(3))
            att = _softmax(q @ k.transpose(0, 2, 1) / np.sqrt(d // h))
            y = (att @ v).transpose(1, 0, 2).reshape(n, d)
            x = x + y @ w[p + "out.w"].T + w[p + "out.b"]
            y = _layer_norm(x, w[p + "ln2.w"], w[p + "ln2.b"])
            y = np.maximum(y @ w[p + "ff1.w"].T + w[p + "ff1.b"], 0.0)
            x = x + y @ w[p + "ff2.w"].T + w[p + "ff2.b"]
        return _layer_norm(x, w["enc_ln.w"], w["enc_ln.b"])

    # ---- decoder ----
    def start(
        self, low: list[str], shapes: list[int]
    ) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray]:
        """The encoder's states, the decoder's first hidden state, the extended word list
        (output vocabulary, then the abstract's words it lacks) and each source token's id in it."""
        w = self.w
        ids = np.array([self.src_index.get(t, UNK) for t in low], dtype=np.int64)
        enc = self.encode(ids, np.array(shapes, dtype=np.int64))
        hdn = np.tanh(w["init.w"] @ enc.mean(0) + w["init.b"])
        extra: dict[str, int] = {}
        copy_to = np.empty(len(low), dtype=np.int64)
        for j, t in enumerate(low):
            i = self.out_index.get(t)
            if i is None:
                i = extra.setdefault(t, len(self.out_vocab) + len(extra))
            copy_to[j] = i
        return enc, hdn, self.out_vocab + list(extra), copy_to

    def step(
        self, enc: np.ndarray, hdn: np.ndarray, ctx: np.ndarray, prev: int, copy_to: np.ndarray, n_ext: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One decoder step after source-vocabulary token `prev`: (hidden, context, chance of
        each extended word)."""
        w = self.w
        e = w["emb"][prev]
        hdn = _gru(np.concatenate([e, ctx]), hdn, w["gru.w_ih"], w["gru.w_hh"], w["gru.b_ih"], w["gru.b_hh"])
        att = _softmax(enc @ (w["att.w"] @ hdn))
        ctx = att @ enc
        hc = np.concatenate([hdn, ctx])
        pv = _softmax(w["vocab.w"] @ np.tanh(w["proj.w"] @ hc + w["proj.b"]) + w["vocab.b"])
        g = 1.0 / (1.0 + np.exp(-(w["gen.w"] @ np.concatenate([hc, e]) + w["gen.b"][0])))
        p = np.zeros(n_ext, dtype=np.float64)
        p[: len(pv)] = g * pv
        np.add.at(p, copy_to, (1.0 - g) * att)
        return hdn, ctx, p

    def decode(self, toks: list[str], shapes: list[int], beam: int = 1) -> list[str]:
        """Beam search (greedy at beam 1) for the likeliest title, its log chance over its
        length ** LENGTH_POWER: the end never after a function word or punctuation, no trigram
        twice, <unk> never."""
        low = [t.lower() for t in toks]
        enc, hdn0, words_ext, copy_to = self.start(low, shapes)
        ext_index = {w: i for i, w in enumerate(words_ext)}
        live: list[tuple[float, list[str], np.ndarray, np.ndarray]] = [
            (0.0, [], hdn0, np.zeros(enc.shape[1], dtype=np.float32))
        ]
        done: list[tuple[float, list[str]]] = []
        for _ in range(MAX_TOKENS):
            grown: list[tuple[float, list[str], np.ndarray, np.ndarray]] = []
            for logp, out, hdn, ctx in live:
                prev = self.src_index.get(out[-1], UNK) if out else BOS
                hdn, ctx, p = self.step(enc, hdn, ctx, prev, copy_to, len(words_ext))
                p[OUT_UNK] = 0.0
                if len(out) < MIN_TOKENS or _cannot_end(out[-1]):
                    p[EOS_OUT] = 0.0
                for a, b, c in zip(out, out[1:], out[2:]):  # no repeated trigram
                    if (a, b) == (out[-2], out[-1]):
                        p[ext_index[c]] = 0.0
                top = np.argsort(-p, kind="stable")[:beam]
                for i in top:
                    if p[i] <= 0.0:
                        continue
                    score = logp + float(np.log(p[i]))
                    if i == EOS_OUT:
                        done.append((score / len(out) ** LENGTH_POWER, out))
                    else:
                        grown.append((score, [*out, words_ext[i]], hdn, ctx))
            grown.sort(key=lambda h: -h[0])
            live = grown[:beam]
            if not live or (
                len(done) >= beam and max(d[0] for d in done) >= live[0][0] / len(live[0][1]) ** LENGTH_POWER
            ):
                break
        if done:
            return max(done, key=lambda d: d[0])[1]
        out = live[0][1] if live else []
        while out and _cannot_end(out[-1]):  # MAX_TOKENS reached mid-phrase
            out.pop()
        return out

    def title(self, text: str) -> str | None:
        """The title, or None for a text too little of which the model knows (another
        language: the extractive titles take it)."""
        toks, shapes = source(text)
        letters = [t.lower() for t in toks if t[:1].isalpha()]
        if not letters or sum(t in self.src_index for t in letters) < MIN_KNOWN * len(letters):
            return None
        words = self.decode(toks, shapes, BEAM)
        surface = surface_forms(toks, shapes)
        while words:
            t = render(words, surface)
            if len(t) <= MAX_CHARS:
                return t
            words.pop()
            while words and _cannot_end(words[-1]):
                words.pop()
        return None


def _cannot_end(word: str) -> bool:
    """A function word or punctuation (but a closing bracket) would leave the title cut."""
    return word in FUNCTION_WORDS or not (word[:1].isalnum() or word in (")", "]"))


def _layer_norm(x: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + 1e-5) * g + b


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _gru(x: np.ndarray, h: np.ndarray, w_ih, w_hh, b_ih, b_hh) -> np.ndarray:
    gi = w_ih @ x + b_ih
    gh = w_hh @ h + b_hh
    n = len(h)
    r = 1.0 / (1.0 + np.exp(-(gi[:n] + gh[:n])))
    z = 1.0 / (1.0 + np.exp(-(gi[n : 2 * n] + gh[n : 2 * n])))
    c = np.tanh(gi[2 * n :] + r * gh[2 * n :])
    return (1.0 - z) * c + z * h


def load(path: str | Path | None = None) -> TitleSeq | None:
    p = Path(path) if path else Path(str(resources.files("paperatlas") / "models" / MODEL_FILE))
    if not p.exists():
        return None
    with np.load(p, allow_pickle=False) as z:
        return TitleSeq({k: z[k] for k in z.files})


@lru_cache(maxsize=1)
def model() -> TitleSeq | None:
    return load()


_THREADPOOL: list[Any] = []


def _one_blas_thread() -> AbstractContextManager[Any]:
    """BLAS on one thread: the matrices of one title are small, and on a busy machine the
    spinning of BLAS threads costs ten times the work."""
    if not _THREADPOOL:
        try:
            from threadpoolctl import ThreadpoolController

            _THREADPOOL.append(ThreadpoolController())
        except Exception:  # threadpoolctl missing or confused by the BLAS build: run as is
            _THREADPOOL.append(None)
    if _THREADPOOL[0] is None:
        return nullcontext()
    return _THREADPOOL[0].limit(limits=1, user_api="blas")


def title(sents: list[str]) -> str | None:
    """The model's title for an abstract's sentences; None without the model file."""
    m = model()
    if m is None:
        return None
    with _one_blas_thread():
        return m.title(" ".join(sents))
