"""BibTeX files, parsed with bibtexparser (v2) a chunk of entries at a time, so a big
file streams. The entry key is the paper's source id; LaTeX in abstracts is kept."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

from paperatlas.errors import InputError
from paperatlas.paper import Paper
from paperatlas.sources._io import iter_lines
from paperatlas.sources.records import paper_from_record

_CHUNK_LINES = 5000
_ENTRY_START = re.compile(r"^\s*@\s*[A-Za-z]+\s*[({]")
_NON_PAPER = {"comment", "string", "preamble"}
_BRACES = re.compile(r"(?<!\\)[{}]")
_TEXT_ESCAPES = re.compile(r"\\([%&#])")


def read_bibtex(path: Path) -> Iterator[Paper]:
    chunk: list[str] = []
    chunk_start = 1
    for lineno, line in iter_lines(path):
        if len(chunk) >= _CHUNK_LINES and _ENTRY_START.match(line):
            yield from _parse_chunk(path, chunk, chunk_start)
            chunk, chunk_start = [], lineno
        if not chunk:
            chunk_start = lineno
        chunk.append(line)
    if chunk:
        yield from _parse_chunk(path, chunk, chunk_start)


def _parse_chunk(path: Path, lines: list[str], first_line: int) -> Iterator[Paper]:
    import bibtexparser

    logger = logging.getLogger("bibtexparser")
    level, logger.level = logger.level, logging.CRITICAL  # errors are raised below instead
    try:
        library = bibtexparser.parse_string("\n".join(lines))
    finally:
        logger.setLevel(level)
    if library.failed_blocks:
        block = library.failed_blocks[0]
        reason = getattr(block, "error", None)
        reason = str(reason).strip().splitlines()[0] if reason and str(reason).strip() else ""
        raise InputError(path, f"malformed BibTeX entry{': ' + reason if reason else ''}",
                         first_line + block.start_line)
    for entry in library.entries:
        if entry.entry_type.lower() in _NON_PAPER:
            continue
        record = {key: field.value for key, field in entry.fields_dict.items()}
        for key in [k for k in record if k.lower() == "author"]:
            record[key] = [_first_last(name) for name in re.split(r"\s+and\s+", record[key])
                           if name.strip()]
        record["id"] = entry.key
        record["entry_type"] = entry.entry_type.lower()
        paper = paper_from_record(record, f"{path}:{first_line + entry.start_line}")
        if paper.title:  # {Protected} capitals are BibTeX markup, not part of the title
            paper.title = _BRACES.sub("", paper.title)
        paper.abstract = _TEXT_ESCAPES.sub(r"\1", paper.abstract)
        paper.authors = [_BRACES.sub("", a) for a in paper.authors]
        yield paper


def _first_last(name: str) -> str:
    """BibTeX `Last, First` -> `First Last`; other forms unchanged."""
    name = " ".join(name.split())
    if name.count(",") == 1:
        last, first = (part.strip() for part in name.split(","))
        return f"{first} {last}".strip()
    return name
