"""Write selected papers as JSON Lines, CSV, BibTeX (report/bibtex.py), RIS, CSL-JSON, Markdown, or a folder of
one Markdown file per paper (report/markdown_folder.py).

`export_papers(store, fmt, out, filters, ids=None, collection=None, query=None)` selects
papers like `Atlas.papers` (`Filters`), by an explicit id sequence (`ids`, in that order, within the filters),
a collection's likes or a search's hits, and writes them to a path or an open text file (the
folder format: to a folder). Returns the number written. Each paper carries what the person
keeps about it (`kept`: state, note, tags), which BibTeX, RIS, CSL-JSON and the folder write
out.
"""

from __future__ import annotations

import csv
import errno
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, TextIO

from paperatlas.enrich.areas import area_label, top3_text
from paperatlas.filters import ALL_PAPERS, Filters
from paperatlas.paper import finite, json_text, shown_title
from paperatlas.report.bibtex import bibtex_type, write_bibtex
from paperatlas.report.links import paper_url, safe_url

FORMATS = ("jsonl", "csv", "bibtex", "ris", "csl-json", "markdown", "markdown-folder")
_CSV_COLUMNS = (
    "id",
    "title",
    "abstract",
    "title_only",
    "authors",
    "keywords",
    "venue",
    "year",
    "date",
    "area",
    "decision",
    "rating",
    "urls",
    "code_urls",
    "identifiers",
    "section",
    "lists",
    "name",
    "kind",
    "has_code",
    "display_title",
    "predicted_area",
    "predicted_area_top3",
    "gist",
    "topic_id",
    "topic",
    "fine_topic",
    "topic_other",
    "reference_topic_id",
    "reference_topic",
)
_FACT_COLUMNS = ("kind", "name", "has_code", "display_title", "predicted_area")


def export_papers(
    store,
    fmt: str,
    out: str | os.PathLike[str] | TextIO,
    filters: Filters = ALL_PAPERS,
    ids: Iterable[str] | None = None,
    collection: str | None = None,
    query: str | None = None,
    query_k: int = 100,
    exact: bool = False,
) -> int:
    from paperatlas.errors import PaperatlasError

    writer = _WRITERS.get(fmt)
    if writer is None:
        raise PaperatlasError(f"unknown export format '{fmt}' (choose from {', '.join(FORMATS)})")
    if collection is not None or query is not None:
        ids = _chosen_ids(store, ids, collection, query, query_k, filters, exact)
        filters = ALL_PAPERS
    elif ids is not None and filters.narrows():  # the filters hold for `ids` too
        keep = {p["id"] for p in store.papers.iter(filters, ids=ids, id_only=True)}
        ids = [pid for pid in ids if pid in keep]
    papers = _selected(store, ids, filters)
    if fmt == "markdown-folder":
        from paperatlas.report.markdown_folder import write_folder

        if not isinstance(out, (str, os.PathLike)):
            raise PaperatlasError("the markdown-folder export writes to a folder: name one (--output DIR)")
        return write_folder(papers, out)
    with _opened(out) as fh:
        return writer(papers, fh)


def _chosen_ids(store, ids, collection, query, query_k, filters: Filters, exact: bool = False) -> list[str]:
    """Ids of a collection's liked papers (mark order) or of a search's hits (rank order;
    `exact`: the query's words as typed, not corrected), narrowed by `ids`, the list and the
    filters when given too."""
    from paperatlas.errors import PaperatlasError

    chosen: list[str] = []
    if collection is not None:
        if collection not in store.marks.collections():
            known = ", ".join(sorted(store.marks.collections())) or "none yet"
            raise PaperatlasError(f"no collection named '{collection}' (collections: {known})")
        from paperatlas.likes import liked_ids

        chosen = liked_ids(store, collection)
    if query is not None:
        from paperatlas.search import SearchConfig, search

        config = SearchConfig(spelling=not exact)
        hits = [h.id for h in search(store, query, k=query_k, filters=filters, config=config).hits]
        hit_set = set(hits)
        chosen = hits if collection is None else [pid for pid in chosen if pid in hit_set]
    if ids is not None:
        keep = set(ids)
        chosen = [pid for pid in chosen if pid in keep]
    if filters.narrows():
        keep = {p["id"] for p in store.papers.iter(filters, ids=chosen, id_only=True)}
        chosen = [pid for pid in chosen if pid in keep]
    return chosen


