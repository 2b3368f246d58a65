"""Downloads: `/download/export` (the papers of a list, a collection, a tag or a search, as
BibTeX, RIS, CSL-JSON, CSV, JSONL or Markdown: `Atlas.export`), `/download/digest` (the
same selections' digest, Markdown or HTML, English or Chinese (`lang`, else the browser's
Accept-Language): `Atlas.digest`) and
`/download/schedule` (saved and liked papers with a program time as iCalendar).

The selection is what the page's filters (web/filtering.py) and its map topic (`topic`: a
topic's number, `f` and a fine topic's, or `mine`, as /papers reads it: web/my_topics.py) let
through, narrowed to a collection's liked papers (`collection`) or a search's best hits
(`q`; `exact=1`: its words as typed, as /search reads them); each answer is a
file (`Content-Disposition: attachment`) named for what it holds. A selection of more than
MAX_PAPERS is refused with one line (the command line, `paperatlas export`, has no limit):
the file is written in memory before it is sent. Both are made in the write thread, so a
big file keeps the pages on the event loop answering.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from paperatlas.api import Atlas, web_reads
from paperatlas.errors import PaperatlasError
from paperatlas.filters import ALL_PAPERS, LIKES, Filters
from paperatlas.results import EXPORT_FORMATS
from paperatlas.web.context import context
from paperatlas.web.filtering import page_filters
from paperatlas.web.i18n import lang_from_header
from paperatlas.web.my_topics import topic_label, topic_rows
from paperatlas.web.params import Name, Query_
from paperatlas.web.routes import Routes

routes = Routes()

MAX_PAPERS = 20_000  # a whole large conference; ~30 MB of BibTeX with abstracts
SEARCH_HITS = 100  # a search's download: its best hits, as `export --query` takes them
# the exports a browser can take as one file: (file extension, media type)
FILE_TYPES = {
    "bibtex": ("bib", "application/x-bibtex"),
    "ris": ("ris", "application/x-research-info-systems"),
    "csl-json": ("json", "application/vnd.citationstyles.csl+json"),
    "csv": ("csv", "text/csv"),
    "jsonl": ("jsonl", "application/x-ndjson"),
    "markdown": ("md", "text/markdown"),
}
DIGEST_TYPES = {"md": "text/markdown", "html": "text/html"}
DIGEST_LANGS = ("en", "zh")


def export_formats() -> list[str]:
    """The export formats offered for download, in the order of the links."""
    return [fmt for fmt in FILE_TYPES if fmt in EXPORT_FORMATS]


@routes.get("/download/export")
async def download_export(
    request: Request,
    filters: Annotated[Filters, Depends(page_filters)],
    format: Name = "bibtex",
    collection: Name = None,
    q: Query_ = "",
    topic: Name = None,
    exact: bool = False,
):
    web = context(request)
    fmt = format or "bibtex"
    if fmt not in export_formats():
        raise HTTPException(400, f"unknown format (one of {', '.join(export_formats())})")
    chosen = choose(request, filters, collection, q, topic, exact)
    text = await run_in_threadpool(write_export, web.atlas, fmt, chosen)
    extension, media_type = FILE_TYPES[fmt]
    return attachment(text, media_type, file_name(chosen.named, filters, extension))


@routes.get("/download/digest")
async def download_digest(
    request: Request,
    filters: Annotated[Filters, Depends(page_filters)],
    collection: Name = None,
    format: Name = "md",
    lang: Name = None,
    q: Query_ = "",
    topic: Name = None,
    exact: bool = False,
):
    web = context(request)
    fmt = format or "md"
    if fmt not in DIGEST_TYPES:
        raise HTTPException(400, f"unknown format (one of {', '.join(DIGEST_TYPES)})")
    # no `lang`: the language the page it was asked from is in (render.page_lang)
    language = lang or lang_from_header(request.headers.get("accept-language"))
    if language not in DIGEST_LANGS:
        raise HTTPException(400, f"lang must be one of {', '.join(DIGEST_LANGS)}")
    chosen = choose(request, filters, collection, q, topic, exact)
    try:
        text = await run_in_threadpool(write_digest, web.atlas, fmt, language, chosen)
    except PaperatlasError as exc:  # a collection with no liked paper in the list, ...
        raise HTTPException(400, str(exc).split("\n")[0]) from None
    name = file_name(chosen.named, filters, fmt, stem="digest" + ("-zh" if language == "zh" else ""))
    response = attachment(text, DIGEST_TYPES[fmt], name)
    if not lang:
        response.headers["Vary"] = "Accept-Language"
    return response


@routes.get("/download/schedule")
async def download_schedule(request: Request, collection: Name = None):
    """The saved papers and the collection's liked ones that their program gives a time, as
    an iCalendar file (`paperatlas schedule`); a 400 with one line when none has a time."""
    web = context(request)
    check_collection(web.atlas, collection or None)  # 'likes' before any like is no error
    collection = collection or LIKES
    data, events, chosen = await run_in_threadpool(web_reads.schedule, web.atlas, collection)
    if not events:
        raise HTTPException(
            400, f"none of the {chosen} saved or liked papers has a time in its list (a conference program)"
        )
    return Response(
        data,
        media_type="text/calendar; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{file_name(collection, ALL_PAPERS, "ics", "schedule")}"'
        },
    )


@dataclass(frozen=True)
class Chosen:
    """What a download holds: the page's filters, a collection, a search (`exact`: as typed),
    the ids of the page's map topic (None: no topic asked for) and the topic's name."""

    filters: Filters
    collection: str | None
    query: str | None
    exact: bool
    ids: list[str] | None
    topic: str | None

    @property
    def named(self) -> str | None:
        """The words of the file's name beyond the filters."""
        parts = [self.collection, f"search-{self.query}" if self.query else None, self.topic]
        return "-".join(p for p in parts if p) or None


