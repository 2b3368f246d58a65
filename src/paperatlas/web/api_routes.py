"""The JSON endpoints: `/healthz`, the map's data, likes (read and set) and search.
Their errors are JSON too (error_pages.py)."""

from __future__ import annotations

import json

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from paperatlas.api import Atlas
from paperatlas.errors import PaperatlasError
from paperatlas.web.context import context
from paperatlas.web.params import MAX_NAME, ApiK, ApiOffset, Name, Query_
from paperatlas.web.routes import Routes

routes = Routes()
MARK_KEYS = {"id", "liked"}


@routes.get("/healthz")
async def healthz(request: Request) -> dict:  # no store access: the framework's own floor
    # warm: this process has finished its background preload (pages are at full speed)
    return {"ok": True, "warm": context(request).warm.is_set()}


@routes.get("/api/map")
async def api_map(request: Request, list: Name = None):
    web = context(request)
    stored = web.maps.get(list or None)
    if stored is None:
        raise HTTPException(404, "no map: run `paperatlas map`")
    return JSONResponse(web.atlas.map_view(stored))


@routes.get("/api/marks")
async def api_marks(request: Request) -> dict:
    return {"liked": sorted(context(request).atlas.liked_ids())}


@routes.post("/api/marks")
async def api_mark(request: Request) -> dict:
    # web/guard.py has checked the origin, the JSON content type and the size
    paper_id, liked = mark_request(await request.body())
    return await run_in_threadpool(set_mark, context(request).atlas, paper_id, liked)


@routes.get("/api/search")
async def api_search(request: Request, q: Query_, k: ApiK = 20, offset: ApiOffset = 0):
    try:
        return JSONResponse(context(request).atlas.search(q, k=k, offset=offset).to_dict())
    except PaperatlasError as exc:
        raise HTTPException(400, str(exc)) from None


def mark_request(raw: bytes) -> tuple[str, bool]:
    """(paper id, liked) from a like's body, `{"id": "...", "liked": true|false}` and
    nothing else: a string where true/false belongs ({"liked": "no"}) is refused, not
    taken as a like."""
    usage = 'send JSON: {"id": "<paper id>", "liked": true|false}'
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise HTTPException(400, usage) from None
    if (
        not isinstance(body, dict)
        or set(body) != MARK_KEYS
        or not isinstance(body["id"], str)
        or type(body["liked"]) is not bool
        or not 0 < len(body["id"]) <= MAX_NAME
        or "\x00" in body["id"]
    ):
        raise HTTPException(400, usage)
    return body["id"], body["liked"]


def set_mark(atlas: Atlas, paper_id: str, liked: bool) -> dict:
    """Like or unlike one paper (by id or unique prefix); runs in a thread: it writes."""
    full = atlas.resolve_id(paper_id)
    if full is None:
        raise HTTPException(404, f"no paper {paper_id!r}")
    if liked:
        atlas.like([full])
    else:
        atlas.unlike([full])
    return {"id": full, "liked": liked}
