"""Write selected papers as JSON Lines, CSV, BibTeX or Markdown.

`export_papers(atlas, fmt, out, list_name=None, ids=None, **filters)` selects papers
like `Atlas.papers` (a list, filters) or by an explicit id sequence (`ids`, in that
order), and writes them to a path or an open text file. Returns the number written.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

FORMATS = ("jsonl", "csv", "bibtex", "markdown")
_OPENREVIEW_FORUM = re.compile(r"^https?://openreview\.net/forum\?id=")
_OPENREVIEW_ID = re.compile(r"^[A-Za-z0-9_-]{8,14}$")
_CSV_COLUMNS = ("id", "title", "abstract", "authors", "keywords", "venue", "year", "area",
                "decision", "rating", "urls", "lists", "name", "kind", "has_code",
                "display_title", "predicted_area", "gist", "topic_id", "topic",
                "reference_topic_id", "reference_topic")
_FACT_COLUMNS = ("kind", "name", "has_code", "display_title", "predicted_area")


def export_papers(atlas, fmt: str, out: str | os.PathLike[str] | TextIO,
                  list_name: str | None = None, ids: Iterable[str] | None = None,
                  collection: str | None = None, query: str | None = None,
                  query_k: int = 100, **filters: Any) -> int:
    from paperatlas.errors import PaperatlasError
    writer = _WRITERS.get(fmt)
    if writer is None:
        raise PaperatlasError(f"unknown export format '{fmt}' (choose from {', '.join(FORMATS)})")
    if collection is not None or query is not None:
        ids = _chosen_ids(atlas.store, ids, collection, query, query_k, list_name, filters)
        list_name, filters = None, {}
    papers = _selected(atlas, list_name, ids, filters)
    with _opened(out) as fh:
        return writer(papers, fh)


def _chosen_ids(store, ids, collection, query, query_k, list_name, filters) -> list[str]:
    """Ids of a collection's liked papers (mark order) or of a search's hits (rank order),
    narrowed by `ids`, the list and the filters when given too (take-home stage)."""
    from paperatlas.errors import PaperatlasError
    chosen: list[str] | None = None
    if collection is not None:
        if collection not in store.collections():
            known = ", ".join(sorted(store.collections())) or "none yet"
            raise PaperatlasError(f"no collection named '{collection}' (collections: {known})")
        chosen = [pid for _, pid, value in store.marks(collection) if value > 0]
    if query is not None:
        from paperatlas.search import search
        narrowing = {k: v for k, v in filters.items()
                     if k in ("area", "kind", "decision", "has_code")}
        hits = [h.id for h in search(store, query, k=query_k, list_name=list_name,
                                     **narrowing).hits]
        hit_set = set(hits)
        chosen = hits if chosen is None else [pid for pid in chosen if pid in hit_set]
    if ids is not None:
        keep = set(ids)
        chosen = [pid for pid in chosen if pid in keep]
    if list_name is not None or filters:
        keep = {p["id"] for p in store.iter_papers(list_name=list_name, ids=chosen, **filters)}
        chosen = [pid for pid in chosen if pid in keep]
    return chosen


def _selected(atlas, list_name, ids, filters) -> Iterator[dict[str, Any]]:
    """Each selected paper with its lists and facts, fetched a page at a time."""
    from paperatlas.atlas import TopicLookup

    store = atlas.store
    topics = TopicLookup(store, list_name)  # each paper's map topic and field topic
    if ids is not None:
        wanted = list(dict.fromkeys(ids))
        pages = (store.get_papers(wanted[i:i + 500]) for i in range(0, len(wanted), 500))
    else:
        rows = store.iter_papers(list_name=list_name, **filters)
        pages = _pages(rows, 500)
    for page in pages:
        page_ids = [p["id"] for p in page]
        facts = store.facts_for(page_ids)
        for paper in page:
            for column in _FACT_COLUMNS:  # iter_papers adds these from facts; facts has them all
                paper.pop(column, None)
            paper["lists"] = store.lists_of(paper["id"])
            paper["facts"] = facts.get(paper["id"], {})
            paper.update(topics(paper["id"]))
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
    if isinstance(out, (str, os.PathLike)):
        with open(out, "w", encoding="utf-8", newline="") as fh:
            yield fh
    else:
        yield out


# -- JSON Lines: every stored field, id first ------------------------------------------------

def write_jsonl(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    count = 0
    for paper in papers:
        record = {"id": paper["id"], **{k: v for k, v in paper.items() if k != "id"}}
        fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        count += 1
    return count


# -- CSV: one row a paper, lists joined by "; " -------------------------------------------------

def write_csv(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    writer = csv.writer(fh)
    writer.writerow(_CSV_COLUMNS)
    count = 0
    for paper in papers:
        facts = paper.get("facts") or {}
        row = []
        grouping = {"topic_id": (paper.get("topic") or {}).get("id"),
                    "topic": (paper.get("topic") or {}).get("label"),
                    "reference_topic_id": (paper.get("reference_topic") or {}).get("id"),
                    "reference_topic": (paper.get("reference_topic") or {}).get("label")}
        for column in _CSV_COLUMNS:
            value = grouping[column] if column in grouping else \
                paper.get(column) if column in paper else facts.get(column)
            if isinstance(value, dict):  # predicted_area {label, prob, ...}
                value = value.get("label")
            if isinstance(value, (list, tuple)):
                value = "; ".join(str(v) for v in value)
            if isinstance(value, bool):
                value = int(value)
            row.append("" if value is None else value)
        writer.writerow(row)
        count += 1
    return count


# -- BibTeX --------------------------------------------------------------------------------------

_TEXT_SPECIALS = {"&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_",
                  "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_MATH = re.compile(r"(?<!\\)\$[^$]+(?<!\\)\$")
_COMMAND = re.compile(r"\\[A-Za-z]+")


def bibtex_escape(text: str) -> str:
    """Make text safe inside a braced BibTeX field and valid LaTeX.

    Inline math ($...$) is kept as written; outside it, & % # _ ~ ^ are escaped and a
    backslash that starts no command becomes \\textbackslash{}. Braces are kept when they
    balance (they may be LaTeX groups); otherwise every brace is spelled
    \\textbraceleft{} / \\textbraceright{}, since BibTeX counts even escaped braces.
    """
    text = " ".join(text.split())
    if (text.count("$") - text.count(r"\$")) % 2:
        text = re.sub(r"(?<!\\)\$", r"\\$", text)  # an unpaired $ is a dollar sign
    # \{ and \} are spelled out below, so only the bare braces must pair up
    balanced = _balanced(re.sub(r"\\[{}]", "", text))
    if not balanced:  # set every brace aside; spelled out as commands at the end
        text = re.sub(r"\\?([{}])", lambda m: "\x00" if m.group(1) == "{" else "\x01", text)
    out, last = [], 0
    for match in _MATH.finditer(text):
        out.append(_escape_plain(text[last:match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(_escape_plain(text[last:]))
    result = "".join(out)
    if not balanced:
        result = result.replace("\x00", r"\textbraceleft{}").replace("\x01", r"\textbraceright{}")
    return result


def _escape_plain(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            command = _COMMAND.match(text, i)
            if command:
                out.append(command.group(0))
                i = command.end()
                continue
            if i + 1 < len(text) and text[i + 1] in "&%#_$":
                out.append(text[i:i + 2])  # already escaped
                i += 2
                continue
            if i + 1 < len(text) and text[i + 1] in "{}":
                # \{ counts as a brace for BibTeX but not for every parser: spell it out
                out.append(r"\textbraceleft{}" if text[i + 1] == "{" else r"\textbraceright{}")
                i += 2
                continue
            out.append(r"\textbackslash{}")
        else:
            out.append(_TEXT_SPECIALS.get(ch, ch))
        i += 1
    return "".join(out)


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += ch == "{"
        depth -= ch == "}"
        if depth < 0:
            return False
    return depth == 0


def _bibtex_key(paper_id: str, used: set[str]) -> str:
    key = re.sub(r"[^A-Za-z0-9_:.\-]", "_", paper_id) or "paper"
    candidate, n = key, 2
    while candidate in used:
        candidate, n = f"{key}_{n}", n + 1
    used.add(candidate)
    return candidate


def paper_url(paper: dict[str, Any]) -> str | None:
    """The paper's page: its OpenReview forum where it has one, else its first url."""
    urls = paper.get("urls") or []
    for url in urls:
        if _OPENREVIEW_FORUM.match(url):
            return url
    return urls[0] if urls else None


