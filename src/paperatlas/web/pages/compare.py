"""`/compare?a=LIST&b=LIST`: two lists side by side, as `Atlas.compare` (and `paperatlas
compare`) sees them: the papers they share, the share of each area and topic in each, the
topics that grew and shrank most, and the names and terms found only in B. Without both
lists the page is the form that picks them."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from paperatlas.errors import PaperatlasError
from paperatlas.filters import Filters
from paperatlas.web.context import context
from paperatlas.web.params import Name
from paperatlas.web.routes import Routes

routes = Routes()
ROWS = 15  # rows of each table, as many as the CLI's `--top` shows by default and a few more
MOVES = 8  # risers and fallers each


@routes.get("/compare", response_class=HTMLResponse)
async def compare_page(request: Request, a: Name = None, b: Name = None):
    web = context(request)
    a, b = a or None, b or None
    for name in (a, b):
        web.check_filters(Filters(list_name=name))  # 404 for a list that does not exist
    comparison = error = None
    if a and b:
        try:  # topics may be clustered here when no stored map covers both: off the event loop
            comparison = await run_in_threadpool(web.atlas.compare, a, b)
        except PaperatlasError as exc:  # an empty list, ...
            error = str(exc).split("\n")[0]
    elif a or b:
        error = "pick two lists to compare"
    return web.render(
        request,
        "compare.html",
        a=a,
        b=b,
        lists=web.atlas.lists(),
        comparison=comparison,
        error=error,
        rows=ROWS,
        risers=comparison.risers(MOVES) if comparison else [],
        fallers=comparison.fallers(MOVES) if comparison else [],
    )
