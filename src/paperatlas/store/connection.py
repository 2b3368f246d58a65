"""Opening an atlas: where it is, read-only or not, one connection per thread,
transactions, migrations on open, and the change counters caches key on.

`StoreBase` is the database as a whole; `StorePart` is what every per-domain part of
`Store` (`store.papers`, `store.lists`, `store.fts`, ...) is: it only runs SQL on the
store's connection, inside the store's `transaction()` for multi-row writes.
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from paperatlas.errors import StoreError
from paperatlas.store import sortkeys
from paperatlas.store.file import APPLICATION_ID, can_write, connect_read_only, inspect_file, wal_path
from paperatlas.store.generation import StoreGeneration
from paperatlas.store.schema import MIGRATIONS, READABLE_FROM
from paperatlas.store.statements import split_sql

_CONNECTIONS_OPENED = itertools.count(1)  # names each connection for change_counter

DEFAULT_DB = Path(".paperatlas") / "atlas.db"


def default_db_path() -> Path:
    """$PAPERATLAS_DB, else .paperatlas/atlas.db in the working directory."""
    return Path(os.environ.get("PAPERATLAS_DB") or DEFAULT_DB)


def _in_schema(conn: sqlite3.Connection, kind: str, name: str) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?", (kind, name)).fetchone()
    return row is not None


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the atlas has this table: an older atlas opened read-only (not migrated)
    lacks those later migrations add, and reads as if they were empty."""
    return _in_schema(conn, "table", name)


