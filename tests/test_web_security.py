"""The web app against a hostile web and a careless user (issue 12): Host allow-list,
cross-site requests, body sizes, every query parameter, read-only serving; and the
`paperatlas serve` processes: a busy port, a missing store, kill -9 of the parent.

Most checks go through the in-process client; the `live_*` tests run a real
`paperatlas serve` (2 workers) on a free loopback port. The browser test (marked
`browser`) opens a page from another origin in Chromium that tries to like a paper."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atlas_fixture import web_atlas_db, web_client  # noqa: F401 - the db and client fixtures
from paperatlas.web.app import create_app
from paperatlas.web.guard import MAX_BODY, RequestGuard, same_origin, split_host

PAPERATLAS = str(Path(sys.executable).with_name("paperatlas"))
LIKE = {"id": "robots-02", "liked": True}
SAME = {"origin": "http://127.0.0.1"}  # the in-process client's own origin


def liked(client) -> list[str]:
    return client.get("/api/marks").json()["liked"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- Host allow-list ----------------------------------------------------------------------------

ROUTES = [
    "/",
    "/map",
    "/papers",
    "/papers/robots-02",
    "/search?q=robot",
    "/topics/0",
    "/api/marks",
    "/api/map",
    "/api/search?q=robot",
    "/healthz",
    "/static/app.js",
    "/static/style.css",
    "/nothing-here",
]


@pytest.mark.parametrize("url", ROUTES)
def test_foreign_host_gets_400_on_every_route(client, url):
    for host in (
        "evil.example",
        "evil.example:8765",
        "127.0.0.1.evil.example",
        "localhost.evil",
        "",
        "127.0.0.1:8765:1",
        "[::2]:8765",
    ):
        r = client.get(url, headers={"host": host})
        assert r.status_code == 400, (host, r.status_code)
        assert "robots" not in r.text and "<html" not in r.text  # nothing of the atlas
    assert client.get(url).status_code in (200, 404)


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "127.0.0.1:8765", "localhost", "LOCALHOST:1", "[::1]", "[::1]:8765"]
)
def test_loopback_names_are_answered(client, host):
    r = client.get("/papers/robots-02", headers={"host": host})
    assert r.status_code == 200 and "robots" in r.text


def test_allow_host_adds_names(db):
    app = create_app(db, allow_hosts=("Atlas.LAN", "192.168.7.9", "::5"))
    with TestClient(app, base_url="http://atlas.lan:8765") as c:
        assert c.get("/healthz").status_code == 200
        for host in ("192.168.7.9:80", "[::5]:8765", "127.0.0.1"):
            assert c.get("/healthz", headers={"host": host}).status_code == 200, host
        assert c.get("/healthz", headers={"host": "other.lan"}).status_code == 400
        # a like from the page served under that name is from the same origin
        r = c.post(
            "/api/marks", json={"id": "robots-05", "liked": True}, headers={"origin": "http://atlas.lan:8765"}
        )
        assert r.status_code == 200
        c.post(
            "/api/marks",
            json={"id": "robots-05", "liked": False},
            headers={"origin": "http://atlas.lan:8765"},
        )


def test_host_header_parsing():
    assert split_host("Example.org:8765") == ("example.org", 8765)
    assert split_host("[::1]") == ("[::1]", None)
    assert split_host("[::1]:80") == ("[::1]", 80)
    for bad in ("", "a:b", "a:99999", "a:", "[::1", "a/b", "a@b", "a:８０", "a b"):
        assert split_host(bad) is None, bad


def test_missing_or_repeated_host_is_refused():
    import asyncio

    async def app(scope, receive, send):  # pragma: no cover - must not be reached
        raise AssertionError("the guard let it through")

    def status(headers):
        sent = []

        async def send(message):
            sent.append(message)

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        scope = {
            "type": "http",
            "method": "GET",
            "path": "/",
            "query_string": b"",
            "headers": headers,
            "scheme": "http",
        }
        asyncio.run(RequestGuard(app)(scope, receive, send))
        return sent[0]["status"]

    assert status([]) == 400
    assert status([(b"host", b"127.0.0.1"), (b"host", b"evil.example")]) == 400


# -- cross-site requests ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind,body",
    [
        ("text/plain", json.dumps(LIKE)),
        ("text/plain;charset=UTF-8", json.dumps(LIKE)),
        ("application/x-www-form-urlencoded", "id=robots-02&liked=true"),
        (
            "multipart/form-data; boundary=x",
            '--x\r\nContent-Disposition: form-data; name="id"\r\n\r\nrobots-02\r\n--x--\r\n',
        ),
        (None, json.dumps(LIKE)),
        ("application/json-patch+json", json.dumps(LIKE)),
    ],
)
def test_state_changes_take_json_only(client, kind, body):
    before = liked(client)
    headers = {"content-type": kind} if kind else {}
    for extra in ({}, SAME):  # refused even from the app's own origin
        r = client.post("/api/marks", content=body.encode(), headers={**headers, **extra})
        assert r.status_code == 403, r.text
    assert liked(client) == before


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"origin": "http://127.0.0.1:9999"},  # same host, another port: another origin
        {"origin": "https://127.0.0.1"},  # another scheme
        {"origin": "http://localhost"},  # another name for the same machine
        {"origin": "http://127.0.0.1.evil.example"},
        {"origin": "http://127.0.0.1/path"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},  # e.g. a page on another port
        {"sec-fetch-site": "none"},
        {"origin": "http://127.0.0.1", "sec-fetch-site": "cross-site"},
        {"origin": "http://evil.example", "sec-fetch-site": "same-origin"},
    ],
)
def test_json_from_another_origin_is_refused(client, headers):
    before = liked(client)
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        r = client.request(method, "/api/marks", json=LIKE, headers=headers)
        assert r.status_code == 403, (method, r.status_code)
        assert r.json()["error"]
    assert liked(client) == before


@pytest.mark.parametrize(
    "headers",
    [
        SAME,  # the app's own page (fetch)
        {"origin": "http://127.0.0.1:80"},  # the default port spelled out
        {"origin": "http://127.0.0.1", "sec-fetch-site": "same-origin"},
        {"sec-fetch-site": "same-origin"},
        {},  # curl / a script: no Origin, no Sec-Fetch-Site, on an allowed Host
    ],
)
def test_json_from_the_app_itself_is_accepted(client, headers):
    r = client.post("/api/marks", json={"id": "robots-04", "liked": True}, headers=headers)
    assert r.status_code == 200 and "robots-04" in liked(client)
    r = client.post("/api/marks", json={"id": "robots-04", "liked": False}, headers=headers)
    assert r.status_code == 200 and "robots-04" not in liked(client)


def test_origin_comparison():
    assert same_origin("http://127.0.0.1:8765", "http", ("127.0.0.1", 8765))
    assert same_origin("HTTP://LOCALHOST:8765", "http", ("localhost", 8765))
    assert same_origin("http://[::1]:8765", "http", ("[::1]", 8765))
    assert not same_origin("http://[::1]:8766", "http", ("[::1]", 8765))
    assert not same_origin("http://127.0.0.1", "http", ("127.0.0.1", 8765))
    assert not same_origin("http://127.0.0.1:8765", "https", ("127.0.0.1", 8765))


def test_other_methods_never_reach_a_handler_uninvited(client):
    for method in ("PUT", "DELETE", "PATCH"):
        r = client.request(method, "/api/marks", json=LIKE, headers=SAME)
        assert r.status_code == 405  # the guard let it pass: no such route
        r = client.request(method, "/papers/robots-02", content=b"x", headers={"content-type": "text/plain"})
        assert r.status_code == 403


# -- bodies -------------------------------------------------------------------------------------


def test_body_over_the_limit_gets_413(client):
    before = liked(client)
    body = json.dumps(LIKE).encode()
    padded = body[:-1] + b" " * (MAX_BODY - len(body)) + b"}"  # exactly the limit: fine
    assert len(padded) == MAX_BODY
    r = client.post("/api/marks", content=padded, headers={**SAME, "content-type": "application/json"})
    assert r.status_code == 200
    client.post("/api/marks", json={**LIKE, "liked": False})
    over = padded[:-1] + b" }"
    r = client.post("/api/marks", content=over, headers={**SAME, "content-type": "application/json"})
    assert r.status_code == 413

    # streamed without a Content-Length (chunked): counted as it arrives
    def chunks():
        for _ in range(20):
            yield b" " * 8192

    r = client.post("/api/marks", content=chunks(), headers={**SAME, "content-type": "application/json"})
    assert r.status_code == 413
    # a GET that announces a big body is refused too
    r = client.request("GET", "/healthz", content=b"x" * (MAX_BODY + 1))
    assert r.status_code == 413
    assert liked(client) == before


@pytest.mark.parametrize(
    "body",
    [
        {"id": "robots-02", "liked": "no"},
        {"id": "robots-02", "liked": "false"},
        {"id": "robots-02", "liked": 1},
        {"id": "robots-02", "liked": 0},
        {"id": "robots-02", "liked": None},
        {"id": "robots-02"},
        {"liked": True},
        {"id": 5, "liked": True},
        {"id": ["robots-02"], "liked": True},
        {"id": "", "liked": True},
        {"id": "robots-02\u0000", "liked": True},
        {"id": "robots-02", "liked": True, "collection": "x"},
        ["robots-02", True],
        "robots-02",
        None,
        1,
    ],
)
def test_like_body_types_are_checked_strictly(client, body):
    before = liked(client)
    r = client.post(
        "/api/marks", content=json.dumps(body).encode(), headers={**SAME, "content-type": "application/json"}
    )
    assert r.status_code == 400 and "send JSON" in r.json()["error"]
    assert liked(client) == before


def test_malformed_json_is_a_400(client):
    for raw in (b"{", b"\xff\xfe", b"[" * 30000 + b"]" * 30000, b"", b'{"id": NaN}'):
        r = client.post("/api/marks", content=raw, headers={**SAME, "content-type": "application/json"})
        assert r.status_code == 400, raw[:20]


# -- query parameters ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/papers?page=99999999999999999999999",
        "/papers?page=-1",
        "/papers?page=0",
        "/papers?page=x",
        "/papers?page=1.5",
        "/papers?page=",
        "/search?q=a&page=-x",
        "/search?q=a&page=101",
        "/api/search?q=robot&k=100000",
        "/api/search?q=robot&k=0",
        "/api/search?q=robot&k=abc",
        "/api/search?q=robot&offset=-1",
        "/api/search?q=robot&offset=99999999999999999999",
        "/api/search",
        "/?lang=fr",
        "/papers?lang=" + "z" * 50,
        "/papers?sort=evil",
        "/papers?area=no+such+area",
        "/papers?kind=poem",
        "/papers?decision=Nope",
        "/papers?has_code=yes",
        "/papers?topic=x",
        "/papers?topic=f%C2%B2",
        "/search?q=" + "a" * 1001,
        "/api/search?q=" + "a" * 1001,
        "/search?q=a%00b",
        "/papers?area=%00",
        "/papers/robots-02%00",
        "/topics/0?level=7",
        "/topics/1?level=abc",
        "/search?q=robot&area=" + "x" * 301,
        "/api/map?list=" + "x" * 301,
        "/papers?q=" + "%E4%B8%AD" * 6000,
    ],
)
def test_bad_parameters_get_a_short_400(client, url):
    r = client.get(url)
    assert r.status_code == 400, (url, r.status_code)
    assert "Traceback" not in r.text and len(r.content) < 20_000
    if url.startswith("/api/"):
        assert len(r.json()["error"]) <= 200


@pytest.mark.parametrize(
    "url",
    [
        "/papers?page=10000",
        "/papers?sort=title&page=10000",
        "/search?q=robot&page=100",
        "/api/search?q=robot&k=100&offset=1000",
        "/?lang=zh",
        "/papers?lang=",
        "/papers?sort=",
        "/papers?area=&kind=&topic=&decision=&has_code=&sort=list",  # the empty filter form
        "/papers?decision=Accept",
        "/search?q=" + "a" * 1000,
    ],
)
def test_edge_values_inside_the_bounds_answer(client, url):
    assert client.get(url).status_code == 200, url


def _route_parameters(app) -> list[tuple[str, list[str], list[str]]]:
    """(path template, path parameter names, query parameter names) of every route,
    found from the app itself so that a new route or parameter is fuzzed too."""
    out = []
    for route in app.routes:
        if not isinstance(route, APIRoute) or "GET" not in route.methods:
            continue
        names, stack = [], [route.dependant]
        while stack:
            dep = stack.pop()
            names += [p.name for p in dep.query_params]
            stack += dep.dependencies
        if route.response_class is HTMLResponse:  # every page reads `lang` (in render)
            names.append("lang")
        out.append((route.path, [p.name for p in route.dependant.path_params], sorted(set(names))))
    return out


BOUNDARY = [
    "",
    "0",
    "1",
    "-1",
    "99999999999999999999999",
    "9223372036854775808",
    "-9223372036854775809",
    "10001",
    "1001",
    "101",
    "1.5",
    "1e9",
    "NaN",
    "inf",
    " 1",
    "١٢",
    "²",
    "f",
    "f1",
    "f99999999999999999999",
    "zh",
    "en",
    "EN",
    "Accept",
    "list",
    "title",
    "method",
    "\x00",
    "%00",
    "*",
    "'",
    '"',
    "<script>",
    "../../etc/passwd",
    "OR 1=1",
    "NEAR(a b)",
    "a* OR b",
    "learning on time series and dynamical systems",
    "fixture",
    "x" * 301,
    "中" * 1001,
    "\u202e\ufeff",
    "\r\nSet-Cookie: a=b",
]
VALUES = st.one_of(
    st.text(max_size=40),
    st.builds(lambda t, n: t * n, st.text(min_size=1, max_size=8), st.integers(100, 400)),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.sampled_from(BOUNDARY),
)


# a query the test client itself refuses to send (its URL limit is 64 KB) tests nothing of
# the server: a route with many parameters drawn long and multi-byte can pass that
QUERY_LIMIT = 32_000


def _fill(path: str, names: list[str], value: str) -> str:
    for name in names:
        path = path.replace("{" + name + "}", quote(value, safe=""))
    return path


@pytest.mark.slow  # fuzzes every handler or route with many values
def test_every_parameter_of_every_route_with_boundary_values(client):
    """Each query and path parameter the app has, one boundary value at a time."""
    routes = _route_parameters(client.app)
    assert {"page", "k", "offset", "q", "lang", "sort", "area", "level"} <= {
        n for _, _, names in routes for n in names
    }  # the parameters were found
    for path, path_names, names in routes:
        for value in BOUNDARY:
            if path_names:
                r = client.get(_fill(path, path_names, value))
                assert r.status_code < 500, (path, value)
            for name in names:
                r = client.get(
                    _fill(path, path_names, "robots-02" if "paper" in path else "0"), params={name: value}
                )
                assert r.status_code < 500, (path, name, value, r.text[:300])


@pytest.mark.slow  # fuzzes every handler or route with many values
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_query_parameters_never_get_a_5xx(client, data):
    """Every route once per example, with a random set of its parameters."""
    for path, path_names, names in _route_parameters(client.app):
        path = _fill(path, path_names, data.draw(VALUES, label="path"))
        params: dict[str, str] = {}
        for name in names:
            if data.draw(st.booleans(), label="use " + name):
                value = data.draw(VALUES, label=name)
                if len(urlencode({**params, name: value})) <= QUERY_LIMIT:
                    params[name] = value
        r = client.get(path, params=params)
        assert r.status_code < 500, (path, params, r.text[:300])
        assert "Traceback" not in r.text


# -- read-only ----------------------------------------------------------------------------------


def test_read_only_app_refuses_every_change_and_writes_nothing(db, tmp_path):
    copy = tmp_path / "ro.db"
    shutil.copy(db, copy)
    before = copy.read_bytes()
    with TestClient(create_app(copy, read_only=True), base_url="http://127.0.0.1") as c:
        assert c.get("/papers/robots-02").status_code == 200
        assert c.get("/search", params={"q": "robot"}).status_code == 200
        for method in ("POST", "PUT", "DELETE"):
            r = c.request(method, "/api/marks", json=LIKE, headers=SAME)
            assert r.status_code == 403 and "read-only" in r.json()["error"]
        assert c.get("/api/marks").json()["liked"] == []
    assert copy.read_bytes() == before
    assert not copy.with_name("ro.db-wal").exists() or copy.with_name("ro.db-wal").stat().st_size == 0


# -- a live `paperatlas serve` ------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"  # a zombie holds no socket


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            s.listen()
        except OSError:
            return False
    return True


def start_serve(db: Path, *extra: str, workers: int = 2) -> tuple[subprocess.Popen, int]:
    port = free_port()
    proc = subprocess.Popen(
        [PAPERATLAS, "serve", "--db", str(db), "--port", str(port), "--workers", str(workers), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PAPERATLAS_PAGE_CACHE": "1"},
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited {proc.returncode}: {proc.stderr.read()!r}")
        try:
            if request(port, "GET", "/healthz")[0] == 200:
                return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("serve did not answer in 60 s")


def request(
    port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def live(db):
    proc, port = start_serve(db)
    yield port
    stop(proc)


@pytest.mark.slow  # starts `paperatlas serve` processes
def test_live_server_refuses_csrf_foreign_hosts_and_big_bodies(live):
    port = live
    marks = lambda: json.loads(request(port, "GET", "/api/marks")[1])["liked"]  # noqa: E731
    before = marks()
    like = json.dumps({"id": "graphs-01", "liked": True}).encode()
    for headers, body in (
        ({"Content-Type": "text/plain"}, like),
        ({"Content-Type": "application/x-www-form-urlencoded"}, b"id=graphs-01&liked=true"),
        ({"Content-Type": "application/json", "Origin": "http://evil.example"}, like),
        ({"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port + 1}"}, like),
        ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, like),
    ):
        assert request(port, "POST", "/api/marks", body, headers)[0] == 403, headers
    assert marks() == before
    assert request(port, "GET", "/api/marks", headers={"Host": "evil.example"})[0] == 400
    assert request(port, "GET", "/", headers={"Host": f"evil.example:{port}"})[0] == 400
    big = b'{"id": "graphs-01", "liked": true' + b" " * MAX_BODY + b"}"
    status, _ = request(
        port,
        "POST",
        "/api/marks",
        big,
        {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port}"},
    )
    assert status == 413
    assert request(port, "GET", "/papers?page=99999999999999999999999")[0] == 400
    # a proxy header cannot make another scheme's origin look like the server's own
    assert (
        request(
            port,
            "POST",
            "/api/marks",
            like,
            {
                "Content-Type": "application/json",
                "X-Forwarded-Proto": "https",
                "Origin": f"https://127.0.0.1:{port}",
            },
        )[0]
        == 403
    )
    assert marks() == before
    # the app's own page's request still works
    ok = request(
        port,
        "POST",
        "/api/marks",
        like,
        {
            "Content-Type": "application/json",
            "Origin": f"http://127.0.0.1:{port}",
            "Sec-Fetch-Site": "same-origin",
        },
    )
    assert ok[0] == 200 and "graphs-01" in marks()
    request(
        port,
        "POST",
        "/api/marks",
        json.dumps({"id": "graphs-01", "liked": False}).encode(),
        {"Content-Type": "application/json"},
    )
    assert marks() == before


@pytest.mark.slow  # starts `paperatlas serve` processes
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_live_server_fuzzed_parameters_never_get_a_5xx(live, client, data):
    path, path_names, names = data.draw(st.sampled_from(_route_parameters(client.app)))
    path = _fill(path, path_names, data.draw(VALUES, label="path"))
    params = {n: data.draw(VALUES, label=n) for n in names if data.draw(st.booleans())}
    query = "&".join(f"{quote(k)}={quote(v, safe='')}" for k, v in params.items())
    status, body = request(live, "GET", path + ("?" + query if query else ""))
    assert status < 500, (path, params, body[:300])


@pytest.mark.slow  # starts `paperatlas serve` processes
def test_kill_9_of_serve_leaves_no_worker_and_frees_the_port(db):
    proc, port = start_serve(db, workers=2)
    deadline = time.time() + 30
    workers = []
    while time.time() < deadline and len(workers) < 2:  # the worker processes of uvicorn
        workers = [
            p
            for p in _children(proc.pid)
            if "spawn_main" in Path(f"/proc/{p}/cmdline").read_text(errors="replace")
        ]
        time.sleep(0.2)
    assert len(workers) == 2, _children(proc.pid)
    everyone = _children(proc.pid)  # workers and multiprocessing's helper
    proc.kill()  # SIGKILL: the parent can do nothing about it
    proc.wait()
    deadline = time.time() + 15
    while time.time() < deadline and (any(map(_alive, everyone)) or not _port_free(port)):
        time.sleep(0.2)
    assert [p for p in everyone if _alive(p)] == []
    assert _port_free(port)


WORKER = """
import os, sys, time
from paperatlas import workers
from paperatlas.web import server
if sys.argv[1] == "watchdog":  # what a system without PR_SET_PDEATHSIG gets
    workers._set_parent_death_signal = lambda sig=None: False
    workers.WATCH_SECONDS = 0.1
