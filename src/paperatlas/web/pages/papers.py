"""`/papers`: the filtered, sorted list; `/papers/{id}`: one paper with its similar papers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from fastapi.responses import HTMLResponse

from paperatlas.api import web_reads
from paperatlas.errors import PaperatlasError
from paperatlas.filters import Filters
from paperatlas.identifiers import reading_links
from paperatlas.results import Kept
from paperatlas.web.context import context
from paperatlas.web.filtering import filter_query, page_filters
from paperatlas.web.maps import topic_of
from paperatlas.web.my_topics import topic_rows
from paperatlas.web.notes import render_note
from paperatlas.web.pages.downloads import export_formats
from paperatlas.web.params import PAGE_SIZE, SORTS, Name, Page
from paperatlas.web.render import page_lang
from paperatlas.web.reviews import review_scores
from paperatlas.web.routes import Routes

routes = Routes()
SIMILAR = 10  # similar papers on a paper's page


@routes.get("/papers", response_class=HTMLResponse)
async def papers_page(
    request: Request,
    filters: Annotated[Filters, Depends(page_filters)],
    topic: Name = None,
    sort: Name = None,
    page: Page = 1,
):
    web = context(request)
    if sort and sort not in SORTS:
        raise HTTPException(400, f"unknown sort (one of {', '.join(SORTS)})")
    sort = sort or "list"
    atlas = web.atlas
    stored = web.maps.covering(filters.list_name)
    # the topic's paper_topics rows, from the map this app holds: a page is chosen among
    # their keys and only its papers are read (a broad topic at 1M papers holds ~25k)
    map_rows = topic_rows(atlas, stored, topic, filters.list_name)
    # one page of rows, sorted by SQLite (a 1M-paper list is never read whole)
    order = None if sort == "list" else sort
    rows = atlas.papers(
        filters=filters, sort=order, limit=PAGE_SIZE + 1, offset=(page - 1) * PAGE_SIZE, map_rows=map_rows
    )
    more = len(rows) > PAGE_SIZE
    rows = rows[:PAGE_SIZE]
    web.with_card_facts(rows)
    total = None
    if sort != "list":  # unfiltered: the kept count of the list (a count of 1M rows is ~1 s)
        unfiltered = not filters.but(list_name=None).narrows() and map_rows is None
        stats = web.overview_counts(filters.list_name)["stats"]  # kept a few seconds
        total = stats["papers"] if unfiltered else atlas.count_papers(filters=filters, map_rows=map_rows)
    topics = sorted(
        (t for t in (stored or {}).get("topics", []) if t["level"] == 0), key=lambda t: t["label"].lower()
    )
    page_params: dict[str, Any] = {"topic": topic, "sort": sort if sort != "list" else None}
    return web.render(
        request,
        "papers.html",
        cards=web.cards(rows, stored),
        page=page,
        more=more,
        total=total,
        topics=topics,
        filters=filter_query(filters),
        choices=web.filter_choices(filters.list_name),
        params=page_params,
        links={**page_params, **filter_query(filters)},  # what the pager's links carry on
        chosen={**filter_query(filters), "topic": topic},  # what the downloads hold
        sorts=SORTS,
        formats=export_formats(),
    )


@routes.get("/papers/{paper_id:path}", response_class=HTMLResponse)  # DBLP ids hold "/"
async def paper_page(request: Request, paper_id: str):
    web = context(request)
    # the topic comes from the map this app keeps loaded (topic_of), not from Atlas.paper
    found = web.atlas.paper(paper_id, topics=False) if paper_id else None
    if found is None:
        raise HTTPException(404)
    paper = dict(found)  # a plain dict: the template reads its keys on render.PageEnvironment's fast path
    stored = web.maps.get(None)
    topic = topic_of(stored, paper["id"])
    try:  # the k papers closest in meaning, as `paperatlas similar ID` ranks them
        similar_rows = web_reads.similar_papers(web.atlas, paper, k=SIMILAR)
    except (PaperatlasError, ImportError):  # no vectors or model: the page still shows the paper
        similar_rows = []
    liked = paper["id"] in web_reads.liked_ids(web.atlas)
    kept = web.atlas.kept([paper["id"]]).get(paper["id"]) or Kept()
    broad = (topic or {}).get("broad") or {}
    zh_card = web.atlas.zh_card(paper, topic=broad.get("label")) if page_lang(request) == "zh" else None
    # a model's accepted answers, when the user ran one
    model = web_reads.llm_answers(web.atlas, paper["id"]) if web.has_model_answers() else {}
    extra = paper.get("extra") or {}
    tldr = extra.get("tldr")
    return web.render(
        request,
        "paper.html",
        paper=paper,
        facts=paper.get("facts") or {},
        topic=topic,
        zh_card=zh_card,
        model=model,
        similar=web.cards(similar_rows, stored),
        similar_missing=web.per_commit(
            "similar_models_missing", lambda: web_reads.similar_models_missing(web.atlas)
        ),
        liked=liked,
        kept=kept,
        note_html=render_note(kept.note) if kept.note else None,
        tldr=tldr.strip() if isinstance(tldr, str) else None,
        reviews=review_scores(extra),
        final_reviews=review_scores(extra, "ratings_final"),
        reading=reading_links(paper.get("identifiers") or {}, paper.get("urls") or []),
        bibtex=web.bibtex(paper["id"]),
    )
