"""The store's per-model count of vector changes (migration 10, `store.generation.vector_changes`):
every change to a model's vectors moves it, from any connection; nothing else does."""

from __future__ import annotations

import numpy as np
import pytest

from paperatlas.store import PAPER_COLUMNS, Store
from paperatlas.store.generation import facts_changes, vector_changes
from paperatlas.store.vectors import VectorRows


def _row(pid, abstract="An abstract."):
    row = dict.fromkeys(PAPER_COLUMNS)
    row.update(id=pid, abstract=abstract, title=None, authors=[], keywords=[], urls=[], extra={})
    return row


def _vectors(n, seed=0):
    return np.random.default_rng(seed).standard_normal((n, 4)).astype(np.float32)


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "s.db")
    with s.transaction():
        s.papers.insert_many([_row(pid) for pid in "abcd"])
    yield s
    s.close()


def test_every_change_to_a_models_vectors_moves_its_count_and_nothing_else_does(store, tmp_path):
    assert vector_changes(store, "m") is None  # never held vectors of m
    with store.transaction():
        store.vectors.put("m", ["a", "b", "c"], _vectors(3), ["h1", "h2", "h3"])
        store.vectors.put("other", ["a"], _vectors(1), ["h1"])
    seen = [vector_changes(store, "m")]
    other = vector_changes(store, "other")

    def changed(step) -> None:
        with store.transaction():
            step()
        now = vector_changes(store, "m")
        assert now is not None and now not in seen, step
        seen.append(now)

    changed(lambda: store.vectors.put("m", ["b"], _vectors(1, 1), ["h2b"]))  # re-embedded
    changed(lambda: store.vectors.put("m", ["c"], _vectors(1, 2), ["h3"]))  # same hash: still a write
    changed(lambda: store.vectors.put("m", ["d"], _vectors(1, 3), ["h4"]))  # a new paper's vector
    changed(lambda: store.conn.execute("DELETE FROM papers WHERE id = 'd'"))  # its vector goes (cascade)
    changed(lambda: store.papers.rekey("c", "c2"))  # the vector moves to the new id
    changed(lambda: store.conn.execute("UPDATE embeddings SET text_hash = 'x' WHERE paper_id = 'a'"))
    changed(lambda: store.vectors.delete("m"))
    changed(lambda: store.vectors.put("m", ["a"], _vectors(1, 4), ["h1"]))  # back to one vector
    assert vector_changes(store, "other") != other  # the rekey and the UPDATE touched it too

    other = vector_changes(store, "other")
    with store.transaction():  # writes that leave m's vectors alone
        store.papers.insert_many([_row("e")])
        store.papers.update("b", {"abstract": "Another abstract."})
        store.vectors.put("other", ["e"], _vectors(1, 5), ["h5"])
    assert vector_changes(store, "m") == seen[-1]
    assert vector_changes(store, "other") != other

    # another connection (another process) sees the count move with its commits
    writer = Store(store.path)
    with writer.transaction():
        writer.vectors.put("m", ["e"], _vectors(1, 6), ["h5"])
    writer.close()
    assert vector_changes(store, "m") not in seen


def test_two_atlases_with_the_same_history_have_different_counts(tmp_path):
    """The count starts at random: an atlas made again at the same path (a saved graph
    left beside it) does not repeat the numbers of the one it replaced."""
    counts = []
    for n in range(2):
        s = Store(tmp_path / f"{n}.db")
        with s.transaction():
            s.papers.insert_many([_row("a")])
            s.vectors.put("m", ["a"], _vectors(1), ["h"])
        counts.append(vector_changes(s, "m"))
        s.close()
    assert None not in counts and counts[0] != counts[1]


def test_an_older_atlas_gains_a_count_per_model_and_a_read_only_one_has_none(tmp_path):
    path = tmp_path / "s.db"
    s = Store(path)
    with s.transaction():
        s.papers.insert_many([_row(pid) for pid in "abc"])
        s.vectors.put("m", ["a", "b"], _vectors(2), ["h1", "h2"])
        s.vectors.put("n", ["c"], _vectors(1), ["h3"])
        for (trigger,) in s.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'change_counts%'"
        ).fetchall():
            s.conn.execute(f"DROP TRIGGER {trigger}")
        s.conn.execute("DROP TABLE change_counts")  # as an atlas of schema 9 was
        s.conn.execute("PRAGMA user_version = 9")
    s.close()
    reader = Store(path, read_only=True)
    assert vector_changes(reader, "m") is None  # no count: the caller compares the vectors
    assert facts_changes(reader) is None
    reader.close()
    s = Store(path)  # migrates: each model that has vectors gets a count
    before = {m: vector_changes(s, m) for m in ("m", "n")}
    assert None not in before.values() and vector_changes(s, "x") is None
    assert facts_changes(s) is not None
    with s.transaction():
        s.vectors.put("m", ["c"], _vectors(1, 1), ["h4"])
    assert vector_changes(s, "m") != before["m"] and vector_changes(s, "n") == before["n"]
    s.close()
    s = Store(path)  # reopening changes nothing
    assert vector_changes(s, "n") == before["n"]
    s.close()


def test_every_change_to_the_facts_moves_their_count(store):
    seen = [facts_changes(store)]

    def changed(step) -> None:
        with store.transaction():
            step()
        now = facts_changes(store)
        assert now is not None and now not in seen, step
        seen.append(now)

    changed(lambda: store.facts.set("a", {"name": "Alpha"}, "t", "v1"))
    changed(lambda: store.facts.set("a", {"name": "Alpha", "names": ["Alpha", "A2"]}, "t", "v1"))
    changed(lambda: store.facts.set("b", {}, "t", "v1"))
    changed(lambda: store.papers.rekey("a", "a2"))
    changed(lambda: store.conn.execute("DELETE FROM papers WHERE id = 'a2'"))  # its facts go
    with store.transaction():
        store.vectors.put("m", ["c"], _vectors(1), ["h"])
        store.papers.insert_many([_row("z")])
    assert facts_changes(store) == seen[-1]


def test_the_vector_index_and_model_list_are_kept_through_a_commit_that_leaves_the_vectors(
    store, monkeypatch
):
    from paperatlas.embed.index import open_index
    from paperatlas.search.vectors import vector_models_for

    with store.transaction():
        store.vectors.put("static", ["a", "b", "c"], _vectors(3), ["h1", "h2", "h3"])
    index = open_index(store, "static")
    assert vector_models_for(store, "en") == ["static"]

    def no_scan(*args):  # a commit must not cost a count of every vector
        raise AssertionError("vectors counted again")

    monkeypatch.setattr(VectorRows, "signature", no_scan)
    monkeypatch.setattr(VectorRows, "models", no_scan)
    with store.transaction():  # a write beside the vectors (an add's title, a like)
        store.papers.update("a", {"title": "A new title"})
    assert open_index(store, "static") is index
    assert vector_models_for(store, "en") == ["static"]
    monkeypatch.undo()
    with store.transaction():  # the vectors change: both are read again
        store.vectors.put("static", ["d"], _vectors(1, 5), ["h4"])
        store.vectors.put("other", ["a"], _vectors(1, 6), ["h1"])
    rebuilt = open_index(store, "static")
    assert rebuilt is not index and sorted(pid for pid, _ in rebuilt.search(_vectors(1, 5)[0], 4)) == list(
        "abcd"
    )
    assert sorted(vector_models_for(store, "en")) == ["other", "static"]
