"""The whole atlas copied to one file (`paperatlas backup FILE`) and a copy put back in its
place (`paperatlas restore FILE`), both through SQLite's online backup API.

The API copies the database as one transaction sees it: a backup taken while a server
reads or another process writes is the atlas as of one commit, with what the WAL holds.
A restore writes the copy into the atlas through SQLite as well (a reader sees the old
atlas or the new one, never a mix) after keeping the old one beside it as ATLAS.bak.
Both check, before writing anything, that the file they are about to replace is an atlas
(or nothing), and a restore that the copy is an atlas of a schema this paperatlas opens.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from paperatlas.errors import StoreError
from paperatlas.store.file import connect_read_only, inspect_file
from paperatlas.store.schema import MIGRATIONS


def backup_path(atlas: Path) -> Path:
    """Where a restore keeps the atlas it replaces."""
    return atlas.with_name(atlas.name + ".bak")


def copy_database(source: sqlite3.Connection, target: Path) -> None:
    """Copy the database `source` reads to `target` (a new file beside it first, moved over
    `target` when whole, so an interrupted copy leaves an earlier file as it was)."""
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        out = sqlite3.connect(tmp, isolation_level=None)
        try:
            source.backup(out)  # every page in one step: one consistent snapshot
            out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        finally:
            out.close()
        os.replace(tmp, target)
    except sqlite3.Error as exc:
        raise StoreError(f"{target}: cannot write the copy ({exc})") from None
    except OSError as exc:
        raise StoreError(f"{target}: cannot write the copy ({exc.strerror or exc})") from None
    finally:
        tmp.unlink(missing_ok=True)


def check_replaceable(path: Path, what: str) -> None:
    """Refuse to overwrite a file that is not an atlas (another program's database, a
    document): only nothing, an empty file or an atlas is replaced."""
    if path.is_dir():
        raise StoreError(f"{path}: is a directory; name a file for the {what}")
    if path.exists():
        try:
            inspect_file(path)
        except StoreError as exc:
            raise StoreError(f"{exc}; refusing to overwrite it with the {what}") from None


def check_atlas_copy(path: Path) -> int:
    """The schema version of an atlas copy to restore; StoreError (one line) if `path` is not
    an atlas, is damaged, or is of a schema newer than this paperatlas opens."""
    if not path.is_file():
        raise StoreError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    info = inspect_file(path)  # StoreError for what is not SQLite or is another program's
    if info.kind == "new":
        raise StoreError(f"{path}: holds no atlas (an empty database); nothing to restore")
    if info.version > len(MIGRATIONS):
        raise StoreError(
            f"{path}: schema version {info.version} is newer than this paperatlas "
            f"({len(MIGRATIONS)}); upgrade paperatlas to restore it"
        )
    conn, _ = connect_read_only(path)
    try:
        verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        verdict = str(exc)
    finally:
        conn.close()
    if verdict != "ok":
        raise StoreError(f"{path}: the atlas copy is damaged ({str(verdict)[:200]}); nothing restored")
    return int(info.version)


def restore_database(copy: Path, atlas: Path, force: bool) -> Path | None:
    """Put the atlas copy `copy` in place of `atlas`. An existing atlas is replaced only with
    `force`, and kept first as ATLAS.bak (returned; None when there was none)."""
    check_atlas_copy(copy)
    if atlas.exists() and copy.resolve() == atlas.resolve():
        raise StoreError(f"{copy}: is the atlas itself; nothing to restore")
    had_atlas = atlas.exists() and atlas.stat().st_size > 0
    if had_atlas:
        check_replaceable(atlas, "restored atlas")
        if not force:
            raise StoreError(
                f"{atlas}: an atlas is there already; pass --force to replace it "
                f"(it is kept as {backup_path(atlas)})"
            )
    kept = None
    try:
        source, _ = connect_read_only(copy)
    except sqlite3.Error as exc:
        raise StoreError(f"{copy}: cannot read the atlas copy ({exc})") from None
    try:
        if had_atlas:
            kept = backup_path(atlas)
            check_replaceable(kept, "atlas kept before the restore")
            old, _ = connect_read_only(atlas)
            try:
                copy_database(old, kept)
            finally:
                old.close()
        atlas.parent.mkdir(parents=True, exist_ok=True)
        target = sqlite3.connect(atlas, timeout=30, isolation_level=None)
        try:
            source.backup(target)  # through SQLite: readers of the atlas see old or new, whole
        finally:
            target.close()
    except sqlite3.Error as exc:
        raise StoreError(f"{atlas}: cannot restore {copy} ({exc}); the atlas is as it was") from None
    finally:
        source.close()
    return kept
