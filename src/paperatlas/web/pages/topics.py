"""`/topics/{id}`: one topic of the map, its representative papers first; the same paper
filters as /papers (`page_filters`: "unread in this topic" is `?state=unread`), carried on
by its links to subtopics, whose counts are then of the papers that pass."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.responses import HTMLResponse

from paperatlas.filters import Filters
from paperatlas.web.context import context
from paperatlas.web.filtering import filter_query, page_filters
from paperatlas.web.maps import member_ids, member_rows, passing_counts
from paperatlas.web.params import Level, topic_number
from paperatlas.web.routes import Routes

routes = Routes()
SHOWN = 200  # cards on a topic page


@routes.get("/topics/{topic_id}", response_class=HTMLResponse)
async def topic_page(
    request: Request, topic_id: str, filters: Annotated[Filters, Depends(page_filters)], level: Level = 0
):
    web = context(request)
    list_name = filters.list_name
    stored, narrowing = web.maps.showing(filters)
    number = topic_number(topic_id)
    if stored is None or number is None:
        raise HTTPException(404)
    topic = stored["by_topic"].get((level, number))
    if topic is None:
        raise HTTPException(404)
    rep = topic["data"].get("representative", [])
    narrowed = narrowing.narrows()
    if narrowed:  # the topic's papers the filters let through, chosen by SQLite among its rows
        map_rows = member_rows(stored, level, topic["topic_id"])
        rows = web.atlas.papers(filters=filters, limit=SHOWN, map_rows=map_rows)
        total = web.atlas.count_papers(filters=filters, map_rows=map_rows)
    else:
        # representative papers first, then the rest in list order; only the papers that
        # can be shown are read (a broad topic of a 1M-paper map holds ~25k)
        ids = dict.fromkeys([*rep, *member_ids(stored, level, topic["topic_id"], limit=SHOWN)])
        rows = web.atlas.papers(ids=[*ids])
        total = topic["size"]
    rank = {pid: i for i, pid in enumerate(rep)}
    rows.sort(key=lambda r: rank.get(r["id"], len(rep)))
    shown = web.with_card_facts(rows[:SHOWN])
    if level == 0:
        children = sorted(
            (t for t in stored["topics"] if t["level"] == 1 and t["parent_id"] == topic["topic_id"]),
            key=lambda t: -t["size"],
        )
        parent = None
        if narrowed:  # each subtopic's count beside it: of its papers that pass
            counts = passing_counts(web.atlas, stored, 1, [c["topic_id"] for c in children], filters)
            children = [{**c, "size": counts[c["topic_id"]], "of": c["size"]} for c in children]
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
        shown=len(shown),
        total=total,
        list_name=list_name,
        # the scope of the map the topic is of (None: the map of all papers), what following it names
        map_list=None if narrowing.list_name else list_name,
        filters=filter_query(filters),
        choices=web.filter_choices(list_name),
        narrowed=narrowed,
    )
