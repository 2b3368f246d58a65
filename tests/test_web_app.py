"""The web app through FastAPI's TestClient: routes, filters, 404s, escaping, zh, marks,
and answering while another process-like writer adds papers to the same store."""

from __future__ import annotations

import re
import threading

import pytest
from fastapi.testclient import TestClient

from atlas_fixture import SAMPLE, web_atlas_db, web_client  # noqa: F401 - the db and client fixtures
from paperatlas import Atlas
from paperatlas.api import web_reads
from paperatlas.report.mapplot import json_for_script
from paperatlas.web.app import create_app
from source_ast import parse

HOSTILE_RAW = [
    "<script>alert('xss-title')</script>",
    "<script>window.__xss",
    '"><img src=x onerror',
    '<img src=x onerror="window.__xss=2">',
    "<b>bold keyword</b>",
]


def _no_raw_hostile(html: str) -> None:
    for raw in HOSTILE_RAW:
        assert raw not in html, raw


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/map",
        "/papers",
        "/papers?sort=title",
        "/papers?sort=rating",
        "/papers?sort=name",
        "/papers?page=2",
        "/papers?decision=Accept",
        "/papers?has_code=1",
        "/papers?has_code=0",
        "/papers?topic=0",
        "/papers?topic=f1",
        "/search",
        "/search?q=forecasting",
        "/topics/0",
        "/topics/1?level=1",
        "/healthz",
        "/static/style.css",
        "/static/atlas.js",
    ],
)
def test_pages_answer(client, url):
    r = client.get(url)
    assert r.status_code == 200, r.text[:500]
    if r.headers["content-type"].startswith("text/html"):
        assert "<html" in r.text and "Traceback" not in r.text


def test_overview_counts_and_charts(client):
    html = client.get("/").text
    assert "73" in html and "<svg" in html
    assert "Research areas" in html and "learning on time series" in html


def test_map_data(client, db):
    data = client.get("/api/map").json()
    atlas = Atlas(db)
    assert len(data["points"]) == atlas.stats()["papers"]
    assert data["topics"]["broad"] and all(t["label"] for t in data["topics"]["broad"])
    assert client.get("/map").text.count('id="atlas"') == 1


def test_filters_narrow_the_list(client):
    area = "learning on time series and dynamical systems"
    html = client.get("/papers", params={"area": area}).text
    titles = re.findall(r'class="card-title"><a href="/papers/([^"]+)"', html)
    assert titles and all(t.startswith(("timeseries-", "xss-script")) for t in titles)
    html = client.get("/papers", params={"decision": "Withdrawn"}).text
    assert re.findall(r'href="/papers/([^"]+)"', html).count("xss-link") >= 1
    assert "unlearning-00" not in html
    topic_html = client.get("/papers", params={"topic": "0"}).text
    every_html = client.get("/papers").text
    assert topic_html.count('class="card"') < every_html.count('class="card"')


def test_sorting_by_rating(client):
    html = client.get("/papers", params={"sort": "rating"}).text
    ids = re.findall(r'class="card-title"><a href="/papers/([^"]+)"', html)
    from atlas_fixture import fixture_records

    rating = {r["id"]: r.get("rating_avg") or -1 for r in fixture_records()}
    values = [rating[i] for i in ids]
    assert values == sorted(values, reverse=True)


def test_search_finds_and_links_papers(client):
    html = client.get("/search", params={"q": "protein backbone diffusion"}).text
    ids = re.findall(r'class="card-title"><a href="/papers/([^"]+)"', html)
    assert ids and ids[0].startswith("protein-")


def test_a_chinese_search_shows_the_english_it_was_searched_as(client):
    html = client.get("/search", params={"q": "蛋白质结构"}).text
    shown = re.search(r'searched as: <span class="read-as">([^<]*)</span>', html)
    assert shown and "protein" in shown.group(1).split(), html[:2000]
    english = client.get("/search", params={"q": "protein backbone diffusion"}).text
    assert 'class="read-as"' not in english


