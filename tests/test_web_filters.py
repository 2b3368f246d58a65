"""The filters in the web's search and paper-list pages: a form that shows the filters set,
pager links that keep every one of them, the "title only" badge only on papers that give
their title alone, and the line saying which signals answered a search."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from atlas_fixture import copy_atlas, web_client  # noqa: F401 - web_client: the `client` fixture, on this module's `db`
from filters_fixture import BATCH


@pytest.fixture(scope="module")
def db(filters_atlas_template, tmp_path_factory):
    return copy_atlas(filters_atlas_template, tmp_path_factory, "web-filters")


# every filter the pages take, set at once (the fixture atlas has papers passing them all)
EVERY = {
    "list": "fixture",
    "area": None,  # filled in from the atlas (see _every)
    "kind": "method",
    "decision": "Accept",
    "has_code": "0",
    "tag": BATCH,
    "state": "unread",
}


def _every(client) -> dict[str, str]:
    every = dict(EVERY)
    form = client.get("/papers", params={"list": "fixture"}).text
    select = re.search(r'<select name="area">(.*?)</select>', form, re.S)
    assert select
    every["area"] = unescape(re.findall(r'<option value="([^"]+)"', select.group(1))[0])
    return every


def _link(html: str, element_id: str) -> dict[str, list[str]]:
    found = re.search(rf'<a class="button" id="{element_id}" href="([^"]+)"', html)
    assert found, element_id
    return parse_qs(urlsplit(unescape(found.group(1))).query)


def test_the_next_link_of_a_search_keeps_every_filter(client):
    wide = {"q": "learning", "list": "fixture", "state": "unread", "decision": "Accept"}
    html = client.get("/search", params=wide).text
    assert 'id="next-page"' in html, "these filters leave more than one page of hits"
    assert _link(html, "next-page") == {**{k: [v] for k, v in wide.items()}, "page": ["2"]}
    every = {"q": "learning", **_every(client)}
    back = _link(client.get("/search", params={**every, "page": 2}).text, "previous-page")
    assert back == {**{k: [v] for k, v in every.items()}, "page": ["1"]}


def test_the_pager_of_the_paper_list_keeps_every_filter(client):
    every = _every(client)
    html = client.get("/papers", params={**every, "sort": "title", "page": 2}).text
    back = _link(html, "previous-page")
    assert back == {**{k: [v] for k, v in every.items()}, "sort": ["title"], "page": ["1"]}
    many = client.get("/papers", params={"tag": BATCH, "state": "unread"}).text
    assert 'id="next-page"' not in many  # 36 papers tagged: one page (50 a page)


@pytest.mark.parametrize("path", ["/search", "/papers"])
def test_the_form_shows_the_filters_set(client, path):
    every = _every(client)
    html = client.get(path, params={"q": "graph", **every}).text
    form = re.search(r'<form class="filters" id="filter-form".*?</form>', html, re.S)
    assert form, path
    for name, value in every.items():
        if name == "tag":
            assert f'name="tag" value="{value}"' in form.group(0)
            continue
        select = re.search(rf'<select name="{name}">(.*?)</select>', form.group(0), re.S)
        assert select, name
        chosen = re.findall(r'<option value="([^"]*)" ?selected', select.group(1))
        assert [unescape(c) for c in chosen] == [value], (name, chosen)


def _cards(html: str) -> dict[str, str]:
    return {
        m.group(1): m.group(0)
        for m in re.finditer(r'<article class="card[^"]*" data-paper="([^"]+)">.*?</article>', html, re.S)
    }


def test_the_title_only_badge_marks_only_papers_without_an_abstract(client):
    cards = _cards(client.get("/search", params={"q": "oversmoothing graph"}).text)
    assert {"extra-title-only", "extra-code", "extra-plain"} <= set(cards)
    badged = {pid for pid, card in cards.items() if "badge title-only" in card}
    assert badged == {"extra-title-only"}
    listed = _cards(client.get("/papers", params={"list": "extra"}).text)
    assert {pid for pid, card in listed.items() if "badge title-only" in card} == {"extra-title-only"}


def test_the_search_page_says_which_signals_answered(client):
    html = client.get("/search", params={"q": "oversmoothing graph"}).text
    answered = re.search(r'<span id="answered-by">(.*?)</span>', html)
    assert answered and "keywords" in answered.group(1) and "lsa" in answered.group(1)
    api = client.get("/api/search", params={"q": "oversmoothing graph"}).json()
    assert "keywords" in api["signals"] and "lsa" in api["signals"]
    html = client.get("/search", params={"q": "oversmoothing graph", "method": "x", "lang": "zh"}).text
    assert "检索信号" in html and "关键词" in html


def test_a_hostile_filter_value_is_shown_as_text(client):
    hostile = '"><script>alert(1)</script>'
    for path in ("/search", "/papers"):
        answer = client.get(path, params={"q": "graph", "tag": hostile})
        assert answer.status_code == 200, path
        assert "<script>alert(1)" not in answer.text and "&lt;script&gt;alert(1)" in answer.text, path
