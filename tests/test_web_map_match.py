"""A sampled map's filter asks the server (/api/map/match): the papers of the whole map
whose titles hold every word typed (word prefixes, through the titles' full-text index),
a bounded sample of them as point rows, the count, and hostile text kept as text."""

from __future__ import annotations

import re

import pytest

from atlas_fixture import web_atlas_db, web_client  # noqa: F401 - the db and client fixtures
from paperatlas import Atlas
from paperatlas.api import web_reads
from paperatlas.atlas.view import title_match_expression
from paperatlas.web import api_routes, map_points


@pytest.fixture
def big(monkeypatch):
    """The fixture's 73 papers served as a big map: whole below 20, overview of 10."""
    monkeypatch.setattr(api_routes, "FULL_MAP", 20)
    monkeypatch.setattr(map_points, "OVERVIEW", 10)


def _words_in(title: str) -> set[str]:
    return set(re.findall(r"\w+", title.lower()))


def _whole(db) -> dict[str, list]:
    atlas = Atlas(db)
    return {p[5]: p for p in web_reads.map_reader(atlas, "*").full_view()["points"]}


def test_every_paper_of_the_map_whose_title_has_the_words(client, db, big):
    whole = _whole(db)
    # a word of several titles, and two words of one title
    counts: dict[str, int] = {}
    for p in whole.values():
        for w in _words_in(p[6]):
            counts[w] = counts.get(w, 0) + 1
    word = max((w for w in counts if len(w) > 4), key=lambda w: counts[w])
    res = client.get("/api/map/match", params={"q": word.upper()}).json()
    expected = {pid for pid, p in whole.items() if any(t.startswith(word) for t in _words_in(p[6]))}
    assert res["complete"] and res["found"] == len(expected) >= 2
    assert {p[5] for p in res["points"]} == expected
    for p in res["points"]:
        assert p == whole[p[5]]  # the same rows as the map's
    # every word must be there (AND), a word's start is enough
    title = next(p[6] for p in whole.values() if len(_words_in(p[6])) >= 3 and "<" not in p[6])
    a, b = sorted((w for w in _words_in(title) if len(w) > 3), key=len)[-2:]
    res = client.get("/api/map/match", params={"q": f"{a[:-1]} {b}"}).json()
    assert title in {p[6] for p in res["points"]}
    for p in res["points"]:
        words = _words_in(p[6])
        assert any(w.startswith(a[:-1]) for w in words) and any(w.startswith(b[:4]) for w in words)


def test_a_bounded_sample_in_priority_order(client, db, big, monkeypatch):
    monkeypatch.setattr(map_points, "MATCH_MAX", 2)
    monkeypatch.setattr(map_points, "MATCH_SCAN", 3)
    whole = _whole(db)
    counts: dict[str, int] = {}
    for p in whole.values():
        for w in _words_in(p[6]):
            counts[w] = counts.get(w, 0) + 1
    word = max(counts, key=lambda w: counts[w] if len(w) > 3 else 0)
    assert counts[word] > 3
    res = client.get("/api/map/match", params={"q": word, "t": "bounded"}).json()
    assert len(res["points"]) == 2 and res["found"] == 3 and not res["complete"]


@pytest.mark.parametrize(
    "q",
    ['"', "*", 'title : "x" OR', "NEAR(a b)", "a AND", "-", "(", "'; DROP TABLE papers; --", "\u00e9t\u00e9"],
)
def test_any_text_is_words_never_syntax(client, big, q):
    r = client.get("/api/map/match", params={"q": q})
    assert r.status_code == 200 and isinstance(r.json()["points"], list)
    expr = title_match_expression(q)
    assert expr == "" or all(re.fullmatch(r'title : "\w+"\*', part) for part in expr.split(" AND "))


def test_hostile_titles_come_as_json_strings(client, big):
    res = client.get("/api/map/match", params={"q": "robust forecasting"}).json()
    titles = {p[5]: p[6] for p in res["points"]}
    assert titles.get("xss-script") == "<script>alert('xss-title')</script> Robust Forecasting"


def test_the_map_page_names_the_endpoint_and_its_words(client):
    html = client.get("/map").text
    assert 'data-match-src="/api/map/match"' in html and "data-lod-match-note=" in html
    assert 'data-match-src="/api/map/match?lang=zh"' in client.get("/map?lang=zh").text
    assert client.get("/api/map/match", params={"q": "x", "list": "nope"}).status_code == 404
    assert client.get("/api/map/match").status_code in (400, 422)
