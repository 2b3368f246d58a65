"""The BM25 postings of a store's full-text index in one file beside it (`<db>.bm25`),
memory-mapped.

Reading a word's postings out of FTS5 costs ~2 µs a posting: at a million papers a word in
10% of them is 0.2 s, in every process that asks. From this file a process reads only the
pages of its query's words, a cold `paperatlas search` included, and the server processes
of one machine share those pages (the page cache) instead of each holding a copy.

Layout: 8 bytes (the header's length), a JSON header (the FTS5 version the postings were
read at, and each array's dtype, length and offset after the header), then the arrays,
64-byte aligned:
`tokens` (every token's UTF-8 bytes, sorted, concatenated), `token_at` (where each starts,
n + 1), `starts` (where each token's postings start, n + 1), `docs` (int32 rowids),
`freq` (uint16 column-weighted counts), `doc_len` (float64 token count by rowid). The file
answers for the index only while FTS5's version record is the one in its header.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import numpy as np

SUFFIX = ".bm25"
FORMAT = 1
_ALIGN = 64


def file_path(db_path: str | os.PathLike[str]) -> Path:
    db_path = Path(db_path)
    return db_path.with_name(db_path.name + SUFFIX)


class PostingsFile:
    """A built postings file, memory-mapped (nothing is read until a token is asked for)."""

    def __init__(self, path: Path, header: dict, base: int):
        self.path = path
        self.version = bytes.fromhex(header["version"])
        # plain ndarray views of the mapping: indexing a np.memmap makes a memmap object
        # each time (~20 µs), and the token search indexes it ~60 times a query
        self._arrays = {
            name: np.memmap(
                path, dtype=spec["dtype"], mode="r", offset=base + spec["offset"], shape=(spec["n"],)
            ).view(np.ndarray)
            if spec["n"]
            else np.zeros(0, dtype=spec["dtype"])
            for name, spec in header["arrays"].items()
        }
        self.doc_len: np.ndarray = self._arrays["doc_len"]
        self.n_rows = int(header["n_rows"])
        self._tokens = self._arrays["tokens"]
        self._token_at = self._arrays["token_at"]
        self._starts = self._arrays["starts"]
        self.n_tokens = len(self._starts) - 1

    @classmethod
    def open(cls, db_path: str | os.PathLike[str], version: bytes) -> PostingsFile | None:
        """The file beside `db_path` when it was built from the index at `version`; None
        when there is none, it is stale or unreadable."""
        path = file_path(db_path)
        try:
            with open(path, "rb") as fh:
                size = int.from_bytes(fh.read(8), "little")
                header = json.loads(fh.read(size))
            if header.get("format") != FORMAT or bytes.fromhex(header["version"]) != version:
                return None
            return cls(path, header, _aligned(8 + size))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _token(self, i: int) -> bytes:
        return bytes(self._tokens[self._token_at[i] : self._token_at[i + 1]])

    def get(self, token: str) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, weighted counts) of `token`; empty for a token the index does not hold."""
        key = token.encode("utf-8")
        lo, hi = 0, self.n_tokens
        while lo < hi:  # binary search of the sorted token table
            mid = (lo + hi) // 2
            if self._token(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        if lo < self.n_tokens and self._token(lo) == key:
            a, b = int(self._starts[lo]), int(self._starts[lo + 1])
            return self._arrays["docs"][a:b], self._arrays["freq"][a:b]
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.uint16)


