"""The web app's speed machinery: the page cache answers only while nothing a page shows
has changed, headers survive it, similar papers match `paperatlas similar`."""

from __future__ import annotations

import asyncio
import re

from fastapi.testclient import TestClient

from atlas_fixture import SAMPLE, web_atlas_db, web_client  # noqa: F401 - the db and client fixtures
from paperatlas import Atlas
from paperatlas.store import StoreGeneration
from paperatlas.web.app import create_app, default_workers
from paperatlas.web.serving import PageCache


def test_second_visit_is_served_from_the_cache_with_the_same_page_and_headers(client):
    first = client.get("/papers/protein-02")
    second = client.get("/papers/protein-02")
    assert first.headers["x-cache"] == "miss" and second.headers["x-cache"] == "hit"
    assert second.text == first.text
    for name in ("content-security-policy", "x-content-type-options", "content-type"):
        assert second.headers[name] == first.headers[name]
    # the language is part of the URL, so part of the key
    zh = client.get("/papers/protein-02", params={"lang": "zh"})
    assert zh.headers["x-cache"] == "miss" and "摘要" in zh.text


def test_gzip_and_plain_clients_get_their_own_copy(client):
    plain = client.get("/search", params={"q": "protein folding"}, headers={"Accept-Encoding": "identity"})
    packed = client.get("/search", params={"q": "protein folding"}, headers={"Accept-Encoding": "gzip"})
    again = client.get("/search", params={"q": "protein folding"}, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert packed.headers.get("content-encoding") == "gzip"
    assert again.headers["x-cache"] == "hit" and "content-encoding" not in again.headers
    assert packed.text == plain.text == again.text  # httpx unpacks gzip


def test_a_like_changes_the_cached_page(client):
    url = "/papers/robots-03"
    assert 'class="star on" data-id="robots-03"' not in client.get(url).text
    assert client.get(url).headers["x-cache"] == "hit"
    assert client.post("/api/marks", json={"id": "robots-03", "liked": True}).status_code == 200
    after = client.get(url)
    assert after.headers["x-cache"] == "miss"
    assert re.search(r'class="star on" data-id="robots-03" aria-pressed="true"', after.text)
    client.post("/api/marks", json={"id": "robots-03", "liked": False})
    assert 'class="star on" data-id="robots-03"' not in client.get(url).text


def test_another_writer_changes_the_cached_page(db, tmp_path):
    """`paperatlas add` in another process commits to the store: pages show it at once."""
    import sqlite3

    copy = tmp_path / "copy.db"
    target = sqlite3.connect(copy)
    Atlas(db).store.conn.backup(target)
    target.close()
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as c:
        before = c.get("/")
        assert c.get("/").headers["x-cache"] == "hit"
        writer = Atlas(copy)
        writer.add([SAMPLE], list_name="another", enrich=False)
        writer.close()
        after = c.get("/")
        assert after.headers["x-cache"] == "miss"
        assert "another" in after.text and "another" not in before.text


def test_error_pages_and_json_are_not_cached(client):
    for _ in range(2):
        r = client.get("/papers/no-such-paper")
        assert r.status_code == 404 and r.headers.get("x-cache") != "hit"
        assert "x-cache" not in client.get("/api/marks").headers
        assert "content-security-policy" in r.headers


def test_cache_can_be_turned_off(db):
    with TestClient(create_app(db, page_cache=False), base_url="http://127.0.0.1") as c:
        c.get("/papers/protein-02")
        assert "x-cache" not in c.get("/papers/protein-02").headers


def test_similar_papers_are_those_of_paperatlas_similar(client, db):
    from paperatlas.search import similar

    store = Atlas(db).store
    for pid in ("protein-03", "graphs-01", "xss-script"):
        html = client.get(f"/papers/{pid}").text
        shown = re.findall(r'class="card-title"><a href="/papers/([^"]+)"', html.split('id="similar"', 1)[1])
        assert shown == [h.id for h in similar(store, paper_id=pid, k=10).hits]


def test_page_cache_stays_within_its_bytes():
    async def page(scope, receive, send):
        body = scope["path"].encode() * 200
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"text/html; charset=utf-8")],
            }
        )
        await send({"type": "http.response.body", "body": body})

    cache = PageCache(page, version=lambda: 1, max_bytes=20_000)

    async def get(path):
        sent = []

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": "GET", "path": path, "query_string": b"", "headers": []}
        await cache(scope, None, send)
        return dict(sent[0]["headers"])[b"x-cache"], sent[1]["body"]

    async def run():
        for i in range(30):
            assert (await get(f"/p{i:02d}"))[0] == b"miss"
        assert cache.stats()["bytes"] <= 20_000
        assert (await get("/p29")) == (b"hit", b"/p29" * 200)  # newest kept
        assert (await get("/p00"))[0] == b"miss"  # oldest dropped

    asyncio.run(run())


