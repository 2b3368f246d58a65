"""Vector indexes behind one small interface: exact numpy search, or an ANN graph (usearch).

Exact search is a single matrix-vector product: at 20k papers it takes about a millisecond
and is always right, so it is used below `ANN_THRESHOLD` vectors. (Search reads 200-deep
lists: at 15,602 papers the graph's lists miss 6% of the exact use-multilingual list, and
settings that miss under 1% cost as much as the scan; docs/bench/search.md, "ANN for
query-time lists".)
Above it, a usearch HNSW graph is persisted next to the store (`<db>.<model>.usearch`,
with a `.json` sidecar that maps graph keys to paper ids and text hashes) and kept in step
with the store incrementally: new vectors are added, vectors of deleted or re-embedded
papers removed.

Both return cosine similarities (vectors are normalised on the way in).
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

import numpy as np

from paperatlas.cache import StoreCache
from paperatlas.embed.normalise import normalise_rows
from paperatlas.embed.registry import retrieval_weights
from paperatlas.progress import progress_bar
from paperatlas.store.generation import vector_changes

log = logging.getLogger("paperatlas.embed")

ANN_THRESHOLD = int(os.environ.get("PAPERATLAS_ANN_THRESHOLD", "200000"))
# Candidates a graph query explores at least, whatever k: search asks for 200-deep lists,
# which explore 200 anyway; a "more like this" list of 10 at the graph's saved 96 found
# 86% of the exact 10 nearest at 1M papers, at 200 94% for ~1-4 ms more (docs/bench/scale.md,
# "search and similar at 1M"). A query-time setting: the saved graph is unchanged.
MIN_SEARCH_EXPANSION = 200
# How a graph is built (usearch HNSW): links per node, candidates explored per insertion,
# and the stored scalar type. A saved graph built otherwise is rebuilt, not reused
# (`AnnIndex.load`). Chosen by build time and recall@10 against exact search at 100k
# static vectors (benchmarks/ann_params.py; docs/bench/scale.md, "static embed and ANN build
# at 1M"): expansion_add
# 48 builds with 24% less CPU than 64 for recall@10 0.980 against 0.984; 32 lost 0.017,
# i8 0.10.
CONNECTIVITY = 16
EXPANSION_ADD = 48
DTYPE = "f16"
# the settings a saved graph must have been built with to be reused
BUILD_SETTINGS = ("connectivity", "expansion_add", "dtype")


class VectorIndex(Protocol):
    """Nearest neighbours among a fixed set of paper vectors."""

    @property
    def ids(self) -> list[str]: ...

    @property
    def dim(self) -> int: ...

    def __len__(self) -> int: ...

    def vectors_of(self, ids: Iterable[str]) -> tuple[list[str], np.ndarray]:
        """(the given papers that are in the index, their unit vectors in the model's space)."""
        ...

    def search(
        self, query: np.ndarray, k: int, allowed: Iterable[str] | None = None
    ) -> list[tuple[str, float]]:
        """(paper id, cosine similarity) of the k nearest vectors, best first; when `allowed`
        is given, only those papers are candidates."""
        ...


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k largest scores, best first (argpartition, then sort only those)."""
    k = min(k, scores.shape[0])
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    if k < scores.shape[0]:
        part = np.argpartition(-scores, k - 1)[:k]
    else:
        part = np.arange(scores.shape[0])
    return part[np.argsort(-scores[part], kind="stable")]


class ExactIndex:
    """Brute force: cosine = dot product of normalised vectors."""

    kind = "exact"

    def __init__(self, ids: list[str], matrix: np.ndarray):
        self.ids = list(ids)
        self.matrix = normalise_rows(matrix) if len(self.ids) else np.zeros((0, 0), np.float32)
        self.dim = int(self.matrix.shape[1]) if len(self.ids) else 0
        self._pos = {pid: i for i, pid in enumerate(self.ids)}

    def __len__(self) -> int:
        return len(self.ids)

    def search(
        self, query: np.ndarray, k: int, allowed: Iterable[str] | None = None
    ) -> list[tuple[str, float]]:
        if not self.ids or k <= 0:
            return []
        q = normalise_rows(np.asarray(query, dtype=np.float32).reshape(-1))
        if allowed is None:
            scores = self.matrix @ q
            return [(self.ids[i], float(scores[i])) for i in top_k(scores, k)]
        positions = np.fromiter((self._pos[p] for p in allowed if p in self._pos), dtype=np.int64)
        if positions.size == 0:
            return []
        scores = self.matrix[positions] @ q
        return [(self.ids[positions[i]], float(scores[i])) for i in top_k(scores, k)]

    def vectors_of(self, ids: Iterable[str]) -> tuple[list[str], np.ndarray]:
        found = [p for p in ids if p in self._pos]
        return found, self.matrix[[self._pos[p] for p in found]]


def _onnxruntime_first() -> None:
    """Import onnxruntime (when installed) before usearch: importing it after usearch kills
    the process with a segmentation fault (onnxruntime 1.32, usearch 2.26), which a search
    fusing minilm vectors over a graph index would do."""
    with contextlib.suppress(ImportError):
        import onnxruntime  # noqa: F401


class AnnIndex:
    """A usearch HNSW graph over cosine distance, persisted at `path` (+ `path.json`).

    Graph keys are integers handed out in insertion order; the sidecar maps each live key
    to its paper id and the text hash of the vector, so `sync` can tell what changed.
    """

    kind = "ann"

    def __init__(
        self,
        dim: int,
        path: str | os.PathLike[str] | None = None,
        connectivity: int = CONNECTIVITY,
        expansion_add: int = EXPANSION_ADD,
        expansion_search: int = 96,
        dtype: str = DTYPE,
    ):
        _onnxruntime_first()
        from usearch.index import Index

        self.path = Path(path) if path is not None else None
        self.dim = dim
        self._saved_expansion = expansion_search
        self._params = dict(
            connectivity=connectivity,
            expansion_add=expansion_add,
            expansion_search=expansion_search,
            dtype=dtype,
        )
        self._index = Index(
            ndim=dim,
            metric="cos",
            dtype=dtype,
            connectivity=connectivity,
            expansion_add=expansion_add,
            expansion_search=expansion_search,
        )
        self._key_to_id: dict[int, str] = {}
        self._id_to_key: dict[str, int] = {}
        self._hashes: dict[str, str] = {}
        self._next_key = 0
        # the store's change count of these vectors when the sidecar last matched it
        # (store.generation.vector_changes); None: unknown, compare the hashes
        self.vector_changes: int | None = None
        self._viewed = False  # the graph is the saved file, memory-mapped (read only)
        self._lock = threading.Lock()
        self._query_settings()

    def _query_settings(self) -> None:
        # usearch defines the setter (its stubs show only the getter)
        self._index.expansion_search = max(self._saved_expansion, MIN_SEARCH_EXPANSION)  # type: ignore[misc]

    # -- contents ------------------------------------------------------------------------

    @property
    def ids(self) -> list[str]:
        return list(self._id_to_key)

    def __len__(self) -> int:
        return len(self._id_to_key)

    def add(
        self,
        ids: list[str],
        matrix: np.ndarray,
        hashes: list[str] | None = None,
        threads: int = 0,
        progress=None,
    ) -> None:
        """Add vectors (replacing any stored under the same paper ids)."""
        if not ids:
            return
        with self._lock:
            self._writable()
            replaced = [self._id_to_key[p] for p in ids if p in self._id_to_key]
            if replaced:
                self._remove_keys(replaced)
            keys = np.arange(self._next_key, self._next_key + len(ids), dtype=np.uint64)
            self._next_key += len(ids)
            self._index.add(keys, normalise_rows(matrix), threads=threads, progress=progress)
            for key, pid, h in zip(keys.tolist(), ids, hashes or [""] * len(ids)):
                self._key_to_id[key] = pid
                self._id_to_key[pid] = key
                self._hashes[pid] = h

    def vectors_of(self, ids: Iterable[str]) -> tuple[list[str], np.ndarray]:
        found = [p for p in ids if p in self._id_to_key]
        if not found:
            return [], np.zeros((0, self.dim), np.float32)
        keys = np.asarray([self._id_to_key[p] for p in found], dtype=np.uint64)
        return found, normalise_rows(np.asarray(self._index.get(keys), dtype=np.float32))

    def remove(self, ids: Iterable[str]) -> None:
        with self._lock:
            self._remove_keys([self._id_to_key[p] for p in ids if p in self._id_to_key])

    def _writable(self) -> None:
        """A memory-mapped graph cannot change: read the file into memory first."""
        if self._viewed:
            self._index.load(str(self.path))
            self._viewed = False
            self._query_settings()

    def _remove_keys(self, keys: list[int]) -> None:
        self._writable()
        self._index.remove(np.asarray(keys, dtype=np.uint64))
        for key in keys:
            pid = self._key_to_id.pop(key)
            self._id_to_key.pop(pid, None)
            self._hashes.pop(pid, None)

    def sync(self, state: dict[str, str], load_vectors, on_progress=None) -> dict[str, int]:
        """Bring the graph in step with the store: `state` is paper id -> text hash of every
        stored vector; `load_vectors(ids)` returns (ids, matrix) for those that are new or
        changed. Returns counts of added and removed vectors."""
        gone = [p for p, h in self._hashes.items() if state.get(p) != h]
        fresh = [p for p, h in state.items() if self._hashes.get(p) != h]
        if gone:
            self.remove(gone)
        for start in range(0, len(fresh), 20_000):
            got, matrix = load_vectors(fresh[start : start + 20_000])
            self.add(got, matrix, [state[p] for p in got])
            if on_progress is not None:
                on_progress(min(len(fresh), start + 20_000), len(fresh))
        return {"added": len(fresh), "removed": len(gone)}

    # -- search ----------------------------------------------------------------------------

    def search(
        self, query: np.ndarray, k: int, allowed: Iterable[str] | None = None
    ) -> list[tuple[str, float]]:
        if not self._id_to_key or k <= 0:
            return []
        q = normalise_rows(np.asarray(query, dtype=np.float32).reshape(-1))
        if allowed is None:
            return self._search(q, k)
        allowed = set(allowed)
        # A filter keeps a fraction of the graph: over-fetch in proportion, then fall
        # back to exact scoring of the allowed vectors when that was not enough.
        share = max(len(allowed) / len(self._id_to_key), 1e-6)
        want = int(min(len(self._id_to_key), max(4 * k, k / share * 2)))
        if want <= 20_000:
            hits = [h for h in self._search(q, want) if h[0] in allowed][:k]
            if len(hits) >= min(k, len(allowed)):
                return hits
        keys = [self._id_to_key[p] for p in allowed if p in self._id_to_key]
        if not keys:
            return []
        matrix = normalise_rows(np.asarray(self._index.get(np.asarray(keys, dtype=np.uint64))))
        scores = matrix @ q
        return [(self._key_to_id[keys[i]], float(scores[i])) for i in top_k(scores, k)]

    def _search(self, q: np.ndarray, k: int) -> list[tuple[str, float]]:
        matches = self._index.search(q, min(k, len(self._id_to_key)))
        return [
            (self._key_to_id[int(key)], 1.0 - float(dist))
            for key, dist in zip(matches.keys, matches.distances)
            if int(key) in self._key_to_id
        ]

    # -- persistence --------------------------------------------------------------------------

    def save(self) -> None:
        if self.path is None:
            raise ValueError("AnnIndex has no path to save to")
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self._index.save(str(tmp))
        except RuntimeError as exc:  # usearch's error for a failed write (a full disk): no errno
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise OSError(errno.EIO, f"cannot write the vector index ({exc})", str(self.path)) from None
        # Graph first, sidecar last: a crash in between leaves a sidecar that no longer
        # matches, which `load` detects by count and answers with a rebuild.
        os.replace(tmp, self.path)
        self.save_sidecar()

    def save_sidecar(self) -> None:
        """Write the sidecar alone (the graph file unchanged: e.g. a new change count)."""
        if self.path is None:
            raise ValueError("AnnIndex has no path to save to")
        meta: dict[str, object] = {"dim": self.dim, "params": self._params, "next_key": self._next_key}
        if self.vector_changes is not None:
            meta["vector_changes"] = self.vector_changes
        pids = list(self._key_to_id.values())
        hashes = [self._hashes.get(pid, "") for pid in pids]
        if any("\n" in text for text in (*pids, *hashes)):  # cannot be joined by lines
            meta["keys"] = {str(k): [pid, h] for k, pid, h in zip(self._key_to_id, pids, hashes)}
        else:
            # three long strings, not a million small objects: a million papers' sidecar
            # reads in a fraction of a second, not ~5 s
            meta.update(key_list=list(self._key_to_id), ids="\n".join(pids), hashes="\n".join(hashes))
        meta_tmp = self.path.with_name(self.path.name + ".json.tmp")
        meta_tmp.write_text(json.dumps(meta), encoding="utf-8")
        os.replace(meta_tmp, self.path.with_name(self.path.name + ".json"))

    @classmethod
    def load(
        cls, path: str | os.PathLike[str], dim: int, view: bool = False, settings: dict | None = None
    ) -> AnnIndex | None:
        """The index saved at `path`, or None if it is missing, unreadable, inconsistent or
        built with other settings than `settings` (connectivity, expansion_add, dtype; by
        default this version's CONNECTIVITY, EXPANSION_ADD, DTYPE): a graph is never
        extended with settings it was not built with, it is rebuilt.
        `view`: memory-map the graph instead of reading it (a million papers' graph is
        ~0.7 GB: a process that only searches it reads the pages its queries visit; the
        first change reads it whole)."""
        path = Path(path)
        meta_path = path.with_name(path.name + ".json")
        if not path.exists() or not meta_path.exists():
            return None
        wanted = settings or {"connectivity": CONNECTIVITY, "expansion_add": EXPANSION_ADD, "dtype": DTYPE}
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            if meta["dim"] != dim:
                return None
            if any(meta["params"].get(key) != wanted[key] for key in BUILD_SETTINGS):
                return None
            index = cls(dim, path, **meta["params"])
            if view:
                index._index.view(str(path))
            else:
                index._index.load(str(path))
            index._viewed = view
            index._query_settings()
            if "key_list" in meta:
                keys = [int(k) for k in meta["key_list"]]
                pids = meta["ids"].split("\n") if keys else []
                hashes = meta["hashes"].split("\n") if keys else []
            else:  # the first format, and ids with line breaks
                keys = list(map(int, meta["keys"]))
                pids = [v[0] for v in meta["keys"].values()]
                hashes = [v[1] for v in meta["keys"].values()]
            if not len(index._index) == len(keys) == len(pids) == len(hashes):
                return None
        except (OSError, ValueError, KeyError, TypeError, RuntimeError, IndexError):
            return None
        index._next_key = int(meta["next_key"])
        changes = meta.get("vector_changes")
        index.vector_changes = changes if isinstance(changes, int) else None
        index._key_to_id = dict(zip(keys, pids))
        index._id_to_key = dict(zip(pids, keys))
        index._hashes = dict(zip(pids, hashes))
        return index

    def memory_bytes(self) -> int:
        return int(self._index.memory_usage)


class WeightedIndex:
    """An index over re-weighted vectors (`registry.retrieval_weights`): queries are weighted
    the same way on the way in, and vectors handed back are unweighted, so callers see the
    model's own space."""

    def __init__(self, inner, weights: np.ndarray):
        self.inner = inner
        self.weights = np.asarray(weights, dtype=np.float32)
        self.kind = inner.kind
        self.dim = inner.dim

    @property
    def ids(self) -> list[str]:
        return self.inner.ids

    def __len__(self) -> int:
        return len(self.inner)

    def search(
        self, query: np.ndarray, k: int, allowed: Iterable[str] | None = None
    ) -> list[tuple[str, float]]:
        query = np.asarray(query, dtype=np.float32).reshape(-1) * self.weights
        return self.inner.search(query, k, allowed)

    def vectors_of(self, ids: Iterable[str]) -> tuple[list[str], np.ndarray]:
        found, vectors = self.inner.vectors_of(ids)
        if not found:
            return found, vectors
        # a dimension weighted 0 is gone from the index: it comes back as 0
        inverse = np.divide(1.0, self.weights, out=np.zeros_like(self.weights), where=self.weights > 0)
        return found, normalise_rows(vectors * inverse)


def index_path(db_path: str | os.PathLike[str], model: str, weights: np.ndarray | None = None) -> Path:
    """Where the ANN graph of `model` lives: next to the database file (its name tells
    which search weights its vectors carry)."""
    db_path = Path(db_path)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", model)
    if weights is not None:
        import hashlib

        safe += "-w" + hashlib.sha1(np.asarray(weights, np.float32).tobytes()).hexdigest()[:8]
    return db_path.with_name(f"{db_path.name}.{safe}.usearch")


# One index per (database, model, threshold) per process, shared by the threads and reused
# while the stored vectors are unchanged; one thread builds while the others wait for it
# (the web app's first concurrent requests would otherwise each load the same vectors).
_INDEXES = StoreCache(max_entries=8)


def open_index(store, model: str, ann_threshold: int | None = None, progress: bool = False):
    """The vector index of `model` over the store's vectors (exact or ANN by size), or None
    when the store holds no vectors of that model."""
    threshold = ANN_THRESHOLD if ann_threshold is None else ann_threshold
    return _INDEXES.get(
        store,
        (model, threshold),
        lambda: _build_index(store, model, threshold, progress),
        version=lambda: store.vectors.version(model),
    )


def _build_index(store, model: str, threshold: int, progress: bool):
    signature = store.vectors.signature(model)
    weights = retrieval_weights(model) if signature[0] else None
    index: VectorIndex | None
    if signature[0] == 0:
        index = None
    elif signature[0] < threshold:
        ids, matrix = store.vectors.get(model)
        if weights is not None and weights.shape[0] != matrix.shape[1]:
            weights = None  # vectors of another version of the model: search them as stored
        index = ExactIndex(ids, matrix * weights if weights is not None else matrix)
    else:
        index, weights = _open_ann(store, model, progress, weights)
    if index is not None and weights is not None:
        index = WeightedIndex(index, weights)
    return index


def _open_ann(
    store, model: str, progress: bool, weights: np.ndarray | None = None
) -> tuple[AnnIndex, np.ndarray | None]:
    """The persisted graph brought up to date, and the weights its vectors carry.

    The sidecar records the store's change count of the model's vectors as it was when
    the graph last matched them (`vector_changes`): while the store still says that
    number, the graph is current and no paper's hash is read (a million at 1M papers)."""
    changes = vector_changes(store, model)  # read first: a write after it moves it again
    dim = store.vectors.dim(model)
    if weights is not None and weights.shape[0] != dim:
        weights = None  # vectors of another version of the model: search them as stored
    path = index_path(store.path, model, weights)
    index = AnnIndex.load(path, dim, view=True) or AnnIndex(dim, path)
    if changes is not None and index.vector_changes == changes:
        return index, weights
    state = store.vectors.state(model)
    if index._hashes == state:  # unchanged (one comparison in C, not three passes over a million)
        if changes is not None and len(index) and not store.read_only:
            index.vector_changes = changes
            with contextlib.suppress(OSError):  # a read-only folder: compare again next time
                index.save_sidecar()
        return index, weights
    todo = sum(1 for p, h in state.items() if index._hashes.get(p) != h)

    def load(ids):
        ids, matrix = store.vectors.get(model, ids)
        return ids, matrix * weights if weights is not None else matrix

    with progress_bar(progress and todo > 20_000, done="percent") as bar:  # minutes of work: show it
        task = bar.add_task(f"indexing {model} vectors", total=todo)
        synced = index.sync(state, load, lambda done, total: bar.update(task, completed=done))
    index.vector_changes = changes
    if store.read_only:  # writes nothing beside the atlas: the graph lives in memory
        return index, weights
    if synced["added"] or synced["removed"]:
        try:
            index.save()
        except OSError as exc:  # a full disk: the graph is searched from memory, saved next time
            log.warning("%s: not written (%s); searching without it", exc.filename, exc.strerror or exc)
    elif changes is not None:
        with contextlib.suppress(OSError):
            index.save_sidecar()
    return index, weights


def clear_cache() -> None:
    _INDEXES.clear()
