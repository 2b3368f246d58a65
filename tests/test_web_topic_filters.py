"""A topic's page takes the paper filters of /papers (web/pages/topics.py through
`page_filters`): "unread in this topic", a tag, with the filter form and a 400 for a value
no paper can have; on the web fixture's mapped atlas."""

from __future__ import annotations

import re

from atlas_fixture import web_atlas_db, web_client  # noqa: F401  (module fixtures)
from paperatlas import Atlas


def _cards(html: str) -> list[str]:
    return re.findall(r'<article class="card[^"]*" data-paper="([^"]+)"', html)


def test_a_topic_page_shows_only_its_unread_papers_when_asked(client, db):
    everything = _cards(client.get("/topics/0").text)
    assert len(everything) > 2
    read, saved = everything[0], everything[1]
    with Atlas(db) as atlas:
        atlas.set_state([read], "read")
        atlas.set_state([saved], "saved")
        atlas.tag([saved], ["wombat"])
    html = client.get("/topics/0", params={"state": "unread"}).text
    unread = _cards(html)
    assert read not in unread and saved in unread and set(unread) == set(everything) - {read}
    assert f"{len(unread)} / {len(unread)}" in html  # shown / how many the filters let through
    assert re.search(r'<option value="unread" selected>', html)
    form = html.split('id="filter-form"')[1].split("</form>")[0]
    assert '<select name="state">' in form and '<select name="list">' not in form  # one list's map
    assert _cards(client.get("/topics/0", params={"tag": "#Wombat"}).text) == [saved]
    # the link to the topic's paper list carries the filters on
    assert re.search(r'href="/papers\?topic=0&amp;state=unread"', html)


def test_a_topic_page_refuses_a_state_no_paper_can_have(client):
    r = client.get("/topics/0", params={"state": "sideways"})
    assert r.status_code == 400 and "unknown state" in r.text


def test_unread_in_my_topics_lists_the_unread_papers_of_liked_papers_topics(client, db):
    assert _cards(client.get("/papers", params={"topic": "mine"}).text) == []  # nothing liked yet
    topic_one = _cards(client.get("/topics/1").text)
    liked, read = topic_one[0], topic_one[1]
    with Atlas(db) as atlas:
        atlas.like([liked])
        atlas.set_state([read], "read")
    html = client.get("/papers", params={"topic": "mine", "state": "unread"}).text
    mine = _cards(html)
    assert liked in mine and read not in mine
    assert set(mine) <= set(topic_one)  # only that topic's papers
    assert '<option value="mine" selected>' in html
    assert client.get("/papers", params={"topic": "yours"}).status_code == 400


def test_a_followed_topic_is_one_of_my_topics(client, db):
    before = set(_cards(client.get("/papers", params={"topic": "mine"}).text))
    topic_two = _cards(client.get("/topics/2").text)
    assert topic_two and not before & set(topic_two)
    with Atlas(db) as atlas:
        atlas.follow_topic(2)
    mine = set(_cards(client.get("/papers", params={"topic": "mine"}).text))
    assert set(topic_two) <= mine and before <= mine
