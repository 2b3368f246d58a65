"""The web app's gzip (web/compression.py): what a client that accepts gzip gets unpacks to
the bytes a plain client gets, streamed bodies arrive piece by piece, and what should go out
as it is (small, already encoded, images, partial content) does."""

from __future__ import annotations

import gzip
import zlib

import pytest
from fastapi import FastAPI
from fastapi.responses import PlainTextResponse, Response, StreamingResponse
from fastapi.testclient import TestClient

from atlas_fixture import SAMPLE, web_atlas_db, web_client  # noqa: F401 - the db and client fixtures
from paperatlas.web import compression
from paperatlas.web.compression import Gzip

TEXT = "A paper about protein folding and graph neural networks. " * 200  # ~11 KB
RAW = {"Accept-Encoding": "gzip"}


def app_of(minimum_size: int = 4096) -> TestClient:
    app = FastAPI()
    app.add_middleware(Gzip, minimum_size=minimum_size)

    @app.get("/text")
    def text() -> PlainTextResponse:
        return PlainTextResponse(TEXT)

    @app.get("/small")
    def small() -> PlainTextResponse:
        return PlainTextResponse("short")

    @app.get("/image")
    def image() -> Response:
        return Response(TEXT.encode(), media_type="image/png")

    @app.get("/svg")
    def svg() -> Response:
        return Response(TEXT.encode(), media_type="image/svg+xml")

    @app.get("/encoded")
    def encoded() -> Response:
        return Response(
            gzip.compress(TEXT.encode()), headers={"Content-Encoding": "gzip"}, media_type="text/plain"
        )

    @app.get("/partial")
    def partial() -> Response:
        return Response(TEXT.encode(), status_code=206, media_type="text/plain")

    @app.get("/stream")
    def stream() -> StreamingResponse:
        return StreamingResponse(iter([TEXT[:5000], TEXT[5000:], ""]), media_type="text/plain")

    @app.get("/big")
    def big() -> PlainTextResponse:
        return PlainTextResponse(TEXT * 120)  # over THREAD_BYTES: packed in a worker thread

    return TestClient(app)


def raw_body(client: TestClient, path: str, headers: dict[str, str] = RAW) -> tuple[bytes, dict[str, str]]:
    """The body as sent (httpx would unpack it) and the headers."""
    with client.stream("GET", path, headers=headers) as answer:
        return b"".join(answer.iter_raw()), dict(answer.headers)


@pytest.mark.parametrize("path", ["/text", "/svg", "/big"])
def test_a_compressed_body_unpacks_to_the_plain_one_with_its_own_length(path):
    client = app_of()
    plain, plain_headers = raw_body(client, path, {"Accept-Encoding": "identity"})
    packed, headers = raw_body(client, path)
    assert "content-encoding" not in plain_headers
    assert headers["content-encoding"] == "gzip" and "Accept-Encoding" in headers["vary"]
    assert int(headers["content-length"]) == len(packed) < len(plain)
    assert gzip.decompress(packed) == plain


def test_a_streamed_body_is_compressed_piece_by_piece():
    with app_of().stream("GET", "/stream", headers=RAW) as answer:
        pieces = list(answer.iter_raw())
        headers = answer.headers
    assert headers["content-encoding"] == "gzip" and "content-length" not in headers
    assert gzip.decompress(b"".join(pieces)).decode() == TEXT
    # each piece is flushed: the first one unpacks whole on its own, before the rest is there
    assert zlib.decompressobj(16 + 15).decompress(pieces[0]).decode() == TEXT[:5000]


@pytest.mark.parametrize("path", ["/small", "/image", "/encoded", "/partial"])
def test_what_should_go_out_as_it_is_does(path):
    client = app_of()
    plain, _ = raw_body(client, path, {"Accept-Encoding": "identity"})
    sent, headers = raw_body(client, path)
    assert sent == plain
    assert headers.get("content-encoding") == ("gzip" if path == "/encoded" else None)


def test_zlib_stands_in_where_isal_is_not_installed(monkeypatch):
    monkeypatch.setattr(compression, "deflate", zlib)
    monkeypatch.setattr(compression, "LEVEL", 5)
    packed, headers = raw_body(app_of(), "/stream")
    assert headers["content-encoding"] == "gzip" and gzip.decompress(packed).decode() == TEXT


def test_the_pages_unpack_to_what_a_plain_client_gets(client):
    for path in ("/search?q=protein+folding", "/papers/protein-02", "/papers", "/api/map"):
        plain = client.get(path, headers={"Accept-Encoding": "identity"})
        packed, headers = raw_body(client, path)
        assert headers["content-encoding"] == "gzip", path
        assert gzip.decompress(packed) == plain.content, path