def has_index(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the atlas has this index (an older one opened read-only may not)."""
    return _in_schema(conn, "index", name)


class StoreBase:
    """A paperatlas SQLite database. Safe to share between threads (one connection each).

    read_only: None (default) opens read-only when this process cannot write the file or
    its directory, True never writes (SQLite `mode=ro`), False refuses a file it cannot
    write. create: a missing file becomes a new atlas (else StoreError). A file that is
    not an atlas (another program's SQLite database, anything not SQLite) is refused
    before anything is written to it (store.file.inspect_file).
    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, read_only: bool | None = None, create: bool = True
    ) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self._local = threading.local()
        try:
            exists, is_dir = self.path.exists(), self.path.is_dir()
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot open the atlas ({exc.strerror})") from None
        if is_dir:
            raise StoreError(f"{self.path}: is a directory, not a database")
        if not exists:
            if read_only or not create:
                raise StoreError(
                    f"{self.path}: no atlas here (create one with 'paperatlas add FILE --db {self.path}')"
                )
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"{self.path.parent}: cannot create the atlas directory ({exc.strerror})"
                ) from None
        writable = can_write(self.path)
        if not exists and not writable:
            raise StoreError(f"{self.path}: cannot create the atlas ({self.path.parent} is not writable)")
        if read_only is False and not writable:
            raise StoreError(
                f"{self.path}: the atlas is read-only (no write permission for the file or its directory)"
            )
        # Asked never to write: not SQLite's -shm and -wal beside the atlas either (immutable=1),
        # unless a writer has them there already (then they are its files, and mode=ro reads
        # its commits through them). Immutable, the atlas is read as it was at the open.
        untouched = read_only is True and exists and not wal_path(self.path).exists()
        info = inspect_file(self.path, True if untouched else None)  # refuses what is not an atlas
        self.read_only = bool(read_only) or not writable
        self.read_only_reason = (
            "opened read-only" if read_only else "no write permission for the file or its directory"
        )
        self._immutable = info.immutable
        self._fill_sort_keys = False  # set once the schema has paper_sort (writable opens)
        if info.version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path}: schema version {info.version} is newer than this paperatlas "
                f"({len(MIGRATIONS)}); upgrade paperatlas"
            )
        if self.read_only:
            if info.kind == "new":
                raise StoreError(
                    f"{self.path}: no atlas in this file yet, and it is read-only ({self.read_only_reason})"
                )
            if info.version < READABLE_FROM:
                raise StoreError(
                    f"{self.path}: the atlas (schema {info.version}) needs an upgrade to "
                    f"schema {len(MIGRATIONS)}, and it is read-only "
                    f"({self.read_only_reason}): open it once with write access"
                )
        else:
            self._migrate(stamp=info.kind != "atlas")
            self._fill_sort_keys = True
            self._backfill_sort_keys()

    # -- connection and transactions -------------------------------------------------

    @property
    def conn(self) -> sqlite3.Connection:
        """This thread's connection (opened on first use)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
            self._local.serial = next(_CONNECTIONS_OPENED)
        return conn

    def _connect(self) -> sqlite3.Connection:
        if self.read_only:
            try:
                conn, _ = connect_read_only(self.path, self._immutable)
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.path}: cannot open the atlas ({exc})") from None
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA busy_timeout=30000")
            return conn
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        try:
            conn.execute("PRAGMA journal_mode=WAL")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{self.path}: cannot open the atlas ({exc})") from None
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=30000")
        return conn

    def close(self) -> None:
        """Close this thread's connection (the next use opens a new one)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            # what was kept for that connection (scratch count, temp tables made) goes with it
            self._local.__dict__.clear()

    @contextmanager
    def page_cache(self, kib: int) -> Iterator[None]:
        """`kib` KiB of SQLite page cache for this thread's connection while the block runs,
        its own size again after (an error or Ctrl-C too). For one long write transaction
        (an add): with SQLite's 2 MiB default, index pages written at random places are
        spilled to the write-ahead log and read back over and over as the store grows.
        SQLite allocates the pages as they are needed."""
        conn = self.conn
        before = int(conn.execute("PRAGMA cache_size").fetchone()[0])
        conn.execute(f"PRAGMA cache_size = {-int(kib)}")
        try:
            yield
        finally:
            conn.execute(f"PRAGMA cache_size = {before}")

    @contextmanager
    def transaction(self, fill_keys: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction; rolled back whole on any exception (KeyboardInterrupt too).
        Before it commits, the sort keys its writes blanked are computed (store/sortkeys.py;
        an index probe when there are none)."""
        if self.read_only:
            self.require_writable("write to it")
        conn = self.conn
        if conn.in_transaction:  # nested use joins the outer transaction
            yield conn
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            if fill_keys and self._fill_sort_keys:
                sortkeys.fill_stale(conn)
        except BaseException:
            # SQLite has rolled back already after some errors (a full disk, an I/O error):
            # a second ROLLBACK would fail and hide the error that says what happened
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")

    def require_writable(self, action: str = "change it") -> None:
        """StoreError (one line for the user) when the atlas is open read-only."""
        if self.read_only:
            raise StoreError(
                f"{self.path}: the atlas is read-only ({self.read_only_reason}): cannot {action}"
            )

    def _migrate(self, stamp: bool) -> None:
        """Bring the schema up to date, one transaction per migration (each re-reads the
        version inside its transaction: two processes opening a new atlas at once do
        each migration once), and write paperatlas's application id into the header."""
        try:
            number = self.conn.execute("PRAGMA user_version").fetchone()[0]
            while stamp or number < len(MIGRATIONS):  # (no write lock when up to date)
                with self.transaction() as tx:
                    number = tx.execute("PRAGMA user_version").fetchone()[0]
                    if stamp or number < len(MIGRATIONS):
                        tx.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                        stamp = False
                    if number >= len(MIGRATIONS):
                        break
                    for statement in split_sql(MIGRATIONS[number]):
                        tx.execute(statement)
                    tx.execute(f"PRAGMA user_version = {number + 1}")
                    number += 1
        except sqlite3.DatabaseError as exc:
            if "readonly" in str(exc) or "read-only" in str(exc):
                raise StoreError(
                    f"{self.path}: the atlas is read-only (no write permission): cannot prepare it ({exc})"
                ) from None
            raise StoreError(f"{self.path}: cannot prepare the atlas ({exc})") from None

    def _backfill_sort_keys(self) -> None:
        """Compute the sort keys migration 9 left blank (every paper of an older store), in
        batches of their own transactions with a progress bar; an interrupted backfill
        goes on at the next writable open."""
        try:
            sortkeys.backfill(self)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot prepare the atlas ({exc})") from None

    # -- change counters ----------------------------------------------------------------

    def change_counter(self) -> tuple[int, int, int]:
        """Changes whenever the database may have changed: SQLite's data_version (commits
        by other connections) and this connection's total_changes. Lets readers keep
        derived data (search's vector index, caches) without re-querying on every call:
        a stable public name, keep it. Both counts belong to one connection (one per
        thread), so the connection is part of the value: another thread's equal numbers
        say nothing. The connection is named by its serial number, not its id(): a closed
        connection's id can be the next one's, whose fresh counts can equal the old ones."""
        conn = self.conn
        return (
            self._local.serial,
            int(conn.execute("PRAGMA data_version").fetchone()[0]),
            conn.total_changes - getattr(self._local, "scratch_changes", 0),
        )

    def _scratch(self, changes: int) -> None:
        """Count `changes` rows written to this connection's temp tables: scratch, not
        changes to the atlas, so change_counter leaves them out."""
        self._local.scratch_changes = getattr(self._local, "scratch_changes", 0) + changes

    def generation(self) -> StoreGeneration:
        """A commit counter shared by every thread (a private connection of its own that
        never writes): for caches that threads share, e.g. the web app's page cache."""
        return StoreGeneration(
            self.path, read_only=self.read_only, immutable=self._immutable if self.read_only else None
        )

    def now(self) -> str:
        """The store's clock, as its timestamps are written (UTC, to the second)."""
        return str(self.conn.execute("SELECT datetime('now')").fetchone()[0])

    def _has_table(self, name: str) -> bool:
        """`has_table` on this thread's connection, a table once seen remembered: migrations
        add tables, never take one away while an atlas is open, and a page asks often."""
        seen: set[str] = self._local.__dict__.setdefault("tables", set())
        if name in seen:
            return True
        if not has_table(self.conn, name):
            return False
        seen.add(name)
        return True


class StorePart:
    """One domain's tables of a `Store`, reached by name (`store.papers`, `store.vectors`,
    ...): its SQL runs on the connection of the store it belongs to, so it shares that
    store's transactions, read-only mode and per-thread state."""

    def __init__(self, store: StoreBase) -> None:
        self._store = store

    @property
    def conn(self) -> sqlite3.Connection:
        """The store's connection for this thread."""
        return self._store.conn

    def _has_table(self, name: str) -> bool:
        """Whether the store has table `name` (`StoreBase._has_table`)."""
        return self._store._has_table(name)

    def _in_query(self, sql: str, values: Iterable[Any], extra: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """Run `sql` (with one `IN (SELECT value FROM json_each(?))`, after the `extra`
        parameters) over many values in one query; [] for no values."""
        values = list(values)
        if not values:
            return []
        return self.conn.execute(sql, (*extra, json.dumps(values))).fetchall()