def test_cached_pages_expire():
    """Pages also show what the app keeps for a while (the map, overview counts): a cached
    page must not outlive that."""
    calls = []

    async def page(scope, receive, send):
        calls.append(1)
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/html")]}
        )
        await send({"type": "http.response.body", "body": b"x"})

    cache = PageCache(page, version=lambda: 1, max_age=0.2)
    scope = {"type": "http", "method": "GET", "path": "/", "query_string": b"", "headers": []}

    async def send(message):
        pass

    async def run():
        import time

        await cache(scope, None, send)
        await cache(scope, None, send)
        assert len(calls) == 1
        time.sleep(0.25)
        await cache(scope, None, send)
        assert len(calls) == 2 and cache.stats()["pages"] == 1

    asyncio.run(run())


def test_store_generation_sees_commits_of_other_connections(db, tmp_path):
    import sqlite3

    copy = tmp_path / "gen.db"
    target = sqlite3.connect(copy)
    Atlas(db).store.conn.backup(target)
    target.close()
    generation = StoreGeneration(copy)
    first = generation.current()
    assert generation.current() == first
    other = Atlas(copy)
    with other.store.transaction():
        other.store.marks.set("likes", "protein-01", 1)
    assert generation.current() != first


def test_default_workers_fit_the_machine():
    import os

    assert 1 <= default_workers() <= min(4, os.cpu_count() or 1)


def test_the_map_is_read_again_only_when_the_store_changed(db, monkeypatch):
    from paperatlas.web import maps as web_maps

    generation = [0]
    maps = web_maps.MapCache(Atlas(db), lambda: generation[0])
    loads = []
    real_load = maps._load
    monkeypatch.setattr(maps, "_load", lambda name: loads.append(name) or real_load(name))
    clock = [1000.0]
    monkeypatch.setattr(web_maps.time, "monotonic", lambda: clock[0])
    first = maps.get(None)
    assert first is not None and loads == [None]
    clock[0] += web_maps.MAP_CACHE_SECONDS + 1  # expired, store unchanged: kept
    assert maps.get(None) is first and loads == [None]
    generation[0] += 1  # a commit somewhere: read again once expired
    assert maps.get(None) is first and loads == [None]
    clock[0] += web_maps.MAP_CACHE_SECONDS + 1
    again = maps.get(None)
    assert loads == [None, None] and again["signature"] == first["signature"]
    assert maps.serial == 1  # the same map: pages cached with it stay valid


def test_healthz_says_when_the_background_preload_is_done(db):
    import time

    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        deadline = time.time() + 30
        while not c.get("/healthz").json()["warm"] and time.time() < deadline:
            time.sleep(0.05)
        assert c.get("/healthz").json() == {"ok": True, "warm": True}


def test_server_protocol_turns_nagle_off_on_worker_sockets(monkeypatch):
    """With several workers uvicorn binds the socket itself (protocol number 0), and
    asyncio then leaves Nagle on: each answer waited ~40 ms for the client's ACK."""
    import socket
    from types import SimpleNamespace

    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from paperatlas.web.serving import NoDelayHttpToolsProtocol

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with socket.create_connection(server.getsockname()):
            conn, _ = server.accept()
            with conn:
                assert conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 0
                handed_on = []
                monkeypatch.setattr(
                    HttpToolsProtocol, "connection_made", lambda self, transport: handed_on.append(transport)
                )
                transport = SimpleNamespace(get_extra_info=lambda key: conn if key == "socket" else None)
                protocol = NoDelayHttpToolsProtocol.__new__(NoDelayHttpToolsProtocol)
                protocol.connection_made(transport)
                assert conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
                assert handed_on == [transport]  # uvicorn's own set-up still runs
