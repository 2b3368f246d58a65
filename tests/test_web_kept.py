"""Triage, notes, tags, likes and collections in the web app (web/kept_api.py,
web/pages/keep.py, web/notes.py) through TestClient, on the web fixture's papers (hostile
titles among them) added without a map."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from atlas_fixture import FIXTURE
from paperatlas import Atlas
from paperatlas.web.app import create_app
from paperatlas.web.notes import render_note

SAME = {"origin": "http://127.0.0.1", "sec-fetch-site": "same-origin"}
PAPER = "robots-02"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("kept") / "atlas.db"
    with Atlas(path) as atlas:
        atlas.add([FIXTURE], list_name="fixture", enrich=False)
    return path


@pytest.fixture(scope="module")
def client(db):
    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        yield c


def _hostile_id() -> str:
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "<script>" in record.get("title", ""):
            return record["id"]
    raise AssertionError("the fixture has a hostile title")


def test_state_set_shown_and_cleared(client, db):
    r = client.post("/api/state", json={"id": PAPER, "state": "saved"}, headers=SAME)
    assert r.status_code == 200 and r.json()["state"] == "saved"
    html = client.get(f"/papers/{PAPER}").text
    assert re.search(r'data-state="saved" data-key="s" aria-pressed="true"', html)
    assert 'class="paper state-saved"' in html
    with Atlas(db, read_only=True) as atlas:
        assert atlas.ids_in_state("saved") == [PAPER]
    r = client.post("/api/state", json={"id": PAPER, "state": None}, headers=SAME)
    assert r.json()["state"] is None
    assert not re.search(r'aria-pressed="true"[^>]*data-state', client.get(f"/papers/{PAPER}").text)


def test_every_triage_button_names_its_paper(client):
    pid = _hostile_id()
    client.post("/api/state", json={"id": pid, "state": "read"}, headers=SAME)
    html = client.get("/papers?page=2").text
    card = html[html.index(f'data-paper="{pid}"') :]
    card = card[: card.index("</article>")]
    labels = re.findall(r'aria-label="([^"]*)"', card)
    assert [label.split(":", 1)[0] for label in labels[:5]] == [
        "Triage",
        "Like",
        "Mark read",
        "Skip",
        "Save for later",
    ]
    assert all("&lt;script&gt;" in label for label in labels[:5])  # the title, escaped
    assert "<script>" not in card
    assert f'<article class="card state-read" data-paper="{pid}"' in html


@pytest.mark.parametrize(
    "body",
    [
        {"id": PAPER, "state": "done"},
        {"id": PAPER, "state": 1},
        {"id": PAPER},
        {"id": PAPER, "state": "read", "extra": 1},
        {"id": 5, "state": "read"},
    ],
)
def test_a_bad_state_request_is_refused(client, body):
    assert client.post("/api/state", json=body, headers=SAME).status_code == 400


def test_a_state_for_no_paper_is_404(client):
    assert client.post("/api/state", json={"id": "no-such", "state": "read"}, headers=SAME).status_code == 404


def test_a_state_change_from_another_site_is_refused(client, db):
    r = client.post(
        "/api/state", json={"id": PAPER, "state": "skipped"}, headers={"origin": "http://evil.example"}
    )
    assert r.status_code == 403
    with Atlas(db, read_only=True) as atlas:
        assert PAPER not in atlas.ids_in_state("skipped")


def test_a_note_is_rendered_as_safe_markdown(client):
    note = (
        "**Key idea**: [code](https://example.org/x) <script>alert(1)</script>\n\n"
        "[bad](javascript:alert(1)) [worse](JAVASCRIPT:alert(2)) ![img](https://tracker.example/p.png)\n\n"
        '<img src=x onerror="alert(3)">'
    )
    r = client.post("/api/note", json={"id": PAPER, "note": note}, headers=SAME)
    assert r.status_code == 200 and r.json()["note"] == note
    html = client.get(f"/papers/{PAPER}").text
    view = html[html.index('id="note-view"') : html.index('id="note-form"')]
    assert "<strong>Key idea</strong>" in view
    assert '<a href="https://example.org/x" rel="noopener noreferrer nofollow">code</a>' in view
    assert "<script>" not in view and "<img" not in view and "&lt;script&gt;" in view
    # javascript: links stay text; an image is only a link (nothing is fetched when the page opens)
    assert re.findall(r'href="([^"]*)"', view) == ["https://example.org/x", "https://tracker.example/p.png"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html[html.index('id="note-text"') :]  # the textarea


def test_render_note_allows_only_safe_links():
    html = render_note("[a](javascript:x) [b](data:text/html,x) [c](file:///etc/passwd) [d](mailto:a@b.c)")
    assert "href" in html and html.count("href=") == 1 and 'href="mailto:a@b.c"' in html


def test_a_huge_note_is_refused_and_the_old_one_kept(client):
    client.post("/api/note", json={"id": PAPER, "note": "kept"}, headers=SAME)
    big = client.post("/api/note", json={"id": PAPER, "note": "x" * 1_000_000}, headers=SAME)
    assert big.status_code == 413  # over the app's request limit (web/guard.py)
    long = client.post("/api/note", json={"id": PAPER, "note": "x" * 30_000}, headers=SAME)
    assert long.status_code == 400 and "a note holds at most 20,000" in long.json()["error"]
    assert (
        client.post("/api/tags", json={"id": PAPER, "add": [], "remove": []}, headers=SAME).json()["note"]
        == "kept"
    )


def test_tags_added_removed_and_counted(client):
    r = client.post("/api/tags", json={"id": PAPER, "add": ["To Read", "robots"], "remove": []}, headers=SAME)
    assert r.status_code == 200 and r.json()["tags"] == ["robots", "to-read"]
    other = "robots-03"
    client.post("/api/tags", json={"id": other, "add": ["robots"], "remove": []}, headers=SAME)
    tags = client.get("/tags").text
    assert re.search(r'href="/tags/robots">#robots <span class="count">2</span>', tags)
    page = client.get("/tags/robots").text
    assert f'data-paper="{PAPER}"' in page and f'data-paper="{other}"' in page
    assert 'class="badge tag" href="/tags/robots">#robots</a>' in page
    r = client.post("/api/tags", json={"id": PAPER, "add": [], "remove": ["to-read"]}, headers=SAME)
    assert r.json()["tags"] == ["robots"]
    assert client.get("/tags/to-read").status_code == 404


@pytest.mark.parametrize("tag", ["<script>alert(1)</script>", "javascript:alert(1)", "a b\x00", "x" * 65])
def test_a_hostile_tag_is_refused(client, tag):
    r = client.post("/api/tags", json={"id": PAPER, "add": [tag], "remove": []}, headers=SAME)
    assert r.status_code == 400
    assert "<script>" not in client.get("/tags").text


def test_likes_and_collections_pages(client, db):
    client.post("/api/marks", json={"id": "robots-04", "liked": True}, headers=SAME)
    client.post("/api/marks", json={"id": PAPER, "liked": True}, headers=SAME)
    with Atlas(db) as atlas:
        atlas.like(["robots-05"], collection="lab <b>picks</b>")
    likes = client.get("/likes").text
    assert likes.index('data-paper="robots-02"') < likes.index('data-paper="robots-04"')  # newest first
    assert 'data-paper="robots-05"' not in likes
    page = client.get("/collections").text
    assert "lab &lt;b&gt;picks&lt;/b&gt;" in page and "<b>picks" not in page
    assert 'href="/collections/lab%20%3Cb%3Epicks%3C/b%3E"' in page
    one = client.get("/collections/lab <b>picks</b>")
    assert one.status_code == 200 and 'data-paper="robots-05"' in one.text
    assert client.get("/collections/nothing-here").status_code == 404


def test_the_pages_answer_in_chinese_with_the_key_help(client):
    for url in ("/likes", "/collections", "/tags", f"/papers/{PAPER}"):
        r = client.get(url + "?lang=zh")
        assert r.status_code == 200 and 'id="keys-help"' in r.text and "键盘快捷键" in r.text


def test_a_read_only_server_changes_nothing_kept(db):
    with TestClient(create_app(db, read_only=True), base_url="http://127.0.0.1") as c:
        for url, body in (
            ("/api/state", {"id": PAPER, "state": "read"}),
            ("/api/note", {"id": PAPER, "note": "x"}),
            ("/api/tags", {"id": PAPER, "add": ["x"], "remove": []}),
        ):
            assert c.post(url, json=body, headers=SAME).status_code == 403
        assert c.get("/tags").status_code == 200 and c.get(f"/papers/{PAPER}").status_code == 200
