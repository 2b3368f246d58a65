"""`/`: the atlas at a glance (counts by area, decision and kind; the broad topics)."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse

from paperatlas.filters import Filters
from paperatlas.web.context import context
from paperatlas.web.maps import passing_counts
from paperatlas.web.params import Name
from paperatlas.web.routes import Routes

routes = Routes()


@routes.get("/", response_class=HTMLResponse)
async def overview(request: Request, list: Name = None):
    web = context(request)
    web.check_filters(Filters(list_name=list or None))
    counts = web.overview_counts(list or None)
    stats, kinds, with_code = counts["stats"], counts["kinds"], counts["with_code"]
    stored, narrowing = web.maps.showing(Filters(list_name=list or None))
    broad = [t for t in (stored or {}).get("topics", []) if t["level"] == 0]
    if stored is not None and narrowing.narrows():  # the map of all papers: the list's papers in each topic
        sizes = passing_counts(web.atlas, stored, 0, [t["topic_id"] for t in broad], narrowing)
        broad = [{**t, "size": sizes[t["topic_id"]]} for t in broad if sizes[t["topic_id"]]]
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
        no_own_map=narrowing.list_name,
    )