def choose(
    request: Request, filters: Filters, collection: str | None, q: str, topic: str | None, exact: bool
) -> Chosen:
    """The selection a download holds, checked: an unknown collection is a 404, a topic
    that is no number or `mine` a 400, a selection of more than MAX_PAPERS a 400."""
    web = context(request)
    collection = collection or None
    check_collection(web.atlas, collection)
    query = q.strip() or None
    stored = web.maps.covering(filters.list_name)
    rows = topic_rows(web.atlas, stored, topic, filters.list_name)
    ids = web_reads.paper_ids(web.atlas, filters, rows) if rows is not None else None
    if collection is None and query is None:
        check_size(len(ids) if ids is not None else web.atlas.count_papers(filters=filters))
    named = topic_label(stored, topic) if rows is not None else None
    return Chosen(filters, collection, query, exact, ids, named)


def check_collection(atlas: Atlas, collection: str | None) -> None:
    """404 for a collection that does not exist."""
    if collection is not None and collection not in {c.name for c in atlas.collections()}:
        raise HTTPException(404)


def check_size(count: int) -> None:
    """400 with one line for a selection of more than MAX_PAPERS."""
    if count > MAX_PAPERS:
        raise HTTPException(
            400,
            f"{count:,} papers are more than a download holds ({MAX_PAPERS:,}): "
            "narrow the filters, or use `paperatlas export`",
        )


def write_digest(atlas: Atlas, fmt: str, lang: str, chosen: Chosen) -> str:
    return atlas.digest(
        fmt,
        lang,
        collection=chosen.collection,
        filters=chosen.filters,
        query=chosen.query,
        query_k=SEARCH_HITS,
        topic=chosen.topic,
        ids=chosen.ids,
        exact=chosen.exact,
    )


def write_export(atlas: Atlas, fmt: str, chosen: Chosen) -> str:
    out = io.StringIO()
    try:
        atlas.export(
            fmt, out, chosen.filters, chosen.collection, chosen.query, SEARCH_HITS, chosen.ids, chosen.exact
        )
    except PaperatlasError as exc:  # a query the search cannot read, ...
        raise HTTPException(400, str(exc).split("\n")[0]) from None
    return out.getvalue()


def file_name(chosen: str | None, filters: Filters, extension: str, stem: str = "papers") -> str:
    """'paperatlas-iclr2026-accept.bib': what the file holds, in letters, digits and dashes
    only (a header value carries no quote, slash or line break from a list's name)."""
    parts = [
        "paperatlas",
        stem if stem != "papers" else "",
        chosen or "",
        *map(str, filters.given().values()),
    ]
    words = [re.sub(r"[^A-Za-z0-9]+", "-", p).strip("-")[:40] for p in parts]
    return "-".join(w for w in words if w) + "." + extension


def attachment(text: str, media_type: str, name: str) -> Response:
    return Response(
        text.encode("utf-8"),
        media_type=f"{media_type}; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