def test_paper_page_shows_the_card(client):
    html = client.get("/papers/protein-03").text
    assert "Protein" in html and "Abstract" in html
    assert 'id="paper-topic"' in html  # its topic, linked
    assert "applications to physical sciences" in html
    similar = re.findall(r'id="similar"(.*)', html, re.S)
    assert similar and similar[0].count('class="card"') == 10
    assert "protein-" in similar[0]


@pytest.mark.slow  # embeds a store again (multilingual vocabulary or every vector)
def test_paper_page_says_what_embed_adds(client):
    # the fixture atlas holds lsa vectors alone: similar papers are read without MiniLM's
    html = client.get("/papers/protein-03").text
    note = re.search(r'<p class="muted small" id="similar-embed-note">(.*?)</p>', html, re.S)
    assert note, "no note on an atlas without the MiniLM vectors"
    assert "minilm-int8" in note[1] and "<code>paperatlas embed</code>" in note[1]
    assert html.index('id="similar-embed-note"') < html.index('id="similar"')  # the papers still shown
    zh = client.get("/papers/protein-03?lang=zh").text
    assert "本图谱缺少以下模型的向量：" in zh and "minilm-int8" in zh


@pytest.mark.slow  # embeds the fixture with the real MiniLM int8 weights
def test_paper_page_says_nothing_once_embed_has_run(db, tmp_path):
    import shutil

    copy = tmp_path / "atlas.db"
    shutil.copy(db, copy)
    with Atlas(copy) as atlas:
        assert web_reads.similar_models_missing(atlas) == ["minilm-int8"]
        atlas.embed(model="minilm-int8")
        assert web_reads.similar_models_missing(atlas) == []
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as fresh:
        html = fresh.get("/papers/protein-03").text
    assert 'id="similar-embed-note"' not in html
    assert re.findall(r'id="similar"(.*)', html, re.S)[0].count('class="card"') == 10


def test_topic_page(client, db):
    stored = Atlas(db).store.maps.get("*")
    top = max((t for t in stored["topics"] if t["level"] == 0), key=lambda t: t["size"])
    html = client.get(f"/topics/{top['topic_id']}").text
    assert top["label"].split(" ")[0] in html
    assert html.count('class="card"') == top["size"]
    assert "Subtopics" in html


@pytest.mark.parametrize(
    "url",
    [
        "/papers/does-not-exist",
        "/topics/999",
        "/topics/abc",
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/..%2F..%2Fstore.py",
        "/nothing-here",
        "/?list=no-such-list",
    ],
)
def test_wrong_ids_get_a_404_page(client, url):
    r = client.get(url)
    assert r.status_code == 404
    assert "Not found" in r.text and "Traceback" not in r.text
    assert "import " not in r.text  # never a source file


@pytest.mark.parametrize(
    "url",
    [
        "/papers/xss-script",
        "/papers/xss-img",
        "/papers/xss-link",
        "/search?q=forecasting",
        "/search?q=graph+rewiring",
        "/papers?decision=Accept",
        "/papers",
        "/topics/0",
        "/topics/1",
        "/topics/2",
        "/topics/3",
    ],
)
def test_hostile_text_is_escaped(client, url):
    r = client.get(url)
    assert r.status_code == 200
    _no_raw_hostile(r.text)
    assert 'href="javascript:' not in r.text


def test_hostile_title_renders_as_text(client):
    html = client.get("/papers/xss-script").text
    assert "&lt;script&gt;alert(&#39;xss-title&#39;)&lt;/script&gt;" in html
    html = client.get("/papers/xss-img").text
    assert "&#34;&gt;&lt;img src=x onerror=" in html


def test_query_is_escaped(client):
    html = client.get("/search", params={"q": '"><script>alert(1)</script>'}).text
    assert "<script>alert(1)</script>" not in html