def paper_bibtex(store, paper_id: str) -> str:
    """One stored paper's BibTeX entry, as the bibtex export writes it (its note and tags
    too); "" for an unknown id. Its topic is not read: BibTeX has no field for it."""
    out = io.StringIO()
    write_bibtex(_selected(store, [paper_id], ALL_PAPERS, topics=False), out)
    return out.getvalue()


def _selected(store, ids, filters: Filters, topics: bool = True) -> Iterator[dict[str, Any]]:
    """Each selected paper with its lists and facts (and its topics), fetched a page at a time."""
    from paperatlas.atlas import TopicLookup

    # each paper's map topic and field topic (the first look-up reads the stored maps whole)
    lookup = TopicLookup(store, filters.list_name) if topics else None
    pages: Iterable[list[dict[str, Any]]]
    if ids is not None:
        wanted = list(dict.fromkeys(ids))
        pages = (store.papers.get_many(wanted[i : i + 500]) for i in range(0, len(wanted), 500))
    else:
        rows = store.papers.iter(filters)
        pages = _pages(rows, 500)
    for page in pages:
        page_ids = [p["id"] for p in page]
        facts = store.facts.get_many(page_ids)
        kept = store.kept.for_papers(page_ids)
        for paper in page:
            for column in _FACT_COLUMNS:  # iter_papers adds these from facts; facts has them all
                paper.pop(column, None)
            paper["lists"] = store.lists.containing(paper["id"])
            paper["facts"] = facts.get(paper["id"], {})
            if lookup is not None:
                paper.update(lookup(paper["id"]))
            if paper["id"] in kept:
                state, note, tags = kept[paper["id"]]
                paper["kept"] = {"state": state, "note": note, "tags": tags}
            yield paper


