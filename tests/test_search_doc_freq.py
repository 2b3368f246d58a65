"""How many papers hold a query word, as search reads it: once per word and version of the
indexed text, shared by the typo check, the common-term cut and the BM25 ceiling, and read
again when the indexed text changes even if the number of papers does not."""

import json
from pathlib import Path

import pytest

from paperatlas import search as S
from paperatlas.search import keyword as K
from paperatlas.store import Store

FIXTURE = Path(__file__).parent / "fixtures" / "search" / "papers.jsonl"
PAPERS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


@pytest.fixture()
def store(tmp_path):
    s = Store(tmp_path / "atlas.db")
    with s.transaction():
        for p in PAPERS:
            s.papers.insert({k: p[k] for k in ("id", "title", "abstract", "keywords")})
    return s


def _asked(store, monkeypatch) -> list[str]:
    """The words each later search asks FTS5 to count, in order."""
    asked: list[str] = []
    real = type(store.fts).doc_freq

    def counting(self, words):
        words = list(words)
        asked.extend(words)
        return real(self, words)

    monkeypatch.setattr(type(store.fts), "doc_freq", counting)
    return asked


def test_one_search_counts_each_word_once(store, monkeypatch):
    K._INDEXES.clear()  # no postings in memory yet: every count is asked of FTS5
    asked = _asked(store, monkeypatch)
    result = S.search(store, "graph neural networks for molecules", method="keyword")
    assert result.hits
    assert asked, "the counts come from the index"
    assert sorted(asked) == sorted(set(asked))


def test_counts_follow_the_indexed_text_when_the_number_of_papers_stays(store):
    word = "zyxwvutsrq"
    assert K.informative_terms(store, [word, "graph"]) == [word, "graph"]
    # the same papers, a quarter and more of them now holding the word: a common term
    with store.transaction():
        for p in PAPERS[: len(PAPERS) // 2]:
            store.papers.update(p["id"], {"abstract": f"{p['abstract']} {word}"})
    assert store.fts.doc_freq([word])[word] == len(PAPERS) // 2
    assert K.informative_terms(store, [word, "graph"]) == ["graph"]
    assert K.known_doc_freq(store, [word]) == {word: len(PAPERS) // 2}
