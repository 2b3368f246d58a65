"""Search's names table and the titles table of the typo check after a commit: one that
only added papers (and their facts) is taken in by reading the new rows alone, with the
answers of a read of every row; one that changed an old row (a title edited, a paper
re-enriched or deleted) makes them read every row again."""

from __future__ import annotations

import pytest

from paperatlas.cache import StoreCache
from paperatlas.search import names as N
from paperatlas.search import titles as T
from paperatlas.search.spelling import corrections
from paperatlas.store import PAPER_COLUMNS, Store
from paperatlas.store.generation import table_mark

OLD = {
    "p1": ("Contrastive memories for private agents", {"name": "CIMemories", "names": ["CIMemories", "CIM"]}),
    "p2": ("Brain tumour segmentation with transformers", {"name": "BRAIN"}),
    "p3": ("Relational execution tracking in programs", {"name": "Relational Execution Tracker"}),
    "p4": ("Diffusion policies for grasping", {}),
    **{f"f{n}": (f"Filler study number {n}", {}) for n in range(6)},  # the names file's rows: 10
}
NEW = {
    "p5": (
        "Speculative decoding for diffusion transformers",
        {"name": "SpecDiff", "names": ["SpecDiff", "CIM"]},
    ),
    "p6": ("Gaussian splatting in real time", {"name": "Brain"}),
}
NAME_QUERIES = [
    "CIM",
    "cim",
    "brain",
    "BRAIN scans",
    "SpecDiff",
    "specdiff decoding",
    "Relational Execution Tracker",
]
TYPO_QUERIES = ["speculatve decoding", "gausian splating", "tumour segmentaton", "grasping polcies"]


def _row(pid: str, title: str) -> dict:
    row = dict.fromkeys(PAPER_COLUMNS)
    row.update(
        id=pid, title=title, abstract=f"Abstract of {pid}.", authors=[], keywords=[], urls=[], extra={}
    )
    return row


def _add(store: Store, papers: dict) -> None:
    with store.transaction():
        store.papers.insert_many([_row(pid, title) for pid, (title, _) in papers.items()])
        for pid, (_, facts) in papers.items():
            store.facts.set(pid, facts, "t", "v1")


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "s.db")
    _add(s, OLD)
    N._NAME_TABLES.clear()
    T._TITLES.clear()
    yield s
    s.close()


def _other_process(store: Store, change) -> None:
    other = Store(store.path)
    change(other)
    other.close()


def _answers(store: Store) -> tuple:
    return (
        {q: N.name_ranking(store, q) for q in NAME_QUERIES},
        {q: corrections(store, q) for q in TYPO_QUERIES},
        {t: T.papers_titled(store, t) for t, _ in [*OLD.values(), *NEW.values()]},
    )


def _fresh_answers(store: Store) -> tuple:
    """What a process that never kept a table answers (the names file removed too)."""
    N._NAME_TABLES.clear()
    T._TITLES.clear()
    N.file_path(store.path).unlink(missing_ok=True)
    return _answers(store)


def _reads(monkeypatch, store: Store) -> dict[str, list[int]]:
    """The rowid each read of names or titles started after, per table."""
    seen: dict[str, list[int]] = {"names": [], "titles": []}
    facts, papers = type(store.facts), type(store.papers)
    real_names, real_titles = facts.paper_names, papers.titles

    def names(self, after=0):
        seen["names"].append(after)
        return real_names(self, after=after)

    def titles(self, after=0):
        seen["titles"].append(after)
        return real_titles(self, after=after)

    monkeypatch.setattr(facts, "paper_names", names)
    monkeypatch.setattr(papers, "titles", titles)
    return seen


def test_an_add_reads_only_the_new_rows_and_answers_as_a_full_read(store, monkeypatch):
    _answers(store)  # the tables kept, the names file written
    last = table_mark(store, "papers").last
    seen = _reads(monkeypatch, store)
    _other_process(store, lambda other: _add(other, NEW))
    after_add = _answers(store)
    assert seen == {"names": [last], "titles": [last]}  # the new papers' rows alone
    assert after_add[0]["CIM"] == [("p1", 1.0), ("p5", 1.0)] and after_add[0]["SpecDiff"] == [("p5", 1.0)]
    assert after_add[1]["speculatve decoding"] == {"speculatve": ("speculative", False)}
    assert after_add == _fresh_answers(store)


