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

Beside it, `<db>.bm25ids` holds every row's paper id (`IdsFile`): the ids of a query's best
rows are then read from a few pages of a small file instead of one lookup each into the
papers table (200 random reads of the store's largest table a query: 60-100 ms wall at 100k
papers on a busy machine, for 7 ms of CPU). Same header; arrays `offsets` (int64 by rowid,
max rowid + 2: row r's id is `ids[offsets[r]:offsets[r + 1]]`, empty for no row) and `ids`
(the ids' UTF-8 bytes). Paper ids never change in place (a re-key inserts a new row and
deletes the old one), and every insert and delete changes FTS5's version, so the version
that keys the postings keys the ids too.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
from pathlib import Path
from typing import Any

import numpy as np

SUFFIX = ".bm25"
IDS_SUFFIX = ".bm25ids"
FORMAT = 1
_ALIGN = 64
_ZEROS = 1 << 20  # what the fallback of `reserve` writes at a time
log = logging.getLogger("paperatlas.search")


def file_path(db_path: str | os.PathLike[str], suffix: str = SUFFIX) -> Path:
    db_path = Path(db_path)
    return db_path.with_name(db_path.name + suffix)


def _read_header(path: Path, version: bytes | None) -> tuple[dict, int] | None:
    """(header, where the arrays start) of a file of this layout built at `version` (None:
    at any version, which the caller reads from the header)."""
    try:
        with open(path, "rb") as fh:
            size = int.from_bytes(fh.read(8), "little")
            header = json.loads(fh.read(size))
        if header.get("format") != FORMAT or (
            version is not None and bytes.fromhex(header["version"]) != version
        ):
            return None
        return header, _aligned(8 + size)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _open_checked(cls, path: Path, version: bytes):
    """`cls` over the file at `path` when its header says `version`; None when the file is
    missing, stale or unreadable (the caller then reads SQLite, or builds the file)."""
    found = _read_header(path, version)
    if found is None:
        return None
    try:
        return cls(path, *found)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _map_arrays(path: Path, header: dict, base: int) -> dict[str, np.ndarray]:
    # plain ndarray views of the mapping: indexing a np.memmap makes a memmap object
    # each time (~20 µs), and the token search indexes it ~60 times a query
    return {
        name: np.memmap(
            path, dtype=spec["dtype"], mode="r", offset=base + spec["offset"], shape=(spec["n"],)
        ).view(np.ndarray)
        if spec["n"]
        else np.zeros(0, dtype=spec["dtype"])
        for name, spec in header["arrays"].items()
    }


class PostingsFile:
    """A built postings file, memory-mapped (nothing is read until a token is asked for)."""

    def __init__(self, path: Path, header: dict, base: int):
        self.path = path
        self.version = bytes.fromhex(header["version"])
        self._arrays = _map_arrays(path, header, base)
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
        return _open_checked(cls, file_path(db_path), version)

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


class IdsFile:
    """Every row's paper id by rowid, memory-mapped (`<db>.bm25ids`, see the module's doc)."""

    def __init__(self, path: Path, header: dict, base: int):
        arrays = _map_arrays(path, header, base)
        self._offsets, self._ids = arrays["offsets"], arrays["ids"]

    @classmethod
    def open(cls, db_path: str | os.PathLike[str], version: bytes) -> IdsFile | None:
        """The ids file beside `db_path` built at `version`; None when missing, stale or unreadable."""
        return _open_checked(cls, file_path(db_path, IDS_SUFFIX), version)

    def names(self, rowids: list[int]) -> dict[int, str]:
        """rowid -> paper id of the given rows (a rowid no paper has is left out)."""
        offsets, ids, top = self._offsets, self._ids, len(self._offsets) - 1
        out: dict[int, str] = {}
        for r in rowids:
            if 0 <= r < top:
                a, b = int(offsets[r]), int(offsets[r + 1])
                if b > a:
                    out[r] = ids[a:b].tobytes().decode("utf-8")
        return out


def build_ids(store, version: bytes) -> IdsFile | None:
    """Write the ids file of the index at `version` from the papers' id index (rowid and
    id only), atomically; None when the index changed meanwhile."""
    rows = store.fts.row_ids()
    rowids = np.fromiter((r for r, _ in rows), dtype=np.int64, count=len(rows))
    encoded = [pid.encode("utf-8") for _, pid in rows]
    del rows
    lengths = np.zeros(int(rowids.max(initial=0)) + 1, dtype=np.int64)
    lengths[rowids] = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    order = np.argsort(rowids, kind="stable")
    blob = np.frombuffer(b"".join([encoded[i] for i in order.tolist()]), dtype=np.uint8)
    if store.fts.version() != version:
        return None
    _write(file_path(store.path, IDS_SUFFIX), version, {"offsets": offsets, "ids": blob})
    return IdsFile.open(store.path, version)


def _write(path: Path, version: bytes, arrays: dict[str, np.ndarray]) -> None:
    """A file of this layout from arrays in memory, written to a temporary name and moved."""
    specs: dict[str, dict[str, Any]] = {}
    offset = 0
    for name, array in arrays.items():
        specs[name] = {"dtype": array.dtype.name, "n": len(array), "offset": offset}
        offset += _aligned(array.nbytes)
    blob = json.dumps({"format": FORMAT, "version": version.hex(), "arrays": specs}).encode("utf-8")
    base = _aligned(8 + len(blob))
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(len(blob).to_bytes(8, "little") + blob)
            for name, array in arrays.items():
                fh.seek(base + specs[name]["offset"])
                fh.write(array.tobytes())
            fh.truncate(base + offset)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _aligned(n: int) -> int:
    return -(-n // _ALIGN) * _ALIGN


def reserve(fh, size: int) -> None:
    """Make the open file `size` bytes long with its disk blocks allocated, so that writes
    through a memory map of it cannot fail. A write to a mapped page the disk has no room
    for is no error the program can catch: the kernel kills the process (SIGBUS). Here a
    full disk is an OSError (ENOSPC) before anything is mapped. Where the file system
    cannot allocate ahead (posix_fallocate unsupported), zeros are written instead."""
    try:
        os.posix_fallocate(fh.fileno(), 0, size)
        return
    except AttributeError:  # not on this platform
        pass
    except OSError as exc:
        if exc.errno not in (errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
            raise OSError(exc.errno, exc.strerror, fh.name) from None
    fh.seek(0, os.SEEK_END)
    at = fh.tell()
    zeros = bytes(_ZEROS)
    while at < size:
        at += fh.write(zeros[: min(_ZEROS, size - at)])
    fh.flush()


def build(store, doc_len: np.ndarray, n_rows: int, version: bytes) -> PostingsFile | None:
    """Write the file for the index at `version` (one read of every posting), next to the store, atomically; None when the index changed meanwhile
    or a count is not a whole number below 2**16 (FTS5's column weights are whole)."""
    path = file_path(store.path)
    counts = dict(store.fts.token_counts())
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
            reserve(fh, base + offset)  # a full disk is an OSError here, not a SIGBUS in _fill
        if not _fill(store, tmp, base, arrays, order, encoded, counts, doc_len):
            return None
        if store.fts.version() != version:
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
    for token, docs, freqs in store.fts.token_postings(order):  # a token at a time: no sort of them all
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
    return _under_lock(
        store,
        lambda: PostingsFile.open(store.path, version),
        lambda: build(store, doc_len, n_rows, version),
        file_path(store.path),
    )


def open_or_build_ids(store, version: bytes) -> IdsFile | None:
    """The ids file for the index at `version`, built now when missing or stale (as
    open_or_build: one process builds, the others wait); None when it cannot be written."""
    found = IdsFile.open(store.path, version)
    if found is not None:
        return found
    return _under_lock(
        store,
        lambda: IdsFile.open(store.path, version),
        lambda: build_ids(store, version),
        file_path(store.path, IDS_SUFFIX),
    )


def _under_lock(store, find, make, path: Path):
    """`find()`, else `make()`, holding the machine-wide lock beside the store."""
    lock_path = file_path(store.path).with_suffix(SUFFIX + ".lock")
    try:
        with open(lock_path, "a+b") as lock:
            with contextlib.suppress(ImportError):
                import fcntl

                fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            found = find()
            if found is not None:
                return found
            _remove_unfinished(path)
            return make()
    except OSError as exc:  # a full disk, a read-only folder: search reads SQLite instead
        log.warning("%s: not written (%s); searching without it", exc.filename or path, exc.strerror or exc)
        return None


def _remove_unfinished(path: Path) -> None:
    """Delete what a builder that died left (a server stopped during its background
    preload: the thread ends without its cleanup; ~1 GB at a million papers). Builders
    hold the lock while they write, so under it every temporary file is a dead one's."""
    for left in path.parent.glob(path.name + ".*.tmp"):
        with contextlib.suppress(OSError):
            left.unlink()
