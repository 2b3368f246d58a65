"""Following from the web app (TestClient): the search page, a paper's authors and a topic
page carry follow buttons; their POST is taken only from the app's own origin; /follows
lists what is followed; the Atom feeds at /feed.atom and /feed/{id}.atom parse with
feedparser; /new shows a list's papers new since it was marked seen."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import feedparser
import pytest

from atlas_fixture import copy_atlas
from paperatlas import Atlas

PROGRAM = Path(__file__).parent / "fixtures" / "follow" / "program.json"
SAME = {"origin": "http://127.0.0.1"}


@pytest.fixture(scope="module")
def built(fixture_atlas_template, tmp_path_factory):
    db = copy_atlas(fixture_atlas_template, tmp_path_factory, "follow-web")
    atlas = Atlas(db)
    atlas.add([PROGRAM], list_name="prog", enrich=False)
    atlas.close()
    return db.parent


@pytest.fixture
def db(built, tmp_path):
    """A fresh copy of the built atlas for each test: each one follows and marks its own."""
    shutil.copytree(built, tmp_path / "atlas")
    return tmp_path / "atlas" / "atlas.db"


@pytest.fixture
def client(db):
    from fastapi.testclient import TestClient

    from paperatlas.web.app import create_app

    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        yield c


def _button(html: str, button_id: str | None = None, label: str | None = None) -> dict:
    """The body a follow button sends (its data-follow attribute, as the browser reads it)."""
    import html as html_lib

    for m in re.finditer(r"<button[^>]*class=\"button follow[^\"]*\"[^>]*>", html):
        tag = m.group(0)
        if (button_id and f'id="{button_id}"' in tag) or (label and f'aria-label="{label}"' in tag):
            return json.loads(html_lib.unescape(re.search(r"data-follow='([^']*)'", tag).group(1)))
    raise AssertionError(f"no follow button {button_id or label}")


def _follows_made_yesterday(db: Path) -> None:
    """The follows were made before the lists were added (a test runs within one second)."""
    with Atlas(db) as atlas:
        atlas.store.conn.execute("UPDATE follows SET created_at = datetime('now', '-1 day')")


def test_follow_search_from_its_page_with_filters(client, db):
    page = client.get("/search", params={"q": "unlearning", "list": "fixture"}).text
    body = _button(page, "follow-search")
    assert body == {"kind": "search", "q": "unlearning", "filters": {"list": "fixture"}}
    res = client.post("/api/follows", json=body, headers=SAME)
    assert res.status_code == 200 and res.json()["title"] == "search: unlearning (list_name=fixture)"
    # the page's script marks the button followed from this list
    assert client.get("/api/follows").json()["follows"] == [
        {"id": 1, "title": "search: unlearning (list_name=fixture)", "body": body}
    ]
    follows = client.get("/follows").text
    assert "search: unlearning (list_name=fixture)" in follows and 'href="/feed/1.atom"' in follows
    _follows_made_yesterday(db)
    feed = feedparser.parse(client.get("/feed/1.atom").text)
    assert not feed.bozo and feed.entries
    assert all("nlearning" in (e.title + e.summary) for e in feed.entries)
    assert all(e.link.startswith("http://127.0.0.1/papers/") for e in feed.entries)
    assert client.get("/feed/1.atom").headers["content-type"].startswith("application/atom+xml")


def test_follow_button_carries_a_hostile_query_as_text(client):
    query = "x'><script>alert(1)</script> " + "long " * 100
    page = client.get("/search", params={"q": query}).text
    assert "<script>alert(1)" not in page
    body = _button(page, "follow-search")
    assert body["q"] == query.strip()
    res = client.post("/api/follows", json=body, headers=SAME)
    assert res.status_code == 200 and "<script>alert(1)" not in client.get("/follows").text


def test_follow_author_from_a_paper_page_matches_accents(client, db):
    page = client.get("/papers/PROG2").text
    body = _button(page, label="Follow author: Mina Park")
    assert body == {"kind": "author", "name": "Mina Park"}
    assert client.post(
        "/api/follows", json={"kind": "author", "name": "jose garcia-lopez"}, headers=SAME
    ).is_success
    assert client.post("/api/follows", json=body, headers=SAME).json()["new"] is True
    assert client.post("/api/follows", json=body, headers=SAME).json()["new"] is False
    _follows_made_yesterday(db)
    feed = feedparser.parse(client.get("/feed.atom").text)
    titles = {e.title: {t.label for t in e.tags} for e in feed.entries}
    assert titles == {
        "Gradient Fill Insertion for Lithography": {"author: jose garcia-lopez", "author: Mina Park"},
        "Placement of Analog Circuits with Graph Networks": {"author: Mina Park"},
    }


def test_follow_topic_from_its_page(client, db):
    page = client.get("/topics/0").text
    body = _button(page, "follow-topic")
    assert body == {"kind": "topic", "topic": 0, "level": 0, "list": None}
    follow = client.post("/api/follows", json=body, headers=SAME).json()
    assert client.get("/api/follows").json()["follows"][0]["body"] == body
    _follows_made_yesterday(db)
    feed = feedparser.parse(client.get(f"/feed/{follow['id']}.atom").text)
    with Atlas(db) as atlas:
        size = next(
            t["size"] for t in atlas.store.maps.get("*")["topics"] if t["level"] == 0 and t["topic_id"] == 0
        )
    assert len(feed.entries) == size
    raw = client.get("/feed.atom").text
    assert "<script>" not in raw and "<img" not in raw  # hostile titles are text in the feed


def test_follow_writes_only_from_the_apps_own_pages(client):
    body = {"kind": "author", "name": "Mina Park"}
    assert (
        client.post("/api/follows", json=body, headers={"origin": "http://evil.example"}).status_code == 403
    )
    res = client.post(
        "/api/follows",
        content="kind=author&name=x",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert res.status_code == 403
    for bad in (
        {"kind": "author"},
        {"kind": "author", "name": ""},
        {"kind": "search", "q": "x", "filters": {"kind": "poem"}},
        {"kind": "topic", "topic": "0"},
        {"kind": "topic", "topic": 9999},
        [1],
    ):
        assert client.post("/api/follows", json=bad, headers=SAME).status_code == 400, bad
    assert client.get("/follows").text.count('class="follow-row"') == 0
    assert client.post("/api/follows/remove", json={"id": 5}, headers=SAME).status_code == 404
    assert client.get("/feed/5.atom").status_code == 404


def test_new_since_last_visit_page_and_mark_seen(client):
    page = client.get("/new", params={"list": "prog"}).text
    assert "3 new papers" in page and "Gradient Fill Insertion" in page and 'id="mark-seen"' in page
    assert client.post("/api/seen", json={"list": "prog"}, headers=SAME).status_code == 200
    page = client.get("/new", params={"list": "prog"}).text
    assert "0 new papers" in page and "Gradient Fill Insertion" not in page
    assert client.post("/api/seen", json={"list": "nope"}, headers=SAME).status_code == 404
    assert (
        client.post("/api/seen", json={"list": "prog"}, headers={"origin": "http://evil.example"}).status_code
        == 403
    )
    follows = client.get("/follows").text
    assert 'href="/new?list=fixture"' in follows and "/new?list=prog" not in follows


def test_every_new_paper_is_reachable_page_by_page(client, monkeypatch):
    from paperatlas.web.pages import follows

    monkeypatch.setattr(follows, "NEW_SHOWN", 2)  # the program's 3 new papers take two pages
    first = client.get("/new", params={"list": "prog"}).text
    assert "3 new papers" in first
    shown = re.findall(r'<article class="card[^"]*" data-paper="([^"]+)"', first)
    next_link = re.search(r'id="next-page" href="([^"]+)"', first)
    assert len(shown) == 2 and next_link and 'id="previous-page"' not in first
    second = client.get(next_link.group(1).replace("&amp;", "&")).text
    shown += re.findall(r'<article class="card[^"]*" data-paper="([^"]+)"', second)
    assert sorted(shown) == ["PROG1", "PROG2", "PROG3"]
    assert 'id="next-page"' not in second and 'id="previous-page"' in second
