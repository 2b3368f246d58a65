"""Readers: one module per input format, each a generator of `Paper`s.

`read(path)` picks the reader from the file's content (not only its name) by the one
reader table (`sources.table`): JSON Lines, JSON, CSL-JSON, RIS, EndNote, Zotero RDF, BibTeX,
CSV/TSV, the arXiv e-mail, a YAML list, and lists written by people (HTML, org-mode, Markdown, plain text),
whose records the record finder (`sources.finder`) finds. Gzip is read transparently.
Readers never touch the store.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from paperatlas.errors import InputError, PaperatlasError
from paperatlas.paper import Paper
from paperatlas.printable import file_name
from paperatlas.sources._io import encoding_note, peek
from paperatlas.sources.csv import header_columns
from paperatlas.sources.finder import records_error
from paperatlas.sources.folder import read_folder
from paperatlas.sources.inert import make_inert
from paperatlas.sources.kinds import not_paper_section, only_blog_links
from paperatlas.sources.limits import has_words, over_limit
from paperatlas.sources.quality import FileTally
from paperatlas.sources.report import ReadReport, line_of
from paperatlas.sources.selfcheck import Reading, file_text, judge, judged, refusal
from paperatlas.sources.table import BY_NAME, TABLE, formats_read, read_with, sniff

# name -> reader, for callers that read one format (the table has the rest)
READERS: dict[str, Callable[..., Iterator[Paper]]] = {r.name: r.read for r in TABLE}


def detect(path: str | os.PathLike[str]) -> str:
    """The format of a file, from its first 64 KB: the first reader of `sources.table` that
    recognises it (zotero-rdf | jsonl | json | csv | csl | ris | endnote | bibtex | arxiv-mail | yaml | org |
    markdown | html | text); `folder` for a directory."""
    path = Path(path)
    if path.is_dir():
        return "folder"
    head = peek(path)
    fmt = sniff(head)
    if fmt != "html" and BY_NAME[fmt].finder and _XML_DOCUMENT.match(head) and "<html" not in head.lower():
        # XML no reader took: as text it was one paper of markup (its entities never expanded)
        raise InputError(
            path,
            "is an XML document of a kind paperatlas does not read: export the list as "
            "BibTeX, RIS or CSL-JSON",
            1,
        )
    if fmt == "text" and _named_json(path) and _JSON_VALUE.match(head):
        # a bare string, number or array of them: JSON that holds no paper, which the JSON
        # reader refuses with one line (as text it read as an empty list)
        return "json"
    first_line = head.lstrip().split("\n", 1)[0].strip()
    if fmt == "text" and len(known := header_columns(first_line)) >= 2:
        # a sheet of papers, but nothing to read as the title or abstract
        raise InputError(
            path,
            f"looks like a CSV/TSV with columns {', '.join(sorted(known))} "
            "but none holds the title or the abstract (name them title, "
            "abstract or summary)",
            1,
        )
    return fmt


# an XML declaration, or the root of a Zotero RDF or EndNote XML export
_XML_DOCUMENT = re.compile(r"\s*<(?:\?xml\b|rdf:RDF\b|xml>)")
_JSON_VALUE = re.compile(r'\s*(?:[\["\d-]|true\b|false\b|null\b)')


def _named_json(path: Path) -> bool:
    name = path.name.lower().removesuffix(".gz")
    return name.endswith(".json")


# formats whose record ids are a reference manager's citation keys: the same paper saved
# twice gets a second key (`Romer1990a`). A data export's ids (OpenReview, arXiv) name
# records of their own, kept apart even when their text is the same.
CITATION_KEYED = frozenset({"bibtex", "ris", "csl"})


def read(
    path: str | os.PathLike[str], report: ReadReport | None = None, records: str | None = None
) -> Iterator[Paper]:
    """Papers in a file of any supported format (see `detect`), their text without control
    characters, escape sequences and bidi controls (`sources.inert`).

    Records a reader marks as skipped (`Paper.skip`), records with neither a title nor an
    abstract (one with a letter or digit), records over a limit of `sources.limits`, and
    records a list written by people put under a heading naming talks or events
    (`sources.kinds.not_paper_section`), are not yielded: they are counted in `report` by reason. A file in which every record is
    skipped is refused with the first reason and its line. A record repeating an earlier one
    of the same file whole is skipped too, and a file that read as far fewer records than
    its size holds is named in `report.warnings` (`sources.quality.FileTally`). With a
    `report`, the reading is then judged against the file's own text (`sources.selfcheck`):
    a reading likely not whole is named in `report.warnings`, and one plainly wrong (a single
    record from a file repeating one shape many times) is refused. `records` names the
    records of a list written by people (`h3`, `li`, `tr`, `br`: see `sources.finder`)."""
    path = Path(path)
    if records and (why := records_error(records)):  # ("": none named)
        shown = records if len(records) <= 40 else records[:40] + "…"
        raise PaperatlasError(f"--records {shown!r}: {why}")
    fmt = detect(path)
    if report is not None:
        report.format = fmt
    first_skip: Paper | None = None
    yielded = 0
    tally = FileTally(path.stat().st_size if fmt != "folder" else 0)
    finder = fmt != "folder" and BY_NAME[fmt].finder  # a list written by people: its headings say
    reading = Reading() if report is not None and judged(path, fmt) else None
    if fmt == "folder":
        papers = read_folder(path, lambda p: read_with(detect(p), p))
    else:
        papers = read_with(fmt, path, report, records)
    for paper in papers:
        if paper.source and not paper.source.isascii():  # a file name that is not UTF-8
            paper.source = file_name(paper.source)
        if not paper.skip:
            make_inert(paper)  # stored, and so exported, without what a viewer acts on
        if not paper.skip and not has_words(paper.abstract) and not has_words(paper.title):
            paper.skip = "no title and no abstract"  # ("[[]]", "...": no letter or digit)
        if not paper.skip:
            paper.skip = over_limit(paper)
        if not paper.skip and finder:
            paper.skip = not_paper_section(paper.section) or only_blog_links(paper.urls, paper.identifiers)
        if not paper.skip and fmt in CITATION_KEYED and tally.repeat(paper):
            paper.skip = "repeats an earlier record whole (same title, authors, year, links, abstract)"
        tally.see(None if paper.skip else paper)
        if paper.skip:
            if report is not None:  # in a folder: which file, and the line in it
                report.skip(
                    paper.skip, line_of(paper.source) if fmt != "folder" else _relative(paper.source, path)
                )
            first_skip = first_skip or paper
            continue
        yielded += 1
        if reading is not None:
            reading.see(paper)
        if report is not None:
            report.read += 1
        yield paper
    if report is not None:
        report.warnings.extend(tally.problems())
        if yielded and reading is not None:
            text = file_text(path, fmt)
            if why := refusal(reading, text):
                raise InputError(path, why, 1)
            report.judgement = judge(reading, text, fmt, len(report.warnings))
            report.warnings.extend(report.judgement.disagreements)
            if report.judgement.warn:
                report.warnings.append(report.judgement.warning())
        if fmt != "folder" and (note := encoding_note(path)):
            report.warnings.append(note)
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


__all__ = ["BY_NAME", "READERS", "TABLE", "InputError", "ReadReport", "detect", "formats_read", "read"]
