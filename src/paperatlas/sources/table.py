"""The one table of readers: each format's name, what users call it, the file suffixes a
folder reads it from, how it is recognised from a file's first 64 KB (`sniff`), and its
reader. Format detection tries the sniffs in table order (the first that says yes wins;
plain text takes what none claims) and folder reading takes the suffixes from here.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from paperatlas.paper import Paper
from paperatlas.sources.arxiv_mail import looks_like_arxiv_mail, read_arxiv_mail
from paperatlas.sources.bibtex import read_bibtex
from paperatlas.sources.csl import is_csl_item
from paperatlas.sources.csv import delimiter_of, header_columns, is_header, read_csv
from paperatlas.sources.endnote import looks_like_endnote, read_endnote
from paperatlas.sources.html import looks_like_html
from paperatlas.sources.jsonl import read_json, read_jsonl
from paperatlas.sources.people import (
    looks_like_markdown,
    looks_like_org,
    looks_like_rst,
    read_html_page,
    read_markdown,
    read_org,
    read_plain,
    read_rst,
)
from paperatlas.sources.records import ALIASES, canonical_key
from paperatlas.sources.ris import looks_like_ris, read_ris
from paperatlas.sources.sheet import is_sheet, rows_of
from paperatlas.sources.yaml_list import looks_like_yaml_list, read_yaml_list
from paperatlas.sources.zotero_rdf import looks_like_zotero_rdf, read_zotero_rdf

_TITLE_COLUMNS = set(ALIASES["title"])
_BIBTEX_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[({]", re.MULTILINE)


@dataclass(frozen=True)
class Reader:
    name: str
    label: str  # what a user calls the format
    suffixes: tuple[str, ...]
    sniff: Callable[[str], bool]
    read: Callable[..., Iterator[Paper]]
    finder: bool = False  # read by the record finder, at least in part: given the report and records


def _first_line(head: str) -> str:
    return head.lstrip().split("\n", 1)[0].strip()


def _json_array(head: str) -> bool:
    return bool(re.match(r"\[\s*[{\]]", head.lstrip()))  # an array of objects ("[1] Title" is text)


def _csl(head: str) -> bool:
    stripped = head.lstrip()
    if not _json_array(head):
        return False
    try:
        value, _ = json.JSONDecoder().raw_decode(stripped, stripped.index("{"))
    except (ValueError, RecursionError):
        return False
    return is_csl_item(value)


def _jsonl(head: str) -> bool:
    if not head.lstrip().startswith("{"):
        return False
    try:
        return isinstance(json.loads(_first_line(head)), dict)
    except (ValueError, RecursionError):
        return False


def _json(head: str) -> bool:
    stripped = head.lstrip()
    return _json_array(head) or bool(re.match(r'\{\s*("|})', stripped))


def _bibtex(head: str) -> bool:
    """BibTeX files may open with comments, but not with paragraphs of text, Markdown
    headings, or with the entry inside a code fence (a README citing itself)."""
    entry = _BIBTEX_ENTRY.search(head)
    if not entry:
        return False
    lines = head[: entry.start()].splitlines()
    fences = sum(line.lstrip().startswith(("```", "~~~")) for line in lines)
    return not (
        any(len(line.split()) > 30 for line in lines)
        or fences % 2 == 1
        or any(re.match(r"^#{1,6}\s+\S", line) for line in lines)
    )


def _csv(head: str) -> bool:
    first = _first_line(head)
    if is_header(first):
        return True
    known = header_columns(first)
    # a sheet of titles (title, authors, url, ...): title-only papers
    return (
        bool(known & _TITLE_COLUMNS and len(known) >= 2)
        or canonical_key(first.strip('"')) in _TITLE_COLUMNS
        or (bool(known & _TITLE_COLUMNS) and _rows_as_wide_as(head, first))
        or (len(known) < 2 and _sheet_without_names(head, first))
    )


def _sheet_without_names(head: str, first: str) -> bool:
    """Rows of one width, three cells or more, none opening as Markdown does (a heading, a
    list item, a table row, a quote): a sheet with no header row, or headers of its own."""
    if re.match(r"[#|>*-]|\d+\.\s", first):
        return False
    rows = rows_of(head, delimiter_of(first))
    return len(rows) >= 5 and is_sheet(rows) and not any(re.match(r"\s*[#|>*-]\s", r[0]) for r in rows)


def _rows_as_wide_as(head: str, first: str) -> bool:
    """`#,Lead Authors,Title,Length`: a header naming a title column whose next rows split
    into as many cells (three or more) is a sheet, whatever its other columns are called."""
    if first.startswith("|"):
        return False  # a Markdown table
    lines = [line for line in head.lstrip().splitlines()[:4] if line.strip()]
    delimiter = delimiter_of(first)
    try:
        widths = [len(row) for row in csv.reader(lines, delimiter=delimiter)]
    except csv.Error:
        return False
    return len(widths) >= 3 and widths[0] >= 3 and len(set(widths)) == 1


TABLE: tuple[Reader, ...] = (
    Reader("zotero-rdf", "Zotero RDF", (".rdf",), looks_like_zotero_rdf, read_zotero_rdf),
    Reader("html", "HTML page", (".html", ".htm"), looks_like_html, read_html_page, finder=True),
    Reader("csl", "CSL-JSON", (), _csl, read_json),
    Reader("jsonl", "JSON Lines", (".jsonl", ".ndjson"), _jsonl, read_jsonl),
    Reader("json", "JSON", (".json",), _json, read_json),
    Reader("ris", "RIS", (".ris",), looks_like_ris, read_ris),
    Reader("endnote", "EndNote tagged", (".enw",), looks_like_endnote, read_endnote),
    Reader("arxiv-mail", "arXiv listing e-mail", (), looks_like_arxiv_mail, read_arxiv_mail),
    Reader("bibtex", "BibTeX", (".bib", ".bibtex"), _bibtex, read_bibtex),
    Reader("csv", "CSV/TSV", (".csv", ".tsv"), _csv, read_csv, finder=True),
    Reader("yaml", "YAML list", (".yaml", ".yml"), looks_like_yaml_list, read_yaml_list),
    Reader("org", "org-mode", (".org",), looks_like_org, read_org, finder=True),
    Reader("rst", "reStructuredText", (".rst",), looks_like_rst, read_rst, finder=True),
    Reader("markdown", "Markdown", (".md", ".markdown", ".mdx"), looks_like_markdown, read_markdown, True),
    Reader("text", "plain text", (".txt", ".text"), lambda head: True, read_plain, finder=True),
)
BY_NAME = {r.name: r for r in TABLE}
# A folder reads the files whose suffix a reader takes (and gzip of them).
LIST_SUFFIXES = {s for r in TABLE for s in r.suffixes} | {".gz"}


def sniff(head: str) -> str:
    """The first reader in the table that recognises the text (plain text at the end)."""
    return next(r.name for r in TABLE if r.sniff(head))


def formats_read() -> str:
    """`JSON Lines, JSON, ...`: the formats paperatlas reads, for messages."""
    return ", ".join(dict.fromkeys(r.label for r in TABLE if r.name != "csl"))


def read_with(name: str, path: Path, report: object = None, records: str | None = None) -> Iterator[Paper]:
    reader = BY_NAME[name]
    return reader.read(path, report, records) if reader.finder else reader.read(path)
