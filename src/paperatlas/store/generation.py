"""Numbers that say the store changed, cheaper to read than what changed.

`Store.change_counter()` belongs to one thread's connection; a page cache shared by the
threads of a web server needs one number for all of them. `StoreGeneration` reads
SQLite's `data_version` on a private connection that never writes: it changes whenever
any other connection (another thread, `paperatlas add` in another process, the app's own
like button) commits. It lives as long as the process.

`vector_changes(store, model)` and `facts_changes(store)` outlive processes: counts kept
in the store by triggers (migration 10), moved by every change to a model's vectors, to
the facts. What is derived from them and saved beside the store (the ANN graph, search's
table of paper names) records the count it was made at; an equal count later says the
vectors (facts) are the same without reading them.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Protocol

from paperatlas.store.file import connect_read_only


class _Connected(Protocol):
    """A store as these counts need it (its connection, a read-only property as StoreBase
    has it); not StoreBase, whose module imports this one."""

    @property
    def conn(self) -> sqlite3.Connection: ...


def vector_changes(store: _Connected, model: str) -> int | None:
    """The change count of `model`'s stored vectors: unequal after any change to them
    since it was read (another process's included); one indexed row read. None when the
    store keeps no count (an older schema opened read-only) or has never held vectors
    of `model`: the caller must compare the vectors themselves (Store.vectors.state)."""
    return _count(store, "vectors " + model)


def facts_changes(store: _Connected) -> int | None:
    """The change count of the papers' facts (any insert, update or delete of one);
    None when the store keeps no count (an older schema opened read-only)."""
    return _count(store, "facts")


def _count(store: _Connected, name: str) -> int | None:
    try:
        row = store.conn.execute("SELECT changes FROM change_counts WHERE name = ?", (name,)).fetchone()
    except sqlite3.OperationalError:  # no such table: schema 9 or older, read-only
        return None
    return None if row is None else int(row[0])


class StoreGeneration:
    """`current()`: a number that changes whenever any connection commits to the atlas."""

    def __init__(self, path: str | Path, read_only: bool = False, immutable: bool | None = None) -> None:
        if read_only:  # never creates or writes the file (immutable: as connect_read_only)
            self._conn, _ = connect_read_only(Path(path), immutable)
        else:
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()

    def current(self) -> int:
        with self._lock:
            value: int = self._conn.execute("PRAGMA data_version").fetchone()[0]
            return value

    def close(self) -> None:
        with self._lock:
            self._conn.close()
