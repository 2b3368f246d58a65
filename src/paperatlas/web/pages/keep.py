"""What a person keeps, as pages: `/likes` (the papers liked), `/collections` (each
collection with its counts) and `/collections/{name}` (its liked papers), `/tags` (every
tag with how many papers carry it) and `/tags/{tag}` (those papers). Newest first; the
triage buttons, notes and tags themselves change through web/kept_api.py."""

from __future__ import annotations

from fastapi import HTTPException, Request
from fastapi.responses import HTMLResponse

from paperatlas.api import web_reads
from paperatlas.errors import PaperatlasError
from paperatlas.web.context import WebContext, context
from paperatlas.web.pages.downloads import export_formats
from paperatlas.web.params import MAX_NAME, PAGE_SIZE, Page
from paperatlas.web.routes import Routes

routes = Routes()


def _page_of(web: WebContext, ids: list[str], page: int) -> tuple[list[dict], bool]:
    """The cards of one page of `ids`, in their order, and whether a next page exists."""
    chosen = ids[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    rows = {r["id"]: r for r in web.atlas.papers(ids=chosen)} if chosen else {}
    ordered = [rows[i] for i in chosen if i in rows]  # a kept id whose list is gone is left out
    web.with_card_facts(ordered)
    return web.cards(ordered, web.maps.get(None)), len(ids) > page * PAGE_SIZE


def _papers_page(request: Request, what: str, name: str, ids: list[str], page: int) -> HTMLResponse:
    """A page of kept papers: `what` is likes, collection or tag, `name` the collection or tag."""
    web = context(request)
    cards, more = _page_of(web, ids, page)
    return web.render(
        request,
        "kept_papers.html",
        what=what,
        name=name,
        cards=cards,
        total=len(ids),
        page=page,
        more=more,
        here=request.url.path,
        formats=export_formats(),
    )


@routes.get("/likes", response_class=HTMLResponse)
async def likes_page(request: Request, page: Page = 1):
    ids = web_reads.collection_members(context(request).atlas, "likes")
    return _papers_page(request, "likes", "likes", ids, page)


@routes.get("/collections", response_class=HTMLResponse)
async def collections_page(request: Request):
    web = context(request)
    return web.render(request, "collections.html", collections=web.atlas.collections())


@routes.get("/collections/{name:path}", response_class=HTMLResponse)
async def collection_page(request: Request, name: str, page: Page = 1):
    web = context(request)
    if len(name) > MAX_NAME or name not in {c.name for c in web.atlas.collections()}:
        raise HTTPException(404)
    return _papers_page(request, "collection", name, web_reads.collection_members(web.atlas, name), page)


@routes.get("/tags", response_class=HTMLResponse)
async def tags_page(request: Request):
    web = context(request)
    return web.render(request, "tags.html", tags=web.atlas.tag_counts())


@routes.get("/tags/{tag:path}", response_class=HTMLResponse)
async def tag_page(request: Request, tag: str, page: Page = 1):
    web = context(request)
    if len(tag) > MAX_NAME:
        raise HTTPException(404)
    try:
        ids = web.atlas.ids_with_tag(tag)
    except PaperatlasError:  # not a tag anyone could have written
        raise HTTPException(404) from None
    if not ids:
        raise HTTPException(404)
    return _papers_page(request, "tag", tag, ids, page)
