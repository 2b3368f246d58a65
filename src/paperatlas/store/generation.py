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

`table_mark(store, table, since)` says more: whether a table only grew since a mark taken
earlier (`TableMark.only_added`), so that what is derived from its rows (search's names,
the titles' words) is extended by the new rows instead of read again whole.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field
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


def titles_changes(store: _Connected) -> int | None:
    """The change count of the papers' ids and titles (any paper inserted or deleted, any
    id or title changed; migration 19); None when the store keeps no count."""
    return _count(store, "titles")


def model_changes(store: _Connected, name: str) -> int | None:
    """The change count of the stored model `name` (its blob and meta, `put_model`;
    migration 19); None when the store keeps no such count: no model of that name was
    ever stored since, or the schema is older (`titles_changes` None: an older store)."""
    return _count(store, "model " + name)


# table -> the count its triggers move on every insert, update and delete of a row
_COUNTED = {"facts": "facts", "papers": "titles"}


@dataclass(frozen=True)
class TableMark:
    """A table's change count, rows and largest rowid, read in one statement; `added`:
    its rows after the rowid asked about (`table_mark`'s `since`)."""

    changes: int
    rows: int
    last: int
    added: int = field(default=0, compare=False)  # relative to a rowid: not the table's state

    def only_added(self, since: TableMark) -> bool:
        """Whether every change since `since` inserted one of the rows now after its last
        rowid: the rows up to it are as they were then. Exact because every insert, update
        and delete moves the count by one (triggers), and the deletes that fire no trigger
        (an INSERT OR REPLACE's) take a row away: with C changes, A rows after the old last
        rowid and R more rows, C == A says each change made one of those rows (no update,
        no counted delete) and R == A that no row went without a count."""
        grown = self.changes - since.changes
        return grown == self.added and self.rows - since.rows == self.added


def table_mark(store: _Connected, table: str, since: int = 0) -> TableMark | None:
    """`table`'s mark now, counting its rows after rowid `since`; None when the store keeps
    no count for it (an older schema opened read-only)."""
    count = _COUNTED[table]  # a fixed name: never text from outside
    try:
        row = store.conn.execute(
            f"SELECT (SELECT changes FROM change_counts WHERE name = ?), (SELECT count(*) FROM {table}), "
            f"(SELECT coalesce(max(rowid), 0) FROM {table}), (SELECT count(*) FROM {table} WHERE rowid > ?)",
            (count, since),
        ).fetchone()
    except sqlite3.OperationalError:  # no such table: schema 9 or older, read-only
        return None
    if row[0] is None:
        return None
    return TableMark(int(row[0]), int(row[1]), int(row[2]), int(row[3]))


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
