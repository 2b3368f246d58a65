"""`/recommend`: the papers `Atlas.recommend` picks for a collection (default: likes) among
those the page's filters let through, each card with its reasons in whole sentences and a
"not interested" button; the page says what the recommender used (method, models, how many
likes and dislikes) and what would make it better (`Recommendations.hints`).

"Not interested" is `POST /api/not-interested` (`{"id": ..., "collection": ...}`): a
dislike in that collection, so the next picks steer away from the paper; like every state
change it comes only from the app's own pages (web/guard.py). The page's script
(static/recommend.js) takes the card off the list."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, HTTPException, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from paperatlas.api import Atlas, web_reads
from paperatlas.errors import PaperatlasError
from paperatlas.filters import LIKES, Filters
from paperatlas.web.context import context
from paperatlas.web.filtering import filter_query, page_filters
from paperatlas.web.pages.downloads import export_formats
from paperatlas.web.params import MAX_NAME, Name, is_clean_text, json_body
from paperatlas.web.render import page_lang
from paperatlas.web.routes import Routes

if TYPE_CHECKING:
    from paperatlas.results import Recommendations

routes = Routes()
PICKS = 30  # as `paperatlas recommend`
NOT_INTERESTED_KEYS = {"id", "collection"}


@routes.get("/recommend", response_class=HTMLResponse)
async def recommend_page(
    request: Request,
    filters: Annotated[Filters, Depends(page_filters)],
    collection: Name = None,
):
    web = context(request)
    collection = collection or LIKES
    names = [c.name for c in web.atlas.collections()]
    if collection != LIKES and collection not in names:
        raise HTTPException(404)
    # fitting the collection's model is seconds of CPU on a large atlas: off the event loop
    picks, error = await run_in_threadpool(recommend, web.atlas, collection, filters)
    rows = []
    if picks is not None and len(picks):
        found = {r["id"]: r for r in web.atlas.papers(ids=[p.paper_id for p in picks])}
        rows = [found[p.paper_id] for p in picks if p.paper_id in found]
        web.with_card_facts(rows)
    words = pick_words(picks, page_lang(request))
    return web.render(
        request,
        "recommend.html",
        picks=picks,
        error=error,
        reasons=words["reasons"],
        method=words["method"],
        hints=words["hints"],
        cards=web.cards(rows, web.maps.get(filters.list_name)),
        collection=collection,
        collections=names,
        likes=LIKES,  # the likes' own collection, named in the page's language
        filters=filter_query(filters),
        choices=web.filter_choices(filters.list_name),
        formats=export_formats(),
    )


def pick_words(picks: Recommendations | None, lang: str) -> dict[str, Any]:
    """The picks' reasons, method and hints in the page's language (Chinese: built from the
    picks' liked titles and shared terms, `web_reads.zh_recommendations`)."""
    if picks is None:
        return {"reasons": {}, "method": None, "hints": []}
    if lang == "zh":
        return web_reads.zh_recommendations(picks)
    return {"reasons": {p.paper_id: p.reasons for p in picks}, "method": picks.method, "hints": picks.hints}


def recommend(atlas: Atlas, collection: str, filters: Filters):
    """(the picks, None), or (None, why none could be made: one line)."""
    try:
        return atlas.recommend(collection=collection, k=PICKS, filters=filters), None
    except (PaperatlasError, ImportError) as exc:
        return None, str(exc).split("\n")[0]


@routes.post("/api/not-interested")
async def not_interested(request: Request) -> dict:
    # web/guard.py has checked the origin, the JSON content type and the size
    paper_id, collection = not_interested_request(await request.body())
    return await run_in_threadpool(dislike, context(request).atlas, paper_id, collection)


def not_interested_request(raw: bytes) -> tuple[str, str]:
    """(paper id, collection) from `{"id": "...", "collection": "..."}` and nothing else."""
    usage = 'send JSON: {"id": "<paper id>", "collection": "<collection>"}'
    body = json_body(raw, usage)
    if not isinstance(body, dict) or set(body) != NOT_INTERESTED_KEYS:
        raise HTTPException(400, usage)
    values = (body["id"], body["collection"])
    if not all(isinstance(v, str) and 0 < len(v.strip()) <= MAX_NAME and is_clean_text(v) for v in values):
        raise HTTPException(400, usage)
    return body["id"], body["collection"].strip()


def dislike(atlas: Atlas, paper_id: str, collection: str) -> dict:
    """Mark one paper (by id or unique prefix) not wanted; runs in a thread: it writes."""
    full = atlas.resolve_id(paper_id)
    if full is None:
        raise HTTPException(404, f"no paper {paper_id!r}")
    try:
        atlas.dislike([full], collection=collection)
    except PaperatlasError as exc:  # a collection name that cannot be one, a read-only atlas
        raise HTTPException(400, str(exc)) from None
    return {"id": full, "collection": collection, "interested": False}
