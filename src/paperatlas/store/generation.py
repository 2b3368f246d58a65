"""A commit counter every thread of a process can agree on.

`Store.change_counter()` belongs to one thread's connection; a page cache shared by the
threads of a web server needs one number for all of them. `StoreGeneration` reads
SQLite's `data_version` on a private connection that never writes: it changes whenever
any other connection (another thread, `paperatlas add` in another process, the app's own
like button) commits.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from paperatlas.store.file import connect_read_only


class StoreGeneration:
    """`current()`: a number that changes whenever any connection commits to the atlas."""

    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        if read_only:  # never creates or writes the file
            self._conn, _ = connect_read_only(Path(path))
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
