"""`/search`: hybrid search, ten hits a page, each with its highlighted snippet."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse

from paperatlas.api import Atlas
from paperatlas.errors import PaperatlasError, SearchError
from paperatlas.web.context import context
from paperatlas.web.params import SEARCH_PAGE_SIZE, Name, Query_, SearchPage
from paperatlas.web.routes import Routes
from paperatlas.web.status import status_line, watch

routes = Routes()
NO_SEARCH: tuple[None, list[dict[str, Any]], None] = (None, [], None)  # an empty query


@routes.get("/search", response_class=HTMLResponse)
async def search_page(
    request: Request,
    q: Query_ = "",
    page: SearchPage = 1,
    area: Name = None,
    kind: Name = None,
    list: Name = None,
):
    web = context(request)
    web.check_filters(area=area, kind=kind, list_name=list)
    q = q.strip()
    result, hits, note = (
        run_search(web.atlas, q, page, area=area or None, kind=kind or None, list_name=list or None)
        if q
        else NO_SEARCH
    )
    stored = web.maps.get(list or None)
    return web.render(
        request,
        "search.html",
        q=q,
        cards=web.cards(hits, stored),
        result=result,
        note=note,
        page=page,
        more=bool(result and result.get("total", 0) > page * SEARCH_PAGE_SIZE),
        signals=watch(request).status(),
        signal_line=status_line,
    )


def run_search(atlas: Atlas, q: str, page: int, **filters: Any) -> tuple[dict | None, list[dict], str | None]:
    """(summary, hit rows, note) of one page of hits; keyword ranking alone (note
    'fts_fallback') when the vectors cannot be used."""
    offset = (page - 1) * SEARCH_PAGE_SIZE
    note = None
    try:
        res = atlas.search(q, k=SEARCH_PAGE_SIZE, offset=offset, **filters)
    except SearchError as exc:  # the query itself is at fault: say so
        return None, [], str(exc)
    except PaperatlasError:  # vectors unusable (model not installed, ...): keywords still work
        note = "fts_fallback"
        try:
            res = atlas.search(q, k=SEARCH_PAGE_SIZE, offset=offset, method="keyword", **filters)
        except PaperatlasError as exc2:
            return None, [], str(exc2)
    summary = {"total": res.total, "mode": res.mode, "model": res.model, "read_as": res.read_as}
    return summary, [hit_row(h) for h in res.hits], note or "; ".join(res.notes) or None


def hit_row(hit) -> dict:
    """A search hit as a card's row."""
    # attributes, not hit.to_dict(): dataclasses.asdict deep-copies every snippet piece,
    # which cost more than rendering the page
    return {
        "id": hit.id,
        "title": hit.title,
        "display_title": hit.display_title,
        "area": hit.area,
        "decision": hit.decision,
        "kind": hit.kind,
        "why": hit.why(),
        "snippet": hit.snippet,
    }
