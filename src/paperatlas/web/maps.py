"""The stored map the pages show (topics, paper positions), kept in memory between pages.

What is kept is bounded for a map of any size: the map's header and topics, and its papers'
places as arrays (web/map_points.PointIndex, ~40 bytes a paper), never a dict per paper.
A paper's topic and a topic's papers are read from the store when a page asks."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from paperatlas.api import Atlas, web_reads
from paperatlas.filters import Filters
from paperatlas.web.map_points import PointIndex

MAP_CACHE_SECONDS = 30.0  # a rebuilt map shows up within this
ALL_SCOPE = "*"  # the scope of the map of all papers


class MapCache:
    """The stored map of a scope, looked at again at most every few seconds (it is read
    on every paper page; a rebuilt map shows up within MAP_CACHE_SECONDS). When the store
    has changed since (`generation`), only the map's header is read again; its papers'
    places (seconds at 1M papers) only when the map itself is another one."""

    def __init__(self, atlas: Atlas, generation: Callable[[], object] | None = None):
        self.atlas = atlas
        self.generation = generation or (lambda: object())  # no generation: always look again
        self._lock = threading.Lock()
        self._cache: dict[str | None, tuple[float, dict | None, object]] = {}
        # counts the reloads that found a different map: part of the page cache's key
        self.serial = 0

    def get(self, list_name: str | None = None) -> dict | None:
        now = time.monotonic()
        hit = self._cache.get(list_name)
        if hit and now - hit[0] < MAP_CACHE_SECONDS:
            return hit[1]
        generation = self.generation()
        if hit and hit[2] == generation:
            self._cache[list_name] = (now, hit[1], generation)
            return hit[1]
        reader = self._load(list_name)
        old = hit[1] if hit else None
        if reader is None:
            stored = None
        elif old is not None and map_identity(old) == map_identity(reader.header):
            stored = old  # the same map: its places are still right
        else:
            stored = loaded_map(reader)
        with self._lock:
            if map_identity(old) != map_identity(stored):
                self.serial += 1
            self._cache[list_name] = (now, stored, generation)
        return stored

    def covering(self, list_name: str | None) -> dict | None:
        """The map whose topics hold a list's papers: the list's own, else the map of all
        papers (as `ls --list L --topic T` reads topics: report/my_topics.py); a page's
        topic is then those of its papers in the list."""
        stored = self.get(list_name)
        if stored is None and list_name:
            every = self.get(None)
            return every if every is not None and every["scope"] == ALL_SCOPE else None
        return stored

    def showing(self, filters: Filters) -> tuple[dict | None, Filters]:
        """The map a page of `filters` draws, and the filters its counts narrow by: the
        list's own map, narrowed by the other filters; for a list with no map of its own,
        the map of all papers (`covering`), narrowed by the list as well."""
        own = self.get(filters.list_name)
        if own is not None or not filters.list_name:
            return own, filters.but(list_name=None)
        return self.covering(filters.list_name), filters

    def _load(self, list_name: str | None):
        """A reader of the map to show (its header and topics read; its papers not yet)."""
        if list_name:
            return web_reads.map_reader(self.atlas, list_name)
        reader = web_reads.map_reader(self.atlas, ALL_SCOPE)
        if reader is None:  # a map of one list is better than none
            for name in reversed(self.atlas.lists()):
                reader = web_reads.map_reader(self.atlas, name)
                if reader is not None:
                    break
        return reader


def loaded_map(reader) -> dict[str, Any]:
    """A map as the pages use it: the stored header's keys (scope, model, meta, topics,
    ...), `by_topic` ((level, id) -> topic), `points` (PointIndex) and `reader`."""
    stored = dict(reader.header)
    stored["by_topic"] = {(t["level"], t["topic_id"]): t for t in stored["topics"]}
    stored["points"] = PointIndex(reader.point_pages(), reader.priority_order)
    stored["reader"] = reader
    return stored


def map_identity(stored: dict | None) -> tuple | None:
    """What tells one stored map from another (its scope, model, signature, build time)."""
    if stored is None:
        return None
    return (stored["scope"], stored["model"], stored["signature"], stored["created_at"])


def topic_of(stored: dict[str, Any] | None, paper_id: str) -> dict[str, Any] | None:
    """A paper's broad and fine topic in a loaded map (None: not on it)."""
    return topics_of(stored, [paper_id]).get(paper_id)


def topics_of(stored: dict[str, Any] | None, paper_ids: list[str]) -> dict[str, dict[str, Any]]:
    """`topic_of` for several papers, read in one query (a page's cards); papers not on
    the map are left out."""
    if not stored or not paper_ids:
        return {}
    places = stored["reader"].places(paper_ids)
    return {pid: _topic(stored, place) for pid, place in places.items()}


def _topic(stored: dict[str, Any], place: tuple[int, int, int]) -> dict[str, Any]:
    broad, fine, outlier = place
    shown = stored["by_topic"].get((0, broad))
    fine_topic = stored["by_topic"].get((1, fine))
    data = (fine_topic or {}).get("data") or {}
    if shown is not None and data.get("shown_broad"):
        # a short list's paper whose text supports only its fine topic's label, or none:
        # shown under that label or as its topic's "other" part, never the broad label
        shown = {**shown, "label": data["shown_broad"]}
    return {
        "broad": shown,
        "fine": fine_topic,
        "outlier": bool(outlier),
        "other": "other_of" in data,
    }


def member_rows(stored: dict[str, Any], level: int, topic_id: int) -> list[int]:
    """The `paper_topics` rowids of a topic's papers (level 0: broad, 1: fine)."""
    return stored["points"].members(level, topic_id).tolist()


def member_ids(stored: dict[str, Any], level: int, topic_id: int, limit: int | None = None) -> list[str]:
    """The ids of a topic's papers (level 0: broad, 1: fine), in the map's order; the
    first `limit` only when given."""
    rowids = stored["points"].members(level, topic_id)[:limit].tolist()
    return stored["reader"].paper_ids(rowids) if rowids else []


def point_rows(stored: dict[str, Any], positions) -> list[list]:
    """Points as the map page draws them, one row each: [x, y, broad, fine, outlier, id,
    title, name, layer broad, layer fine] (atlas/view.py map_view's rows), for positions
    of the map's PointIndex; a point whose paper is gone since is left out."""
    points = stored["points"]
    rowids = points.rowid[positions].tolist()
    cards = stored["reader"].cards(rowids)
    # float64 before rounding: a float32's tolist() prints its binary tail (0.12345000356)
    xs = points.x[positions].astype(float).round(5).tolist()
    ys = points.y[positions].astype(float).round(5).tolist()
    cols = [points.broad, points.fine, points.outlier, points.lbroad, points.lfine]
    broad, fine, outlier, lbroad, lfine = (c[positions].tolist() for c in cols)
    rows = []
    for i, rowid in enumerate(rowids):
        card = cards.get(rowid)
        if card is not None:
            rows.append([xs[i], ys[i], broad[i], fine[i], outlier[i], *card, lbroad[i], lfine[i]])
    return rows


def passing_counts(
    atlas, stored: dict[str, Any], level: int, topic_ids: list[int], filters
) -> dict[int, int]:
    """topic id -> how many of the topic's papers pass `filters` (a topic list beside a
    filtered page), counted by SQLite among each topic's rows."""
    return {
        topic_id: atlas.count_papers(filters=filters, map_rows=member_rows(stored, level, topic_id))
        for topic_id in topic_ids
    }
