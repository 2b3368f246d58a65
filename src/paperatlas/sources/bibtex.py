"""BibTeX files, parsed with bibtexparser (v2) a chunk of entries at a time, so a big
file streams. The entry key is the paper's source id.

On read, LaTeX in text fields is decoded to Unicode (`R{\\"u}gamer` -> `Rügamer`, `\\&` ->
`&`, `{Title} {Case}` braces dropped, `\\textbf{x}` -> `x`); math (`$...$`) is kept as
written. Entries without an abstract are title-only papers. A record bibtexparser cannot
parse is skipped and counted with its line (the rest of the file is read); a field given
twice keeps its first value (a DBLP entry with two `url`s keeps both as links). Entries
that are not papers are skipped and counted: `@book`, `@manual`, `@software`, `@online`
..., and `@misc` with no paper signal (see `kinds`: a blog post).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from paperatlas.identifiers import doi, find_identifiers, split_links
from paperatlas.paper import Paper, skipped
from paperatlas.sources._io import iter_lines
from paperatlas.sources.kinds import not_a_paper
from paperatlas.sources.records import check_types, paper_from_record

_CHUNK_LINES = 5000
_ENTRY_START = re.compile(r"^\s*@\s*[A-Za-z]+\s*[({]")
_NON_ENTRY = {"comment", "string", "preamble"}
# Fields that hold text (decoded from LaTeX); others (url, doi, file, eprint) are kept raw.
_TEXT_FIELDS = {
    "title",
    "author",
    "editor",
    "abstract",
    "booktitle",
    "journal",
    "journaltitle",
    "publisher",
    "keywords",
    "series",
    "note",
    "howpublished",
    "institution",
    "school",
    "organization",
    "shorttitle",
    "address",
    "annotation",
    "annote",
}
_LINK_FIELDS = ("url", "pdf", "link", "eprint_url", "code", "project", "github", "website")
_BARE_PERCENT = re.compile(r"(?<!\\)%")
_SYMBOL_TEXT = {
    "textbraceleft": "{",
    "textbraceright": "}",
    "textasciicircum": "^",
    "textasciitilde": "~",
    "textbackslash": "\\",
}
_PLACEHOLDER = {name: chr(0xE000 + i) for i, name in enumerate(_SYMBOL_TEXT)}  # private use
# `\macro{}` keeps the space after it; a bare `\macro` swallows one, as in LaTeX
_SYMBOLS = re.compile(r"\\(" + "|".join(_SYMBOL_TEXT) + r")(?:\{\}|(?![A-Za-z])\s?)")


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
    from bibtexparser.model import DuplicateFieldKeyBlock, Entry

    logger = logging.getLogger("bibtexparser")
    level, logger.level = logger.level, logging.CRITICAL  # failed blocks are counted below
    try:
        library = bibtexparser.parse_string("\n".join(lines))
    finally:
        logger.setLevel(level)
    blocks: list[tuple[int, object]] = [(e.start_line or 0, e) for e in library.entries]
    for failed in library.failed_blocks:
        if isinstance(failed, DuplicateFieldKeyBlock) and isinstance(failed.ignore_error_block, Entry):
            blocks.append((failed.start_line or 0, (failed.ignore_error_block, True)))
        else:
            blocks.append((failed.start_line or 0, failed))
    blocks.sort(key=lambda b: b[0])
    for start, block in blocks:
        source = f"{path}:{first_line + start}"
        if isinstance(block, tuple):  # an entry with a field given twice
            entry, duplicated = block
        elif isinstance(block, Entry):
            entry, duplicated = block, False
        else:
            yield skipped(source, "malformed BibTeX entry")
            continue
        if entry.entry_type.lower() in _NON_ENTRY:
            continue
        yield _paper(entry, source, duplicated)


def _paper(entry, source: str, duplicated: bool) -> Paper:
    entry_type = entry.entry_type.lower()
    record: dict[str, object] = {}
    links: list[str] = []
    for fld in entry.fields:
        key = fld.key.lower()
        value = fld.value if isinstance(fld.value, str) else str(fld.value)
        if key in _LINK_FIELDS:
            links.extend(web_addresses(_strip_braces(value)))
            continue
        if key in record:  # a duplicated field: the first value counts, the first valid DOI
            if key == "doi" and not doi(str(record[key])) and doi(value):
                record[key] = _strip_braces(value)
            continue
        record[key] = decode_latex(value) if key in _TEXT_FIELDS else _strip_braces(value)
    if "author" in record:
        record["author"] = [
            _first_last(name)
            for name in re.split(r"\s+and\s+", str(record["author"]).replace("\n", " "))
            if name.strip() and name.strip().lower() != "others"
        ]
    record["id"] = entry.key
    record["entry_type"] = entry_type
    title = " ".join(str(record.get("title") or "").split()) or None
    texts = [str(record.get(k) or "") for k in ("doi", "howpublished", "note", "journal")]
    texts.append(_arxiv_eprint(record))
    venues = [
        str(record.get(k) or "")
        for k in ("journal", "booktitle", "publisher", "howpublished", "institution", "organization")
    ]
    if reason := not_a_paper(
        entry_type, links, texts, venues, label=f"@{entry_type}", abstract=str(record.get("abstract") or "")
    ):
        return skipped(source, reason, title)
    ids = find_identifiers(*texts, *links)
    if not doi(str(record.get("doi") or "")) and (page := web_addresses(str(record.get("doi") or ""))):
        links[:0] = page  # a DOI field holding the item's address (a handle, a publisher's page)
    bad = check_types(record)
    if bad:
        return skipped(source, bad, title)
    paper = paper_from_record(record, source)
    found_doi = ids.get("doi")
    paper.urls, paper.code_urls = split_links(links)
    if not paper.urls and found_doi:
        paper.urls = [f"https://doi.org/{record.get('doi') or found_doi}"]
    elif not paper.urls and ids.get("arxiv"):
        paper.urls = [f"https://arxiv.org/abs/{ids['arxiv']}"]
    paper.identifiers = ids
    if duplicated:
        paper.extra["duplicate_fields"] = True
    return paper


def _arxiv_eprint(record: dict[str, object]) -> str:
    eprint = str(record.get("eprint") or "")
    prefix = str(record.get("archiveprefix") or record.get("eprinttype") or "")
    if eprint and (prefix.lower() == "arxiv" or not prefix):
        return f"arXiv:{eprint}"
    if arxiv := str(record.get("arxiv") or "").strip():  # al-folio's `arxiv = {2402.13217}`
        return f"arXiv:{arxiv}"
    return ""


def _strip_braces(value: str) -> str:
    return re.sub(r"(?<!\\)[{}]", "", value).strip()


@lru_cache(maxsize=1)
def _converter():
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="verbatim", strict_latex_spaces=True)


def decode_latex(value: str) -> str:
    """LaTeX text -> Unicode: accents, escapes (`\\&`, `\\%`, `\\_`), protecting braces and
    text commands; math kept as written; whitespace collapsed."""
    if "\\" not in value and "{" not in value and "~" not in value:
        return " ".join(value.split())
    value = _BARE_PERCENT.sub(r"\\%", value)  # a bare % is text here, not a LaTeX comment
    # text-mode symbols pylatexenc drops or maps elsewhere: kept through it as placeholders
    value = _SYMBOLS.sub(lambda m: _PLACEHOLDER[m.group(1)], value)
    try:
        text = _converter().latex_to_text(value)
    except Exception:  # pylatexenc is tolerant; never lose a record to it
        text = _strip_braces(value)
    for name, mark in _PLACEHOLDER.items():
        text = text.replace(mark, _SYMBOL_TEXT[name])
    return " ".join(text.split())


_WEB_ADDRESS = re.compile(r"^(?:https?|ftp)://\S+$|^www\.\S+\.\S+$", re.IGNORECASE)


_URL_ESCAPE = re.compile(r"\\([&_%#~$])")


def web_addresses(value: str) -> list[str]:
    """The web addresses in a link field, LaTeX escapes undone (Mendeley's `{\\&}`, `{\\_}`:
    braces are gone by now): a file name (al-folio's `pdf={Title - Authors.pdf}`, a site's own
    asset) or other text there is no link."""
    return [_URL_ESCAPE.sub(r"\1", u) for u in value.split() if _WEB_ADDRESS.match(u)]


def _first_last(name: str) -> str:
    """BibTeX `Last, First` -> `First Last`; other forms unchanged."""
    name = " ".join(name.split())
    if name.count(",") == 1:
        last, first = (part.strip() for part in name.split(","))
        return f"{first} {last}".strip()
    return name
