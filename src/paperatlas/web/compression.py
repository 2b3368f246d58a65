"""Responses gzip-compressed for the clients that accept it (`Gzip`, a plain ASGI middleware).

The deflate is ISA-L's (the `isal` package) where it is installed: on a 30 KB page it takes
~0.05 ms against ~0.3 ms for zlib at level 1 and ~0.6 ms at level 5 (what Starlette's
GZipMiddleware ran here), for ~7% more bytes than level 5; at 2-3 ms of CPU a page that
was a sixth of a page's cost (docs/benchmarks.md, "Issues 37/34, CPU a page below base").
Without `isal`, zlib at level 5.

As Starlette's middleware does: bodies under `minimum_size` bytes, bodies already encoded,
partial content and media that are compressed already (images, archives, fonts, audio,
video, event streams) go out as they are; a streamed body is compressed piece by piece
(each piece flushed, so the client gets it at once); `Vary: Accept-Encoding` on every
compressed answer. Bodies of THREAD_BYTES or more (a whole list's download) are compressed
in a worker thread, so the pages on the event loop keep answering.
"""

from __future__ import annotations

from typing import Any

import anyio.to_thread
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

try:
    from isal import isal_zlib as deflate

    LEVEL = deflate.ISAL_DEFAULT_COMPRESSION  # 2 of 0-3: as fast as 1, a little smaller
except ImportError:  # a platform without its wheel
    import zlib as deflate  # type: ignore[no-redef]

    LEVEL = 5  # level 9 costs ~2x the CPU for ~3% smaller pages

GZIP_WINDOW = 16 + 15  # deflate's largest window, in a gzip wrapper
THREAD_BYTES = 1024 * 1024
# media types sent as they are: compressed already, or read as a stream
UNPACKED = ("image/", "audio/", "video/", "font/woff", "application/grpc", "text/event-stream")
PACKED_ALREADY = ("application/gzip", "application/x-gzip", "application/zip")
COMPRESSIBLE_IMAGES = ("image/svg+xml",)


def accepts_gzip(scope: Scope) -> bool:
    return any(k == b"accept-encoding" and b"gzip" in v.lower() for k, v in scope["headers"])


def compressible(headers: MutableHeaders, status: int) -> bool:
    """Whether an answer with these headers is one to compress."""
    if status == 206 or "content-encoding" in headers:
        return False
    media = headers.get("content-type", "").partition(";")[0].strip().lower()
    if media in COMPRESSIBLE_IMAGES:
        return True
    return not (media.startswith(UNPACKED) or media in PACKED_ALREADY)


class Gzip:
    """gzip for every HTTP answer whose client accepts it (see the module's doc)."""

    def __init__(self, app: ASGIApp, minimum_size: int = 4096) -> None:
        self.app = app
        self.minimum_size = minimum_size

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not accepts_gzip(scope):
            return await self.app(scope, receive, send)
        held: Message | None = None  # the answer's start, sent with the first body
        packer: Any = None  # this answer's compressor, once it is compressed

        async def send_packed(message: Message) -> None:
            nonlocal held, packer
            kind = message["type"]
            if kind == "http.response.start":
                held = message
                return
            if held is None:  # after the first body: each piece as the first one went
                if packer is not None and kind == "http.response.body":
                    more = message.get("more_body", False)
                    message = {**message, "body": await self._pack(packer, message.get("body", b""), more)}
                await send(message)
                return
            start, held = held, None
            headers = MutableHeaders(raw=list(start.get("headers", [])))
            body = message.get("body", b"") if kind == "http.response.body" else b""
            more = message.get("more_body", False)
            small = not more and len(body) < self.minimum_size
            if kind != "http.response.body" or small or not compressible(headers, start["status"]):
                await send(start)
                await send(message)
                return
            packer = deflate.compressobj(LEVEL, deflate.DEFLATED, GZIP_WINDOW)
            packed = await self._pack(packer, body, more)
            headers["Content-Encoding"] = "gzip"
            headers.add_vary_header("Accept-Encoding")
            if more:  # the length is not known before the last piece
                del headers["Content-Length"]
            else:
                headers["Content-Length"] = str(len(packed))
            await send({**start, "headers": headers.raw})
            await send({**message, "body": packed})

        await self.app(scope, receive, send_packed)

    @staticmethod
    async def _pack(packer: Any, body: bytes, more: bool) -> bytes:
        if len(body) >= THREAD_BYTES:
            return await anyio.to_thread.run_sync(_pack, packer, body, more)
        return _pack(packer, body, more)


def _pack(packer: Any, body: bytes, more: bool) -> bytes:
    return packer.compress(body) + packer.flush(deflate.Z_SYNC_FLUSH if more else deflate.Z_FINISH)
