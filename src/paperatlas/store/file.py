"""What a store path is, found out before anything is written to it.

`Store` asks this module three things before it opens a database for writing:

- is the file a paperatlas atlas at all? A new or empty file is one to create; a file
  with our application id in its SQLite header is ours; an SQLite file with the tables of
  an atlas from before the id existed is ours too ("legacy", stamped on its next write);
  anything else (another program's database, even one with its own `papers` table, or a
  file that is not SQLite) is refused and never written;
- can this process write it (file and directory)? If not, the atlas opens read-only;
- how to connect read-only: `mode=ro`, or `immutable=1` where SQLite cannot create the
  WAL index beside a read-only file (a directory without write permission) or where the
  caller asked never to write (`serve --read-only`: not even SQLite's -shm and -wal files).

Every check here only reads: the file is opened with `mode=ro`.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from paperatlas.errors import StoreError

SQLITE_HEADER = b"SQLite format 3\x00"
# Written to the SQLite header of every atlas (PRAGMA application_id): "PATL".
APPLICATION_ID = 0x5041544C
# Tables every paperatlas schema has had since migration 1: an SQLite file with all of
# them and no application id is an atlas created before the id was written.
CORE_TABLES = frozenset({"papers", "lists", "list_members", "paper_hashes", "papers_fts"})


@dataclass(frozen=True)
class FileInfo:
    kind: str  # "new" (missing, empty, or SQLite without tables) | "atlas" | "legacy"
    version: int  # PRAGMA user_version (0 for a new file)
    immutable: bool  # read-only connections need immutable=1 (see read_only_uri)


def can_write(path: Path) -> bool:
    """Can this process write the database at `path` and create its WAL files beside it?
    (Checked with the effective user's rights, as the kernel would.)"""
    kwargs = {"effective_ids": True} if os.access in os.supports_effective_ids else {}
    directory = path.parent if str(path.parent) else Path(".")
    if path.exists() and not os.access(path, os.W_OK, **kwargs):
        return False
    return os.access(directory, os.W_OK | os.X_OK, **kwargs)


def read_only_uri(path: Path, immutable: bool = False) -> str:
    """An SQLite URI that opens `path` without ever writing it."""
    uri = "file:" + quote(str(path.resolve())) + "?mode=ro"
    return uri + "&immutable=1" if immutable else uri


def connect_read_only(
    path: Path, immutable: bool | None = None, timeout: float = 30
) -> tuple[sqlite3.Connection, bool]:
    """A read-only connection to `path` and whether it had to be immutable.

    mode=ro is tried first (it sees other processes' writes); a WAL database whose
    directory cannot hold the -shm file fails there with "attempt to write a readonly
    database" or "unable to open", and then opens as immutable (nobody can be writing it
    then: whoever could would also be able to create the -shm file)."""
    tries = [False, True] if immutable is None else [immutable]
    error: sqlite3.Error | None = None
    for flag in tries:
        conn = sqlite3.connect(
            read_only_uri(path, flag),
            uri=True,
            timeout=timeout,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn, flag
        except sqlite3.OperationalError as exc:
            conn.close()
            error = exc
        except sqlite3.DatabaseError:
            conn.close()
            raise
    assert error is not None
    raise error


def wal_path(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def inspect_file(path: Path, immutable: bool | None = None) -> FileInfo:
    """Classify an existing or missing database file without writing it; raises
    StoreError for anything that is not (or cannot be read as) a paperatlas atlas.
    `immutable`: as connect_read_only (True: not even SQLite's -shm file is made)."""
    if not path.exists() or path.stat().st_size == 0:
        return FileInfo("new", 0, False)
    try:
        with open(path, "rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the atlas ({exc.strerror})") from None
    if header != SQLITE_HEADER:
        raise StoreError(
            f"{path}: not a paperatlas atlas (not an SQLite database); "
            "refusing to touch it: pass another --db"
        )
    try:
        conn, immutable = connect_read_only(path, immutable)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path}: cannot open the atlas ({exc})") from None
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path}: the atlas file is damaged ({exc})") from None
    finally:
        conn.close()
    if app_id == APPLICATION_ID:
        return FileInfo("atlas", version, immutable)
    if app_id == 0 and not tables and version == 0:
        return FileInfo("new", 0, immutable)
    if app_id == 0 and version > 0 and tables >= CORE_TABLES:
        return FileInfo("legacy", version, immutable)
    shown = ", ".join(sorted(tables)[:4]) + (", ..." if len(tables) > 4 else "")
    what = f"with tables {shown}" if tables else f"application id {app_id:#x}"
    raise StoreError(
        f"{path}: not a paperatlas atlas (an SQLite database of another "
        f"program, {what}); refusing to change it: pass another --db"
    )