def test_the_grown_titles_table_is_the_one_a_full_read_makes(store):
    T.titles(store)
    _other_process(store, lambda other: _add(other, NEW))
    grown = T.titles(store)
    assert grown.mark is not None and grown.mark == table_mark(store, "papers", since=grown.mark.last)
    full = T._read(store)
    assert (grown.by_title, grown.words, grown.by_length) == (full.by_title, full.words, full.by_length)


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s.conn.execute("UPDATE papers SET title = 'Graph neural retrieval' WHERE id = 'p4'"),
        lambda s: s.facts.set("p4", {"name": "GraspNet"}, "t", "v2"),  # re-enriched: a replace
        lambda s: s.conn.execute("DELETE FROM papers WHERE id = 'p2'"),
    ],
    ids=["title edited", "facts replaced", "paper deleted"],
)
def test_a_change_to_an_old_row_reads_every_row_again(store, monkeypatch, change):
    _answers(store)

    def add_and_change(other: Store) -> None:
        _add(other, NEW)
        with other.transaction():
            change(other)

    _other_process(store, add_and_change)
    seen = _reads(monkeypatch, store)
    answers = _answers(store)
    assert 0 in seen["names"] + seen["titles"]  # at least one table was read whole
    assert answers == _fresh_answers(store)


def test_the_names_file_is_written_again_once_the_added_rows_are_a_quarter_of_it(store):
    N.name_ranking(store, "CIM")
    written = N.NamesFile.open(store.path)[1]
    _other_process(store, lambda other: _add(other, NEW))  # 2 rows on 10: read beside the file
    assert isinstance(N._name_tables(store), N._Joined)
    assert N.NamesFile.open(store.path)[1] == written
    more = {f"m{n}": (f"One more paper {n}", {"name": f"Seventh{n}"}) for n in range(1, 4)}
    _other_process(store, lambda other: _add(other, more))  # 5 on 10: over a quarter
    assert isinstance(N._name_tables(store), N._Tables)
    assert N.NamesFile.open(store.path)[1] == table_mark(store, "facts") != written
    assert N.name_ranking(store, "seventh2") == [("m2", 1.0)]
    N._NAME_TABLES.clear()
    assert isinstance(N._name_tables(store), N.NamesFile)


def test_a_cache_extends_its_kept_value_when_told_how(tmp_path):
    store = Store(tmp_path / "c.db")
    _add(store, OLD)
    cache: StoreCache = StoreCache()
    calls: list[str] = []

    def build() -> int:
        calls.append("build")
        return store.papers.count()

    def extend(kept: int) -> int:
        calls.append(f"extend {kept}")
        return store.papers.count()

    assert cache.get(store, "n", build, extend=extend) == 10
    _add(store, NEW)
    assert cache.get(store, "n", build, extend=extend) == 12
    assert cache.get(store, "n", build, extend=extend) == 12
    assert calls == ["build", "extend 10"]


def test_a_names_file_written_before_marks_still_answers_at_its_count(store, monkeypatch):
    from paperatlas.search import postings_file
    from paperatlas.store.generation import facts_changes

    N.name_ranking(store, "CIM")  # a file with a mark; rewritten below the older way
    header = postings_file._read_header(N.file_path(store.path), None)
    assert header is not None
    arrays = postings_file._map_arrays(N.file_path(store.path), *header)
    older = {name: array.copy() for name, array in arrays.items()}
    postings_file._write(N.file_path(store.path), str(facts_changes(store)).encode("ascii"), older)
    N._NAME_TABLES.clear()
    monkeypatch.setattr(type(store.facts), "paper_names", lambda self, after=0: pytest.fail("facts read"))
    assert isinstance(N._name_tables(store), N.NamesFile)
    assert N.name_ranking(store, "cim") == [("p1", 1.0)]
    monkeypatch.undo()
    _other_process(store, lambda other: _add(other, NEW))  # at another count: read whole, written anew
    assert N.name_ranking(store, "cim") == [("p1", 1.0), ("p5", 1.0)]
    assert N.NamesFile.open(store.path)[1] == table_mark(store, "facts")
