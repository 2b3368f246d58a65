"""The JSON endpoints: `/healthz`, the map's data, likes (read and set) and search.
Their errors are JSON too (error_pages.py)."""

from __future__ import annotations

import math
from typing import Annotated

from fastapi import Depends, HTTPException, Query, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from paperatlas.api import Atlas, web_reads
from paperatlas.errors import PaperatlasError
from paperatlas.filters import Filters
from paperatlas.web import map_points
from paperatlas.web.context import context
from paperatlas.web.filtering import page_filters
from paperatlas.web.map_points import MAX_ZOOM
from paperatlas.web.maps import point_rows
from paperatlas.web.params import MAX_NAME, ApiK, ApiOffset, Name, Query_, is_clean_text, json_body
from paperatlas.web.render import JSON
from paperatlas.web.routes import Routes

routes = Routes()
MARK_KEYS = {"id", "liked"}
FULL_MAP = 25_000  # papers: a map up to this size goes to the page whole, as it always did
Bbox = Annotated[str, Query(max_length=200)]
Zoom = Annotated[float, Query(ge=1.0, le=MAX_ZOOM)]


@routes.get("/healthz")
async def healthz(request: Request) -> dict:  # no store access: the framework's own floor
    # warm: this process has finished its background preload (pages are at full speed)
    return {"ok": True, "warm": context(request).warm.is_set()}


@routes.get("/api/map")
async def api_map(request: Request, list: Name = None):
    """The map as the page draws it: every paper up to FULL_MAP papers; above, the
    overview (web/map_points.py) and where to ask for the rest (`lod`)."""
    web = context(request)
    stored = loaded(web, list)
    points = stored["points"]
    chinese = request.query_params.get("lang") == "zh"  # the map page's own language
    if points.n <= FULL_MAP:
        body = await run_in_threadpool(full_map_body, web, stored, chinese)
        if body is not None:
            return Response(body, media_type="application/json")
    view = stored["reader"].view_head()
    if chinese:
        view = web_reads.zh_map_labels(view)
    view["points"] = point_rows(stored, points.overview())
    view["lod"] = {
        "papers": points.n,
        "overview": min(points.n, map_points.OVERVIEW),
        "detail_max": map_points.DETAIL_MAX,
        "max_zoom": MAX_ZOOM,
    }
    return JSON(view)


@routes.get("/api/map/points")
async def api_map_points(request: Request, bbox: Bbox, zoom: Zoom = 1.0, list: Name = None):
    """The papers a view of a big map adds to the overview: those inside the box
    (x0,y0,x1,y1 in map units) of priority below OVERVIEW * zoom^2, at most DETAIL_MAX,
    as /api/map's point rows. `complete`: no paper of the box at this zoom was left out."""
    box = parse_bbox(bbox)
    stored = loaded(context(request), list)
    found = stored["points"].in_box(box, zoom)
    return JSON(
        {
            "bbox": [*box],
            "zoom": zoom,
            "level": found.level,
            "complete": found.complete,
            "points": point_rows(stored, found.index),
        }
    )


@routes.get("/api/map/match")
async def api_map_match(request: Request, q: Query_, list: Name = None):
    """A sampled map's filter, asked of every paper: the map's papers whose titles hold
    every word of `q` (word prefixes, as search's index has them), at most MATCH_MAX of
    them as point rows (the lowest priorities: a sample of every topic), `found` how many
    of the first MATCH_SCAN matches are on the map, `complete` whether that is all."""
    stored = loaded(context(request), list)
    rows = await run_in_threadpool(stored["reader"].title_matches, q, map_points.MATCH_SCAN + 1)
    complete = len(rows) <= map_points.MATCH_SCAN
    found = stored["points"].positions(rows[: map_points.MATCH_SCAN])
    shown = found[: map_points.MATCH_MAX]
    return JSON(
        {
            "q": q,
            "found": len(found),
            "complete": complete,
            "points": await run_in_threadpool(point_rows, stored, shown),
        }
    )


def full_map_body(web, stored: dict, chinese: bool) -> bytes | None:
    """/api/map's body for a map sent whole (None: the map is gone from the store)."""

    def build() -> bytes:
        view = stored["reader"].full_view()
        if view is None:
            return b""
        return bytes(JSON(web_reads.zh_map_labels(view) if chinese else view).body)

    return web.map_view_body(stored, chinese, build) or None


def loaded(web, list_name: str | None) -> dict:
    stored = web.maps.get(list_name or None)
    if stored is None:
        raise HTTPException(404, "no map: run `paperatlas map`")
    return stored


def parse_bbox(text: str) -> tuple[float, float, float, float]:
    """'x0,y0,x1,y1' -> four finite numbers with x0 <= x1 and y0 <= y1, else a 400."""
    try:
        box = tuple(float(v) for v in text.split(","))
    except ValueError:
        box = ()
    if len(box) != 4 or not all(math.isfinite(v) for v in box) or box[0] > box[2] or box[1] > box[3]:
        raise HTTPException(400, "bbox must be x0,y0,x1,y1 (numbers, x0 <= x1, y0 <= y1)")
    return box


@routes.get("/api/marks")
async def api_marks(request: Request) -> dict:
    return {"liked": sorted(web_reads.liked_ids(context(request).atlas))}


@routes.post("/api/marks")
async def api_mark(request: Request) -> dict:
    # web/guard.py has checked the origin, the JSON content type and the size
    paper_id, liked = mark_request(await request.body())
    return await run_in_threadpool(set_mark, context(request).atlas, paper_id, liked)


@routes.get("/api/search")
async def api_search(
    request: Request,
    q: Query_,
    filters: Annotated[Filters, Depends(page_filters)],
    k: ApiK = 20,
    offset: ApiOffset = 0,
    exact: bool = False,
):
    try:
        result = context(request).atlas.search(q, k=k, offset=offset, filters=filters, exact=exact)
        return JSON(result.to_dict())
    except PaperatlasError as exc:
        raise HTTPException(400, str(exc)) from None


def mark_request(raw: bytes) -> tuple[str, bool]:
    """(paper id, liked) from a like's body, `{"id": "...", "liked": true|false}` and
    nothing else: a string where true/false belongs ({"liked": "no"}) is refused, not
    taken as a like."""
    usage = 'send JSON: {"id": "<paper id>", "liked": true|false}'
    body = json_body(raw, usage)
    if (
        not isinstance(body, dict)
        or set(body) != MARK_KEYS
        or not isinstance(body["id"], str)
        or type(body["liked"]) is not bool
        or not 0 < len(body["id"]) <= MAX_NAME
        or not is_clean_text(body["id"])
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
