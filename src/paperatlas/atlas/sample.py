"""One fixed order of a map's papers whose every prefix is a sample of every fine topic.

The web map's level of detail (web/map_points.py: the overview of a big map is the first
16,000 papers of this order, a view adds the next ones) and the standalone HTML of a big
map (`paperatlas map --html`, report/mapplot.py) draw the same papers first."""

from __future__ import annotations

import zlib
from collections.abc import Iterable

import numpy as np

OVERVIEW = (
    16_000  # papers a big map shows first: about what a 15k-paper map draws whole (= results.MAP_OVERVIEW)
)


def id_keys(ids: Iterable[str]) -> np.ndarray:
    """The tie-breaking key of each paper: a crc32 of its id (the same in every process)."""
    return np.fromiter((zlib.crc32(p.encode()) for p in ids), np.uint32)


def priority_order(fine: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Positions of the papers in priority order: within each fine topic the papers in
    hash order; the topic's r-th paper gets priority (r + u) / size (u: its hash in
    [0, 1)), its first paper ~0 (all topics' first papers lead); ties by hash."""
    n = len(fine)
    if n == 0:
        return np.zeros(0, np.int64)
    topic = fine - fine.min()
    by_topic = np.lexsort((key, topic))
    sizes = np.bincount(topic)
    first = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    rank = np.empty(n, np.int64)
    rank[by_topic] = np.arange(n) - first[topic[by_topic]]
    u = key.astype(np.float64) / 2.0**32
    value = (rank + u) / sizes[topic]
    value[rank == 0] = u[rank == 0] * 1e-9
    return np.lexsort((key, value))
