"""CSV and TSV sheets with a header row; columns matched case-insensitively
(title, abstract, authors, keywords, ...; see `records.ALIASES`). A sheet with no column
named for the title or the abstract (no header row, or headers of its own words) is read by
the record finder over its rows (`sources.sheet`).

What a reference manager's export says in its own words is read as the sheet writes it: an
item-type column (`Item Type`, `Type`: a book or a program is no paper, `sources.kinds`), a
DOI column that holds a web address (the record's link), and an author column whose names are
written surname first (`Last, First; Last, First`, `Last, First and Last, First`), told from
the column's own first rows, so that `Popitsch, Niko` stays one person."""

from __future__ import annotations

import csv
import itertools
from collections.abc import Iterator
from pathlib import Path

from paperatlas.errors import InputError
from paperatlas.identifiers import doi
from paperatlas.paper import Paper
from paperatlas.sources._io import iter_lines
from paperatlas.sources.cell_names import first_last, names_in_cell, surname_first
from paperatlas.sources.limits import RECORD_LIMIT, size
from paperatlas.sources.records import ALIASES, canonical_key, paper_from_record
from paperatlas.sources.report import ReadReport
from paperatlas.sources.sheet import read_sheet

csv.field_size_limit(RECORD_LIMIT)  # a field spanning lines is held whole: bounded like a record


def delimiter_of(header: str) -> str:
    """The delimiter of a header line: tab, semicolon or comma, whichever splits it most."""
    return max("\t;,|", key=header.count)


def header_columns(line: str) -> set[str]:
    """The known column names (see ALIASES) in a would-be header line, canonicalised."""
    delimiter = delimiter_of(line)
    if line.count(delimiter) == 0:
        return set()
    names = {canonical_key(c.strip().strip('"')) for c in line.split(delimiter)}
    return names & {alias for aliases in ALIASES.values() for alias in aliases}


def is_header(line: str) -> bool:
    """Does this line name an abstract column (so the file is a sheet, not prose)?"""
    return bool(header_columns(line) & set(ALIASES["abstract"]))


def read_csv(path: Path, report: ReadReport | None = None, records: str | None = None) -> Iterator[Paper]:
    """Papers of a sheet: by its columns' names where one names the title or the abstract,
    else by the record finder over its rows (`sources.sheet`; `records` as there)."""
    lines = _Lines(iter_lines(path))
    header = next((line for line in lines if line.strip()), "")
    reader = csv.reader(itertools.chain([header], lines), delimiter=delimiter_of(header))
    try:
        first_line, cells = lines.lineno, next(reader)
        columns = [c.strip() for c in cells]
        if not {canonical_key(c) for c in columns} & _TEXT_COLUMNS:
            rows = _rows(path, reader, lines, len(columns))
            yield from read_sheet(path, itertools.chain([(first_line, cells)], rows), report, records)
            return
        first = list(itertools.islice(_rows(path, reader, lines, len(columns)), _SAMPLE_ROWS))
        sheet = _Sheet(columns, [row for _, row in first])
        for start, row in itertools.chain(first, _rows(path, reader, lines, len(columns))):
            yield paper_from_record(sheet.record(row), f"{path}:{start}")
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise InputError(
                path, f"a field over {size(RECORD_LIMIT)} (a quote not closed?)", lines.lineno
            ) from None
        raise InputError(path, f"malformed CSV: {exc}", lines.lineno) from None


def _rows(
    path: Path, reader: Iterator[list[str]], lines: _Lines, width: int
) -> Iterator[tuple[int, list[str]]]:
    """(first line, cells) of each row that is not blank."""
    while True:
        start = lines.lineno + 1
        row = next(reader, None)
        if row is None:
            return
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > width:
            raise InputError(
                path, f"row has {len(row)} fields, the header {width} (a quote not closed?)", start
            )
        yield start, row


_TEXT_COLUMNS = set(ALIASES["title"]) | set(ALIASES["abstract"])
_SAMPLE_ROWS = 200  # rows that tell how a sheet writes its names
_TYPE_COLUMNS = {"type", "item_type", "itemtype", "entry_type", "publication_type", "document_type"}
_AUTHOR_COLUMNS = set(ALIASES["authors"]) - {"authors_parsed"}
_LINK_COLUMNS = set(ALIASES["urls"])


class _Sheet:
    """How one sheet writes its records: which columns hold the item type, the DOI, the
    authors, and whether its names are written surname first."""

    def __init__(self, columns: list[str], rows: list[list[str]]):
        self.columns = columns
        keys = [canonical_key(c) for c in columns]
        self.type = (
            next((i for i, k in enumerate(keys) if k in _TYPE_COLUMNS), None)
            if "type" not in columns
            else None
        )
        self.doi = next((i for i, k in enumerate(keys) if k == "doi"), None)
        self.links = [i for i, k in enumerate(keys) if k in _LINK_COLUMNS]
        self.authors = next((i for i, k in enumerate(keys) if k in _AUTHOR_COLUMNS), None)
        cells = [row[self.authors] for row in rows if self.authors is not None and len(row) > self.authors]
        self.surname_first = surname_first([c for c in cells if c.strip()])

    def record(self, row: list[str]) -> dict[str, object]:
        record: dict[str, object] = {c: v for c, v in zip(self.columns, row) if v.strip()}
        cell = _cell(row, self.type)
        if cell:
            record["type"] = cell
        cell = _cell(row, self.doi)
        if (
            cell.startswith(("http://", "https://"))
            and not doi(cell)
            and not any(_cell(row, i) for i in self.links)
        ):
            record["url"] = cell  # the DOI column of a Zotero export holding the item's address
        cell = _cell(row, self.authors)
        if cell and self.surname_first:
            record[self.columns[self.authors or 0]] = [first_last(name) for name in names_in_cell(cell)]
        return record


def _cell(row: list[str], index: int | None) -> str:
    return row[index].strip() if index is not None and index < len(row) else ""


class _Lines:
    """Lines for csv.reader (newline kept, so quoted fields can span lines), counting them."""

    def __init__(self, lines: Iterator[tuple[int, str]]):
        self._lines = lines
        self.lineno = 0

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        self.lineno, line = next(self._lines)
        return line + "\n"
