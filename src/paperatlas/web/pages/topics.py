"""`/topics/{id}`: one topic of the map, its representative papers first."""

from __future__ import annotations

from fastapi import HTTPException, Request
from fastapi.responses import HTMLResponse

from paperatlas.filters import Filters
from paperatlas.web.context import context
from paperatlas.web.maps import member_ids
from paperatlas.web.params import Level, Name, topic_number
from paperatlas.web.routes import Routes

routes = Routes()
SHOWN = 200  # cards on a topic page


@routes.get("/topics/{topic_id}", response_class=HTMLResponse)
async def topic_page(request: Request, topic_id: str, level: Level = 0, list: Name = None):
    web = context(request)
    web.check_filters(Filters(list_name=list or None))
    stored = web.maps.get(list or None)
    number = topic_number(topic_id)
    if stored is None or number is None:
        raise HTTPException(404)
    topic = stored["by_topic"].get((level, number))
    if topic is None:
        raise HTTPException(404)
    # representative papers first, then the rest in list order; only the papers that can
    # be shown are read (a broad topic of a 1M-paper map holds ~25k)
    rep = topic["data"].get("representative", [])
    ids = dict.fromkeys([*rep, *member_ids(stored, level, topic["topic_id"], limit=SHOWN)])
    rows = web.atlas.papers(ids=[*ids])
    rank = {pid: i for i, pid in enumerate(rep)}
    rows.sort(key=lambda r: rank.get(r["id"], len(rep)))
    shown = web.with_card_facts(rows[:SHOWN])
    if level == 0:
        children = sorted(
            (t for t in stored["topics"] if t["level"] == 1 and t["parent_id"] == topic["topic_id"]),
            key=lambda t: -t["size"],
        )
        parent = None
    else:
        children = []
        parent = stored["by_topic"].get((0, topic["parent_id"]))
    return web.render(
        request,
        "topic.html",
        topic=topic,
        level=level,
        children=children,
        parent=parent,
        cards=web.cards(shown, stored),
        shown=min(SHOWN, topic["size"]),
        list_name=list or None,
    )
