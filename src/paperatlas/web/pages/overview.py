"""`/`: the atlas at a glance (counts by area, decision and kind; the broad topics)."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse

from paperatlas.filters import Filters
from paperatlas.web.context import context
from paperatlas.web.params import Name
from paperatlas.web.routes import Routes

routes = Routes()


@routes.get("/", response_class=HTMLResponse)
async def overview(request: Request, list: Name = None):
    web = context(request)
    web.check_filters(Filters(list_name=list or None))
    counts = web.overview_counts(list or None)
    stats, kinds, with_code = counts["stats"], counts["kinds"], counts["with_code"]
    stored = web.maps.get(list or None)
    broad = [t for t in (stored or {}).get("topics", []) if t["level"] == 0]
    return web.render(
        request,
        "overview.html",
        stats=stats,
        kinds=kinds,
        with_code=with_code,
        topics=sorted(broad, key=lambda t: -t["size"]),
        stored=stored,
        lists=web.atlas.lists(),
        list_name=list,
    )
