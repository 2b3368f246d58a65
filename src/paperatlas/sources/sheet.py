"""Sheets whose columns say nothing the readers know: a CSV/TSV with no header row (a
program's `session, number, title, authors` rows) or with headers of its own words
(`literature_citations`). Its rows are the records and its columns their repeated parts, so
the rows go to the record finder (`sources.finder`) as the rows of a table, which tells the
title, names and venue of each by what they are: a title cell, a names cell, a whole
reference written out. A first row whose words are far fewer than its column's other cells
is a header and no record. A column of names written surname first (`Last, First; Last,
First`, told from the column's own cells as in `sources.csv`) is handed over as `First Last`
names, so that the finder takes each name whole. Where the finder found nearly every row's
title whole in one column, every row is read by its columns (title, abstract, names), so a
row the finder misread on its own is read like its neighbours."""

from __future__ import annotations

import csv
import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from paperatlas.errors import InputError
from paperatlas.paper import Paper
from paperatlas.sources.cell_names import first_last, names_in_cell, surname_first
from paperatlas.sources.doctree import Node, Span
from paperatlas.sources.entry import Entry, merge_duplicates, to_paper
from paperatlas.sources.fields import authorish
from paperatlas.sources.finder import find
from paperatlas.sources.records import paper_from_record
from paperatlas.sources.report import ReadReport

_ADDRESS = re.compile(r"https?://[^\s\"'<>]+")
_HEADER_WORDS = 3  # a header cell's words at most ...
_RECORD_WORDS = 6  # ... where the column's other cells hold this many (median)
_AGREE = 0.8  # share of rows a column must hold a field in to be that field's column
# The finder reads every cell as a line that may be a title, names or a venue (20-30 us of CPU
# each): 1 MB of one-character cells is 500,000 of them and took 15 s. A sheet of papers holds
# titles, so far fewer, longer cells; more than this is refused, and a sheet whose header
# names its columns (title, authors, ...) is read by its columns without the finder.
MAX_SHEET_CELLS = 200_000


def is_sheet(rows: list[list[str]]) -> bool:
    """Rows of one width, three cells or more: a sheet, whatever its first row says."""
    return len(rows) >= 3 and len({len(r) for r in rows}) == 1 and len(rows[0]) >= 3


def read_sheet(
    path: Path,
    rows: Iterator[tuple[int, list[str]]],
    report: ReadReport | None = None,
    records: str | None = None,
) -> Iterator[Paper]:
    """Papers of a sheet's rows ((first line, cells)), found by the record finder (`records`:
    the pattern the user named, as `sources.finder.find` takes it)."""
    numbered = list(rows)
    count = sum(len(row) for _, row in numbered)
    if count > MAX_SHEET_CELLS:
        raise InputError(
            path,
            f"a sheet of {count:,} cells under no column names paperatlas knows (more than "
            f"{MAX_SHEET_CELLS:,}: no list of papers; name its columns title, authors, ... to read it)",
            numbered[0][0],
        )
    if numbered and _is_header([r for _, r in numbered]):
        numbered = numbered[1:]
    names = _name_columns([r for _, r in numbered])
    table = Node("table", numbered[0][0] if numbered else 1)
    for line, row in numbered:
        cells = [_names_cell(c) if i in names else c for i, c in enumerate(row)]
        table.children.append(Node("row", line, children=[_cell(c, line) for c in cells]))
    finding = find(Node("doc", children=[table]), records)
    columns = None if records else _columns(numbered, finding.entries, names)
    if report is not None:
        report.pattern = _describe(columns) if columns else finding.pattern or None
        if not columns and finding.entries:
            report.warnings.append(
                "no column of this sheet holds the titles: each row's title and names were cut "
                "out of its text (check them; name the columns title, authors, ... to be sure)"
            )
    if columns:
        for line, row in numbered:
            yield paper_from_record(_record(row, columns, names), f"{path}:{line}")
        return
    for entry in merge_duplicates(finding.entries):
        yield to_paper(path, entry)


