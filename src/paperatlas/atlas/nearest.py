"""The k largest entries of each row of a similarity block, exactly, without a full
`argpartition` of every row.

Placing a million papers on a reference of ~12k papers spends most of its time choosing
each row's 15 best columns: `np.argpartition` over 12k columns cost ~180 us a row on this
machine, twice the matrix product that made the row. Here the columns are cut into
groups; the k-th largest of the groups' maxima is a lower bound of the row's k-th
largest entry (k distinct entries reach it), so only the entries at or above it can be
among the k best: a handful per row. They are ranked exactly (similarity descending,
column ascending on ties)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

# Columns per group: ~200 groups for a 12k-column block.
GROUP = 64


def top_k(sims: np.ndarray, k: int, group: int = GROUP) -> tuple[np.ndarray, np.ndarray]:
    """(columns, values) of each row's k largest entries, largest first (ties: lower
    column first), as [n, k] arrays. Exact: the same set as a full sort of each row."""
    n, m = sims.shape
    k = min(k, m)
    full = m // group
    if n == 0 or full < k + 1:
        return _sorted_top(sims, k)
    blocks = sims[:, : full * group].reshape(n, full, group)
    maxima = blocks.max(axis=2)
    rest = sims[:, full * group :]
    if rest.shape[1]:
        maxima = np.concatenate([maxima, rest.max(axis=1, keepdims=True)], axis=1)
    bound = np.partition(maxima, maxima.shape[1] - k, axis=1)[:, maxima.shape[1] - k]
    # only the groups whose maximum reaches the bound hold candidates (~k groups a row)
    g_rows, g_ids = np.nonzero(maxima[:, :full] >= bound[:, None])
    inside = blocks[g_rows, g_ids] >= bound[g_rows, None]  # [groups, group]
    at, offset = np.nonzero(inside)
    rows, cols = g_rows[at], g_ids[at] * group + offset
    if rest.shape[1]:
        r_rows, r_cols = np.nonzero(rest >= bound[:, None])
        rows = np.concatenate([rows, r_rows])
        cols = np.concatenate([cols, r_cols + full * group])
    counts = np.bincount(rows, minlength=n)
    if (counts < k).any():  # NaN in a row: no bound holds, rank the whole block
        return _sorted_top(sims, k)
    values = sims[rows, cols]
    order = np.lexsort((cols, -values, rows))
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    take = order[(first[:, None] + np.arange(k)).ravel()]
    return cols[take].reshape(n, k), values[take].reshape(n, k)


def _sorted_top(sims: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The same answer by a stable sort of every row (small blocks, NaN: sorted last)."""
    cols = np.argsort(-sims, axis=1, kind="stable")[:, :k]
    return cols, np.take_along_axis(sims, cols, axis=1)


# Rows from which placing runs its blocks on every core (threads: numpy, BLAS and usearch
# release the GIL on a block's big steps; each block writes only its own rows).
PARALLEL_FROM = 50_000


def block_threads(n: int) -> int:
    """Threads that place n rows: every core (`workers.worker_count`, PAPERATLAS_WORKERS)
    from PARALLEL_FROM rows, else one."""
    from paperatlas.workers import worker_count

    return worker_count(n, PARALLEL_FROM)


def each_block(run: Callable[[int], None], n: int, block: int) -> None:
    """`run(start)` for the start of every block of `block` rows among n, on
    `workers.worker_count` threads when n >= PARALLEL_FROM (else here, in order). The
    blocks are independent, so the result is the same on any number of threads. An
    error or Ctrl-C cancels the blocks not yet started and waits for the running ones."""
    starts = range(0, n, block)
    threads = min(block_threads(n), len(starts))
    if threads <= 1:
        for start in starts:
            run(start)
        return
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="place")
    try:
        for future in [pool.submit(run, start) for start in starts]:
            future.result()
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
