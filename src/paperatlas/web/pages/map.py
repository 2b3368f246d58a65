"""`/map`: the zoomable map page (its data comes from `/api/map`, web/api_routes.py). It takes
the paper filters of /papers (`page_filters`): its topic list's links carry them on, and its
counts are of the papers that pass."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse

from paperatlas.filters import Filters
from paperatlas.web.context import context
from paperatlas.web.filtering import filter_query, page_filters
from paperatlas.web.maps import passing_counts
from paperatlas.web.routes import Routes

routes = Routes()


@routes.get("/map", response_class=HTMLResponse)
async def map_page(request: Request, filters: Annotated[Filters, Depends(page_filters)]):
    web = context(request)
    stored = web.maps.get(filters.list_name)
    narrowed = filters.but(list_name=None).narrows()
    counts = None
    if stored is not None and narrowed:  # each broad topic's papers that pass, by topic id
        broad = [t["topic_id"] for t in stored["topics"] if t["level"] == 0]
        counts = passing_counts(web.atlas, stored, 0, broad, filters)
    return web.render(
        request,
        "map.html",
        stored=stored,
        list_name=filters.list_name,
        filters=filter_query(filters),
        narrowed=filter_query(filters.but(list_name=None)),
        counts=counts,
    )
