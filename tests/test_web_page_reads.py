"""What a page reads from the store on each view: a paper page's similar cards get their
topics in one query, and its BibTeX entry is written once per paper until a commit."""

from __future__ import annotations

import html
import re

import pytest

from atlas_fixture import web_atlas_db, web_client  # noqa: F401 - the db and client fixtures
from paperatlas import Atlas
from paperatlas.store.maps import MapRows


@pytest.fixture
def counted(monkeypatch):
    calls: dict[str, int] = {"places": 0, "bibtex": 0}

    def counting(cls, name):
        original = getattr(cls, name)

        def wrapper(*args, **kwargs):
            calls[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(cls, name, wrapper)

    counting(MapRows, "places")
    counting(Atlas, "bibtex")
    return calls


def _topic_links(page: str) -> list[str]:
    similar = re.findall(r'id="similar"(.*)', page, re.S)[0]
    return re.findall(r'href="/topics/[^"]+"', similar)


def test_a_paper_pages_cards_read_their_topics_in_one_query(client, counted):
    page = client.get("/papers/protein-03", params={"view": "cards"}).text
    similar = re.findall(r'id="similar"(.*)', page, re.S)[0]
    assert similar.count('class="card"') == 10
    assert _topic_links(page), "the similar papers' cards name their topics"
    assert counted["places"] == 2  # the paper's own topic, then all its cards' at once


def test_the_bibtex_entry_is_written_once_until_a_commit(client, counted):
    first = client.get("/papers/robots-02", params={"view": "a"}).text
    again = client.get("/papers/robots-02", params={"view": "b"}).text  # another URL: no page cache
    assert counted["bibtex"] == 1
    entry = re.search(r'id="bibtex"[^>]*>(.*?)</pre>', again, re.S)
    assert entry and entry.group(1) == re.search(r'id="bibtex"[^>]*>(.*?)</pre>', first, re.S).group(1)
    assert (
        client.post("/api/note", json={"id": "robots-02", "note": "cite the {second} one"}).status_code == 200
    )
    after = client.get("/papers/robots-02", params={"view": "c"}).text
    assert counted["bibtex"] == 2
    shown = html.unescape(re.search(r'id="bibtex"[^>]*>(.*?)</pre>', after, re.S).group(1))
    assert "cite the" in shown and "@" in shown


def test_model_answers_are_looked_for_only_once_any_is_stored(client, db, monkeypatch):
    """A paper page asks for a paper's model answers (one query per task) and its cards for
    their summaries only while the atlas holds an accepted answer; whether it does is read
    once per commit, so an answer stored by another process shows on the next view."""
    from paperatlas.api import web_reads

    asked: list[str] = []
    for name in ("llm_answers", "llm_summaries"):
        real = getattr(web_reads, name)
        monkeypatch.setattr(web_reads, name, lambda *a, _n=name, _r=real: asked.append(_n) or _r(*a))
    client.get("/papers/robots-02", params={"view": "d"})
    client.get("/papers/protein-03", params={"view": "d"})
    assert asked == []
    with Atlas(db) as atlas:  # another connection, as `paperatlas llm` beside the server
        atlas.store.llm.put_result("robots-02", "title-en", "qwen", "v1", "A robot title", True, None, 9, 0.1)
    client.get("/papers/robots-02", params={"view": "e"})
    assert asked == ["llm_answers", "llm_summaries"]


def test_the_models_similar_misses_are_read_once_per_commit(client, db, monkeypatch):
    from paperatlas.api import web_reads

    asked: list[int] = []
    real = web_reads.similar_models_missing
    monkeypatch.setattr(web_reads, "similar_models_missing", lambda atlas: asked.append(1) or real(atlas))
    for note in ("a commit", "another commit"):
        with Atlas(db) as atlas:  # another connection's commit
            atlas.set_note("robots-02", note)
        pages = [
            client.get(f"/papers/{pid}", params={"view": note}).text for pid in ("robots-02", "protein-03")
        ]
        assert all('id="similar-embed-note"' in page for page in pages)
    assert len(asked) == 2  # once after each commit, not once a page
