"""Level of detail for a big map: which of its papers the page draws in a view.

A 1M-paper map cannot go to the browser whole. Every paper gets a place in one fixed
order (its *priority*), stratified by fine topic: the order is a systematic sample of
each fine topic (a topic of 2% of the papers holds ~2% of any prefix of the order), the
first paper of every topic comes before all others (small topics are on the overview
too), and ties are broken by a hash of the paper id, so every server process, and every
restart, orders the same map the same way. The overview is the first OVERVIEW papers;
a view at zoom k shows the papers of priority below OVERVIEW * k^2 inside its box: the
same number of points per screen at every zoom, and a point seen at one zoom stays
drawn when zooming in.

The papers inside a box are found through a GRID x GRID grid of cells over the layout:
the points sorted by cell, the cells of one grid row contiguous, so a box is a few
contiguous slices (one per grid row it spans), never a pass over every paper; a box
that spans most of the map at a low zoom scans the short priority prefix instead,
whichever is fewer rows.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from paperatlas.results import MAP_OVERVIEW

OVERVIEW = MAP_OVERVIEW  # papers sent with the map: about what a 15k-paper map draws today
# papers one /api/map/points answer may hold: what a paper shows is read per point (16,000
# took ~3 s at 1M papers on a loaded machine, 2 cores, load 15; ids alone 0.8 s)
DETAIL_MAX = 6_000
# a sampled map's filter: matched papers one answer draws (those of lowest priority: a
# sample of every topic), and the matches looked at (more: the answer says "more than")
MATCH_MAX = 2_000
MATCH_SCAN = 10_000
GRID = 256  # cells per side of the layout's index (65,536 cells; 15 papers a cell at 1M)
MAX_ZOOM = 4096.0


@dataclass
class Points:
    """A view's papers: positions in priority order (ascending) and whether every paper of
    the box at that zoom is among them."""

    index: np.ndarray
    complete: bool
    level: int  # the priority bound used: papers below it, inside the box


class PointIndex:
    """A stored map's papers as arrays in priority order (position i = priority i):
    rowid (paper_topics row, for looking up what a point shows), x, y, broad, fine,
    outlier and the reference layer's broad and fine (-1: none). ~40 bytes a paper.
    `priority_order(fine, key)`: the order the map's reader gives (`MapReader.priority_order`,
    atlas/sample.py: the standalone HTML of a big map draws the same papers first)."""

    def __init__(
        self, pages: Iterable[list[tuple]], priority_order: Callable[[np.ndarray, np.ndarray], np.ndarray]
    ):
        cols: list[list[np.ndarray]] = [[] for _ in range(9)]
        for rows in pages:
            # one page at a time: never a Python row per paper of the whole map at once
            rowid, pid, x, y, broad, fine, outlier, lbroad, lfine = zip(*rows, strict=True)
            cols[0].append(np.fromiter(rowid, np.int64, len(rows)))
            cols[1].append(np.fromiter((zlib.crc32(p.encode()) for p in pid), np.uint32, len(rows)))
            for k, values, dtype in (
                (2, x, np.float32),
                (3, y, np.float32),
                (4, broad, np.int32),
                (5, fine, np.int32),
                (6, outlier, np.int8),
                (7, lbroad, np.int32),
                (8, lfine, np.int32),
            ):
                cols[k].append(np.fromiter(values, dtype, len(rows)))
        dtypes = (
            np.int64,
            np.uint32,
            np.float32,
            np.float32,
            np.int32,
            np.int32,
            np.int8,
            np.int32,
            np.int32,
        )
        arrays = [np.concatenate(c) if c else np.zeros(0, t) for c, t in zip(cols, dtypes, strict=True)]
        order = priority_order(arrays[5], arrays[1])
        self.rowid, _, self.x, self.y, self.broad, self.fine, self.outlier, self.lbroad, self.lfine = (
            a[order] for a in arrays
        )
        self.n = len(self.x)
        self._by_rowid: np.ndarray | None = None
        cell = cell_of(self.x, self.y)
        # positions sorted by cell, priority order kept within a cell (stable sort)
        self.by_cell = np.argsort(cell, kind="stable").astype(np.int32)
        self.cell_start = np.searchsorted(cell[self.by_cell], np.arange(GRID * GRID + 1)).astype(np.int64)

    def in_box(self, box: tuple[float, float, float, float], zoom: float, limit: int | None = None) -> Points:
        """The papers of priority in [OVERVIEW, OVERVIEW * zoom^2) inside box = (x0, y0,
        x1, y1), at most `limit` (DETAIL_MAX), those of lowest priority first (the
        overview's papers are left out: the page has them already)."""
        limit = DETAIL_MAX if limit is None else limit
        x0, y0, x1, y1 = box
        level = int(min(self.n, OVERVIEW * min(max(zoom, 1.0), MAX_ZOOM) ** 2))
        if level <= OVERVIEW:
            return Points(np.zeros(0, np.int64), True, level)
        c0, r0 = _cell_xy(x0), _cell_xy(y0)
        c1, r1 = _cell_xy(x1), _cell_xy(y1)
        grid_rows = np.arange(r0, r1 + 1) * GRID
        starts, ends = self.cell_start[grid_rows + c0], self.cell_start[grid_rows + c1 + 1]
        if int((ends - starts).sum()) < level - OVERVIEW:
            candidates = np.concatenate([self.by_cell[s:e] for s, e in zip(starts, ends, strict=True)])
            candidates = candidates[(candidates >= OVERVIEW) & (candidates < level)]
        else:  # most of the map at a low zoom: the priority prefix is the shorter scan
            candidates = np.arange(OVERVIEW, level)
        px, py = self.x[candidates], self.y[candidates]
        found = np.sort(candidates[(px >= x0) & (px <= x1) & (py >= y0) & (py <= y1)])
        return Points(found[:limit].astype(np.int64), len(found) <= limit, level)

    def overview(self) -> np.ndarray:
        return np.arange(min(self.n, OVERVIEW))

    def positions(self, rowids: Iterable[int]) -> np.ndarray:
        """The positions (priorities) of the points of these paper_topics rowids, ascending;
        rowids not on the map are left out."""
        if self._by_rowid is None:  # built at the first use (8 bytes a paper)
            self._by_rowid = np.argsort(self.rowid, kind="stable")
        wanted = np.fromiter(rowids, np.int64)
        if not len(wanted) or not self.n:
            return np.zeros(0, np.int64)
        at = np.searchsorted(self.rowid[self._by_rowid], wanted).clip(0, self.n - 1)
        found = self._by_rowid[at]
        return np.unique(found[self.rowid[found] == wanted]).astype(np.int64)

    def members(self, level: int, topic_id: int) -> np.ndarray:
        """The paper_topics rowids of one topic's papers (level 0 broad, 1 fine), in the map's row order."""
        return np.sort(self.rowid[(self.broad if level == 0 else self.fine) == topic_id])


def cell_of(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return _cells(y) * GRID + _cells(x)


def _cells(v: np.ndarray) -> np.ndarray:
    return np.clip((v * GRID).astype(np.int64), 0, GRID - 1)


def _cell_xy(v: float) -> int:
    return int(min(GRID - 1, max(0, int(v * GRID)))) if np.isfinite(v) else 0
