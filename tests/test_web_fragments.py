"""Pieces of pages kept between pages (web/fragments.py): the filter form and the download
links are written once per language and arguments, never shown stale or in another
language, and the kept pieces are bounded."""

from __future__ import annotations

import json
import re

from jinja2 import Environment

from atlas_fixture import web_atlas_db, web_client  # noqa: F401 - fixtures on this module's atlas
from paperatlas import Atlas
from paperatlas.web.fragments import Fragments, frozen


def _form(html: str) -> str:
    found = re.search(r'<form class="filters".*?</form>', html, re.S)
    assert found
    return found.group(0)


def _selects(form: str) -> list[str]:
    return re.findall(r"<select.*?</select>", form, re.S)


def _kept(client, macro: str, lang: str = "en") -> list:
    kept = client.app.state.web.render.fragments._kept
    return [key for key in kept if key[:2] == (lang, macro)]


def test_searches_with_the_same_filters_share_one_written_filter_form(client):
    first = client.get("/search", params={"q": "unlearning", "kind": "method"}).text
    second = client.get("/search", params={"q": "graph networks", "kind": "method"}).text
    assert _selects(_form(first)) == _selects(_form(second))
    assert len(_kept(client, "filter_fields")) == 1
    client.get("/search", params={"q": "unlearning", "kind": "dataset"})
    assert len(_kept(client, "filter_fields")) == 2, "other filters: another form"
    assert 'value="dataset" selected' in _form(client.get("/search?q=x&kind=dataset").text)


def test_the_filter_form_of_a_chinese_page_is_chinese(client):
    english = _form(client.get("/search", params={"q": "unlearning"}).text)
    chinese = _form(client.get("/search", params={"q": "unlearning", "lang": "zh"}).text)
    assert english != chinese
    assert 'name="lang" value="zh"' in chinese and 'name="lang"' not in english
    assert _kept(client, "filter_fields", "zh")


def test_a_kept_filter_form_offers_a_list_added_after_it_was_written(client, db, tmp_path):
    assert 'value="added"' not in _form(client.get("/search", params={"q": "unlearning"}).text)
    added = tmp_path / "added.jsonl"
    record = {"id": "sheep-1", "title": "Herding quantum sheep", "abstract": "Sheep, herded by qubits."}
    added.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with Atlas(db) as atlas:  # another connection's commit, as an `add` beside the server
        atlas.add([added], list_name="added", enrich=False)
    assert '<option value="added">' in _form(client.get("/search", params={"q": "unlearning"}).text)


def test_download_links_of_a_search_name_its_own_query(client):
    for q in ("unlearning", "graph"):
        html = client.get("/search", params={"q": q}).text
        links = re.findall(r'href="(/download/export\?[^"]+)"', html)
        assert links and all(f"q={q}" in link for link in links)


def test_pieces_are_kept_per_language_and_arguments_and_bounded():
    env = Environment(autoescape=True)
    macro = env.from_string("{% macro m(x, n=1) %}<b>{{ x }}</b>{{ n }}{% endmacro %}").module.m  # type: ignore[attr-defined]
    pieces = Fragments(size=2)
    assert str(pieces.piece("en", macro, "<i>")) == "<b>&lt;i&gt;</b>1"
    assert pieces.piece("en", macro, "<i>") is pieces.piece("en", macro, "<i>")
    assert len(pieces) == 1
    pieces.piece("en", macro, "<i>", n=2)
    pieces.piece("zh", macro, "<i>")
    assert len(pieces) == 2, "the least recently used piece went"


def test_frozen_arguments_are_equal_keys_whatever_their_order():
    assert frozen({"a": ["x", "y"], "b": None}) == frozen({"b": None, "a": ["x", "y"]})
    assert frozen({"a": ["x", "y"]}) != frozen({"a": ["y", "x"]}), "a select's options keep their order"
    assert hash(frozen({"choices": {"areas": ["A"], "lists": []}}))


def test_the_filter_choices_are_one_kept_value_until_the_atlas_changes(client, db, tmp_path):
    """The form's key holds the choices as they are (no copy into tuples on each page):
    the same value while nothing changed, a new one naming a list added since."""
    web = client.app.state.web
    first = web.filter_choices(None)
    assert web.filter_choices(None) is first and hash(first) == hash(web.filter_choices(None))
    assert frozen((first,)) == (first,)
    extra = tmp_path / "extra.jsonl"
    extra.write_text(json.dumps({"title": "A paper on wombats", "abstract": "Wombats dig."}) + "\n")
    with Atlas(db) as atlas:
        atlas.add([extra], list_name="wombats", enrich=False)
    again = web.filter_choices(None)
    assert again is not first and "wombats" in again.lists and "wombats" not in first.lists


def test_the_keys_help_is_written_once_per_language_and_each_page_shows_its_own(client):
    render = client.app.state.web.render
    english = client.get("/papers", headers={"Accept-Language": "en"}).text
    chinese = client.get("/search", params={"q": "unlearning", "lang": "zh"}).text
    assert set(render._tools) == {"en", "zh"}
    assert str(render._tools["en"].keys_help) in english and str(render._tools["zh"].keys_help) in chinese
    assert 'id="keys-help"' in english and "键盘快捷键" in chinese and "键盘快捷键" not in english
