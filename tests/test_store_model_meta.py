"""An embedding model's meta kept beside its blob (migration 18, `embed_model_meta`): read
without walking the blob (the search status line asks for the Chinese vocabulary's after
every commit), and always what `embed_models` holds, whoever wrote it."""

from __future__ import annotations

from paperatlas.store import MIGRATIONS, Store

BLOB = b"\x00" * 300_000  # many overflow pages, as a stored vocabulary has


def test_the_meta_follows_every_write_of_a_model(tmp_path):
    store = Store(tmp_path / "m.db")
    assert store.vectors.model_meta("vocab") is None
    with store.transaction():
        store.vectors.put_model("vocab", BLOB, {"papers": 1700})
        store.vectors.put_model("lsa", b"x", {"dims": 64})
    assert store.vectors.model_meta("vocab") == {"papers": 1700}
    with store.transaction():
        store.vectors.put_model("vocab", BLOB, {"papers": 2000})  # INSERT OR REPLACE
    assert store.vectors.model_meta("vocab") == {"papers": 2000}
    with store.transaction() as tx:  # written by hand: the triggers keep the copy
        tx.execute("UPDATE embed_models SET name = 'vocab2', meta = '{\"papers\": 3}' WHERE name = 'vocab'")
    assert store.vectors.model_meta("vocab") is None
    assert store.vectors.model_meta("vocab2") == {"papers": 3}
    with store.transaction() as tx:
        tx.execute("DELETE FROM embed_models WHERE name = 'vocab2'")
    assert store.vectors.model_meta("vocab2") is None and store.vectors.model_meta("lsa") == {"dims": 64}
    store.close()


def test_the_meta_is_read_without_the_blob(tmp_path):
    store = Store(tmp_path / "m.db")
    with store.transaction():
        store.vectors.put_model("vocab", BLOB, {"papers": 1700})
    statements: list[str] = []
    store.conn.set_trace_callback(statements.append)
    assert store.vectors.model_meta("vocab") == {"papers": 1700}
    store.conn.set_trace_callback(None)
    assert statements and not any("embed_models" in s for s in statements)
    store.close()


def test_an_atlas_of_schema_17_gains_the_copies_and_an_older_read_only_one_reads_the_blob_row(tmp_path):
    path = tmp_path / "old.db"
    store = Store(path)
    with store.transaction():
        store.vectors.put_model("vocab", BLOB, {"papers": 1700})
    with store.transaction() as tx:
        for trigger in ("embed_model_meta_ai", "embed_model_meta_au", "embed_model_meta_ad"):
            tx.execute(f"DROP TRIGGER {trigger}")
        tx.execute("DROP TABLE embed_model_meta")
        tx.execute("PRAGMA user_version = 17")
    store.close()
    reader = Store(path, read_only=True)
    assert reader.vectors.model_meta("vocab") == {"papers": 1700}
    reader.close()
    store = Store(path)
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    rows = store.conn.execute("SELECT name, meta FROM embed_model_meta").fetchall()
    assert [tuple(r) for r in rows] == [("vocab", '{"papers": 1700}')]
    store.close()