def _pages(rows: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    page: list[dict[str, Any]] = []
    for row in rows:
        page.append(row)
        if len(page) >= size:
            yield page
            page = []
    if page:
        yield page


@contextmanager
def _opened(out) -> Iterator[TextIO]:
    if not isinstance(out, (str, os.PathLike)):
        yield out
        return
    try:
        with open(out, "w", encoding="utf-8", newline="") as fh:
            yield fh
    except OSError as exc:  # a full disk: no half-written export is left, and the error names it
        if exc.errno != errno.ENOENT:
            with suppress(OSError):
                os.unlink(out)
        raise OSError(exc.errno, exc.strerror, os.fspath(out)) from None


def _title_only(paper: dict[str, Any]) -> bool:
    """Known by its title (links, authors, ...) but not by an abstract."""
    return not (paper.get("abstract") or "").strip()


# -- JSON Lines: every stored field, id first ------------------------------------------------


def write_jsonl(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    count = 0
    for paper in papers:
        record = {
            "id": paper["id"],
            **{k: v for k, v in paper.items() if k != "id"},
            "title_only": _title_only(paper),
        }
        fh.write(json_text(record, ensure_ascii=False) + "\n")
        count += 1
    return count


# -- CSV: one row a paper, lists joined by "; " -------------------------------------------------

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_safe(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula (it starts with = + - @, a tab or a
    carriage return) gets a leading ' (OWASP CSV injection advice); numbers, "-3" too, stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def write_csv(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    writer = csv.writer(fh)
    writer.writerow(_CSV_COLUMNS)
    count = 0
    for paper in papers:
        facts = paper.get("facts") or {}
        row = []
        grouping = {
            "topic_id": (paper.get("topic") or {}).get("id"),
            "topic": (paper.get("topic") or {}).get("label"),
            "fine_topic": (paper.get("topic") or {}).get("fine_label"),
            # 1 when shown in its topic's "other" part, empty where the map does not say
            "topic_other": (paper.get("topic") or {}).get("other"),
            "reference_topic_id": (paper.get("reference_topic") or {}).get("id"),
            "reference_topic": (paper.get("reference_topic") or {}).get("label"),
            "title_only": _title_only(paper),
            "identifiers": [f"{k}:{v}" for k, v in (paper.get("identifiers") or {}).items()],
        }
        for column in _CSV_COLUMNS:
            value = (
                grouping[column]
                if column in grouping
                else paper.get(column)
                if column in paper
                else facts.get(column)
            )
            if column == "predicted_area_top3":  # "A 62%; B 20%; C 8%"
                value = top3_text(facts.get("predicted_area"), sep="; ") or None
            if isinstance(value, dict):  # predicted_area {label, prob, top3, tie}: "A or B" on a tie
                value = area_label(value)
            if isinstance(value, (list, tuple)):
                value = "; ".join(str(v) for v in value)
            if isinstance(value, bool):
                value = int(value)
            value = finite(value)  # a rating of 1e999 is no number to write
            row.append("" if value is None else spreadsheet_safe(value))
        writer.writerow(row)
        count += 1
    return count


_BLOCK_START = re.compile(r"^(\d{1,9})([.)])|^([-+=>])")  # a line that would start a list/quote


def _md(text: str) -> str:
    """Paper text as Markdown that renders as that text: syntax characters and "<" are
    backslash-escaped (no tag or autolink can start), never HTML entities (no `&amp;`)."""
    from paperatlas.report.markdown import md_text

    return _BLOCK_START.sub(
        lambda m: f"{m.group(1)}\\{m.group(2)}" if m.group(1) else f"\\{m.group(3)}", md_text(text)
    )


def _code(text: str) -> str:
    """`text` as a Markdown code span that ends where it should: fenced by more backticks
    than any run inside it (an id holding a backtick cannot close the span early and start
    markup or HTML), on one line (a blank line would end the paragraph)."""
    text = " ".join(str(text).split())
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def write_markdown(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    count = 0
    for paper in papers:
        facts = paper.get("facts") or {}
        title = shown_title(paper, facts) or paper["id"]
        fh.write(f"## {_md(title)}\n\n")
        meta = [_code(paper["id"])]
        for value in (paper.get("area"), paper.get("decision"), facts.get("kind")):
            if value:
                meta.append(_md(value))
        if not paper.get("area") and facts.get("predicted_area"):  # top 3 with probabilities
            meta.append(_md(f"predicted area: {top3_text(facts['predicted_area'], sep=', ')}"))
        url = safe_url(paper_url(paper))
        if url:
            meta.append(f"<{url}>")
        code = next(filter(None, map(safe_url, paper.get("code_urls") or [])), None)
        if code:
            meta.append(f"code: <{code}>")
        if paper.get("section"):
            meta.append(f"section: {_md(paper['section'])}")
        fh.write(" · ".join(meta) + "\n\n")
        topic, field = paper.get("topic"), paper.get("reference_topic")
        if topic or field:
            parts = []
            if topic:
                fine = topic.get("fine_label")
                shown = topic["label"] or ""
                if fine and fine != shown:
                    shown = f"{shown} › {fine}"
                parts.append(f"topic {topic['id']}: {_md(shown)}")
            if field and (not topic or field["label"] != topic["label"]):
                parts.append(
                    f"field topic ({_md(field['reference'] or '')}) {field['id']}: "
                    f"{_md(field['label'] or '')}"
                )
            fh.write(" · ".join(parts) + "\n\n")
        if facts.get("gist"):
            fh.write(f"*{_md(facts['gist'])}*\n\n")
        if (paper.get("abstract") or "").strip():
            fh.write(_md(paper["abstract"]) + "\n\n")
        else:
            fh.write("*(title only: no abstract in the list it came from)*\n\n")
        count += 1
    return count


def _write_ris(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    from paperatlas.report.reference_formats import write_ris

    return write_ris(papers, fh, bibtex_type)


def _write_csl(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    from paperatlas.report.reference_formats import write_csl_json

    return write_csl_json(papers, fh, bibtex_type)


_WRITERS: dict[str, Callable[[Iterable[dict[str, Any]], TextIO], int]] = {
    "jsonl": write_jsonl,
    "csv": write_csv,
    "bibtex": write_bibtex,
    "ris": _write_ris,
    "csl-json": _write_csl,
    "markdown": write_markdown,
    "markdown-folder": write_markdown,  # (export_papers sends it to report/markdown_folder.py)
}
