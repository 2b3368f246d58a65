"""Near-duplicate detection: MinHash signatures of word 3-shingles and an LSH index.

Signatures are computed for a whole batch of abstracts at once with numpy: words are
hashed from prefix sums over the batch's bytes, and each permutation is one
multiply-add over every shingle of the batch (feeding shingles one by one to
`datasketch.MinHash` costs a Python call per shingle). They are stored as uint64 blobs
and indexed with `datasketch.MinHashLSH`; a candidate pair is confirmed by the exact
Jaccard similarity of the two shingle sets, so LSH only has to find it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from paperatlas.paper import normalise_text

NUM_PERM = 64
SHINGLE = 3
THRESHOLD = 0.8  # Jaccard similarity that makes two abstracts one paper
# LSH bands x rows: a pair at Jaccard 0.8 becomes a candidate with probability
# 1 - (1 - 0.8**4)**16 > 0.999 (0.92 at 0.6); candidates are then checked exactly.
LSH_BANDS, LSH_ROWS = 16, 4
MIN_WORDS = 10  # shorter texts ("na", ".") are matched only exactly

_rng = np.random.default_rng(20260)
_A = _rng.integers(1, 2**63, NUM_PERM, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
_B = _rng.integers(0, 2**63, NUM_PERM, dtype=np.uint64)
_K1, _K2 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F)
_P = 0x100000001B3  # odd, so invertible mod 2**64: word hashes come from prefix sums
_P_INV = pow(_P, -1, 2**64)
_EMPTY = np.full(NUM_PERM, np.iinfo(np.uint64).max, dtype=np.uint64)
_CHUNK = 16384  # shingles per step: bounds the [NUM_PERM, chunk] temporary (8 MB)


def words(text: str) -> list[str]:
    return normalise_text(text).split()


def shingles(text: str) -> set[tuple[str, ...]]:
    w = words(text)
    if len(w) < SHINGLE:
        return {tuple(w)} if w else set()
    return {tuple(w[i : i + SHINGLE]) for i in range(len(w) - SHINGLE + 1)}


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def word_count(normalised: str) -> int:
    """Words in a text already passed through normalise_text (single spaces, stripped)."""
    return normalised.count(" ") + 1 if normalised else 0


_powers = np.ones(1, dtype=np.uint64)  # P**j and P**-j mod 2**64, grown as texts need
_inverse = np.ones(1, dtype=np.uint64)


def _power_tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    global _powers, _inverse
    if len(_powers) < n:
        size = max(n, 2 * len(_powers))
        _powers, _inverse = _power_table(_P, size), _power_table(_P_INV, size)
    return _powers[:n], _inverse[:n]


def _power_table(base: int, size: int) -> np.ndarray:
    table = np.full(size, base, dtype=np.uint64)
    table[0] = 1
    with np.errstate(over="ignore"):
        return np.cumprod(table)  # base**j, wrapping mod 2**64


def _word_hashes(normalised: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """64-bit polynomial hashes of every word of the (normalised) texts, and the word
    count of each text, computed over the bytes of all texts at once."""
    counts = np.array([word_count(t) for t in normalised], dtype=np.int64)
    data = np.frombuffer(" ".join(t for t in normalised if t).encode("utf-8"), dtype=np.uint8)
    if not len(data):
        return np.zeros(0, dtype=np.uint64), counts
    b = data.astype(np.uint64) + np.uint64(1)
    powers, inverse = _power_tables(len(b))
    with np.errstate(over="ignore"):
        prefix = np.concatenate([[np.uint64(0)], np.cumsum(b * powers)])
        space = data == 32
        starts = np.nonzero(~space & np.concatenate([[True], space[:-1]]))[0]
        ends = np.nonzero(~space & np.concatenate([space[1:], [True]]))[0] + 1
        hashes = (prefix[ends] - prefix[starts]) * inverse[starts]
    return hashes, counts


def signatures(texts: Sequence[str], normalised: Sequence[str] | None = None) -> np.ndarray:
    """MinHash signatures [len(texts), NUM_PERM] (uint64) of the texts' word 3-shingles.
    Pass `normalised` (normalise_text of each text) when it is already at hand."""
    if normalised is None:
        normalised = [normalise_text(t) for t in texts]
    out = np.tile(_EMPTY, (len(normalised), 1))
    w, counts = _word_hashes(normalised)
    if not len(w):
        return out
    bounds = np.concatenate([[0], np.cumsum(counts)])
    with np.errstate(over="ignore"):  # wrap-around arithmetic is the hash
        # shingle i covers words i..i+2; those crossing into the next text are dropped
        shingle = w[:-2] * _K1 + w[1:-1] * _K2 + w[2:] if len(w) >= SHINGLE else w[:0]
        per_text = np.maximum(counts - SHINGLE + 1, 0)
        doc = np.repeat(np.arange(len(counts)), per_text)
        position = np.arange(len(doc)) - np.repeat(np.cumsum(per_text) - per_text, per_text)
        values = shingle[bounds[:-1][doc] + position]
        # texts of 1-2 words: their words stand in for shingles
        for i in np.nonzero((counts > 0) & (counts < SHINGLE))[0]:
            doc = np.concatenate([doc, np.full(counts[i], i)])
            values = np.concatenate([values, w[bounds[i] : bounds[i + 1]]])
        order = np.argsort(doc, kind="stable")
        doc, values = doc[order], values[order]
        buf = np.empty((NUM_PERM, _CHUNK), dtype=np.uint64)
        for start in range(0, len(values), _CHUNK):
            part, docs = values[start : start + _CHUNK], doc[start : start + _CHUNK]
            hashed = buf[:, : len(part)]
            np.multiply(_A[:, None], part[None, :], out=hashed)
            np.add(hashed, _B[:, None], out=hashed)
            runs = np.concatenate([[0], np.nonzero(np.diff(docs))[0] + 1])
            mins = np.minimum.reduceat(hashed, runs, axis=1).T
            run_docs = docs[runs]
            out[run_docs] = np.minimum(out[run_docs], mins)
    return out


class NearDuplicateIndex:
    """LSH over stored signatures: `candidates(sig)` -> keys whose Jaccard may be >= 0.8."""

    def __init__(self, items: Iterable[tuple[object, np.ndarray]] = ()):
        from datasketch import MinHashLSH

        self._lsh = MinHashLSH(num_perm=NUM_PERM, params=(LSH_BANDS, LSH_ROWS))
        self._size = 0
        for key, sig in items:
            self.add(key, sig)

    def __len__(self) -> int:
        return self._size

    def add(self, key: object, signature: np.ndarray) -> None:
        if np.array_equal(signature, _EMPTY):
            return
        self._lsh.insert(key, _lean(signature), check_duplication=False)
        self._size += 1

    def candidates(self, signature: np.ndarray) -> list[Any]:
        if not self._size or np.array_equal(signature, _EMPTY):
            return []
        return self._lsh.query(_lean(signature))


def _lean(signature: np.ndarray):
    """Our signature as a datasketch LeanMinHash (LSH only reads its hash values)."""
    from datasketch import LeanMinHash

    try:
        return LeanMinHash(seed=1, hashvalues=signature, scheme="affine64")
    except TypeError:  # datasketch < 2.0 has no schemes
        return LeanMinHash(seed=1, hashvalues=signature)