# named only now: with it in the environment, `import paperatlas` above would tie this
# process already (the parent-death signal), and the watchdog would go untested
os.environ["PAPERATLAS_SERVE_PARENT"] = os.environ.pop("TEST_PARENT")
server.die_with_parent()
print("ready", flush=True)
time.sleep(60)
"""
PARENT = """
import os, subprocess, sys, time
env = dict(os.environ, TEST_PARENT=str(os.getpid()))
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]], env=env,
                         stdout=subprocess.PIPE)
assert child.stdout.readline().strip() == b"ready"
print(child.pid, flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("how", ["prctl", "watchdog"])
def test_a_worker_ends_when_its_parent_is_killed(how):
    parent = subprocess.Popen([sys.executable, "-c", PARENT, WORKER, how], stdout=subprocess.PIPE)
    try:
        child = int(parent.stdout.readline())
        assert _alive(child)
        parent.kill()
        parent.wait()
        deadline = time.time() + 10
        while time.time() < deadline and _alive(child):
            time.sleep(0.05)
        assert not _alive(child)
    finally:
        parent.kill()


def test_die_with_parent_does_nothing_outside_a_worker(monkeypatch):
    from paperatlas import workers
    from paperatlas.web import server

    monkeypatch.delenv("PAPERATLAS_SERVE_PARENT", raising=False)
    called = []
    monkeypatch.setattr(workers, "_set_parent_death_signal", lambda sig=None: called.append(sig))
    server.die_with_parent()
    assert called == []


@pytest.mark.slow  # starts `paperatlas serve` processes
def test_busy_port_fails_at_once_with_one_line(db):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.time()
        r = subprocess.run(
            [PAPERATLAS, "serve", "--db", str(db), "--port", str(port), "--workers", "2"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        elapsed = time.time() - started
    assert r.returncode == 2, r
    assert r.stderr.count("\n") == 1 and "already in use" in r.stderr and str(port) in r.stderr
    assert "serving" not in r.stdout and "Traceback" not in r.stderr
    assert elapsed < 30


@pytest.mark.slow  # starts `paperatlas serve` processes
def test_serve_refuses_a_missing_store_unless_asked_to_create(tmp_path):
    missing = tmp_path / "typo" / "atlas.db"
    r = subprocess.run(
        [PAPERATLAS, "serve", "--db", str(missing)], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2
    assert r.stderr.strip() == (f"error: no atlas at {missing}; run paperatlas add first, or pass --create")
    assert not missing.exists() and not missing.parent.exists()
    proc, port = start_serve(missing, "--create", workers=1)
    try:
        assert request(port, "GET", "/papers")[0] == 200
    finally:
        stop(proc)
    assert missing.exists()


@pytest.mark.slow  # starts `paperatlas serve` processes
@pytest.mark.parametrize("args", [["--host", "0.0.0.0"], ["--host", "192.0.2.1"], ["--host", "::"]])
def test_non_loopback_host_needs_allow_host_or_read_only(db, args):
    r = subprocess.run(
        [PAPERATLAS, "serve", "--db", str(db), *args], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "--allow-host" in r.stderr and "--read-only" in r.stderr


@pytest.mark.slow  # starts `paperatlas serve` processes
def test_live_read_only_server(db, tmp_path):
    copy = tmp_path / "ro.db"
    shutil.copy(db, copy)
    before = copy.read_bytes()
    proc, port = start_serve(copy, "--read-only", workers=1)
    try:
        status, _ = request(
            port, "POST", "/api/marks", json.dumps(LIKE).encode(), {"Content-Type": "application/json"}
        )
        assert status == 403
        assert request(port, "GET", "/papers/robots-02")[0] == 200
    finally:
        stop(proc)
    assert copy.read_bytes() == before


# -- a real browser: a page on another origin tries to like a paper ---------------------------

ATTACK_PAGE = """<!doctype html><html><body>
<form id="f" method="POST" action="{target}/api/marks" enctype="text/plain">
<input name='{{"id": "robots-01", "liked": true, "x": "' value='"}}'></form>
<script>
var target = "{target}";
var body = JSON.stringify({{id: "robots-01", liked: true}});
Promise.allSettled([
  fetch(target + "/api/marks", {{method: "POST", mode: "no-cors", body: body,
                                 headers: {{"Content-Type": "text/plain"}}}}),
  fetch(target + "/api/marks", {{method: "POST", mode: "no-cors", body: "id=robots-01&liked=true",
                                 headers: {{"Content-Type": "application/x-www-form-urlencoded"}}}}),
  fetch(target + "/api/marks", {{method: "POST", body: body,
                                 headers: {{"Content-Type": "application/json"}}}}),
  fetch(target + "/api/marks", {{method: "POST", mode: "no-cors", body: body}})
]).then(function (results) {{
  document.title = "fetched " + results.map(function (r) {{ return r.status; }}).join(",");
  setTimeout(function () {{ document.getElementById("f").submit(); }}, 100);
}});
</script></body></html>"""


@pytest.mark.browser
def test_a_page_on_another_origin_cannot_change_marks(live, tmp_path):
    import http.server

    from browserkit import CHROMEDRIVER, CHROMIUM, headless_chrome, wait

    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("chromium and chromedriver are not installed (run `make browser-deps`)")

    target = f"http://127.0.0.1:{live}"
    (tmp_path / "attack.html").write_text(ATTACK_PAGE.format(target=target), encoding="utf-8")
    handler = lambda *a, **kw: http.server.SimpleHTTPRequestHandler(  # noqa: E731
        *a, directory=str(tmp_path), **kw
    )
    evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    driver = headless_chrome()
    marks = lambda: json.loads(request(live, "GET", "/api/marks")[1])["liked"]  # noqa: E731
    before = marks()
    try:
        driver.get(f"http://127.0.0.1:{evil.server_address[1]}/attack.html")
        # the fetches settle, then the form is posted and the browser shows the refusal
        # (the page posts its form only once its four fetches have settled)
        wait(
            driver,
            lambda d: (
                d.current_url.startswith(target)
                and d.execute_script("return document.readyState") == "complete"
            ),
            timeout=20,
        )
        assert "robots-01" not in marks() and marks() == before
        assert "application/json only" in driver.page_source  # the form met the guard
        # and the app's own page still likes a paper from the same browser
        driver.get(f"{target}/papers/robots-01")
        star = driver.find_element("css selector", ".paper-head .star")
        star.click()
        wait(
            driver,
            lambda d: (
                d.find_element("css selector", ".paper-head .star").get_attribute("aria-pressed") == "true"
            ),
        )
        assert "robots-01" in marks()
        driver.find_element("css selector", ".paper-head .star").click()
        wait(driver, lambda d: "robots-01" not in marks())
    finally:
        driver.quit()
        evil.shutdown()
        evil.server_close()  # its listening socket too, not left to the garbage collector
