"""Each paper's normalised title by a hash (migration 17, `paper_titles`): a query that is a
paper's exact title finds it by an index probe that follows every write, so a commit (an
`add` writing while the web app serves) costs a search no read of every title."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas import Atlas
from paperatlas.store import MIGRATIONS, Store, sortkeys
from paperatlas.store.papers import PaperRows

IDENTIFIED = Path(__file__).parent / "fixtures" / "search" / "identified.bib"


def _row(pid: str, title: str | None) -> dict:
    return {
        "id": pid,
        "title": title,
        "abstract": f"Paper {pid} on finding titles.",
        "authors": [],
        "keywords": [],
        "urls": [],
        "extra": {},
        "identifiers": {},
        "code_urls": [],
    }


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "t.db")
    with store.transaction():
        store.papers.insert_many(
            [
                _row("a", "Sheaf Neural Networks on Heterophilic Graphs"),
                _row("b", "École normale: a study"),
                _row("c", "sheaf neural-networks, on heterophilic graphs!"),
                _row("d", None),
            ]
        )
    yield store
    store.close()


def test_a_title_finds_its_papers_whatever_the_case_punctuation_and_spacing(store):
    assert store.papers.titled("SHEAF  neural networks on heterophilic graphs") == ["a", "c"]
    assert store.papers.titled("ecole normale a study") == []  # accents are kept, as before
    assert store.papers.titled("école Normale — a study") == ["b"]
    assert store.papers.titled("sheaf neural networks") == []  # words of a title name no paper
    assert store.papers.titled(" ?! ") == []


def test_the_index_follows_edits_removals_and_rekeys(store):
    with store.transaction():
        store.papers.update("a", {"title": "Graph Sheaves Revisited"})
        store.papers.rekey("b", "b2")
    assert store.papers.titled("graph sheaves revisited") == ["a"]
    assert store.papers.titled("Sheaf Neural Networks on Heterophilic Graphs") == ["c"]
    assert store.papers.titled("École normale: a study") == ["b2"]
    with store.transaction() as tx:
        tx.execute("DELETE FROM papers WHERE id = 'c'")
    assert store.papers.titled("Sheaf Neural Networks on Heterophilic Graphs") == []
    rows = store.conn.execute("SELECT count(*) FROM paper_titles").fetchone()[0]
    assert rows == store.papers.count()


def test_a_paper_whose_keys_are_not_filled_yet_is_still_found(store):
    # a write that bypassed the fill (fill_keys=False): its rows are checked directly
    with store.transaction(fill_keys=False):
        store.papers.insert_many([_row("e", "Unfilled Title Of A Late Paper")])
        store.papers.update("a", {"title": "Renamed While Unfilled"})
    assert sortkeys.count_stale(store.conn) == 2
    assert store.papers.titled("unfilled title of a late paper") == ["e"]
    assert store.papers.titled("renamed while unfilled") == ["a"]
    assert store.papers.titled("Sheaf Neural Networks on Heterophilic Graphs") == ["c"]


def test_an_atlas_of_schema_16_gains_the_index_filled_on_open(tmp_path):
    path = tmp_path / "old.db"
    store = Store(path)
    with store.transaction():
        store.papers.insert_many([_row(f"p{i}", f"Old Title Number {i}") for i in range(7)])
    with store.transaction(fill_keys=False) as tx:
        tx.execute("DROP TABLE paper_titles")  # its index and trigger go with it
        tx.execute("PRAGMA user_version = 16")
    store.close()
    reader = Store(path, read_only=True)
    assert not reader.papers.has_title_index()
    reader.close()
    store = Store(path)
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert store.papers.has_title_index() and sortkeys.count_stale(store.conn) == 0
    assert store.papers.titled("old title number 4") == ["p4"]
    assert store.conn.execute("SELECT count(*) FROM paper_titles").fetchone()[0] == 7
    store.close()


def test_a_title_query_after_a_commit_reads_no_titles(tmp_path, monkeypatch):
    atlas = Atlas(tmp_path / "atlas.db")
    atlas.add([IDENTIFIED], enrich=False)
    assert atlas.search("REWARD MODELS THAT KNOW WHEN THEY ARE WRONG", k=3).identified == ["okafor2025reward"]

    def no_scan(self):
        raise AssertionError("every title read again")

    monkeypatch.setattr(PaperRows, "titles", no_scan)
    with atlas.store.transaction() as tx:  # a commit that changes no title
        tx.execute("UPDATE papers SET title = title WHERE rowid = 1")
    # as typed (exact): the spelling check reads title words for a rare query word, apart
    result = atlas.search("REWARD MODELS THAT KNOW WHEN THEY ARE WRONG", k=3, exact=True)
    assert result.identified == ["okafor2025reward"] and result.hits[0].id == "okafor2025reward"
    with atlas.store.transaction():  # a title that changes is found by its new text
        atlas.store.papers.update("okafor2025reward", {"title": "Reward models that doubt"})
    assert atlas.search("reward models that doubt", k=3, exact=True).identified == ["okafor2025reward"]
    assert atlas.search("REWARD MODELS THAT KNOW WHEN THEY ARE WRONG", k=3, exact=True).identified_by is None
    atlas.close()


def test_a_read_only_atlas_older_than_the_index_still_finds_titles(tmp_path):
    path = tmp_path / "old.db"
    with Atlas(path) as atlas:
        atlas.add([IDENTIFIED], enrich=False)
    store = Store(path)
    with store.transaction(fill_keys=False) as tx:
        tx.execute("DROP TABLE paper_titles")
        tx.execute("PRAGMA user_version = 16")
    store.close()
    with Atlas(path, read_only=True) as atlas:
        result = atlas.search("sheaf neural-networks on heterophilic graphs!", k=3)
    assert (result.identified_by, result.identified) == ("title", ["rossi2023sheaf"])
