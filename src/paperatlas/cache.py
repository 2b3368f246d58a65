"""Values derived from a store, kept until the store changes.

Search and its indexes read the same things from the store query after query (the vector
index, the BM25 postings, the papers' names, the ids a filter allows). `StoreCache` keeps
each such value per database file and rebuilds it only when `Store.change_counter()` says
the database may have changed:

    _NAMES = StoreCache(max_entries=4)
    tables = _NAMES.get(store, "names", lambda: read_names(store))

- A value is valid while the counter of the connection that asks is the one it was
  validated with. The counter belongs to one connection (one per thread), so another
  thread's first ask after a change is a miss.
- `version`, when given, is a cheaper check than rebuilding (e.g. the count and last rowid
  of a model's vectors): on a counter miss the value is kept when its version is unchanged.
  This is what lets the threads of a web server share one large index.
- `extend`, when given, makes the new value from the kept one on a change (the names or
  titles of the papers a commit added, joined to the table of the rest), instead of `build`;
  it decides itself when the kept value cannot be extended and builds anew.
- One eviction rule: at most `max_entries` values per cache, the least recently used go.
- Thread-safe; while one thread builds a value, others asking for the same key wait for it
  instead of building their own copy.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Protocol, TypeVar, cast

T = TypeVar("T")
Key = tuple[str, Hashable]  # (absolute database path, the caller's key)


class CountedStore(Protocol):
    """What the cache needs of a store: its file and its change counter."""

    path: Any

    def change_counter(self) -> Hashable: ...


def _database(path: str | os.PathLike[str]) -> str:
    # one file reached by two spellings of its path is one entry; a relative path is
    # taken from the current directory at each call (tests change it between stores)
    return os.path.abspath(path)


class _Entry:
    __slots__ = ("stamp", "value", "version")

    def __init__(self, stamp: Hashable, version: Hashable, value: Any) -> None:
        self.stamp, self.version, self.value = stamp, version, value


class StoreCache:
    """Per-store values, each rebuilt when its store changes (see the module's doc)."""

    def __init__(self, max_entries: int = 8) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[Key, _Entry] = OrderedDict()
        self._building: dict[Key, threading.Lock] = {}
        self._lock = threading.Lock()

    def get(
        self,
        store: CountedStore,
        key: Hashable,
        build: Callable[[], T],
        version: Callable[[], Hashable] | None = None,
        extend: Callable[[T], T] | None = None,
    ) -> T:
        """The value of `key` for `store`: the kept one while it is current, else
        `extend(kept)` when there is a kept one to extend, else `build()` (kept for the
        next call)."""
        full: Key = (_database(store.path), key)
        stamp = store.change_counter()
        found, value = self._current(full, stamp, version)
        if found:
            return cast(T, value)
        with self._lock:
            building = self._building.setdefault(full, threading.Lock())
        with building:  # one builder per key; the others wait and find its value
            found, value = self._current(full, stamp, version)
            if found:
                return cast(T, value)
            # both read before building: a change during the build makes the next call rebuild
            seen = version() if version is not None else None
            with self._lock:
                stale = self._entries.get(full)
            value = build() if extend is None or stale is None else extend(stale.value)
            with self._lock:
                self._entries[full] = _Entry(stamp, seen, value)
                self._entries.move_to_end(full)
                while len(self._entries) > self.max_entries:
                    self._entries.popitem(last=False)
                self._building.pop(full, None)
            return value

    def _current(
        self, full: Key, stamp: Hashable, version: Callable[[], Hashable] | None
    ) -> tuple[bool, Any]:
        with self._lock:
            entry = self._entries.get(full)
            if entry is None:
                return False, None
            self._entries.move_to_end(full)
            if entry.stamp == stamp:
                return True, entry.value
        if version is None or entry.version != version():
            return False, None
        entry.stamp = stamp  # unchanged after all: the next call from here skips the version check
        return True, entry.value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
