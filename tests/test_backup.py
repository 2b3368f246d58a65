"""`paperatlas backup FILE` / `restore FILE`: the whole atlas copied as of one commit (what
another connection has committed, still in its WAL, is in the copy; what it has not
committed is not), and a copy put back only when it is an atlas, the old one kept."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from tests.conftest import dump

from paperatlas import Atlas
from paperatlas.store import Store

PROGRAM = Path(__file__).parent / "fixtures" / "follow" / "program.json"


def _atlas(cli) -> None:
    assert cli("add", str(PROGRAM), "--list", "prog")[0] == 0
    assert cli("tag", "PROG1", "first")[0] == 0


def _dump(db: Path) -> dict[str, list[tuple[object, ...]]]:
    store = Store(db)
    try:
        return dump(store)
    finally:
        store.close()


def _tags(db: Path) -> list[str]:
    with Atlas(db) as atlas:
        return sorted(atlas.tag_counts())


def test_a_backup_taken_while_another_connection_writes_is_one_commit(cli, tmp_path):
    _atlas(cli)
    writer = sqlite3.connect(cli.db, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")  # the commits below stay in the WAL only
    for n in range(50):
        writer.execute("INSERT INTO paper_tags(paper_id, tag) VALUES ('PROG1', ?)", (f"done-{n}",))
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO paper_tags(paper_id, tag) VALUES ('PROG2', 'not-yet-committed')")
    copy = tmp_path / "copy.db"
    code, _, err = cli("backup", copy)
    writer.execute("COMMIT")
    writer.close()
    assert code == 0 and f"wrote {copy}" in err
    check = sqlite3.connect(copy)
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert check.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file, nothing beside it
    check.close()
    tags = _tags(copy)
    assert "first" in tags and "done-49" in tags and len(tags) == 51 and "not-yet-committed" not in tags


def test_restore_needs_force_keeps_the_old_atlas_and_brings_back_the_copy(cli, tmp_path):
    _atlas(cli)
    copy = tmp_path / "copy.db"
    assert cli("backup", copy)[0] == 0
    assert cli("tag", "PROG2", "after-the-backup")[0] == 0
    before = _dump(cli.db)
    code, _, err = cli("restore", copy)
    assert code == 2 and "pass --force" in err and len(err.strip().splitlines()) == 1
    assert _dump(cli.db) == before
    server = Atlas(cli.db)  # an atlas open across the restore, as `serve` holds it
    assert sorted(server.tag_counts()) == ["after-the-backup", "first"]
    code, _, err = cli("restore", copy, "--force")
    assert code == 0 and f"kept as {cli.db}.bak" in " ".join(err.split())
    assert sorted(server.tag_counts()) == ["first"]  # it reads the restored atlas, whole
    server.close()
    assert _tags(cli.db) == ["first"]
    assert _dump(Path(f"{cli.db}.bak")) == before
    with Atlas(cli.db) as atlas:  # the restored atlas works as one
        assert atlas.tag(["PROG3"], ["again"])


def test_restore_into_a_missing_atlas_needs_no_force(cli, tmp_path):
    _atlas(cli)
    copy = tmp_path / "copy.db"
    assert cli("backup", copy)[0] == 0
    fresh = tmp_path / "new" / "atlas.db"
    code, _, err = cli("restore", copy, "--db", fresh, use_db=False)
    assert code == 0 and "kept as" not in err
    assert _dump(fresh) == _dump(copy)


def _other_program(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE papers (id TEXT)")
    conn.close()


def _newer_atlas(path: Path) -> None:
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 999")
    conn.close()


@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda p: p.write_text("id,title\n1,Not a database\n"),
            "not a paperatlas atlas (not an SQLite database)",
        ),
        (_other_program, "not a paperatlas atlas (an SQLite database of another program"),
        (lambda p: None, "no such file"),
        (lambda p: sqlite3.connect(p).close(), "holds no atlas"),  # an empty file
        (_newer_atlas, "schema version 999 is newer than this paperatlas"),
    ],
)
def test_restore_of_what_is_not_an_atlas_is_one_line_and_changes_nothing(cli, tmp_path, make, message):
    _atlas(cli)
    bad = tmp_path / "bad.db"
    make(bad)
    before = _dump(cli.db)
    code, _, err = cli("restore", bad, "--force")
    assert code == 2 and message in err and str(bad) in err and len(err.strip().splitlines()) == 1
    assert _dump(cli.db) == before and not Path(f"{cli.db}.bak").exists()


def test_backup_never_overwrites_a_file_that_is_not_an_atlas(cli, tmp_path):
    _atlas(cli)
    notes = tmp_path / "notes.txt"
    notes.write_text("my own notes\n")
    code, _, err = cli("backup", notes)
    assert code == 2 and "refusing to overwrite it with the backup" in err
    assert notes.read_text() == "my own notes\n"
    code, _, err = cli("backup", cli.db)
    assert code == 2 and "is the atlas itself" in err