def write_bibtex(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    used: set[str] = set()
    count = 0
    for paper in papers:
        facts = paper.get("facts") or {}
        title = paper.get("title") or facts.get("display_title") or paper["abstract"][:80]
        fields: list[tuple[str, str]] = [("title", "{" + bibtex_escape(title) + "}")]
        if paper.get("authors"):
            fields.append(("author", " and ".join(bibtex_escape(a) for a in paper["authors"])))
        venue = paper.get("venue")
        if venue:
            fields.append(("booktitle", bibtex_escape(venue)))
        if paper.get("year"):
            fields.append(("year", str(paper["year"])))
        fields.append(("abstract", bibtex_escape(paper["abstract"])))
        if paper.get("keywords"):
            fields.append(("keywords", bibtex_escape(", ".join(paper["keywords"]))))
        url = paper_url(paper)
        if url:
            fields.append(("url", url.replace("{", "%7B").replace("}", "%7D")))
        for name, value in (("note", paper.get("decision")), ("primary_area", paper.get("area"))):
            if value:
                fields.append((name, bibtex_escape(str(value))))
        entry_type = "inproceedings" if venue or paper.get("decision") else "misc"
        key = _bibtex_key(paper["id"], used)
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        fh.write(f"@{entry_type}{{{key},\n{body}\n}}\n\n")
        count += 1
    return count


# -- Markdown ------------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def write_markdown(papers: Iterable[dict[str, Any]], fh: TextIO) -> int:
    count = 0
    for paper in papers:
        facts = paper.get("facts") or {}
        title = paper.get("title") or facts.get("display_title") or paper["id"]
        fh.write(f"## {_md(title)}\n\n")
        meta = [f"`{paper['id']}`"]
        for value in (paper.get("area"), paper.get("decision"), facts.get("kind")):
            if value:
                meta.append(_md(value))
        url = paper_url(paper)
        if url:
            meta.append(f"<{url}>")
        fh.write(" · ".join(meta) + "\n\n")
        topic, field = paper.get("topic"), paper.get("reference_topic")
        if topic or field:
            parts = []
            if topic:
                parts.append(f"topic {topic['id']}: {_md(topic['label'] or '')}")
            if field and (not topic or field["label"] != topic["label"]):
                parts.append(f"field topic ({_md(field['reference'] or '')}) {field['id']}: "
                             f"{_md(field['label'] or '')}")
            fh.write(" · ".join(parts) + "\n\n")
        if facts.get("gist"):
            fh.write(f"*{_md(facts['gist'])}*\n\n")
        fh.write(_md(paper["abstract"]) + "\n\n")
        count += 1
    return count


_WRITERS: dict[str, Callable[[Iterable[dict[str, Any]], TextIO], int]] = {
    "jsonl": write_jsonl, "csv": write_csv, "bibtex": write_bibtex, "markdown": write_markdown,
}
