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
from paperatlas.printable import file_name
from paperatlas.sources._io import peek
from paperatlas.sources.arxiv_mail import looks_like_arxiv_mail, read_arxiv_mail
from paperatlas.sources.bibtex import read_bibtex
from paperatlas.sources.csl import is_csl_item
from paperatlas.sources.csv import header_columns, is_header, read_csv
from paperatlas.sources.entries import looks_like_markdown, read_entries, read_html
from paperatlas.sources.folder import read_folder
from paperatlas.sources.html import looks_like_html
from paperatlas.sources.jsonl import read_json, read_jsonl
from paperatlas.sources.limits import has_words, over_limit
from paperatlas.sources.records import ALIASES, canonical_key
from paperatlas.sources.report import ReadReport, line_of
from paperatlas.sources.ris import looks_like_ris, read_ris
from paperatlas.sources.text import read_text

READERS: dict[str, Callable[[Path], Iterator[Paper]]] = {
    "jsonl": read_jsonl,
    "json": read_json,
    "csl": read_json,  # CSL-JSON: a JSON array of CSL items (see sources.csl)
    "ris": read_ris,
    "arxiv-mail": read_arxiv_mail,
    "csv": read_csv,
    "bibtex": read_bibtex,
    "text": read_text,
    "markdown": read_entries,
    "html": read_html,
}
_TITLE_COLUMNS = set(ALIASES["title"])
_BIBTEX_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[({]", re.MULTILINE)


def detect(path: str | os.PathLike[str]) -> str:
    """The format of a file, from its first 64 KB: jsonl | json | csv | csl | ris | bibtex |
    arxiv-mail | markdown | html | text; `folder` for a directory."""
    path = Path(path)
    if path.is_dir():
        return "folder"
    head = peek(path)
    stripped = head.lstrip()
    if looks_like_html(head):
        return "html"
    first_line = stripped.split("\n", 1)[0].strip()
    if re.match(r"\[\s*[{\]]", stripped):  # an array of objects ("[1] Title" is text)
        return "csl" if _first_object_is_csl(stripped) else "json"
    if stripped.startswith("{"):
        if _is_json_object(first_line):
            return "jsonl"
        if re.match(r'\{\s*("|})', stripped):
            return "json"
    if looks_like_ris(head):
        return "ris"
    if looks_like_arxiv_mail(head):
        return "arxiv-mail"
    if _BIBTEX_ENTRY.search(head) and not _looks_like_prose_before_entry(head):
        return "bibtex"
    if is_header(first_line):
        return "csv"
    known = header_columns(first_line)
    if (known & _TITLE_COLUMNS and len(known) >= 2) or canonical_key(
        first_line.strip().strip('"')
    ) in _TITLE_COLUMNS:
        return "csv"  # a sheet of titles (title, authors, url, ...): title-only papers
    if looks_like_markdown(head):
        return "markdown"
    if len(known) >= 2:  # a sheet of papers, but nothing to read as the title or abstract
        raise InputError(
            path,
            f"looks like a CSV/TSV with columns {', '.join(sorted(known))} "
            "but none holds the title or the abstract (name them title, "
            "abstract or summary)",
            1,
        )
    return "text"


def read(path: str | os.PathLike[str], report: ReadReport | None = None) -> Iterator[Paper]:
    """Papers in a file of any supported format (see `detect`).

    Records a reader marks as skipped (`Paper.skip`), records with neither a title nor an
    abstract (one with a letter or digit), and records over a limit of `sources.limits`, are
    not yielded: they are counted in `report` by reason. A file in which
    every record is skipped is refused with the first reason and its line."""
    path = Path(path)
    fmt = detect(path)
    if report is not None:
        report.format = fmt
    first_skip: Paper | None = None
    yielded = 0
    if fmt == "folder":
        papers = read_folder(path, lambda p: READERS[detect(p)](p))
    else:
        papers = READERS[fmt](path)
    for paper in papers:
        if paper.source and not paper.source.isascii():  # a file name that is not UTF-8
            paper.source = file_name(paper.source)
        if not paper.skip and not has_words(paper.abstract) and not has_words(paper.title):
            paper.skip = "no title and no abstract"  # ("[[]]", "...": no letter or digit)
        if not paper.skip:
            paper.skip = over_limit(paper)
        if paper.skip:
            if report is not None:  # in a folder: which file, and the line in it
                report.skip(
                    paper.skip, line_of(paper.source) if fmt != "folder" else _relative(paper.source, path)
                )
            first_skip = first_skip or paper
            continue
        yielded += 1
        if report is not None:
            report.read += 1
        yield paper
    if not yielded and first_skip is not None:
        where = first_skip.source.rsplit(":", 1)[0] if first_skip.source else path
        raise InputError(where, f"no paper in it: {first_skip.skip}", line_of(first_skip.source))


def _relative(source: str | None, folder: Path) -> str | None:
    if not source:
        return None
    try:
        return str(Path(source).relative_to(folder))
    except ValueError:
        return source


def _first_object_is_csl(head: str) -> bool:
    import json

    try:
        value, _ = json.JSONDecoder().raw_decode(head, head.index("{"))
    except (ValueError, RecursionError):
        return False
    return is_csl_item(value)


def _is_json_object(line: str) -> bool:
    import json

    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


def _looks_like_prose_before_entry(head: str) -> bool:
    """BibTeX files may open with comments, but not with paragraphs of text, Markdown
    headings, or with the entry inside a code fence (a README citing itself)."""
    entry = _BIBTEX_ENTRY.search(head)
    before = head[: entry.start()] if entry else head
    lines = before.splitlines()
    fences = sum(line.lstrip().startswith(("```", "~~~")) for line in lines)
    return (
        any(len(line.split()) > 30 for line in lines)
        or fences % 2 == 1  # in a code fence
        or any(re.match(r"^#{1,6}\s+\S", line) for line in lines)
    )  # under Markdown headings


__all__ = ["READERS", "InputError", "ReadReport", "detect", "read"]
