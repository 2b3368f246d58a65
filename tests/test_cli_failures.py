"""Every failure a user can cause is one line (or typer's usage message), exit 2, and
the store is left as it was: usage errors, missing / foreign / damaged / read-only atlases,
directories that cannot be created, files that cannot be written."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from paperatlas import Atlas
from paperatlas.errors import StoreError
from paperatlas.store import Store

ROOT = Path(__file__).resolve().parent.parent
FIX = Path(__file__).parent / "fixtures" / "sources"
MINI = FIX / "iclr_mini.jsonl"  # 4 papers; GmX7qQ1abc is GraphMixer


@pytest.fixture
def cli(cli):
    """The shared runner (conftest.py) without its own --db: these tests name the atlas."""
    return functools.partial(cli, use_db=False)


def _one_line(err: str) -> bool:
    return len(err.strip().splitlines()) == 1 and "Traceback" not in err


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def atlas_db(tmp_path) -> Path:
    db = tmp_path / "atlas.db"
    atlas = Atlas(db)
    atlas.add(MINI, list_name="mini", enrich=False)
    atlas.close()  # everything in the db file itself (WAL checkpointed)
    return db


# -- usage errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (("stats", "--nope"), "No such option: --nope"),
        (("ls", "--foo"), "No such option: --foo"),
        (("add",), "Missing argument"),
        (("search",), "Missing argument"),
        (("serch",), "No such command 'serch'"),
        (("serve", "--port", "abc"), "Invalid value for '--port'"),
        (("ls", "--limit", "many"), "Invalid value for '--limit'"),
    ],
)
def test_usage_errors_show_usage_and_exit_2(cli, args, message):
    code, out, err = cli(*args)
    assert code == 2
    assert "Usage: paperatlas" in err and message in err
    assert "Traceback" not in err + out


@pytest.mark.parametrize("command", ["add", "inspect"])
def test_an_empty_file_name_is_refused_not_read_as_the_current_folder(cli, tmp_path, monkeypatch, command):
    # Path("") is ".": before, `add ''` read every file under the working directory.
    (tmp_path / "list.txt").write_text("A header line\n\n" + "We propose a method for graphs. " * 5 + "\n")
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "atlas.db"
    code, out, err = cli(command, "", *(["--db", str(db)] if command == "add" else []))
    assert code == 2
    assert "an empty file name" in err
    assert not db.exists()


@pytest.mark.slow  # a fresh interpreter, to see what an import loads
def test_usage_error_through_the_real_entry_point():
    """The installed script's path (main() -> sys.exit), not only run_app."""
    proc = subprocess.run(
        [sys.executable, "-c", "from paperatlas.cli import main; main()", "stats", "--nope"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 2
    assert "No such option: --nope" in proc.stderr and "Traceback" not in proc.stderr


# -- missing and uncreatable atlases -----------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("stats",),
        ("ls",),
        ("show", "abc"),
        ("search", "graph"),
        ("export",),
        ("like", "abc"),
        ("enrich",),
        ("embed",),
    ],
)
def test_commands_other_than_add_do_not_create_an_atlas(cli, tmp_path, args):
    db = tmp_path / "typo.db"
    code, _, err = cli(*args, "--db", db)
    assert code == 2 and _one_line(err) and "no atlas here" in err
    assert not db.exists() and list(tmp_path.iterdir()) == []


