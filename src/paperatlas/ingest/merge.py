"""What a record writes: the row of a new paper, and the columns a twin of a stored paper
adds to it (empty fields filled, lists unioned; nothing stored is overwritten)."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from paperatlas.ingest.prepare import Prepared
from paperatlas.ingest.report import has_text
from paperatlas.paper import Paper
from paperatlas.store import PAPER_COLUMNS
from paperatlas.store.database import JSON_COLUMNS, column_value

_FILL_FIELDS = ("title", "venue", "year", "area", "decision", "rating", "section", "date")

_ROW_FIELDS = tuple(c for c in PAPER_COLUMNS if c != "id")  # every one a Paper attribute
_row_values = attrgetter(*_ROW_FIELDS)


def new_row(pid: str, paper: Paper, identifiers: dict[str, str]) -> dict[str, Any]:
    row = dict(zip(_ROW_FIELDS, _row_values(paper)))
    row["id"] = pid
    row["identifiers"] = identifiers
    return row


_JSON_AT = tuple((i, c) for i, c in enumerate(PAPER_COLUMNS) if c in JSON_COLUMNS)


def stored_values(row: dict[str, Any], paper: Paper, pre: Prepared) -> list[Any]:
    """A new row's values as the store writes them (PAPER_COLUMNS in order), its JSON
    columns from `pre` where the row holds the paper's own list or dict (merge_changes
    gives a changed column a new one)."""
    values = list(map(row.__getitem__, PAPER_COLUMNS))
    encoded = pre.columns
    for i, c in _JSON_AT:
        v = values[i]
        values[i] = encoded[c] if v is getattr(paper, c) else column_value(c, v)
    return values


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def merge_changes(
    stored: dict[str, Any], paper: Paper, identifiers: dict[str, str] | None = None
) -> dict[str, Any]:
    """Columns of a stored paper that a newly read twin adds: empty fields filled (a
    title-only paper's abstract too), keywords, urls and code urls unioned, identifiers
    and extra keys added. Nothing stored is overwritten."""
    # A re-read of a stored paper (the common case) changes nothing: the cheap equality
    # and key-subset checks below let it through without building sets and copies.
    changes: dict[str, Any] = {}
    if not has_text(stored.get("abstract")) and has_text(paper.abstract):
        changes["abstract"] = paper.abstract
    for name in _FILL_FIELDS:
        value = getattr(paper, name, None)
        if value is None or value == stored.get(name):
            continue
        if _empty(stored.get(name)) and not _empty(value):
            changes[name] = value
    if not stored.get("authors") and paper.authors:
        changes["authors"] = paper.authors
    for name in ("keywords", "urls", "code_urls"):
        values = getattr(paper, name, None)
        if not values or values == stored.get(name):
            continue
        have = list(stored.get(name) or [])
        seen = {str(v).lower() for v in have}
        new = [v for v in values if str(v).lower() not in seen]
        if new:
            changes[name] = have + new
    ids = identifiers if identifiers is not None else paper.identifiers
    if ids and ids != stored.get("identifiers"):
        have_ids = stored.get("identifiers") or {}
        new_ids = {k: v for k, v in ids.items() if v and k not in have_ids}
        if new_ids:
            changes["identifiers"] = {**have_ids, **new_ids}
    extra = stored.get("extra") or {}
    if not paper.extra.keys() <= extra.keys():
        added = {k: v for k, v in paper.extra.items() if k not in extra and not _empty(v)}
        if added:
            changes["extra"] = {**extra, **added}
    return changes