def _aligned(n: int) -> int:
    return -(-n // _ALIGN) * _ALIGN


def build(store, doc_len: np.ndarray, n_rows: int, version: bytes) -> PostingsFile | None:
    """Write the file for the index at `version` (one read of every posting), next to the store, atomically; None when the index changed meanwhile
    or a count is not a whole number below 2**16 (FTS5's column weights are whole)."""
    path = file_path(store.path)
    counts = dict(store.fts_token_counts())
    encoded = {t: t.encode("utf-8") for t in counts}
    order = sorted(counts, key=encoded.__getitem__)  # bytewise: what `get` searches
    n_postings = sum(counts.values())
    sizes = {
        "tokens": ("uint8", sum(len(b) for b in encoded.values())),
        "token_at": ("int64", len(order) + 1),
        "starts": ("int64", len(order) + 1),
        "docs": ("int32", n_postings),
        "freq": ("uint16", n_postings),
        "doc_len": ("float64", len(doc_len)),
    }
    arrays, offset = {}, 0  # offsets from the end of the header, which is aligned too
    for name, (dtype, n) in sizes.items():
        arrays[name] = {"dtype": dtype, "n": n, "offset": offset}
        offset += _aligned(n * np.dtype(dtype).itemsize)
    header = {"format": FORMAT, "version": version.hex(), "n_rows": n_rows, "arrays": arrays}
    blob = json.dumps(header).encode("utf-8")
    base = _aligned(8 + len(blob))
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(len(blob).to_bytes(8, "little") + blob)
            fh.truncate(base + offset)
        if not _fill(store, tmp, base, arrays, order, encoded, counts, doc_len):
            return None
        if store.fts_version() != version:
            return None
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return PostingsFile.open(store.path, version)


def _fill(
    store, tmp: Path, base: int, arrays: dict, order: list[str], encoded: dict, counts: dict, doc_len
) -> bool:
    def view(name: str) -> np.ndarray:
        spec = arrays[name]
        if not spec["n"]:
            return np.zeros(0, dtype=spec["dtype"])
        return np.memmap(
            tmp, dtype=spec["dtype"], mode="r+", offset=base + spec["offset"], shape=(spec["n"],)
        )

    lengths = np.array([len(encoded[t]) for t in order], dtype=np.int64)
    token_at, starts = view("token_at"), view("starts")
    token_at[0], starts[0] = 0, 0
    token_at[1:] = np.cumsum(lengths)
    starts[1:] = np.cumsum(np.array([counts[t] for t in order], dtype=np.int64))
    view("tokens")[:] = np.frombuffer(b"".join(encoded[t] for t in order), dtype=np.uint8)
    view("doc_len")[:] = doc_len
    where = {t: i for i, t in enumerate(order)}
    docs_out, freq_out = view("docs"), view("freq")
    seen = 0
    for token, docs, freqs in store.fts_token_postings(order):  # a token at a time: no sort of them all
        i = where.get(token)
        if i is None or docs.count(",") + 1 != counts[token]:
            return False  # the index changed since its counts were read
        f = np.array(freqs.split(","), dtype=np.float64)
        if len(f) and (f.max() >= 2**16 or not np.all(f == np.floor(f))):
            return False
        a, b = int(starts[i]), int(starts[i + 1])
        docs_out[a:b] = np.array(docs.split(","), dtype=np.int64)
        freq_out[a:b] = f
        seen += 1
    for out in (docs_out, freq_out, token_at, starts):
        if isinstance(out, np.memmap):
            out.flush()
    return seen == len(order)


def open_or_build(store, doc_len: np.ndarray, n_rows: int, version: bytes) -> PostingsFile | None:
    """The file for the index at `version`, built now when missing or stale; one process
    of the machine builds it while the others wait (a server's worker processes each
    preload). None when it cannot be written (a read-only folder) or the index changed."""
    found = PostingsFile.open(store.path, version)
    if found is not None:
        return found
    lock_path = file_path(store.path).with_suffix(SUFFIX + ".lock")
    try:
        with open(lock_path, "a+b") as lock:
            with contextlib.suppress(ImportError):
                import fcntl

                fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            found = PostingsFile.open(store.path, version)
            if found is not None:
                return found
            _remove_unfinished(file_path(store.path))
            return build(store, doc_len, n_rows, version)
    except OSError:
        return None


def _remove_unfinished(path: Path) -> None:
    """Delete what a builder that died left (a server stopped during its background
    preload: the thread ends without its cleanup; ~1 GB at a million papers). Builders
    hold the lock while they write, so under it every temporary file is a dead one's."""
    for left in path.parent.glob(path.name + ".*.tmp"):
        with contextlib.suppress(OSError):
            left.unlink()
