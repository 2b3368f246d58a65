"""`/map`: the zoomable map page (its data comes from `/api/map`, web/api_routes.py)."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse

from paperatlas.filters import Filters
from paperatlas.web.context import context
from paperatlas.web.params import Name
from paperatlas.web.routes import Routes

routes = Routes()


@routes.get("/map", response_class=HTMLResponse)
async def map_page(request: Request, list: Name = None):
    web = context(request)
    web.check_filters(Filters(list_name=list or None))
    stored = web.maps.get(list or None)
    return web.render(request, "map.html", stored=stored, list_name=list)
