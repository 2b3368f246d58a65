"""The Chinese query vocabulary (~30 MB read out of its model's blob) is kept while the
blob is unchanged, whichever thread asks and whatever else a commit changed (papers
added while the app serves): its model's change count says so (migration 19)."""

from __future__ import annotations

import threading

import pytest

from paperatlas.search import translate_vocabulary as V
from paperatlas.store import PAPER_COLUMNS, Store


@pytest.fixture
def store(tmp_path, monkeypatch):
    s = Store(tmp_path / "v.db")
    with s.transaction():
        s.vectors.put_model(V.VOCAB_NAME, b"first", {"terms": 1})
    reads: list[bytes] = []
    monkeypatch.setattr(V.Vocabulary, "from_bytes", staticmethod(lambda blob: reads.append(blob) or blob))
    V._VOCABULARY.clear()
    s.reads = reads  # type: ignore[attr-defined]
    yield s
    V._VOCABULARY.clear()
    s.close()


def _in_threads(store: Store, n: int = 4) -> list:
    out: list = []
    for _ in range(n):  # one after the other: each thread has its own connection and counter
        t = threading.Thread(target=lambda: out.append(V.load_vocabulary(store)))
        t.start()
        t.join()
    return out


def test_every_thread_shares_one_read_of_the_vocabulary(store):
    assert _in_threads(store) == [b"first"] * 4
    assert store.reads == [b"first"]


def test_papers_added_leave_it_and_a_new_vocabulary_is_read(store):
    _in_threads(store, 1)
    other = Store(store.path)  # another process: `paperatlas add`, then `embed`
    row = dict.fromkeys(PAPER_COLUMNS)
    row.update(id="p1", title="A paper", abstract="Its abstract.", authors=[], keywords=[], urls=[], extra={})
    with other.transaction():
        other.papers.insert_many([row])
    assert _in_threads(store, 2) == [b"first"] * 2 and store.reads == [b"first"]
    with other.transaction():
        other.vectors.put_model(V.VOCAB_NAME, b"second", {"terms": 2})
    other.close()
    assert _in_threads(store, 2) == [b"second"] * 2
    assert store.reads == [b"first", b"second"]
