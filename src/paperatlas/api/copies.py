"""An atlas copied whole to one file (`Atlas.backup`), and a copy put in place of an atlas
(`Atlas.restore`), through the store's online backup."""

from __future__ import annotations

from pathlib import Path

from paperatlas.errors import PaperatlasError
from paperatlas.store import Store


def backup(store: Store, target: Path) -> int:
    from paperatlas.store.backup import check_replaceable, copy_database

    if target.exists() and target.resolve() == store.path.resolve():
        raise PaperatlasError(f"{target}: is the atlas itself; name another file for the backup")
    check_replaceable(target, "backup")
    copy_database(store.conn, target)
    return target.stat().st_size


def restore(copy: Path, db: Path | None, force: bool) -> Path | None:
    from paperatlas.store import default_db_path
    from paperatlas.store.backup import restore_database

    return restore_database(copy, db if db is not None else default_db_path(), force)


def default_path() -> Path:
    from paperatlas.store import default_db_path

    return default_db_path()
