"""What a reader takes home from the web app: recommendations with their reasons and "not
interested", downloads (exports and digests) that the tools people use can read, compare two
lists, and the header's list switcher. The atlas: the fixture list plus a second list with a
hostile name holding ten of its papers."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import bibtexparser
import pytest

from atlas_fixture import (
    copy_atlas,
    fixture_records,
    web_client,  # noqa: F401 - the `client` fixture, on this module's `db`
)
from paperatlas import Atlas
from paperatlas.web.pages import downloads

HOSTILE_LIST = '<script>alert("list")</script>2026'
ORIGIN = {"origin": "http://127.0.0.1"}


@pytest.fixture(scope="module")
def db(fixture_atlas_template, tmp_path_factory):
    path = copy_atlas(fixture_atlas_template, tmp_path_factory, "take-home")
    atlas = Atlas(path)
    part = path.parent / "part.jsonl"
    part.write_text("\n".join(json.dumps(r) for r in fixture_records()[:10]), encoding="utf-8")
    atlas.add([part], list_name=HOSTILE_LIST, enrich=False)
    atlas.close()
    return path


def _hits(client, q: str) -> list[dict]:
    return client.get("/api/search", params={"q": q, "k": 5}).json()["hits"]


def _like(client, paper_id: str) -> None:
    assert client.post("/api/marks", json={"id": paper_id, "liked": True}, headers=ORIGIN).status_code == 200


def _pick_ids(html: str) -> list[str]:
    return [unescape(i) for i in re.findall(r'<div class="pick" data-paper="([^"]+)"', html)]


# -- recommendations ------------------------------------------------------------------------------


def test_recommendations_show_whole_reasons_and_what_made_them(client):
    liked = _hits(client, "unlearning")[0]
    _like(client, liked["id"])
    page = client.get("/recommend")
    assert page.status_code == 200
    html = page.text
    picks = _pick_ids(html)
    assert picks and liked["id"] not in picks
    reasons = [unescape(r) for r in re.findall(r'<ul class="reasons"><li>(.*?)</li>', html)]
    assert len(reasons) == len(picks)
    # the liked paper named by its whole title, in a sentence
    assert reasons[0] == f"Close to “{liked['title']}”, which you liked."
    used = re.search(r'id="recommend-used">(.*?)</p>', html).group(1)
    assert "centroid similarity" in used and "1 likes" in used and "lsa" in used
    assert "Like 4 more papers (5 in all)" in html


def test_a_hostile_title_in_a_reason_is_text(client):
    hostile = next(r for r in fixture_records() if "<script" in (r.get("title") or ""))
    _like(client, hostile["id"])
    html = client.get("/recommend").text
    assert "<script>alert" not in html
    assert "Close to “" in html and "&lt;script&gt;" in html


def test_not_interested_takes_the_paper_off_the_picks(client):
    first = _pick_ids(client.get("/recommend").text)[0]
    answer = client.post("/api/not-interested", json={"id": first, "collection": "likes"}, headers=ORIGIN)
    assert answer.status_code == 200 and answer.json() == {
        "id": first,
        "collection": "likes",
        "interested": False,
    }
    html = client.get("/recommend").text
    assert first not in _pick_ids(html)
    assert "not interested" in re.search(r'id="recommend-used">(.*?)</p>', html).group(1)


@pytest.mark.parametrize(
    "headers, body",
    [
        ({"origin": "http://evil.example"}, None),  # another site's page
        ({"origin": "http://127.0.0.1", "sec-fetch-site": "cross-site"}, None),
        ({"content-type": "application/x-www-form-urlencoded"}, "id=x&collection=likes"),  # a form post
    ],
)
def test_not_interested_comes_only_from_the_app(client, headers, body):
    target = _pick_ids(client.get("/recommend").text)[0]
    if body is None:
        answer = client.post(
            "/api/not-interested", json={"id": target, "collection": "likes"}, headers=headers
        )
    else:
        answer = client.post("/api/not-interested", content=body.replace("x", target, 1), headers=headers)
    assert answer.status_code == 403
    assert target in _pick_ids(client.get("/recommend").text)


@pytest.mark.parametrize(
    "body",
    [
        {"id": "x"},
        {"id": 3, "collection": "likes"},
        {"id": "x", "collection": ""},
        {"id": "x", "collection": "a", "b": 1},
    ],
)
def test_not_interested_takes_one_shape_of_body(client, body):
    answer = client.post("/api/not-interested", json=body, headers=ORIGIN)
    assert answer.status_code == 400 and "send JSON" in answer.json()["error"]


def test_an_unknown_collection_or_paper_is_a_404(client):
    assert client.get("/recommend", params={"collection": "nothing-here"}).status_code == 404
    assert (
        client.post(
            "/api/not-interested", json={"id": "zzz-none", "collection": "c"}, headers=ORIGIN
        ).status_code
        == 404
    )


# -- downloads ------------------------------------------------------------------------------------


def _parsers():
    def bibtex(text: str) -> int:
        library = bibtexparser.parse_string(text)
        assert library.failed_blocks == []
        assert all(e["title"] for e in library.entries)
        return len(library.entries)

    def ris(text: str) -> int:
        import rispy

        return len(rispy.loads(text))

    def csl(text: str) -> int:
        from citeproc.source.json import CiteProcJSON

        items = json.loads(text)
        return len(CiteProcJSON(items))

    def table(text: str) -> int:
        return len(list(csv.DictReader(io.StringIO(text))))

    def jsonl(text: str) -> int:
        return len([json.loads(line) for line in text.splitlines() if line.strip()])

    def markdown(text: str) -> int:
        from markdown_it import MarkdownIt

        tokens = MarkdownIt().parse(text)
        return sum(1 for t in tokens if t.type == "heading_open" and t.tag == "h2")  # one a paper

    return {"bibtex": bibtex, "ris": ris, "csl-json": csl, "csv": table, "jsonl": jsonl, "markdown": markdown}


@pytest.mark.parametrize("fmt", downloads.export_formats())
def test_each_export_download_parses_with_the_readers_people_use(client, fmt):
    answer = client.get("/download/export", params={"format": fmt, "list": HOSTILE_LIST})
    assert answer.status_code == 200
    extension = downloads.FILE_TYPES[fmt][0]
    disposition = answer.headers["content-disposition"]
    assert re.fullmatch(
        rf'attachment; filename="paperatlas-script-alert-list-script-2026\.{extension}"', disposition
    )
    count = _parsers()[fmt](answer.content.decode("utf-8"))
    assert count == 10


def test_the_download_of_a_search_holds_its_hits_within_the_filters(client):
    params = {"q": "unlearning", "list": HOSTILE_LIST}
    answer = client.get("/download/export", params={"format": "jsonl", **params})
    assert answer.status_code == 200
    name = "paperatlas-search-unlearning-script-alert-list-script-2026.jsonl"
    assert answer.headers["content-disposition"] == f'attachment; filename="{name}"'
    ids = [json.loads(line)["id"] for line in answer.text.splitlines()]
    hits = client.get("/api/search", params={**params, "k": 100}).json()["hits"]
    assert ids and ids == [h["id"] for h in hits]
    assert set(ids) <= {r["id"] for r in fixture_records()[:10]}


def test_a_collection_downloads_its_liked_papers(client):
    _like(client, fixture_records()[2]["id"])  # its own like: the module's other tests may run elsewhere
    liked = set(client.get("/api/marks").json()["liked"])
    answer = client.get("/download/export", params={"format": "jsonl", "collection": "likes"})
    assert answer.headers["content-disposition"] == 'attachment; filename="paperatlas-likes.jsonl"'
    assert {json.loads(line)["id"] for line in answer.text.splitlines()} == liked
    assert client.get("/download/export", params={"collection": "no-such"}).status_code == 404


def test_a_selection_over_the_limit_is_refused_in_one_line(client, monkeypatch):
    monkeypatch.setattr(downloads, "MAX_PAPERS", 5)
    answer = client.get("/download/export", params={"format": "csv", "list": HOSTILE_LIST})
    assert answer.status_code == 400
    message = unescape(re.search(r'<p class="muted">(.*?)</p>', answer.text).group(1))
    assert (
        message
        == "10 papers are more than a download holds (5): narrow the filters, or use `paperatlas export`"
    )


def test_an_unknown_format_is_a_400(client):
    assert client.get("/download/export", params={"format": "docx"}).status_code == 400
    assert client.get("/download/digest", params={"format": "pdf", "list": "fixture"}).status_code == 400
    assert client.get("/download/digest", params={"lang": "fr", "list": "fixture"}).status_code == 400


@pytest.mark.parametrize("fmt, lang", [("md", "en"), ("html", "en"), ("md", "zh"), ("html", "zh")])
def test_digests_download_in_each_format_and_language(client, fmt, lang):
    answer = client.get("/download/digest", params={"format": fmt, "lang": lang, "list": HOSTILE_LIST})
    assert answer.status_code == 200
    stem = "digest-zh" if lang == "zh" else "digest"
    name = f"paperatlas-{stem}-script-alert-list-script-2026.{fmt}"
    assert answer.headers["content-disposition"] == f'attachment; filename="{name}"'
    text = answer.text
    assert '<script>alert("list")' not in text  # the list's name, escaped (HTML) or as text
    if fmt == "html":
        assert text.lstrip().lower().startswith("<!doctype html")
    if lang == "zh":
        assert re.search(r"[\u4e00-\u9fff]", text)


def test_a_digest_asked_without_lang_is_in_the_browsers_language(client):
    params = {"format": "md", "list": HOSTILE_LIST}
    zh = client.get("/download/digest", params=params, headers={"accept-language": "zh-CN,zh;q=0.9,en;q=0.8"})
    assert zh.status_code == 200
    assert "paperatlas-digest-zh-" in zh.headers["content-disposition"]
    assert re.search(r"[\u4e00-\u9fff]", zh.text) and "Accept-Language" in zh.headers["vary"]
    en = client.get("/download/digest", params=params, headers={"accept-language": "en-GB,en"})
    assert "paperatlas-digest-script" in en.headers["content-disposition"]
    assert not re.search(r"[\u4e00-\u9fff]", en.text)
    named = client.get("/download/digest", params={**params, "lang": "en"}, headers={"accept-language": "zh"})
    assert not re.search(r"[\u4e00-\u9fff]", named.text)  # the URL's lang wins


def test_file_names_keep_only_letters_digits_and_dashes():
    from paperatlas.filters import Filters

    name = downloads.file_name('a"b\r\nc/../d', Filters(list_name="ICLR 2026", has_code=True), "bib")
    assert name == "paperatlas-a-b-c-d-ICLR-2026-True.bib"


def test_the_list_and_search_pages_link_their_downloads(client):
    papers = client.get("/papers", params={"list": HOSTILE_LIST, "kind": "method"}).text
    links = [unescape(u) for u in re.findall(r'href="(/download/[^"]+)"', papers)]
    assert any("format=bibtex" in u and "kind=method" in u for u in links)
    assert any(u.startswith("/download/digest") for u in links)
    search = client.get("/search", params={"q": "unlearning", "decision": "Accept"}).text
    links = [unescape(u) for u in re.findall(r'href="(/download/[^"]+)"', search)]
    assert any("q=unlearning" in u and "decision=Accept" in u for u in links)
    for link in links:
        assert client.get(link).status_code == 200


# -- compare and the list switcher ----------------------------------------------------------------


def test_compare_shows_what_the_two_lists_share_and_how_they_differ(client):
    answer = client.get("/compare", params={"a": "fixture", "b": HOSTILE_LIST})
    assert answer.status_code == 200
    html = answer.text
    summary = unescape(re.sub(r"<[^>]+>", "", re.search(r'id="compare-summary">(.*?)</p>', html).group(1)))
    assert f"{HOSTILE_LIST}: 10 papers" in summary and "in both: 10" in summary
    assert "<script>alert(" not in html
    assert 'id="risers"' in html and 'id="fallers"' in html and "Share by topic" in html


def test_compare_without_two_lists_is_the_form(client):
    html = client.get("/compare").text
    assert 'id="compare-form"' in html and "compare-summary" not in html
    assert "pick two lists" in client.get("/compare", params={"a": "fixture"}).text
    assert client.get("/compare", params={"a": "fixture", "b": "nope"}).status_code == 404


def test_the_list_switcher_is_on_every_page_and_keeps_the_query(client):
    html = client.get("/search", params={"q": "graph", "list": "fixture", "page": 1}).text
    form = re.search(r'<form class="list-switch".*?</form>', html, re.S).group(0)
    assert 'action="/search"' in form and 'name="q" value="graph"' in form
    assert 'name="page"' not in form  # a new list starts at its first page
    assert '<option value="fixture" selected>' in form
    assert "&lt;script&gt;" in form and "<script>alert" not in form
    nav = re.search(r'<nav class="nav">.*?</nav>', html, re.S).group(0)
    assert 'href="/map?list=fixture"' in nav and 'href="/papers?list=fixture"' in nav
    paper = client.get("/papers/" + fixture_records()[0]["id"]).text
    assert 'action="/"' in re.search(r'<form class="list-switch"[^>]*>', paper).group(0)


def test_a_digest_of_a_search_holds_its_hits_and_only_them(client):
    params = {"q": "unlearning", "list": "fixture"}
    hits = client.get("/api/search", params={**params, "k": 100}).json()["hits"]
    answer = client.get("/download/digest", params={"format": "html", **params})
    assert answer.status_code == 200
    assert (
        answer.headers["content-disposition"]
        == 'attachment; filename="paperatlas-digest-search-unlearning-fixture.html"'
    )
    text = unescape(answer.text)
    hit_ids = {h["id"] for h in hits}
    others = [r for r in fixture_records() if r["id"] not in hit_ids and r.get("title")]
    assert hits and all(h["title"] in text for h in hits if h["title"])
    assert others and not any(r["title"] in text for r in others if len(r["title"]) > 30)
    assert "selection" in text


def test_a_digest_of_filtered_papers_leaves_the_others_out(client):
    params = {"list": "fixture", "kind": "method"}
    answer = client.get("/download/digest", params={"format": "md", **params})
    assert answer.status_code == 200
    assert (
        answer.headers["content-disposition"] == 'attachment; filename="paperatlas-digest-fixture-method.md"'
    )
    exported = client.get("/download/export", params={"format": "jsonl", **params}).text
    methods = {json.loads(line)["id"] for line in exported.splitlines()}
    not_methods = [r for r in fixture_records() if r["id"] not in methods and len(r.get("title") or "") > 30]
    assert methods and not_methods
    assert not any(r["title"] in answer.text for r in not_methods)
    assert any(r["title"] in answer.text for r in fixture_records() if r["id"] in methods)


def test_the_likes_and_tag_pages_link_their_downloads(client):
    _like(client, fixture_records()[0]["id"])  # its own like: the module's other tests may not run
    liked = set(client.get("/api/marks").json()["liked"])
    tagged = fixture_records()[1]["id"]
    answer = client.post("/api/tags", json={"id": tagged, "add": ["to cite"], "remove": []}, headers=ORIGIN)
    assert answer.status_code == 200, answer.text
    for page, expected in (("/likes", liked), ("/tags/to-cite", {tagged})):
        links = [unescape(u) for u in re.findall(r'href="(/download/[^"]+)"', client.get(page).text)]
        jsonl = next(u for u in links if "format=jsonl" in u)
        assert {json.loads(line)["id"] for line in client.get(jsonl).text.splitlines()} == expected
        digest = next(u for u in links if u.startswith("/download/digest"))
        assert client.get(digest).status_code == 200
