"""Vectors -> 2D layout, two-level topics and outlier flags (the numeric half of the atlas).

Everything here is deterministic for a given input: every random component takes `seed`.
Heavy libraries (sklearn, umap, pynndescent) are imported inside the functions.

Method, chosen on ICLR 2026 (benchmarks/atlas_eval.py):
- an exact kNN graph (cosine, k=15) of the unit vectors; each vector is averaged with its
  graph neighbours twice (smoothing), which sharpens topics without a costly reduction;
- broad topics are k-means clusters of the smoothed vectors (reduced by PCA); each broad
  topic is split by k-means into fine topics, so every fine topic has one parent;
- the 2D map is UMAP on the same kNN graph (t-SNE up to 2,000 papers, PCA below 60) (HDBSCAN on the map is not used: it leaves a
  third of the papers as noise and agrees less with the areas);
- above MAP_SAMPLE papers (40k) the above runs on a fixed random sample of MAP_SAMPLE, and
  every other paper is placed by its nearest sampled papers (weighted position, topic vote);
- a paper is flagged as an outlier when its core distance (distance to its 15th nearest
  neighbour, HDBSCAN's density measure) is far above the list's typical value (robust
  z-score), when its text is too short to place (a placeholder abstract), or when it has
  no usable vector. Outliers still get their nearest topic.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

import numpy as np

SEED = 42
# Below this many papers UMAP has too few neighbours to be meaningful: use PCA instead.
SMALL_LIST = 60
# Up to this many papers the 2D layout is t-SNE (fast at this size), above it UMAP.
TSNE_MAX = 2000
KNN = 15
# k-means runs on the smoothed vectors projected to this many principal components: as
# good as the full vectors for topic agreement and several times faster.
CLUSTER_DIMS = 48
SMOOTHING_STEPS = 2
# A paper is an outlier when its core distance exceeds median + OUTLIER_Z robust sigmas
# (ICLR 2026, static vectors: 0.2% of papers).
OUTLIER_Z = 2.5
EXACT_KNN_MAX = 40_000
# Above this many papers the layout and topics are fit on a sample of this many (exact
# kNN, one UMAP of this size) and every other paper is placed by its nearest sampled
# papers: the map's cost grows linearly past it (1M papers: 40k fitted, 960k placed).
MAP_SAMPLE = int(os.environ.get("PAPERATLAS_MAP_SAMPLE", str(EXACT_KNN_MAX)))
# Principal components of the sample that placement searches in (the vectors' own
# dimension above this costs proportionally more for the same neighbours, nearly).
PLACE_DIMS = 64
# The sample graph placement searches (usearch HNSW). On 40k sampled synthetic papers
# (64 PCs) a search width of 64 found 98.7% of the exact 15 neighbours at 0.11 ms a
# paper (96: 99.4% at 0.18 ms; the exact search 1.17 ms); a missed neighbour only shifts
# a weighted mean of 15.
PLACE_CONNECTIVITY = 16
PLACE_EXPANSION_ADD = 96
PLACE_EXPANSION_SEARCH = 64


@dataclass
class Clustering:
    xy: np.ndarray  # [n, 2] map coordinates, scaled to [0, 1]
    space: np.ndarray  # [n, d] space the clusters were found in
    fine: np.ndarray  # [n] fine topic per paper, 0 = largest
    broad: np.ndarray  # [n] broad topic per paper, 0 = largest
    fine_parent: np.ndarray  # [k_fine] broad topic of each fine topic
    outlier: np.ndarray  # [n] bool
    outlier_reason: list[str | None]  # per paper: why it is an outlier (None if it is not)
    core_distance: np.ndarray  # [n] cosine distance to the k-th nearest neighbour
    seconds: dict[str, float] = field(default_factory=dict)  # time per stage
    cpu_seconds: dict[str, float] = field(default_factory=dict)  # CPU time per stage
    # above MAP_SAMPLE papers: the rows the layout and topics were fit on (the others placed)
    fitted: np.ndarray | None = None


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length; all-zero rows (no text) stay zero."""
    from paperatlas.embed.normalise import normalise_rows

    return normalise_rows(vectors)