def test_json_for_script_cannot_close_the_tag():
    text = json_for_script({"t": "</script><script>alert(1)</script>&"})
    assert "</script>" not in text and "<" not in text


def test_chinese_interface(client):
    html = client.get("/", params={"lang": "zh"}).text
    assert 'lang="zh-CN"' in html and "概览" in html and "地图" in html
    assert 'href="/map?lang=zh"' in html  # links keep the language
    html = client.get("/papers/protein-03", params={"lang": "zh"}).text
    assert "摘要" in html and "相似论文" in html
    assert "404" in client.get("/papers/nope", params={"lang": "zh"}).text
    assert "未找到" in client.get("/papers/nope", params={"lang": "zh"}).text


def test_like_and_unlike(client):
    r = client.post("/api/marks", json={"id": "robots-02", "liked": True})
    assert r.status_code == 200 and r.json() == {"id": "robots-02", "liked": True}
    assert "robots-02" in client.get("/api/marks").json()["liked"]
    html = client.get("/papers/robots-02").text
    assert re.search(r'class="star on" data-id="robots-02" aria-pressed="true"', html)
    r = client.post("/api/marks", json={"id": "robots-02", "liked": False})
    assert r.json()["liked"] is False
    assert "robots-02" not in client.get("/api/marks").json()["liked"]
    assert client.post("/api/marks", json={"id": "nope", "liked": True}).status_code == 404
    assert (
        client.post(
            "/api/marks", content=b"not json", headers={"content-type": "application/json"}
        ).status_code
        == 400
    )
    assert client.post("/api/marks", json=["x"]).status_code == 400


def test_keeps_answering_while_add_writes(db, tmp_path):
    """A writer adds a list to the same database while pages are being read."""
    import sqlite3

    copy = tmp_path / "busy.db"
    target = sqlite3.connect(copy)
    Atlas(db).store.conn.backup(target)
    target.close()
    errors: list[BaseException] = []

    def writer():
        try:
            w = Atlas(copy)
            for i in range(3):
                w.add([SAMPLE], list_name=f"sample{i}", enrich=False)
            w.close()
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=writer)
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as c:
        thread.start()
        statuses = []
        while thread.is_alive() or len(statuses) < 20:
            for url in ("/papers", "/search?q=forecasting", "/papers/graphs-01", "/"):
                statuses.append(c.get(url).status_code)
        thread.join()
    assert not errors, errors
    assert set(statuses) == {200}
    assert Atlas(copy).stats()["papers"] > 73


def test_pages_forbid_foreign_and_inline_scripts(client):
    r = client.get("/papers/xss-script")
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    for url in ("/", "/map", "/papers", "/papers/protein-01"):
        html = client.get(url).text
        assert "<script>" not in html  # every script is a file served by the app
        # no asset from elsewhere (links to a paper's code are fine: they are not loaded)
        assert not re.search(r'src="(https?:)?//', html)
        assert not re.search(r'<link[^>]+href="(https?:)?//', html)


def test_map_json_is_compressed(client):
    r = client.get("/api/map", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers.get("content-encoding") == "gzip"


def test_web_reads_the_library_only_through_its_front():
    """Every import in web/ (inside functions too) is the web package itself, the front
    (api, results), or the core every stage may use; never a pipeline stage."""
    import ast
    from pathlib import Path

    import paperatlas.web

    allowed = (
        "paperatlas.web",
        "paperatlas.api",
        "paperatlas.results",
        "paperatlas.errors",
        "paperatlas.filters",
    )
    allowed += ("paperatlas.paper", "paperatlas.identifiers", "paperatlas.workers", "paperatlas.assets")
    found = {}
    for path in Path(paperatlas.web.__file__).parent.rglob("*.py"):
        for node in ast.walk(parse(path)):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] == "paperatlas":
                    found.setdefault(name, path.name)
    assert "paperatlas.api" in found  # the walk saw the app's imports
    wrong = {name: file for name, file in found.items() if not name.startswith(allowed)}
    assert not wrong, wrong
