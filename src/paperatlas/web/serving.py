"""What makes the web app fast under load, kept apart from the pages themselves.

- `SecurityHeaders`: the CSP and friends on every response, as a plain ASGI middleware
  (Starlette's `@app.middleware("http")` wraps each response in extra tasks and streams,
  which cost more than a cheap page itself).
- `PageCache`: rendered pages, keyed by URL, content encoding and the store's generation
  (`Store.generation()`: a number that changes whenever any process commits), so a
  page is reused only while nothing it could show has changed; bounded by bytes (LRU) and
  by age (pages also show data the app keeps for a few seconds, e.g. the loaded map).
- `tune_process()`: settings for a server process (one BLAS thread per request).
- `NoDelayHttpToolsProtocol`: uvicorn's HTTP protocol with TCP_NODELAY on every connection
  (see its docstring: why the server runs on asyncio's own loop), and an absolute URI's
  host taken as the request's Host.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from paperatlas.web.i18n import lang_from_header

CACHE_BYTES = 48 * 1024 * 1024  # per server process; ~1,500 paper pages
Headers = list[tuple[bytes, bytes]]
PageKey = tuple[str, bytes, bool, object]  # path, query string#browser language, gzip or not, version()
# never cached: own rules, trivial, or files too big to keep (downloads)
CACHEABLE_PREFIXES = ("/api/", "/static/", "/healthz", "/download/")


class SecurityHeaders:
    """Adds the given headers to every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp, headers: dict[str, str]) -> None:
        self.app = app
        self.headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in present]
                if extra:
                    message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class PageCache:
    """Pure ASGI: GET responses of HTML pages, replayed while the key is unchanged.

    The key is (path, query string, gzip or not, `version()`), where `version()` is taken
    BEFORE the page is rendered: a page can then only be newer than its key, never older.
    A page is also dropped after `max_age` seconds: what the app itself keeps for a while
    (the map, overview counts) may be older than the store, and must not live on in here.
    Only complete 200 responses are kept; `X-Cache: hit|miss` says which one answered.
    """

    def __init__(
        self, app: ASGIApp, version: Callable[[], object], max_bytes: int = CACHE_BYTES, max_age: float = 30.0
    ) -> None:
        self.app = app
        self.version = version
        self.max_bytes = max_bytes
        self.max_age = max_age
        self._pages: OrderedDict[PageKey, tuple[Headers, bytes, float]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def stats(self) -> dict[str, int]:
        return {"hits": self.hits, "misses": self.misses, "pages": len(self._pages), "bytes": self._bytes}

    def _key(self, scope: Scope) -> PageKey | None:
        if (
            scope["type"] != "http"
            or scope["method"] != "GET"
            or scope["path"].startswith(CACHEABLE_PREFIXES)
        ):
            return None
        gzip = any(k == b"accept-encoding" and b"gzip" in v for k, v in scope["headers"])
        # a page without ?lang= is in the browser's language (render.page_lang)
        header = next((v for k, v in scope["headers"] if k == b"accept-language"), b"")
        lang = lang_from_header(header.decode("latin-1")).encode()
        return (scope["path"], scope.get("query_string", b"") + b"#" + lang, gzip, self.version())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = self._key(scope)
        if key is None:
            return await self.app(scope, receive, send)
        with self._lock:
            cached = self._pages.get(key)
            if cached is not None and time.monotonic() - cached[2] > self.max_age:
                self._drop(key)
                cached = None
            if cached is not None:
                self._pages.move_to_end(key)
                self.hits += 1
        if cached is not None:
            headers, body, _ = cached
            await send(
                {"type": "http.response.start", "status": 200, "headers": [*headers, (b"x-cache", b"hit")]}
            )
            await send({"type": "http.response.body", "body": body})
            return
        self.misses += 1
        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                message = {**message, "headers": [*message.get("headers", []), (b"x-cache", b"miss")]}
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    self._keep(key, start, b"".join(chunks))
            await send(message)

        await self.app(scope, receive, capture)

    def _keep(self, key: PageKey, start: dict[str, Any], body: bytes) -> None:
        headers = list(start.get("headers", []))
        content_type = next((v for k, v in headers if k.lower() == b"content-type"), b"")
        if start.get("status") != 200 or not content_type.startswith(b"text/html"):
            return
        size = len(body) + 200
        if size > self.max_bytes // 8:
            return
        with self._lock:
            if key in self._pages:
                return
            self._pages[key] = (headers, body, time.monotonic())
            self._bytes += size
            while self._bytes > self.max_bytes and self._pages:
                self._drop(next(iter(self._pages)))

    def _drop(self, key: PageKey) -> None:  # with the lock held
        _, body, _ = self._pages.pop(key)
        self._bytes -= len(body) + 200


def tune_process() -> None:
    """Settings for a web server process, not for a library user's process.

    BLAS threads: a page's one matrix-vector product gains nothing from them, and with
    many requests in flight on few cores their spinning costs several times the product
    itself (measured: 7.8 ms with the default threads, 1.4 ms with one, 15.6k vectors)."""
    import numpy  # noqa: F401 - loads the BLAS library: threadpoolctl limits loaded ones only

    try:
        from threadpoolctl import threadpool_limits

        _LIMITS.append(threadpool_limits(limits=1, user_api="blas"))
    except Exception:  # threadpoolctl missing or confused by the BLAS build: leave as is
        pass


_LIMITS: list = []  # kept for the life of the process


class NoDelayHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with TCP_NODELAY set on each accepted connection.

    `paperatlas serve` runs on Python's asyncio loop, not uvloop. Under uvloop, with 50
    clients on 2 cores, 1% of requests waited 0.3-1.7 s before their bytes were even read
    (p99 297-875 ms at p95 ~150 ms). On asyncio's loop the same load gave p99 172-188 ms
    at the same p95, for ~15% more CPU per page. But with several workers uvicorn hands
    asyncio a listening socket whose accepted connections asyncio does not recognise as
    TCP, so it leaves Nagle's algorithm on, and each response waited ~40 ms for the
    client's delayed ACK. Setting TCP_NODELAY here removes that wait."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        import socket

        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            with contextlib.suppress(OSError):  # not a TCP socket after all: nothing to tune
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)

    def on_headers_complete(self) -> None:
        # An absolute URI in the request line (`GET http://evil.example/ HTTP/1.1`) names
        # the host the request is for, and HTTP/1.1 says a server goes by it, not by the
        # Host header (RFC 9112, 3.2.2). uvicorn keeps only its path: here its authority
        # becomes the one Host header, so web/guard.py checks it like any other.
        if not self.url.startswith(b"/") and self.url != b"*":
            self.headers[:] = [(k, v) for k, v in self.headers if k != b"host"]
            self.headers.append((b"host", request_target_host(self.url)))
        super().on_headers_complete()


def request_target_host(url: bytes) -> bytes:
    """The authority of an absolute-form request target ('http://a.example:80/x' ->
    'a.example:80'); b"" when it has none (the guard refuses an empty Host)."""
    _, sep, rest = url.partition(b"://")
    if not sep:
        return b""
    for end in (b"/", b"?", b"#"):
        rest = rest.split(end, 1)[0]
    return rest
