"""The web's downloads hold what the page shows: `/papers`' map topic (`topic=12`, `f40`,
`mine`) with its paper filters (`&state=unread`: "unread in my topics"), its download links
carry the topic, and a digest names it. On the web fixture's mapped atlas (a map of all
papers)."""

from __future__ import annotations

import io
import json
import re
from html import unescape

from atlas_fixture import web_atlas_db, web_client  # noqa: F401  (module fixtures)
from paperatlas import Atlas, Filters
from paperatlas.api import web_reads

ORIGIN = {"origin": "http://127.0.0.1"}


def _topic_ids(db, level: int, topic_id: int) -> set[str]:
    with Atlas(db) as atlas:
        return set(atlas.store.follows.topic_paper_ids("*", level, topic_id))


def _shown_ids(client, params: dict) -> set[str]:
    """Every paper id the /papers pages show for these parameters, following Next."""
    shown: set[str] = set()
    url, query = "/papers", dict(params)
    while url:
        page = client.get(url, params=query).text
        shown |= {unescape(i) for i in re.findall(r'<article class="card[^"]*" data-paper="([^"]+)"', page)}
        nxt = re.search(r'id="next-page" href="([^"]+)"', page)
        url, query = (unescape(nxt.group(1)), None) if nxt else (None, None)
    return shown


def _exported_ids(client, params: dict) -> list[str]:
    answer = client.get("/download/export", params={"format": "jsonl", **params})
    assert answer.status_code == 200, answer.text
    return [json.loads(line)["id"] for line in answer.text.splitlines() if line.strip()]


def test_the_export_of_unread_papers_in_my_topics_is_what_the_page_shows(client, db):
    topic_one, topic_two = _topic_ids(db, 0, 1), _topic_ids(db, 0, 2)
    liked, read = sorted(topic_one)[:2]
    assert client.post("/api/marks", json={"id": liked, "liked": True}, headers=ORIGIN).status_code == 200
    with Atlas(db) as atlas:
        atlas.set_state([read], "read")
        atlas.follow_topic(2)
    params = {"topic": "mine", "state": "unread"}
    expected = (topic_one | topic_two) - {read}
    assert _shown_ids(client, params) == expected
    exported = _exported_ids(client, params)
    assert sorted(exported) == sorted(expected)  # each once
    answer = client.get("/download/export", params={"format": "bibtex", **params})
    assert answer.headers["content-disposition"] == 'attachment; filename="paperatlas-mine-unread.bib"'


def test_a_topic_and_a_fine_topics_downloads_hold_their_papers_within_the_filters(client, db):
    with Atlas(db) as atlas:
        fine = next(t for t in web_reads.map_reader(atlas, "*").header["topics"] if t["level"] == 1)
        methods = {r["id"] for r in atlas.papers() if r.get("kind") == "method"}
    broad = _topic_ids(db, 0, 0)
    assert set(_exported_ids(client, {"topic": "0"})) == broad
    assert set(_exported_ids(client, {"topic": "0", "kind": "method"})) == broad & methods
    fine_ids = _topic_ids(db, 1, fine["topic_id"])
    assert set(_exported_ids(client, {"topic": f"f{fine['topic_id']}"})) == fine_ids
    assert client.get("/download/export", params={"topic": "nine"}).status_code == 400
    assert client.get("/download/digest", params={"topic": "f"}).status_code == 400


def test_the_digest_of_a_topic_holds_its_papers_and_names_the_topic(client, db):
    with Atlas(db) as atlas:
        topic = next(
            t
            for t in web_reads.map_reader(atlas, "*").header["topics"]
            if t["level"] == 0 and t["topic_id"] == 0
        )
        titles = {r["id"]: r["title"] for r in atlas.papers() if len(r.get("title") or "") > 30}
    inside = _topic_ids(db, 0, 0)
    answer = client.get("/download/digest", params={"format": "md", "topic": "0"})
    assert answer.status_code == 200, answer.text
    text = answer.text
    assert f"*Papers chosen by: topic {topic['label']}*" in text.replace(
        "\\", ""
    )  # Markdown's escapes dropped
    assert re.search(rf"· selection · {len(inside)} papers ·", text)
    outside = [t for pid, t in titles.items() if pid not in inside]
    assert outside and not any(t in text for t in outside)
    assert any(t in text for pid, t in titles.items() if pid in inside)


