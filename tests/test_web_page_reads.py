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
