"""The table of paper names search looks up, written beside the store and keyed by the
store's facts change count: it answers as the names read from the facts do, a change to
the facts makes it stale, and without a count or a writable folder the names are read
into memory as before."""

from __future__ import annotations

import pytest

from paperatlas.search import names as N
from paperatlas.store import PAPER_COLUMNS, Store
from paperatlas.store.generation import facts_changes

FACTS = {
    "p1": {"name": "CIMemories", "names": ["CIMemories", "CIM"]},
    "p2": {"name": "BRAIN"},
    "p3": {"name": "Relational Execution Tracker", "names": ["Relational Execution Tracker", "RET"]},
    "p4": {"name": "Brain"},  # the same name lower-cased as p2's
    "p5": {"name": "École-Net", "names": ["École-Net", "Ｆｕｌｌｗｉｄｔｈ"]},  # NFKC folds the second
    "p6": {"name": "RET"},  # a name two papers share
    "p7": {},
}
QUERIES = [
    "CIMemories",
    "cimemories",
    "CIMemories privacy",
    "brain",
    "BRAIN tumours",
    "Brain",
    "relational execution tracker",
    "the Relational Execution Tracker of RET",
    "école-net",
    "ÉCOLE-NET results",
    "Fullwidth",
    "fullwidth",
    "nothing named here",
    "CIM and RET",
]


def _row(pid):
    row = dict.fromkeys(PAPER_COLUMNS)
    row.update(id=pid, abstract=f"Abstract of {pid}.", title=None, authors=[], keywords=[], urls=[], extra={})
    return row


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "s.db")
    with s.transaction():
        s.papers.insert_many([_row(pid) for pid in FACTS])
        for pid, facts in FACTS.items():
            s.facts.set(pid, facts, "t", "v1")
    yield s
    s.close()


def _in_memory(store, query):
    tables = N._Tables(N._pairs(store))
    N._NAME_TABLES.clear()
    real = N._name_tables
    N._name_tables = lambda s: tables  # type: ignore[assignment]
    try:
        return N.name_ranking(store, query)
    finally:
        N._name_tables = real  # type: ignore[assignment]


def test_the_file_answers_as_the_names_in_memory(store, monkeypatch):
    expected = {q: _in_memory(store, q) for q in QUERIES}
    assert expected["brain"] == [("p2", 1.0), ("p4", 1.0)] and expected["Fullwidth"] == [("p5", 1.0)]
    N._NAME_TABLES.clear()
    assert {q: N.name_ranking(store, q) for q in QUERIES} == expected  # reads the facts, writes the file
    assert N.file_path(store.path).exists()
    N._NAME_TABLES.clear()  # a new process: the file, and no read of the facts
    monkeypatch.setattr(type(store.facts), "paper_names", lambda self: pytest.fail("facts read with a file"))
    assert isinstance(N._name_tables(store), N.NamesFile)
    assert {q: N.name_ranking(store, q) for q in QUERIES} == expected
    assert N.name_ranking(store, "CIMemories", allowed={"p2"}) == []


def test_a_change_to_the_facts_is_seen_and_the_file_written_again(store):
    N._NAME_TABLES.clear()
    assert N.name_ranking(store, "Zeta") == []
    before = facts_changes(store)
    other = Store(store.path)  # another process enriches a paper
    with other.transaction():
        other.facts.set("p7", {"name": "Zeta"}, "t", "v1")
    other.close()
    assert facts_changes(store) != before
    assert N.name_ranking(store, "Zeta") == [("p7", 1.0)]  # the kept table was stale
    N._NAME_TABLES.clear()
    assert isinstance(N._name_tables(store), N.NamesFile)  # rewritten at the new count
    assert N.name_ranking(store, "zeta") == [("p7", 1.0)]


def test_without_a_count_or_a_writable_folder_the_names_are_read_into_memory(store, tmp_path, monkeypatch):
    N._NAME_TABLES.clear()
    monkeypatch.setattr(N, "file_path", lambda db: tmp_path / "missing-dir" / "s.db.names")
    assert isinstance(N._name_tables(store), N._Tables)
    assert N.name_ranking(store, "CIMemories") == [("p1", 1.0)]
    monkeypatch.undo()
    N._NAME_TABLES.clear()
    monkeypatch.setattr(N, "facts_changes", lambda s: None)  # an older store, read-only
    assert isinstance(N._name_tables(store), N._Tables)
    assert not N.file_path(store.path).exists()
    assert N.name_ranking(store, "the RET tracker") == [("p3", 0.5), ("p6", 0.5)]
