"""Broad topics that are catch-alls, split along their fine topics.

A broad topic is a catch-all when no short label is supported by most of its papers: its
label, after `labels._compose` has added the terms that cover the most of them, still leaves
more than 1 - SPLIT_BELOW of them in its "other" part. Such a topic is cut in two by k-means
(k = 2) on its papers' vectors, each of its fine topics going with the half most of its
papers are in (fine topics stay whole and keep one parent), and every broad topic is named
again; until no topic is a catch-all (or one cannot be cut: a single fine topic, under
MIN_PAPERS papers), at most ROUNDS times. The fine level is not touched.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from paperatlas.atlas.cluster import SEED, kmeans
from paperatlas.atlas.labels import TopicTerms

# A broad topic whose label fewer than this share of its papers support is split.
SPLIT_BELOW = 0.7
# Rounds of splitting at most (each names every broad topic again).
ROUNDS = 4
# A broad topic of fewer papers is read whole: too few abstracts to tell a catch-all.
MIN_PAPERS = 30


def split_catch_alls(
    label: Callable[[np.ndarray, int], list[TopicTerms]],
    space: np.ndarray,
    fine: np.ndarray,
    fine_parent: np.ndarray,
    seed: int = SEED,
) -> tuple[np.ndarray, list[TopicTerms]]:
    """(fine_parent with catch-alls split and broad ids renumbered by size, broad labels).
    `label(broad, n)` names broad topics 0..n-1 of the papers (`broad[i]` of paper i);
    `space[i]` and `fine[i]` are each labelled paper's vector and fine topic."""
    fine_parent = np.asarray(fine_parent)
    broad = fine_parent[fine]
    terms = label(broad, int(fine_parent.max()) + 1)
    for _ in range(ROUNDS):
        sizes = np.bincount(broad, minlength=len(terms))
        weak = [
            t
            for t, topic in enumerate(terms)
            if sizes[t] >= MIN_PAPERS and topic.other > (1 - SPLIT_BELOW) * sizes[t]
        ]
        parent = _split(space, fine, fine_parent, weak, seed)
        if parent.max() == fine_parent.max():
            break
        fine_parent = parent
        broad = fine_parent[fine]
        terms = label(broad, int(fine_parent.max()) + 1)
    return fine_parent, terms


def _split(
    space: np.ndarray, fine: np.ndarray, fine_parent: np.ndarray, weak: list[int], seed: int
) -> np.ndarray:
    """fine_parent with each `weak` broad topic (of two or more fine topics) cut in two,
    then broad ids renumbered by their papers, largest first."""
    parent = fine_parent.copy()
    next_id = int(parent.max()) + 1
    for b in weak:
        kids = np.flatnonzero(fine_parent == b)
        members = np.flatnonzero(np.isin(fine, kids))
        if len(kids) < 2 or len(members) < 4:
            continue
        half = kmeans(space[members], 2, seed)
        moved = [f for f in kids if (fine[members] == f).any() and half[fine[members] == f].mean() > 0.5]
        if 0 < len(moved) < len(kids):
            parent[moved] = next_id
            next_id += 1
    papers = np.bincount(parent[fine], minlength=next_id)
    order = np.lexsort((np.arange(next_id), -papers))
    renumber = np.empty(next_id, dtype=np.int64)
    renumber[order] = np.arange(next_id)
    return renumber[parent]
