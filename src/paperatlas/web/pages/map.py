"""`/map`: the zoomable map page (its data comes from `/api/map`, web/api_routes.py). It takes
the paper filters of /papers (`page_filters`): its topic list's links carry them on, and its
counts are of the papers that pass. A list with no map of its own is drawn on the map of all
papers, counted for its papers."""

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
    stored, narrowing = web.maps.showing(filters)
    counts = None
    if stored is not None and narrowing.narrows():  # each broad topic's papers that pass, by topic id
        broad = [t["topic_id"] for t in stored["topics"] if t["level"] == 0]
        counts = passing_counts(web.atlas, stored, 0, broad, filters)
    return web.render(
        request,
        "map.html",
        stored=stored,
        # the scope of the map drawn: the list's own map, or None for the map of all papers
        list_name=None if narrowing.list_name else filters.list_name,
        no_own_map=narrowing.list_name,
        filters=filter_query(filters),
        narrowed=filter_query(narrowing),
        counts=counts,
    )
