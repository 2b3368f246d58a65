"""Store methods the foundation added: batch look-ups and writes, and rekey_paper."""

from __future__ import annotations

import numpy as np
import pytest

from paperatlas.store import PAPER_COLUMNS, Store


def _row(pid, abstract="An abstract.", title=None):
    row = {c: None for c in PAPER_COLUMNS}
    row.update(id=pid, abstract=abstract, title=title, authors=[], keywords=[], urls=[], extra={})
    return row


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "s.db")
    yield s
    s.close()


def test_batch_lookups(store):
    with store.transaction():
        store.insert_papers([_row("a"), _row("b", title="Bee")])
        store.add_hashes([("h1", "a"), ("h2", "b"), ("h1", "b")])  # h1 keeps its first paper
        store.ensure_list("L")
        store.add_members([("L", "a", 0), ("L", "a", 5)])
    assert store.existing_ids(["a", "x", "b"]) == {"a", "b"}
    assert store.papers_for_hashes(["h1", "h2", "h3"]) == {"h1": "a", "h2": "b"}
    assert store.members_among("L", ["a", "b"]) == {"a"}
    assert store.all_ids("L") == ["a"]
    assert store.existing_ids([]) == set()


def test_rekey_moves_every_reference(store):
    with store.transaction():
        store.insert_papers([_row("hold", abstract="graph neural networks", title="Old")])
        store.add_hashes([("hx", "hold")])
        store.set_minhashes([("hold", 0, np.arange(4, dtype=np.uint64))])
        store.ensure_list("L")
        store.add_members([("L", "hold", 3)])
        store.set_facts("hold", {"kind": "method"}, "t", "v")
        store.put_vectors("m", ["hold"], np.ones((1, 2), dtype=np.float32), ["t"])
        store.set_mark("likes", "hold", 1)
    with store.transaction():
        store.rekey_paper("hold", "NewId")
    assert store.get_paper("hold") is None
    assert store.get_paper("NewId")["title"] == "Old"
    assert store.paper_for_hash("hx") == "NewId"
    assert [pid for pid, _, _ in store.iter_minhashes()] == ["NewId"]
    assert store.all_ids("L") == ["NewId"]
    assert store.get_facts("NewId") == {"kind": "method"}
    assert store.get_vectors("m")[0] == ["NewId"]
    assert store.marks("likes") == [("likes", "NewId", 1)]
    assert [pid for pid, _ in store.fts_search("graph")] == ["NewId"]
    assert store.conn.execute("PRAGMA foreign_key_check").fetchall() == []
