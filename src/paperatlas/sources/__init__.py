"""Readers: one module per input format, each a generator of `Paper`s.

`read(path)` picks the reader from the file's content (not only its name): JSON Lines,
a JSON document, CSV/TSV with a header row, BibTeX, or a plain-text list. Gzip is read
transparently. Readers never touch the store.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from paperatlas.errors import InputError
from paperatlas.paper import Paper
from paperatlas.sources._io import peek
from paperatlas.sources.bibtex import read_bibtex
from paperatlas.sources.csv import header_columns, is_header, read_csv
from paperatlas.sources.jsonl import read_json, read_jsonl
from paperatlas.sources.text import read_text

READERS: dict[str, Callable[[Path], Iterator[Paper]]] = {
    "jsonl": read_jsonl,
    "json": read_json,
    "csv": read_csv,
    "bibtex": read_bibtex,
    "text": read_text,
}
_BIBTEX_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[({]", re.MULTILINE)


def detect(path: str | os.PathLike[str]) -> str:
    """The format of a file, from its first 64 KB: jsonl | json | csv | bibtex | text."""
    path = Path(path)
    head = peek(path)
    stripped = head.lstrip()
    first_line = stripped.split("\n", 1)[0].strip()
    if re.match(r"\[\s*[{\]]", stripped):  # an array of objects ("[1] Title" is text)
        return "json"
    if stripped.startswith("{"):
        if _is_json_object(first_line):
            return "jsonl"
        if re.match(r'\{\s*("|})', stripped):
            return "json"
    if _BIBTEX_ENTRY.search(head) and not _looks_like_prose_before_entry(head):
        return "bibtex"
    if is_header(first_line):
        return "csv"
    known = header_columns(first_line)
    if len(known) >= 2:  # a sheet of papers, but nothing to read as the abstract
        raise InputError(path, f"looks like a CSV/TSV with columns {', '.join(sorted(known))} "
                               "but none holds the abstract (name it abstract or summary)", 1)
    return "text"


def read(path: str | os.PathLike[str]) -> Iterator[Paper]:
    """Papers in a file of any supported format (see `detect`)."""
    path = Path(path)
    yield from READERS[detect(path)](path)


def _is_json_object(line: str) -> bool:
    import json
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def _looks_like_prose_before_entry(head: str) -> bool:
    """BibTeX files may open with comments, but not with paragraphs of text."""
    before = head[:_BIBTEX_ENTRY.search(head).start()]
    return any(len(line.split()) > 30 for line in before.splitlines())


__all__ = ["READERS", "detect", "read", "InputError"]
