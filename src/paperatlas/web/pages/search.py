"""`/search`: hybrid search, ten hits a page, each with its highlighted snippet, among the
papers the page's filters (web/filtering.py) let through; the page says which signals
answered, and what a misspelt query was searched as (with a link to search it as typed,
`exact=1`). A query that is one paper's arXiv id, DOI or OpenReview id opens its page."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from paperatlas.api import Atlas
from paperatlas.errors import PaperatlasError, SearchError
from paperatlas.filters import Filters
from paperatlas.results import HIT_WHY_WORDS
from paperatlas.web.context import context
from paperatlas.web.filtering import filter_query, page_filters
from paperatlas.web.i18n import search_notes, translator
from paperatlas.web.pages.downloads import export_formats
from paperatlas.web.params import SEARCH_PAGE_SIZE, Query_, SearchPage
from paperatlas.web.render import page_lang
from paperatlas.web.routes import Routes
from paperatlas.web.status import status_line, watch

if TYPE_CHECKING:
    from paperatlas.results import Hit

routes = Routes()
# a query that is one of these names one paper beyond doubt: its page opens (an exact
# title shows that paper first among the hits instead: a title is also a topic)
OPENS_PAGE = ("arXiv id", "DOI", "OpenReview id", "id")
NO_SEARCH: tuple[None, list[dict[str, Any]], None] = (None, [], None)  # an empty query


@routes.get("/search", response_class=HTMLResponse)
async def search_page(
    request: Request,
    filters: Annotated[Filters, Depends(page_filters)],
    q: Query_ = "",
    page: SearchPage = 1,
    exact: bool = False,
):
    web = context(request)
    q = q.strip()
    lang = page_lang(request)
    result, hits, note = run_search(web.atlas, q, page, filters, exact, lang) if q else NO_SEARCH
    if result and page == 1 and result["identified_by"] in OPENS_PAGE and len(result["identified"]) == 1:
        asked = "?lang=zh" if request.query_params.get("lang") == "zh" else ""
        return RedirectResponse(f"/papers/{quote(result['identified'][0], safe='/')}{asked}", status_code=303)
    stored = web.maps.get(filters.list_name)
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
        filters=filter_query(filters),
        exact=1 if exact else None,
        choices=web.filter_choices(filters.list_name),
        formats=export_formats(),
    )


def run_search(
    atlas: Atlas, q: str, page: int, filters: Filters, exact: bool = False, lang: str = "en"
) -> tuple[dict | None, list[dict], str | None]:
    """(summary, hit rows, note) of one page of hits, the note and the hits' reasons in
    `lang`; keyword ranking alone (note 'fts_fallback') when the vectors cannot be used."""
    offset = (page - 1) * SEARCH_PAGE_SIZE
    t = translator(lang)
    note = None
    try:
        res = atlas.search(q, k=SEARCH_PAGE_SIZE, offset=offset, filters=filters, exact=exact)
    except SearchError as exc:  # the query itself is at fault: say so
        return None, [], str(exc)
    except PaperatlasError:  # vectors unusable (model not installed, ...): keywords still work
        note = t("fts_fallback")
        try:
            res = atlas.search(
                q, k=SEARCH_PAGE_SIZE, offset=offset, filters=filters, method="keyword", exact=exact
            )
        except PaperatlasError as exc2:
            return None, [], str(exc2)
    summary = {
        "total": res.total,
        "mode": res.mode,
        "model": res.model,
        "read_as": res.read_as,
        "signals": res.signals,
        "corrected": res.corrected,
        "identified_by": res.identified_by,
        "identified": res.identified,
    }
    return summary, [hit_row(h, t) for h in res.hits], note or search_notes(res.notes, lang) or None


def why_line(hit: Hit, t: Callable[[str], str]) -> str:
    """Why a hit matched, in the page's language (the i18n keys `why_` + each part)."""
    return hit.why({part: t(f"why_{part}") for part in HIT_WHY_WORDS})


def hit_row(hit: Hit, t: Callable[[str], str]) -> dict:
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
        "why": why_line(hit, t),
        "snippet": hit.snippet,
        "title_only": hit.title_only,
        "in_note": hit.in_note,
        "tagged": hit.tagged,
    }