def test_the_papers_page_links_downloads_that_carry_its_topic(client):
    page = client.get("/papers", params={"topic": "mine", "state": "unread", "sort": "title"}).text
    links = [unescape(u) for u in re.findall(r'href="(/download/[^"]+)"', page)]
    assert links and all("topic=mine" in u and "state=unread" in u for u in links)
    for link in links:
        assert client.get(link).status_code == 200


def test_an_export_of_chosen_ids_keeps_only_those_the_filters_let_through(db):
    with Atlas(db) as atlas:
        rows = atlas.papers()
        methods = [r["id"] for r in rows if r.get("kind") == "method"][:6]
        others = [r["id"] for r in rows if r.get("kind") != "method"][:6]
        chosen = [pid for pair in zip(others, methods, strict=True) for pid in pair]
        out = io.StringIO()
        written = atlas.export("jsonl", out, filters=Filters(kind="method"), ids=chosen)
    assert 0 < len(methods) < len(chosen)
    assert written == len(methods)
    assert [json.loads(line)["id"] for line in out.getvalue().splitlines()] == methods


def test_a_list_without_a_map_of_its_own_takes_its_topics_from_the_map_of_all_papers(client, db):
    # the fixture's map is of all papers; its list `fixture` holds them all but has no map
    with Atlas(db) as atlas:
        assert web_reads.map_reader(atlas, "fixture") is None
    topic_zero = _topic_ids(db, 0, 0)
    shown = _shown_ids(client, {"list": "fixture", "topic": "0"})
    assert shown == topic_zero
    assert set(_exported_ids(client, {"list": "fixture", "topic": "0"})) == topic_zero
    page = client.get("/papers", params={"list": "fixture"}).text
    assert re.search(r'<select name="topic">.*<option value="0"', page, re.S)  # its topics to choose
    with Atlas(db) as atlas:
        atlas.follow_topic(0)
    mine = _shown_ids(client, {"list": "fixture", "topic": "mine"})
    assert topic_zero <= mine
    assert set(_exported_ids(client, {"list": "fixture", "topic": "mine"})) == mine


def test_a_list_without_a_map_of_its_own_is_drawn_on_the_map_of_all_papers(client, db):
    # `fixture` holds every paper and has no map of its own: its map page and topic pages
    # draw the map of all papers, counted for the list's papers, instead of "No map yet"
    page = client.get("/map", params={"list": "fixture"}).text
    assert 'id="atlas"' in page and 'id="map-of-all"' in page
    data = unescape(re.search(r'data-src="([^"]+)"', page).group(1))
    assert "fixture" not in data and client.get(data).status_code == 200  # the map drawn is there
    counts = json.loads(unescape(re.search(r"data-topic-counts='([^']+)'", page).group(1)))
    assert counts["0"] == len(_topic_ids(db, 0, 0))
    topic = client.get("/topics/0", params={"list": "fixture"})
    assert topic.status_code == 200
    follow = re.search(r'<[^>]*id="follow-topic"[^>]*>', topic.text).group(0)
    assert "fixture" not in unescape(follow)  # following it names the map it is of


def test_the_overview_of_a_list_without_a_map_of_its_own_lists_its_topics(client, db):
    page = client.get("/", params={"list": "fixture"}).text
    assert 'id="topics-of-all"' in page and "No map yet" not in page
    size = len(_topic_ids(db, 0, 0))
    link = re.search(r'href="(/topics/0\?[^"]*)"', page)
    assert link and "list=fixture" in unescape(link.group(1))
    assert client.get(unescape(link.group(1))).status_code == 200
    count = re.search(r'data-topic="0"></span>[^<]*</a>\s*<span class="count">([\d,]+)</span>', page)
    assert count and int(count.group(1).replace(",", "")) == size