def test_db_directory_that_cannot_be_created(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    code, _, err = cli("add", MINI, "--db", blocker / "sub" / "atlas.db")
    assert code == 2 and _one_line(err)
    assert "cannot create the atlas directory" in err and str(blocker / "sub") in err


def test_db_path_that_is_a_directory(cli, tmp_path):
    code, _, err = cli("stats", "--db", tmp_path)
    assert code == 2 and _one_line(err) and "is a directory" in err


def test_export_to_a_file_that_cannot_be_written(cli, atlas_db, tmp_path):
    code, _, err = cli("export", "-o", tmp_path / "no" / "such" / "dir.jsonl", "--db", atlas_db)
    assert code == 2 and _one_line(err) and "dir.jsonl" in err


# -- foreign files are refused and never written ---------------------------------------------


def _foreign_sqlite(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE papers (id INTEGER PRIMARY KEY, abstract TEXT, owner TEXT);"
        "INSERT INTO papers (abstract, owner) VALUES ('their row', 'them');"
        "CREATE TABLE settings (k TEXT, v TEXT);"
    )
    conn.close()
    return path


@pytest.mark.parametrize(
    "args", [("stats",), ("ls",), ("search", "row"), ("export",), ("add", MINI), ("enrich",), ("like", "1")]
)
def test_foreign_sqlite_file_is_refused_untouched(cli, tmp_path, args):
    db = _foreign_sqlite(tmp_path / "their.db")
    before, files = _digest(db), sorted(p.name for p in tmp_path.iterdir())
    code, _, err = cli(*args, "--db", db)
    assert code == 2 and _one_line(err)
    assert "not a paperatlas atlas" in err and "another program" in err
    assert _digest(db) == before and sorted(p.name for p in tmp_path.iterdir()) == files
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["papers", "settings"]
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    conn.close()


def test_non_sqlite_file_is_refused_untouched(cli, tmp_path):
    db = tmp_path / "notes.txt"
    db.write_text("my notes, not a database\n" * 50)
    before = _digest(db)
    code, _, err = cli("add", MINI, "--db", db)
    assert code == 2 and _one_line(err) and "not an SQLite database" in err
    assert _digest(db) == before


def test_atlas_from_before_the_marker_is_still_ours(tmp_path):
    """An atlas written by an older paperatlas (no application id) opens, and gets the id."""
    db = tmp_path / "old.db"
    atlas = Atlas(db)
    atlas.add(MINI, enrich=False)
    atlas.close()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA application_id = 0")
    conn.close()
    store = Store(db)
    assert store.papers.count() == 4
    assert store.conn.execute("PRAGMA application_id").fetchone()[0] != 0


# -- damaged atlases -----------------------------------------------------------------------------


def _corrupt(db: Path, start: float, end: float) -> None:
    data = bytearray(db.read_bytes())
    lo, hi = int(len(data) * start), int(len(data) * end)
    data[lo:hi] = bytes((i * 37 + 11) % 251 for i in range(hi - lo))
    db.write_bytes(bytes(data))


@pytest.fixture
def bigger_db(tmp_path) -> Path:
    """An atlas of 300 synthetic papers (many pages, so its middle is papers' pages)."""
    from faultkit import synthetic_papers, write_list

    db = tmp_path / "atlas.db"
    atlas = Atlas(db)
    atlas.add(write_list(tmp_path / "p.jsonl", synthetic_papers(300)), enrich=False)
    atlas.close()
    for suffix in ("-wal", "-shm"):
        assert not Path(str(db) + suffix).exists()  # closed cleanly: everything is in db
    return db


def test_corrupt_pages_in_the_middle_are_one_line(cli, bigger_db):
    _corrupt(bigger_db, 0.35, 0.65)
    code, out, err = cli("export", "--db", bigger_db)  # reads every paper
    assert code == 2 and _one_line(err), err
    assert "the atlas file is damaged" in err and str(bigger_db) in err
    for args in (("stats",), ("ls", "--limit", "1000"), ("search", "memory benchmark")):
        code, out, err = cli(*args, "--db", bigger_db)
        assert code in (0, 2) and "Traceback" not in err
        assert code == 0 or _one_line(err)


def test_corrupt_schema_page_is_one_line(cli, bigger_db):
    _corrupt(bigger_db, 100 / bigger_db.stat().st_size, 0.02)  # page 1 after the header
    code, _, err = cli("stats", "--db", bigger_db)
    assert code == 2 and _one_line(err) and str(bigger_db) in err


# -- read-only atlases ---------------------------------------------------------------------------

READ_COMMANDS = [
    ("stats",),
    ("ls",),
    ("show", "GmX7qQ1abc"),
    ("search", "temporal graph"),
    ("export", "--format", "jsonl"),
]
WRITE_COMMANDS = [
    (("add", FIX / "arxiv.jsonl"), "cannot add papers"),
    (("like", "GmX7qQ1abc"), "cannot mark papers"),
    (("unlike", "GmX7qQ1abc"), "cannot unmark papers"),
]


def test_forced_read_only_store_never_writes(atlas_db):
    before = _digest(atlas_db)
    store = Store(atlas_db, read_only=True)
    assert store.read_only and store.papers.count() == 4
    with pytest.raises(StoreError, match="read-only"), store.transaction():
        pass
    with pytest.raises(StoreError, match="read-only"):
        Atlas(atlas_db, read_only=True).like(["GmX7qQ1abc"])
    store.close()
    assert _digest(atlas_db) == before
    with pytest.raises(StoreError, match="no atlas here"):
        Store(atlas_db.parent / "missing.db", read_only=True)


@pytest.mark.parametrize("args", READ_COMMANDS)
def test_unwritable_atlas_opens_read_only_for_reading(cli, atlas_db, monkeypatch, args):
    """The decision forced (as root every file is writable): the same path the kernel's
    answer takes (see the test below for a real read-only file)."""
    monkeypatch.setattr("paperatlas.store.connection.can_write", lambda path: False)
    before = _digest(atlas_db)
    code, out, err = cli(*args, "--db", atlas_db)
    assert code == 0, err
    assert _digest(atlas_db) == before


@pytest.mark.parametrize("args, message", WRITE_COMMANDS)
def test_unwritable_atlas_refuses_writes_in_one_line(cli, atlas_db, monkeypatch, args, message):
    monkeypatch.setattr("paperatlas.store.connection.can_write", lambda path: False)
    before = _digest(atlas_db)
    code, _, err = cli(*args, "--db", atlas_db)
    assert code == 2 and _one_line(err)
    assert "read-only (no write permission for the file or its directory)" in err and message in err
    assert _digest(atlas_db) == before


@contextlib.contextmanager
def _without_write_permission(directory: Path, db: Path, dir_writable: bool, monkeypatch):
    """Take write permission away for real: as root (tests and CI run as root, and root
    ignores file modes) by running as user nobody (effective ids, restored after);
    otherwise by chmod alone. A root that may not change its ids (a user namespace without
    nobody) forces the store's decision instead."""
    db.chmod(0o444)
    directory.chmod(0o777 if dir_writable else 0o555)
    root = os.geteuid() == 0
    try:
        if root:
            try:
                os.setegid(65534)
                os.seteuid(65534)
            except OSError:
                os.setegid(0)
                root = False
                monkeypatch.setattr("paperatlas.store.connection.can_write", lambda path: False)
        yield
    finally:
        if root:
            os.seteuid(0)
            os.setegid(0)
        directory.chmod(0o755)
        db.chmod(0o644)


@pytest.mark.parametrize("dir_writable", [False, True], ids=["dir-read-only", "file-read-only"])
def test_really_read_only_atlas(cli, dir_writable, monkeypatch):
    import shutil
    import tempfile

    # a directory user nobody can reach (pytest's tmp_path is private to root)
    base = Path(tempfile.mkdtemp(prefix="paperatlas-ro-"))
    base.chmod(0o755)
    try:
        directory = base / "atlas"
        directory.mkdir()
        db = directory / "atlas.db"
        atlas = Atlas(db)
        atlas.add(MINI, list_name="mini", enrich=False)
        atlas.close()
        # run every command once first, writable: what they import lazily is loaded while
        # the interpreter's own files (under /root) can still be read
        shutil.copy(db, base / "warm.db")
        for args in READ_COMMANDS + [a for a, _ in WRITE_COMMANDS]:
            cli(*args, "--db", base / "warm.db")
        before = _digest(db)
        results = {}
        with _without_write_permission(directory, db, dir_writable, monkeypatch):
            for args in READ_COMMANDS:
                results[args] = cli(*args, "--db", db)
            for args, _message in WRITE_COMMANDS:
                results[args] = cli(*args, "--db", db)
            blocked = cli("add", MINI, "--db", directory / "new" / "atlas.db")
        for args in READ_COMMANDS:
            code, out, err = results[args]
            assert code == 0, (args, err)
        assert "GraphMixer" in results[("show", "GmX7qQ1abc")][1]
        for args, _message in WRITE_COMMANDS:
            code, _, err = results[args]
            assert code == 2 and _one_line(err) and "read-only" in err, (args, err)
        if not dir_writable:
            code, _, err = blocked
            assert code == 2 and _one_line(err) and "cannot create" in err
        assert _digest(db) == before
    finally:
        shutil.rmtree(base, ignore_errors=True)


# -- the library face ----------------------------------------------------------------------------


def test_atlas_add_takes_one_path_as_str_or_path(tmp_path):
    atlas = Atlas(tmp_path / "a.db")
    report = atlas.add(str(MINI), enrich=False)
    assert len(report.files) == 1 and report.added == 4
    assert atlas.add(MINI, enrich=False).files[0].unchanged == 4