def topic_counts(n: int) -> tuple[int, int]:
    """(broad, fine) topic counts for a list of n papers: 25 / 212 for 15k papers, 10 / 54
    for 1,000, 4 / 15 for 73, 3 / 6 for 19. Broad grows like the cube root (a reader scans
    a few dozen at most), fine like the square root, with at least ~3 papers per fine topic."""
    if n <= 2:
        return 1, 1
    broad = int(np.clip(round(n ** (1 / 3)), 2, 40))
    fine = int(np.clip(round(np.sqrt(n) * 1.7), broad, 300))
    fine = max(broad, min(fine, n // 3))
    return min(broad, n), min(fine, n)


def _knn(v: np.ndarray, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(indices, cosine distances) of each row's k nearest rows (itself first), nearest first.

    Exact by blocked matrix products up to EXACT_KNN_MAX rows (a few seconds for 15k and
    no JIT start-up); approximate NN-descent beyond that.
    """
    n = len(v)
    k = min(k, n)
    if n <= EXACT_KNN_MAX:
        from paperatlas.atlas.nearest import top_k

        idx = np.empty((n, k), dtype=np.int64)
        dist = np.empty((n, k), dtype=np.float32)
        for start in range(0, n, 2048):
            sims = v[start : start + 2048] @ v.T
            rows = np.arange(sims.shape[0])
            sims[rows, rows + start] = 2.0  # itself first, even for an all-zero row
            # each row's k best, most similar first, ties by the lower row (nearest.top_k:
            # exact, the same as sorting each row, without a partition of all n columns)
            part, top = top_k(sims, k)
            idx[start : start + 2048] = part
            dist[start : start + 2048] = 1.0 - top
        dist[:, 0] = 0.0
        return idx, np.clip(dist, 0.0, 2.0)
    from pynndescent import NNDescent

    from paperatlas.atlas.jit_cache import enable_disk_cache

    enable_disk_cache()  # compiled once per machine, not once per process
    index = NNDescent(
        v, n_neighbors=k, metric="cosine", random_state=seed, n_jobs=1, low_memory=True, verbose=False
    )
    idx, dist = index.neighbor_graph
    return idx, dist


def _smooth(v: np.ndarray, idx: np.ndarray, steps: int) -> np.ndarray:
    """Average each vector with its kNN-graph neighbours, `steps` times.

    This removes the per-paper noise of an embedding while keeping the neighbourhood
    structure: k-means on the smoothed vectors finds topics that agree better with the
    areas people assign (ICLR: AMI +0.02..0.03) at a fraction of a second's cost.
    """
    import scipy.sparse as sp

    n, k = idx.shape
    adj = sp.csr_matrix(
        (np.ones(n * k, dtype=np.float32), (np.repeat(np.arange(n), k), idx.ravel())), shape=(n, n)
    )
    adj = ((adj + adj.T) > 0).astype(np.float32)
    out = v
    for _ in range(steps):
        out = unit_rows(adj @ out + out)
    return out


def _layout_tsne(v: np.ndarray, seed: int) -> np.ndarray:
    """t-SNE for lists of a few hundred papers: no JIT start-up (UMAP's first fit on a
    machine compiles for ~25 CPU-s; later processes load it from numba's cache), and it
    separates small groups well."""
    from sklearn.manifold import TSNE

    perplexity = float(min(30.0, max(5.0, (len(v) - 1) / 4)))
    return (
        TSNE(
            n_components=2,
            perplexity=perplexity,
            init="pca",
            metric="cosine",
            random_state=seed,
            max_iter=750,
        )
        .fit_transform(v)
        .astype(np.float32)
    )


def _layout_umap(v: np.ndarray, knn: tuple[np.ndarray, np.ndarray], seed: int) -> np.ndarray:
    """UMAP on the precomputed kNN graph. PCA initialisation and 150 epochs: on ICLR (15k)
    the default spectral initialisation alone took longer than everything else together."""
    import warnings

    import umap

    from paperatlas.atlas.jit_cache import enable_disk_cache

    enable_disk_cache()  # compiled once per machine, not once per process
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "n_jobs overridden by random_state" and the like
        reducer = umap.UMAP(
            n_components=2,
            n_neighbors=knn[0].shape[1],
            min_dist=0.1,
            metric="cosine",
            random_state=seed,
            precomputed_knn=knn,
            n_epochs=150,
            init="pca",
            low_memory=True,
            verbose=False,
        )
        return reducer.fit_transform(v).astype(np.float32)


def _pca(v: np.ndarray, dims: int, seed: int) -> np.ndarray:
    """Projection on the top principal components, from the eigenvectors of the d x d
    covariance (exact, deterministic, and far cheaper than an SVD of the n x d matrix)."""
    v = np.asarray(v, dtype=np.float64)
    dims = max(1, min(dims, v.shape[1], max(1, v.shape[0] - 1)))
    centred = v - v.mean(axis=0)
    values, vectors = np.linalg.eigh(centred.T @ centred)
    top = vectors[:, np.argsort(-values, kind="stable")[:dims]]
    top *= np.where(top[np.abs(top).argmax(axis=0), range(dims)] < 0, -1.0, 1.0)  # fix signs
    out = centred @ top
    if out.shape[1] == 1:
        out = np.hstack([out, np.zeros_like(out)])
    return out.astype(np.float32)


def _scale01(xy: np.ndarray) -> np.ndarray:
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    span = np.where(hi - lo > 0, hi - lo, 1.0)
    return ((xy - lo) / span).astype(np.float32)


def _renumber_by_size(labels: np.ndarray) -> np.ndarray:
    """Topic ids ordered by size, largest first (ties by old id), so 0 is the biggest."""
    ids, counts = np.unique(labels, return_counts=True)
    order = ids[np.lexsort((ids, -counts))]
    mapping = np.empty(labels.max() + 1, dtype=np.int64)
    mapping[order] = np.arange(len(order))
    return mapping[labels]


def _robust_outliers(core: np.ndarray, z: float = OUTLIER_Z) -> np.ndarray:
    """Core distances far above the median (median + z * MAD-sigma): sparse corners of the map."""
    med = float(np.median(core))
    mad = float(np.median(np.abs(core - med))) * 1.4826
    if mad <= 1e-9:
        return np.zeros(len(core), dtype=bool)
    return core > med + z * mad


def _clustering(xy, space, broad, fine, fine_parent, core, empty, short, sparse, clock) -> Clustering:
    """The result, with each outlier's reason (the first that holds: no text, too little
    text, far from every other paper)."""
    reason = [
        "no usable text"
        if e
        else "too little text to place"
        if t
        else "far from every other paper"
        if f
        else None
        for e, t, f in zip(empty, short, sparse)
    ]
    return Clustering(
        xy=xy,
        space=space,
        fine=fine,
        broad=broad,
        fine_parent=fine_parent,
        outlier=empty | sparse | short,
        outlier_reason=reason,
        core_distance=core,
        seconds=clock.laps,
        cpu_seconds=clock.cpu_laps,
    )


def kmeans(x: np.ndarray, k: int, seed: int, restarts: int = 3, max_iter: int = 100) -> np.ndarray:
    """Plain Lloyd k-means in numpy (distances by one matrix product per iteration).

    sklearn's KMeans gives the same answers, but its OpenMP threads spin on a busy
    machine: the dozens of small calls per map took 30 s instead of 0.5 s. Initial centres
    come from sklearn's k-means++ (no OpenMP); the best of `restarts` runs is kept."""
    from sklearn.cluster import kmeans_plusplus

    x = np.asarray(x, dtype=np.float64)
    k = min(k, len(x))
    if k <= 1:
        return np.zeros(len(x), dtype=np.int64)
    squared = (x * x).sum(axis=1)
    best: np.ndarray | None = None
    best_inertia = np.inf
    for attempt in range(restarts):
        centres, _ = kmeans_plusplus(x, k, random_state=seed + attempt)
        labels = None
        for _ in range(max_iter):
            dist = squared[:, None] - 2.0 * x @ centres.T + (centres * centres).sum(axis=1)
            new = dist.argmin(axis=1)
            if labels is not None and np.array_equal(new, labels):
                break
            labels = new
            counts = np.bincount(labels, minlength=k)
            sums = np.zeros_like(centres)
            np.add.at(sums, labels, x)
            filled = counts > 0  # an emptied centre stays where it was
            centres[filled] = sums[filled] / counts[filled, None]
        inertia = float(dist[np.arange(len(x)), labels].sum())
        if inertia < best_inertia - 1e-9:
            best, best_inertia = labels, inertia
    if best is None:
        raise ValueError("k-means found no finite solution (NaN in the vectors?)")
    return np.unique(best, return_inverse=True)[1].astype(np.int64)


def _fine_within(space: np.ndarray, broad: np.ndarray, k_fine: int, seed: int) -> np.ndarray:
    """Fine topics nested in broad ones: each broad topic is split by k-means into a number
    of parts proportional to its size (at least one), so every fine topic has one parent."""
    n = len(space)
    fine = np.empty(n, dtype=np.int64)
    next_id = 0
    for b in range(int(broad.max()) + 1):
        members = np.flatnonzero(broad == b)
        parts = max(1, min(len(members), round(k_fine * len(members) / n)))
        local = kmeans(space[members], parts, seed)
        fine[members] = local + next_id
        next_id += int(local.max()) + 1
    return fine


def cluster_papers(
    vectors: np.ndarray,
    seed: int = SEED,
    k_broad: int | None = None,
    k_fine: int | None = None,
    too_short=None,
) -> Clustering:
    """Layout, two-level topics and outliers for one list's vectors. `too_short` marks
    papers whose text is too short to place with confidence (they are flagged)."""
    from threadpoolctl import threadpool_limits

    # One thread: the work is many small steps, and on a busy machine OpenMP/BLAS thread
    # contention made t-SNE and k-means 10-40x slower than single-threaded.
    with threadpool_limits(limits=1):
        return _cluster_papers(vectors, seed, k_broad, k_fine, too_short)


def _cluster_papers(
    vectors: np.ndarray, seed: int, k_broad: int | None, k_fine: int | None, too_short
) -> Clustering:
    n = len(vectors)
    if n <= MAP_SAMPLE:
        return _fit(vectors, seed, k_broad, k_fine, too_short)
    # a large list: layout and topics fit on a sample, every other paper placed on it
    auto_broad, auto_fine = topic_counts(n)
    clock = StageClock()
    sample = np.sort(np.random.default_rng(seed).choice(n, MAP_SAMPLE, replace=False))
    short = None if too_short is None else np.asarray(too_short, dtype=bool)
    fit = _fit(
        vectors[sample],
        seed,
        k_broad or auto_broad,
        k_fine or auto_fine,
        None if short is None else short[sample],
    )
    clock.laps.update({f"sample {k}": v for k, v in fit.seconds.items()})
    clock.cpu_laps.update({f"sample {k}": v for k, v in fit.cpu_seconds.items()})
    clock.lap("sample")
    rest = np.setdiff1d(np.arange(n), sample)
    placed = place_on_sample(vectors, unit_rows(vectors[sample]), fit, seed, rows=rest)
    clock.lap("placed")
    merged = _merge(n, sample, fit, rest, placed, short, clock)
    merged.fitted = sample
    return merged


@dataclass
class Placement:
    xy: np.ndarray
    space: np.ndarray
    fine: np.ndarray
    core_distance: np.ndarray
    empty: np.ndarray  # no usable vector


def place_on_sample(
    v: np.ndarray,
    sample_v: np.ndarray,
    fit: Clustering,
    seed: int,
    k: int = KNN,
    block: int = 4096,
    rows: np.ndarray | None = None,
) -> Placement:
    """Each row of `v` (or each row `rows` of `v`, read a block at a time so the list's
    vectors are never copied whole) placed by its k nearest sampled papers (cosine, found
    by an HNSW graph over the sample's first PLACE_DIMS principal components): position
    and cluster space the similarity-weighted mean of theirs, fine topic their weighted
    vote, core distance the cosine distance to the farthest of them (the sample's own core
    distance is to its k-th neighbour)."""
    from sklearn.decomposition import PCA

    from paperatlas.atlas.nearest import block_threads, each_block

    dims = min(PLACE_DIMS, sample_v.shape[1], len(sample_v))
    pca = PCA(n_components=dims, svd_solver="randomized", random_state=seed).fit(sample_v)
    target = unit_rows(pca.transform(sample_v).astype(np.float32))
    graph = _sample_graph(target)
    k = min(k, len(sample_v))
    n = len(v) if rows is None else len(rows)
    n_fine = int(fit.fine.max()) + 1
    out = Placement(
        xy=np.empty((n, 2), np.float32),
        space=np.empty((n, fit.space.shape[1]), np.float32),
        fine=np.empty(n, np.int64),
        core_distance=np.empty(n, np.float32),
        empty=np.empty(n, bool),
    )

    threads = block_threads(n)
    searching = threading.Lock()

    def place_block(start: int) -> None:
        stop = min(start + block, n)
        raw_block = np.asarray(v[start:stop] if rows is None else v[rows[start:stop]], np.float32)
        unit = unit_rows(raw_block)
        out.empty[start:stop] = ~np.any(unit, axis=1)
        query = unit_rows(pca.transform(unit).astype(np.float32))
        # one search at a time: a usearch index keeps one search context per thread of
        # its own pool, so two calls at once would share one; each call uses every core
        with searching:
            part, top = _nearest(graph, target, query, k, threads)
        weight = np.maximum(top, 0.0) + 1e-6
        weight /= weight.sum(axis=1, keepdims=True)
        out.xy[start:stop] = np.einsum("bk,bkd->bd", weight, fit.xy[part])
        out.space[start:stop] = np.einsum("bk,bkd->bd", weight, fit.space[part])
        votes = np.zeros((stop - start, n_fine), np.float32)
        np.add.at(votes, (np.repeat(np.arange(stop - start), k), fit.fine[part].ravel()), weight.ravel())
        out.fine[start:stop] = votes.argmax(axis=1)
        # the core distance in the space the sample's own was measured in (the vectors)
        raw = np.einsum("bd,bkd->bk", unit, sample_v[part])
        out.core_distance[start:stop] = np.clip(1.0 - raw.min(axis=1), 0.0, 2.0)

    # the blocks on every core from nearest.PARALLEL_FROM papers (the same answer)
    each_block(place_block, n, block)
    return out


def _sample_graph(target: np.ndarray):
    """An HNSW graph (usearch, cosine) over the sample's reduced unit vectors, built by one
    thread in row order so the same sample gives the same graph. A query costs about
    log(sample) distance checks instead of the whole sample's (an exact search of 40k
    rows cost 1.45 ms a paper at 100k papers)."""
    from paperatlas.embed.index import _onnxruntime_first

    _onnxruntime_first()
    from usearch.index import Index

    graph = Index(
        ndim=target.shape[1],
        metric="cos",
        dtype="f32",
        connectivity=PLACE_CONNECTIVITY,
        expansion_add=PLACE_EXPANSION_ADD,
        expansion_search=PLACE_EXPANSION_SEARCH,
    )
    graph.add(np.arange(len(target), dtype=np.uint64), target, threads=1)
    return graph


def _nearest(
    graph, target: np.ndarray, query: np.ndarray, k: int, threads: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """(sample indices, cosine similarities) of each query row's k nearest sampled rows
    (each row's answer is the same on any number of threads). A row the graph returns
    fewer than k for (a zero vector) is searched exactly."""
    found = graph.search(query, k, threads=threads)
    keys = np.asarray(found.keys, dtype=np.int64).reshape(len(query), -1)[:, :k]
    sims = 1.0 - np.asarray(found.distances, dtype=np.float32).reshape(len(query), -1)[:, :k]
    short = np.flatnonzero(np.asarray(found.counts).reshape(-1) < k)
    if len(short):
        exact = query[short] @ target.T
        part = np.argpartition(-exact, k - 1, axis=1)[:, :k]
        keys[short] = part
        sims[short] = np.take_along_axis(exact, part, axis=1)
    return keys, sims


def _merge(
    n: int,
    sample: np.ndarray,
    fit: Clustering,
    rest: np.ndarray,
    placed: Placement,
    short,
    clock,
) -> Clustering:
    xy = np.empty((n, 2), np.float32)
    space = np.empty((n, fit.space.shape[1]), np.float32)
    fine = np.empty(n, np.int64)
    core = np.empty(n, np.float32)
    xy[sample], xy[rest] = fit.xy, placed.xy
    space[sample], space[rest] = fit.space, placed.space
    fine[sample], fine[rest] = fit.fine, placed.fine
    core[sample], core[rest] = fit.core_distance, placed.core_distance
    # topics renumbered by their sizes over every paper (0 = largest), parents kept
    broad = _renumber_by_size(fit.fine_parent[fine])
    fine = _renumber_by_size(fine)
    fine_parent = np.zeros(int(fine.max()) + 1, dtype=np.int64)
    fine_parent[fine] = broad
    empty = np.zeros(n, dtype=bool)
    empty[sample] = np.array([r == "no usable text" for r in fit.outlier_reason])
    empty[rest] = placed.empty
    sparse = _robust_outliers(core)
    short = np.zeros(n, dtype=bool) if short is None else short
    return _clustering(xy, space, broad, fine, fine_parent, core, empty, short, sparse, clock)


def _fit(vectors: np.ndarray, seed: int, k_broad: int | None, k_fine: int | None, too_short) -> Clustering:
    v = unit_rows(vectors)
    n = len(v)
    if n == 0:
        raise ValueError("no vectors to map")
    empty = ~np.any(v, axis=1)
    auto_broad, auto_fine = topic_counts(n)
    k_broad = min(k_broad or auto_broad, n)
    k_fine = max(k_broad, min(k_fine or auto_fine, n))

    clock = StageClock()
    k = min(KNN, max(1, n - 1))
    knn_idx, knn_dist = _knn(v, k + 1, seed)  # +1: each row's first neighbour is itself
    core = knn_dist[:, -1].astype(np.float32)
    clock.lap("knn")

    if n < SMALL_LIST:
        space = v
        xy = _pca(v, 2, seed) if n > 2 else np.array([[0.0, 0.0], [1.0, 1.0]][:n], np.float32)
    else:
        if n <= TSNE_MAX:
            xy = _layout_tsne(v, seed)
        else:
            xy = _layout_umap(v, (knn_idx, knn_dist), seed)
        clock.lap("layout")
        space = _smooth(v, knn_idx, SMOOTHING_STEPS)
        if space.shape[1] > CLUSTER_DIMS:
            space = _pca(space, CLUSTER_DIMS, seed)

    broad = _renumber_by_size(kmeans(space, k_broad, seed, max_iter=300))
    fine = _renumber_by_size(_fine_within(space, broad, k_fine, seed))
    fine_parent = np.zeros(int(fine.max()) + 1, dtype=np.int64)
    fine_parent[fine] = broad
    clock.lap("clusters")

    sparse = _robust_outliers(core) if n >= SMALL_LIST else np.zeros(n, dtype=bool)
    short = np.zeros(n, dtype=bool) if too_short is None else np.asarray(too_short, dtype=bool)
    xy = _scale01(np.asarray(xy, dtype=np.float32))
    return _clustering(xy, space, broad, fine, fine_parent, core, empty, short, sparse, clock)


class StageClock:
    """Seconds per stage, wall clock (`laps`) and this process's CPU (`cpu_laps`: on a
    shared machine the wall clock measures the others' load as much as the work)."""

    def __init__(self):
        self.laps: dict[str, float] = {}
        self.cpu_laps: dict[str, float] = {}
        self._last = time.perf_counter()
        self._last_cpu = time.process_time()

    def restart(self) -> None:
        """The next lap starts now (time since the last one is not counted)."""
        self._last, self._last_cpu = time.perf_counter(), time.process_time()

    def lap(self, name: str) -> None:
        now, cpu = time.perf_counter(), time.process_time()
        self.laps[name] = round(now - self._last, 2)
        self.cpu_laps[name] = round(cpu - self._last_cpu, 2)
        self._last, self._last_cpu = now, cpu
