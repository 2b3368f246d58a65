"""The stored map the pages show (topics, paper positions), kept in memory between pages."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from paperatlas.api import Atlas

MAP_CACHE_SECONDS = 30.0  # a rebuilt map shows up within this; reloading 15k rows costs ~0.3 s


class MapCache:
    """The stored map of a scope, looked at again at most every few seconds (it is read
    on every paper page; a rebuilt map shows up within MAP_CACHE_SECONDS), and reloaded
    only when the store has changed since (`generation`): reading 15k assignments takes
    ~0.3 s, a pause for every page in flight."""

    def __init__(self, atlas: Atlas, generation: Callable[[], object] | None = None):
        self.atlas = atlas
        self.generation = generation or (lambda: object())  # no generation: always reload
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
        stored = self._load(list_name)
        if stored is not None:
            stored["by_paper"] = {a["paper_id"]: a for a in stored["assignments"]}
            stored["by_topic"] = {(t["level"], t["topic_id"]): t for t in stored["topics"]}
        with self._lock:
            if _map_identity(hit[1] if hit else None) != _map_identity(stored):
                self.serial += 1
            self._cache[list_name] = (now, stored, generation)
        return stored

    def _load(self, list_name: str | None) -> dict | None:
        if list_name:
            return self.atlas.stored_map(list_name)
        stored = self.atlas.stored_map("*")
        if stored is None:  # a map of one list is better than none
            for name in reversed(self.atlas.lists()):
                stored = self.atlas.stored_map(name)
                if stored is not None:
                    break
        return stored


def _map_identity(stored: dict | None) -> tuple | None:
    if stored is None:
        return None
    return (stored["scope"], stored["model"], stored["signature"], stored["created_at"])


def topic_of(stored: dict[str, Any] | None, paper_id: str) -> dict[str, Any] | None:
    """A paper's broad and fine topic in a loaded map (None: not on it)."""
    if not stored:
        return None
    a = stored["by_paper"].get(paper_id)
    if a is None:
        return None
    broad = stored["by_topic"].get((0, a["broad"]))
    fine = stored["by_topic"].get((1, a["fine"]))
    return {"broad": broad, "fine": fine, "outlier": bool(a["outlier"])}


def member_ids(stored: dict[str, Any], level: int, topic_id: int) -> list[str]:
    """The ids of a topic's papers (level 0: broad, 1: fine), in the map's order."""
    key = "broad" if level == 0 else "fine"
    return [a["paper_id"] for a in stored["assignments"] if a[key] == topic_id]
