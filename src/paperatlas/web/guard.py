"""Who may talk to the web app: the checks every request passes before any page or API.

Any web page the user visits is hostile (the project's design rule): it can make the browser
send requests to 127.0.0.1, and a DNS-rebinding page can even read the answers. So:

- **Host allow-list** (against DNS rebinding): the `Host` header must name 127.0.0.1,
  localhost or [::1] (any port), or a name the user passed with `serve --allow-host`;
  anything else, a missing or a repeated Host, gets 400. A rebinding page's requests carry
  its own domain name in `Host`, so they stop here, on every route (static files too). A
  request line with an absolute URI (`GET http://evil.example/ HTTP/1.1`) names its host
  there: the server's protocol (serving.py) makes that its Host, as HTTP says, so it is
  checked the same way.
- **State changes come only from the app's own pages** (against CSRF): every method but
  GET, HEAD and OPTIONS needs `Content-Type: application/json` (a cross-site form or a
  "simple" fetch cannot send that without a CORS preflight, which this app never grants),
  and when the browser says where the request comes from, it must be here:
  `Origin` equal to the app's own origin (scheme, host and port of the `Host` it was sent
  to), `Sec-Fetch-Site` (when sent) `same-origin`. Browsers send `Origin` on every
  cross-site POST, so a request with neither header is not from another site's page: it is
  a command-line client (curl, a script) on an allowed host, and it is let through.
  Everything else gets 403. A repeated `Origin` or `Sec-Fetch-Site` gets 400 on any method
  (no check picks one of two values).
- **Read-only mode** (`serve --read-only`): every state-changing request gets 403.
- **Sizes**: a request body over `max_body` bytes (64 KiB; a like is ~60 bytes) gets 413,
  whether it says its length or streams it; a query string over MAX_QUERY_BYTES or a NUL
  byte in the path or the query gets 400 (the routes validate each parameter themselves).

Refusals are short: JSON `{"error": ...}` under /api/, one line of text elsewhere.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_BODY = 64 * 1024
MAX_QUERY_BYTES = 16 * 1024  # a 1,000-character Chinese query is ~9 KiB percent-encoded
DEFAULT_PORTS = {"http": 80, "https": 443}


def split_host(value: str) -> tuple[str, int | None] | None:
    """'Example.org:8765' -> ('example.org', 8765); '[::1]' -> ('[::1]', None); None when
    it is not a host[:port] at all."""
    value = value.strip().lower()
    if not value:
        return None
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[: end + 1], value[end + 1 :]
    else:
        name, colon, after = value.partition(":")
        rest = colon + after
    if not name or (not name.startswith("[") and any(c in name for c in "/\\@?#%[] \t")):
        return None
    if not rest:
        return name, None
    digits = rest[1:]
    if not rest.startswith(":") or not (digits.isascii() and digits.isdigit()) or len(digits) > 5:
        return None
    port = int(digits)
    return (name, port) if port <= 65535 else None


def normalise_host_name(name: str) -> str:
    """A name given to --allow-host as Host headers spell it: lower case, IPv6 in brackets,
    no port ('::1' -> '[::1]', 'Atlas.lan:8765' -> 'atlas.lan')."""
    name = name.strip().lower()
    if ":" in name and not name.startswith("[") and name.count(":") > 1:  # a bare IPv6 address
        return f"[{name}]"
    parsed = split_host(name)
    if parsed is None:
        raise ValueError(f"not a host name: {name!r}")
    return parsed[0]


class RequestGuard:
    """Pure ASGI middleware, outermost, so no cached page reaches a refused request."""

    def __init__(
        self, app: ASGIApp, allow_hosts: Iterable[str] = (), read_only: bool = False, max_body: int = MAX_BODY
    ) -> None:
        self.app = app
        self.hosts = LOOPBACK_HOSTS | {normalise_host_name(h) for h in allow_hosts}
        self.read_only = read_only
        self.max_body = max_body
        self._parsed: dict[bytes, tuple[str, int | None] | None] = {}  # Host header -> split

    def _host(self, raw: bytes) -> tuple[str, int | None] | None:
        """The allowed (name, port) a Host header names, or None; a request's few distinct
        Host values are split once, not on every request."""
        try:
            return self._parsed[raw]
        except KeyError:
            pass
        parsed = split_host(raw.decode("latin-1"))
        if parsed is not None and parsed[0] not in self.hosts:
            parsed = None
        if len(self._parsed) >= 256:  # whoever sends many names gets no memory of them
            self._parsed.clear()
        self._parsed[raw] = parsed
        return parsed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan (and websockets, which no route accepts)
            return await self.app(scope, receive, send)
        path = scope["path"]
        host = origin = fetch_site = content_type = length = None
        hosts_seen = origins_seen = sites_seen = 0
        for key, value in scope["headers"]:
            if key == b"host":
                host, hosts_seen = value, hosts_seen + 1
            elif key == b"origin":
                origin, origins_seen = value, origins_seen + 1
            elif key == b"sec-fetch-site":
                fetch_site, sites_seen = value, sites_seen + 1
            elif key == b"content-type":
                content_type = value
            elif key == b"content-length":
                length = value
        parsed = self._host(host) if host is not None and hosts_seen == 1 else None
        if parsed is None:
            return await refuse(
                send,
                path,
                400,
                "host not allowed: this app answers only "
                "127.0.0.1, localhost and the names given to --allow-host",
            )
        if origins_seen > 1 or sites_seen > 1:
            # which of two values would a check believe? Neither: a browser sends one
            return await refuse(send, path, 400, "repeated Origin or Sec-Fetch-Site header")
        query = scope.get("query_string", b"")
        if len(query) > MAX_QUERY_BYTES:
            return await refuse(send, path, 400, "query string too long")
        if b"%00" in query or b"\x00" in query or "\x00" in path:
            return await refuse(send, path, 400, "NUL byte in the request")
        if length is not None:
            if not (length.isdigit() and len(length) < 19):
                return await refuse(send, path, 400, "bad Content-Length")
            if int(length) > self.max_body:
                return await refuse(send, path, 413, f"request body over {self.max_body} bytes")
        if scope["method"] in SAFE_METHODS:
            return await self.app(scope, receive, send)
        # -- a state-changing request ------------------------------------------------------
        if self.read_only:
            return await refuse(send, path, 403, "read-only: this server changes nothing")
        media = (content_type or b"").split(b";", 1)[0].strip().lower()
        if media != b"application/json":
            return await refuse(send, path, 403, "state changes take application/json only")
        if fetch_site is not None and fetch_site.strip().lower() != b"same-origin":
            return await refuse(send, path, 403, "cross-site request refused")
        if origin is not None and not same_origin(origin.decode("latin-1"), scope["scheme"], parsed):
            return await refuse(send, path, 403, "cross-origin request refused")
        body = await read_body(receive, self.max_body)
        if body is None:
            return await refuse(send, path, 413, f"request body over {self.max_body} bytes")
        return await self.app(scope, replay(body, receive), send)


def same_origin(origin: str, scheme: str, host: tuple[str, int | None]) -> bool:
    """Is `origin` ('http://127.0.0.1:8765') the origin of a request to `host` over `scheme`?"""
    origin_scheme, sep, authority = origin.strip().lower().partition("://")
    if not sep or origin_scheme != scheme or "/" in authority:
        return False  # "null" (sandboxed frames, file: pages) and anything malformed
    parsed = split_host(authority)
    if parsed is None:
        return False
    default = DEFAULT_PORTS.get(scheme)
    return parsed[0] == host[0] and (parsed[1] or default) == (host[1] or default)


async def read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole request body, or None once it passes `limit` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away
            return b"".join(chunks)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def replay(body: bytes, receive: Receive) -> Callable[[], Awaitable[Message]]:
    """A `receive` that gives the app the body already read, then the client's own events."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


async def refuse(send: Send, path: str, status: int, message: str) -> None:
    if path.startswith("/api/"):
        body, kind = json.dumps({"error": message}).encode(), b"application/json"
    else:
        body, kind = f"{status}: {message}\n".encode(), b"text/plain; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                (b"x-content-type-options", b"nosniff"),
                (b"cache-control", b"no-store"),
                # the body of a refused request may still be on its way: do not read it
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
