"""CSV and TSV sheets with a header row; columns matched case-insensitively
(title, abstract, authors, keywords, ...; see `records.ALIASES`)."""

from __future__ import annotations

import csv
import itertools
from collections.abc import Iterator
from pathlib import Path

from paperatlas.errors import InputError
from paperatlas.paper import Paper
from paperatlas.sources._io import iter_lines
from paperatlas.sources.limits import RECORD_LIMIT, size
from paperatlas.sources.records import ALIASES, canonical_key, paper_from_record

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


def read_csv(path: Path) -> Iterator[Paper]:
    lines = _Lines(iter_lines(path))
    header = next((line for line in lines if line.strip()), "")
    reader = csv.reader(itertools.chain([header], lines), delimiter=delimiter_of(header))
    try:
        columns = [c.strip() for c in next(reader)]
        while True:
            start = lines.lineno + 1
            row = next(reader, None)
            if row is None:
                return
            if not any(cell.strip() for cell in row):
                continue
            if len(row) > len(columns):
                raise InputError(
                    path, f"row has {len(row)} fields, the header {len(columns)} (a quote not closed?)", start
                )
            record = {c: v for c, v in zip(columns, row) if v.strip()}
            yield paper_from_record(record, f"{path}:{start}")
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise InputError(
                path, f"a field over {size(RECORD_LIMIT)} (a quote not closed?)", lines.lineno
            ) from None
        raise InputError(path, f"malformed CSV: {exc}", lines.lineno) from None


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