def _columns(
    numbered: list[tuple[int, list[str]]], entries: list[Entry], names: set[int]
) -> dict[str, int] | None:
    """The column each field sits in, where the finder found nearly every row's title whole
    in one column: {title, abstract, authors: column}. The finder reads each row on its own and
    may misread one; a sheet's columns hold the same field in every row."""
    if len(entries) < _AGREE * len(numbered):
        return None
    rows = dict(numbered)
    found: dict[str, int] = {}
    for name, value in (("title", lambda e: e.title), ("abstract", lambda e: e.abstract()[0])):
        votes: Counter[int] = Counter()
        for entry in entries:
            row = rows.get(entry.lineno, [])
            votes.update(i for i, cell in enumerate(row) if value(entry) and _same(cell, value(entry)))
        column, count = votes.most_common(1)[0] if votes else (0, 0)
        if count >= _AGREE * len(entries):
            found[name] = column
    if "title" not in found:
        return None
    authors = sorted(names) or [
        i
        for i in range(len(numbered[0][1]))
        if i not in found.values() and _mostly(authorish, [r[i] for _, r in numbered if i < len(r)])
    ]
    if authors:
        found["authors"] = authors[0]
    return found


def _same(cell: str, text: str) -> bool:
    return " ".join(cell.split()).strip(" .,;:\"'") == " ".join(text.split()).strip(" .,;:\"'")


def _mostly(test: Callable[[str], bool], cells: list[str]) -> bool:
    cells = [c for c in cells if c.strip()]
    return bool(cells) and sum(map(test, cells)) >= _AGREE * len(cells)


def _record(row: list[str], columns: dict[str, int], names: set[int]) -> dict[str, object]:
    record: dict[str, object] = {
        field: row[i].strip() for field, i in columns.items() if i < len(row) and row[i].strip()
    }
    if columns.get("authors") in names and isinstance(cell := record.get("authors"), str):
        record["authors"] = [first_last(name) for name in names_in_cell(cell)]
    record["urls"] = [m.group(0) for cell in row for m in _ADDRESS.finditer(cell)]
    return record


def _describe(columns: dict[str, int]) -> str:
    return "sheet rows: " + ", ".join(f"{field} = column {i + 1}" for field, i in columns.items())


def _is_header(rows: list[list[str]]) -> bool:
    if len(rows) < 3:
        return False
    width = len(rows[0])
    columns = [[len(r[i].split()) for r in rows[1:] if i < len(r)] for i in range(width)]
    longest = max(range(width), key=lambda i: statistics.median(columns[i] or [0]))
    median = statistics.median(columns[longest] or [0])
    return median >= _RECORD_WORDS and len(rows[0][longest].split()) <= _HEADER_WORDS


def _name_columns(rows: list[list[str]]) -> set[int]:
    width = max((len(r) for r in rows), default=0)
    return {i for i in range(width) if surname_first([r[i] for r in rows if i < len(r) and r[i].strip()])}


def _names_cell(cell: str) -> str:
    return ", ".join(first_last(name) for name in names_in_cell(cell))


def _cell(text: str, line: int) -> Node:
    """A cell's text, its web addresses as links."""
    spans: list[Node | Span] = []
    at = 0
    for m in _ADDRESS.finditer(text):
        if m.start() > at:
            spans.append(Span(text[at : m.start()]))
        spans.append(Span(m.group(0), href=m.group(0)))
        at = m.end()
    if at < len(text):
        spans.append(Span(text[at:]))
    return Node("cell", line, children=spans)


def rows_of(head: str, delimiter: str) -> list[list[str]]:
    """The first rows of a file's head, as the csv module splits them (none when it cannot)."""
    lines = [line for line in head.splitlines()[:30] if line.strip()]
    try:
        rows = list(csv.reader(lines, delimiter=delimiter))
    except csv.Error:
        return []
    return rows[:-1] if len(rows) > 3 else rows  # the head's last line may be cut
