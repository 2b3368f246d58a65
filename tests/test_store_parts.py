"""`Store` holds what belongs to the database as a whole; each domain's tables are a part
reached by name (`store.papers`, `store.vectors`, ...), sharing the store's connection and
transactions. scripts/store_parts_codemod.py rewrites code written against the mixed-in names."""

from __future__ import annotations

import importlib.util
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from paperatlas.errors import StoreError
from paperatlas.store import Store

REPO = Path(__file__).resolve().parent.parent
WHOLE_DATABASE = {"path", "read_only", "read_only_reason", "conn", "close", "page_cache", "transaction"}
WHOLE_DATABASE |= {"require_writable", "change_counter", "generation", "now"}
PARTS = {"papers", "lists", "dedup", "fts", "facts", "vectors", "maps", "marks", "kept", "llm", "follows"}


def test_a_store_names_its_parts_and_what_is_the_whole_databases_only(tmp_path):
    store = Store(tmp_path / "atlas.db")
    public = {name for name in dir(store) if not name.startswith("_")}
    assert public == WHOLE_DATABASE | PARTS
    assert all(getattr(store, part)._store is store for part in PARTS)
    assert store.papers is store.papers  # built once per store, not per access


def test_writes_of_several_parts_are_one_transaction_of_the_store(tmp_path):
    store = Store(tmp_path / "atlas.db")
    with pytest.raises(sqlite3.IntegrityError), store.transaction():
        store.papers.insert({"id": "p1", "title": "Graph nets", "abstract": "graphs"})
        store.lists.ensure("L")
        store.lists.add_member("L", "p1", 0)
        store.vectors.put("m", ["p1"], np.ones((1, 2), dtype=np.float32), ["h"])
        store.papers.insert({"id": "p1", "title": "the same id again", "abstract": ""})
    assert store.papers.count() == 0 and store.lists.names() == [] and store.vectors.count("m") == 0
    before = store.change_counter()
    with store.transaction():
        store.papers.insert({"id": "p1", "title": "Graph nets", "abstract": "graphs"})
        store.facts.set("p1", {"kind": "method"}, "t", "v1")
    assert store.change_counter() != before  # what caches key on moves with a part's writes
    assert [pid for pid, _ in store.fts.search("graph")] == ["p1"]
    assert store.facts.get("p1") == {"kind": "method"}


def test_a_read_only_store_refuses_a_parts_transaction_in_one_line(tmp_path):
    with Store(tmp_path / "atlas.db").transaction() as tx:
        tx.execute("INSERT INTO papers(id, title, abstract) VALUES ('p1', 'T', 'A')")
    store = Store(tmp_path / "atlas.db", read_only=True)
    assert store.papers.get("p1")["title"] == "T"
    with pytest.raises(StoreError, match="read-only"):
        store.maps.save("*", "m", "sig", {}, [], [])


# code written against the mixed-in names, and what the codemod makes of it (not .py: the
# codemod, run on the repository, would rewrite them too)
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "store_parts"


@pytest.mark.slow  # mypy reads the package: ~30 s
def test_the_codemod_rewrites_old_names_on_stores_only_and_a_second_run_changes_nothing(
    tmp_path, capsys, monkeypatch
):
    spec = importlib.util.spec_from_file_location("codemod", REPO / "scripts" / "store_parts_codemod.py")
    assert spec is not None and spec.loader is not None
    codemod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(codemod)
    monkeypatch.chdir(REPO)
    code = tmp_path / "uses.py"
    code.write_text((FIXTURES / "old_names.py.txt").read_text(encoding="utf-8"), encoding="utf-8")
    rewritten = (FIXTURES / "rewritten.py.txt").read_text(encoding="utf-8")
    assert codemod.main([str(code)]) == 0
    assert code.read_text(encoding="utf-8") == rewritten
    err = capsys.readouterr().err
    assert "thing.get_paper (receiver's type unknown): left" in err  # named for a person, not guessed
    assert codemod.main([str(code), "--check"]) == 0  # nothing left: a second run is a no-op
    assert code.read_text(encoding="utf-8") == rewritten
