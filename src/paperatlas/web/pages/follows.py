"""What a person follows, in the web app: `/follows` (the follows, their feeds, and the
lists with papers new since last seen), `/new?list=` (those new papers), the Atom feeds
(`/feed.atom` for every follow, `/feed/{id}.atom` for one), and the JSON writes behind
the pages' buttons: `POST /api/follows` (follow a search, an author or a topic),
`/api/follows/remove` and `/api/seen`; `GET /api/follows` lists the follows with their buttons' bodies (web/guard.py has checked that they come from the
app's own pages)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import HTTPException, Path, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from paperatlas.api import Atlas, web_reads
from paperatlas.errors import PaperatlasError
from paperatlas.filters import FIELDS, FilterError, Filters
from paperatlas.web.context import context
from paperatlas.web.filtering import PARAMETERS, filter_query
from paperatlas.web.params import MAX_NAME, MAX_QUERY, Name, Page, is_clean_text, json_body
from paperatlas.web.routes import Routes

if TYPE_CHECKING:
    from paperatlas.results import Follow

routes = Routes()
NEW_SHOWN = 200  # cards a page of the "new since" page
ATOM = "application/atom+xml; charset=utf-8"
FollowId = Annotated[int, Path(ge=1, le=2**62)]
FOLLOW_USAGE = (
    'send JSON: {"kind": "search", "q": "...", "filters": {...}} | {"kind": "author", "name": "..."} '
    '| {"kind": "topic", "topic": N, "level": 0|1, "list": "..."}'
)


@routes.get("/follows", response_class=HTMLResponse)
async def follows_page(request: Request):
    web = context(request)
    follows = web.atlas.follows()
    return web.render(
        request,
        "follows.html",
        follows=follows,
        new_counts=web_reads.new_counts(web.atlas),
        queries={f.id: {"q": f.value, **filter_query(f.filters)} for f in follows if f.kind == "search"},
    )


@routes.get("/new", response_class=HTMLResponse)
async def new_page(request: Request, list: Name = None, page: Page = 1):
    web = context(request)
    counts = web_reads.new_counts(web.atlas)
    name = list or (next(iter(counts)) if len(counts) == 1 else None)
    if name is not None:
        web.check_filters(Filters(list_name=name))
    ids = web.atlas.new_papers(name) if name else []
    # every new paper is reachable, a page at a time, before "mark all seen" hides them
    shown = ids[(page - 1) * NEW_SHOWN : page * NEW_SHOWN]
    rows = web.atlas.papers(ids=shown) if shown else []
    order = {pid: i for i, pid in enumerate(ids)}
    rows.sort(key=lambda r: order.get(r["id"], 0))
    return web.render(
        request,
        "new.html",
        list_name=name,
        new_counts=counts,
        total=len(ids),
        page=page,
        more=len(ids) > page * NEW_SHOWN,
        cards=web.cards(web.with_card_facts(rows), web.maps.get(name)),
    )


@routes.get("/feed.atom")
async def feed_all(request: Request) -> Response:
    return await _feed(request, None)


@routes.get("/feed/{follow_id}.atom")
async def feed_one(request: Request, follow_id: FollowId) -> Response:
    return await _feed(request, follow_id)


async def _feed(request: Request, follow_id: int | None) -> Response:
    site = str(request.base_url).rstrip("/")
    try:
        text = await run_in_threadpool(
            context(request).atlas.feed, follow_id, site_url=site, self_url=str(request.url)
        )
    except PaperatlasError as exc:
        raise HTTPException(404, str(exc)) from None
    return Response(text, media_type=ATOM)


@routes.get("/api/follows")
async def api_follows(request: Request) -> dict:
    """Every follow with the body its button sends (a page marks the buttons already followed)."""
    return {
        "follows": [
            {"id": f.id, "title": f.title, "body": button_body(f)} for f in context(request).atlas.follows()
        ]
    }


def button_body(follow: Follow) -> dict:
    if follow.kind == "search":
        return {"kind": "search", "q": follow.value, "filters": filter_query(follow.filters)}
    if follow.kind == "author":
        return {"kind": "author", "name": follow.value}
    return {"kind": "topic", "topic": follow.topic_id, "level": follow.level, "list": follow.list_name}


@routes.post("/api/follows")
async def api_follow(request: Request) -> dict:
    body = json_body(await request.body(), FOLLOW_USAGE)
    return await run_in_threadpool(add_follow, context(request).atlas, body)


@routes.post("/api/follows/remove")
async def api_unfollow(request: Request) -> dict:
    usage = 'send JSON: {"id": N}'
    body = json_body(await request.body(), usage)
    if not isinstance(body, dict) or set(body) != {"id"} or type(body["id"]) is not int:
        raise HTTPException(400, usage)
    removed = await run_in_threadpool(context(request).atlas.unfollow, body["id"])
    if not removed:
        raise HTTPException(404, f"no follow {body['id']}")
    return {"id": body["id"], "removed": True}


@routes.post("/api/seen")
async def api_seen(request: Request) -> dict:
    usage = 'send JSON: {"list": "<list name>"}'
    body = json_body(await request.body(), usage)
    if not isinstance(body, dict) or set(body) != {"list"} or not _name(body["list"]):
        raise HTTPException(400, usage)
    atlas = context(request).atlas
    if body["list"] not in atlas.lists():
        raise HTTPException(404, f"no list {body['list']!r}")
    upto = await run_in_threadpool(atlas.mark_seen, body["list"])
    return {"list": body["list"], "seen_upto": upto}


def _name(value: Any, longest: int = MAX_NAME) -> bool:
    return isinstance(value, str) and 0 < len(value) <= longest and is_clean_text(value)


def add_follow(atlas: Atlas, body: Any) -> dict:
    """Follow what a button's body names; runs in a thread: it writes."""
    if not isinstance(body, dict):
        raise HTTPException(400, FOLLOW_USAGE)
    kind = body.get("kind")
    try:
        if kind == "search" and set(body) <= {"kind", "q", "filters"} and _name(body.get("q"), MAX_QUERY):
            follow, new = atlas.follow_search(body["q"], _filters(body.get("filters") or {}))
        elif kind == "author" and set(body) == {"kind", "name"} and _name(body["name"]):
            follow, new = atlas.follow_author(body["name"])
        elif kind == "topic" and set(body) <= {"kind", "topic", "level", "list"} and _topic(body):
            follow, new = atlas.follow_topic(
                body["topic"], level=body.get("level", 0), list_name=body.get("list")
            )
        else:
            raise HTTPException(400, FOLLOW_USAGE)
    except PaperatlasError as exc:
        raise HTTPException(400, str(exc)) from None
    return {"id": follow.id, "kind": follow.kind, "title": follow.title, "new": new}


def _filters(given: Any) -> Filters:
    """A search's filters as the page's query string names them (`list`, `kind`, ...)."""
    names = {PARAMETERS.get(f, f): f for f in FIELDS}
    if not isinstance(given, dict) or not set(given) <= set(names) or not all(map(_name, given.values())):
        raise HTTPException(400, FOLLOW_USAGE)
    try:
        return Filters.parse(**{names[k]: v for k, v in given.items()})
    except FilterError as exc:
        raise HTTPException(400, str(exc)) from None


def _topic(body: dict) -> bool:
    return (
        type(body.get("topic")) is int
        and 0 <= body["topic"] < 2**31
        and body.get("level", 0) in (0, 1)
        and type(body.get("level", 0)) is int
        and (body.get("list") is None or _name(body["list"]))
    )
