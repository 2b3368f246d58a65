"""Downloads: `/download/export` (the papers of a list, a collection, a tag or a search, as
BibTeX, RIS, CSL-JSON, CSV, JSONL or Markdown: `Atlas.export`) and `/download/digest` (the
same selections' digest, Markdown or HTML, English or Chinese: `Atlas.digest`).

The selection is what the page's filters (web/filtering.py) let through, narrowed to a
collection's liked papers (`collection`) or a search's best hits (`q`); each answer is a
file (`Content-Disposition: attachment`) named for what it holds. A selection of more than
MAX_PAPERS is refused with one line (the command line, `paperatlas export`, has no limit):
the file is written in memory before it is sent. Both are made in the write thread, so a
big file keeps the pages on the event loop answering.
"""

from __future__ import annotations

import io
import re
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from paperatlas.api import Atlas
from paperatlas.errors import PaperatlasError
from paperatlas.filters import Filters
from paperatlas.results import EXPORT_FORMATS
from paperatlas.web.context import context
from paperatlas.web.filtering import page_filters
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
):
    web = context(request)
    fmt = format or "bibtex"
    if fmt not in export_formats():
        raise HTTPException(400, f"unknown format (one of {', '.join(export_formats())})")
    collection = collection or None
    check_collection(web.atlas, collection)
    query = q.strip() or None
    if collection is None and query is None:
        check_size(web.atlas.count_papers(filters=filters))
    text = await run_in_threadpool(write_export, web.atlas, fmt, filters, collection, query)
    extension, media_type = FILE_TYPES[fmt]
    name = file_name(collection or (f"search-{query}" if query else None), filters, extension)
    return attachment(text, media_type, name)


@routes.get("/download/digest")
async def download_digest(
    request: Request,
    filters: Annotated[Filters, Depends(page_filters)],
    collection: Name = None,
    format: Name = "md",
    lang: Name = None,
    q: Query_ = "",
):
    web = context(request)
    fmt = format or "md"
    if fmt not in DIGEST_TYPES:
        raise HTTPException(400, f"unknown format (one of {', '.join(DIGEST_TYPES)})")
    language = lang or "en"
    if language not in DIGEST_LANGS:
        raise HTTPException(400, f"lang must be one of {', '.join(DIGEST_LANGS)}")
    collection = collection or None
    check_collection(web.atlas, collection)
    query = q.strip() or None
    if collection is None and query is None:
        check_size(web.atlas.count_papers(filters=filters))
    try:
        text = await run_in_threadpool(write_digest, web.atlas, fmt, language, filters, collection, query)
    except PaperatlasError as exc:  # a collection with no liked paper in the list, ...
        raise HTTPException(400, str(exc).split("\n")[0]) from None
    chosen = collection or (f"search-{query}" if query else None)
    name = file_name(chosen, filters, fmt, stem="digest" + ("-zh" if language == "zh" else ""))
    media_type = DIGEST_TYPES[fmt]
    return attachment(text, media_type, name)


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


def write_digest(
    atlas: Atlas, fmt: str, lang: str, filters: Filters, collection: str | None, query: str | None
) -> str:
    return atlas.digest(fmt, lang, collection=collection, filters=filters, query=query, query_k=SEARCH_HITS)


def write_export(atlas: Atlas, fmt: str, filters: Filters, collection: str | None, query: str | None) -> str:
    out = io.StringIO()
    try:
        atlas.export(fmt, out, filters=filters, collection=collection, query=query, query_k=SEARCH_HITS)
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
