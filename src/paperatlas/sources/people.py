"""Lists written by people (Markdown, HTML, org-mode, reST, plain text): read by the record finder
(`sources.doctree` + `sources.finder`), and — for Markdown, HTML and plain text — also by
the line reader (`sources.entries`, `sources.text`; reST: the plain-text reader); the reading that holds more of a paper
list (`sources.quality`) is the one kept. The report says which pattern the records were
found by and what looked wrong.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from paperatlas.errors import InputError
from paperatlas.paper import Paper, normalise_text
from paperatlas.sources import doctree
from paperatlas.sources._io import is_gzip, iter_lines
from paperatlas.sources.entries import entries_from_lines
from paperatlas.sources.entry import merge_duplicates, to_paper
from paperatlas.sources.finder import MARKED, find
from paperatlas.sources.limits import PEOPLE_GZIP_LIMIT, size
from paperatlas.sources.names import authorish
from paperatlas.sources.quality import Quality, estimate
from paperatlas.sources.report import ReadReport
from paperatlas.sources.text import read_text
from paperatlas.sources.title_dress import names_as_titles, undress

# The finder's reading replaces the line reader's only when it holds clearly more: a fifth
# more, and more than one whole paper more (small lists differ by noise).
_BETTER = 1.2
_MARGIN = 2.0


def looks_like_markdown(head: str) -> bool:
    """Markdown a person wrote: headings, tables, bold, links, labelled fields (also plain
    Chinese labels `作者：`), or YAML front matter. Text with none of it is left to the
    plain-text paragraph reader."""
    if re.match(r"^---\s*\n.*?\n(---|\.\.\.)\s*(\n|$)", head, re.DOTALL):
        return True
    lines = head.splitlines()
    chinese = sum(
        bool(
            re.match(
                r"^\s*(?:\d{1,4}[.)、]\s*)?(?:[-*+]\s*)?(作者|摘要|中文摘要|单位|机构|"
                r"主要机构|发表日期|论文链接|链接|代码|代码链接|标题|题目|论文标题|论文题目)"
                r"\s*[:：]",
                line,
            )
        )
        for line in lines
    )
    if chinese >= 2:
        return True
    # `Title:`/`Abstract:` lists with labels the paragraph reader does not know (`Link:`, `Code:`)
    labelled = [
        m.group(1).lower()
        for m in (
            re.match(
                r"^\s*(?:\d{1,4}[.)]\s*)?(title|authors?|abstract|links?|url|pdf|code|github|arxiv|"
                r"affiliations?|published|date|venue|keywords)\s*[:：]",
                line,
                re.IGNORECASE,
            )
            for line in lines
        )
        if m
    ]
    if len(labelled) >= 3 and set(labelled) & {
        "link",
        "links",
        "pdf",
        "code",
        "github",
        "arxiv",
        "affiliation",
        "affiliations",
        "published",
        "date",
    }:
        return True
    headings = sum(bool(re.match(r"^\s{0,3}#{1,6}\s+\S", line)) for line in lines)
    tables = sum(line.strip().startswith("|") and line.strip().endswith("|") for line in lines)
    # bold or a link where a title or a label starts (not bold words inside an abstract)
    marked = sum(
        bool(
            re.match(
                r"^\s{0,3}(?:[-*+]\s+|\d{1,4}[.)]\s+|#{1,6}\s+(?:\d{1,4}[.)]\s+)?|>\s*)?"
                r"[^\w\s\[*_]{0,3}\s*(?:\*\*|__|\[[^\]]+\]\()",
                line,
            )
        )
        for line in lines
    )
    return tables >= 2 or marked >= 1 or headings >= 3


def looks_like_org(head: str) -> bool:
    """org-mode: `#+TITLE:` keywords, or `* ` headings with `:PROPERTIES:` drawers or
    `:tag:` lists after them."""
    if re.search(r"^#\+(TITLE|STARTUP|OPTIONS|FILETAGS)\s*:", head, re.M | re.I):
        return True
    headings = re.findall(r"^\*+ \S.*$", head, re.M)
    tagged = sum(bool(re.search(r"\s:[\w@#%:]+:\s*$", h)) for h in headings)
    # `* TODO Title` headings and `[[target][text]]` links are org's own, never Markdown's
    todo = sum(bool(re.match(r"\*+ (?:TODO|DONE|NEXT|WAITING|CANCELLED) ", h)) for h in headings)
    org_links = len(re.findall(r"\[\[[\w-]+:[^\]\n]*\](?:\[[^\]\n]*\])?\](?!\()", head))
    return bool(headings) and (":PROPERTIES:" in head or tagged >= 3 or todo >= 3 or org_links >= 3)


def read_markdown(
    path: Path, report: ReadReport | None = None, records: str | None = None
) -> Iterator[Paper]:
    raw = list(iter_lines(path))
    yield from _best(path, raw, doctree.from_markdown, lambda: entries_from_lines(path, raw), report, records)


def read_html_page(
    path: Path, report: ReadReport | None = None, records: str | None = None
) -> Iterator[Paper]:
    from paperatlas.sources.html import html_lines

    raw = list(iter_lines(path))
    yield from _best(
        path, raw, doctree.from_html, lambda: entries_from_lines(path, html_lines(path)), report, records
    )


def read_plain(path: Path, report: ReadReport | None = None, records: str | None = None) -> Iterator[Paper]:
    raw = list(iter_lines(path))
    yield from _best(path, raw, doctree.from_markdown, lambda: read_text(path), report, records, MARKED)


def read_rst(path: Path, report: ReadReport | None = None, records: str | None = None) -> Iterator[Paper]:
    raw = list(iter_lines(path))
    yield from _best(path, raw, doctree.from_rst, lambda: read_text(path), report, records)


_RST_MARKS = (
    r"`[^`<]+<[^>]+>`__?"  # `Title <url>`_
    r"|^\.\. (?:[\w-]+::|_[^:]+:|\[[^\]]+\])"  # .. directive::  .. _target:  .. [cite]
    r"|``[^`]+``"  # ``literal``
    r"|^([=*#~^-])\1{3,}\n.+\n\1{4,}$"  # an over- and underlined title
)


def looks_like_rst(head: str) -> bool:
    """reST's own marks: `` `Title <url>`_ `` links, `.. directive::`, `.. _target:`; and no
    Markdown links (a setext heading alone is Markdown too)."""
    marks = len(re.findall(_RST_MARKS, head, re.M))
    return marks >= 2 and "](http" not in head


def read_org(path: Path, report: ReadReport | None = None, records: str | None = None) -> Iterator[Paper]:
    raw = list(iter_lines(path))
    yield from _best(path, raw, doctree.from_org, None, report, records)


def _best(
    path: Path,
    raw: list[tuple[int, str]],
    parse: Callable[[str], doctree.Node],
    line_reader: Callable[[], Iterator[Paper]] | None,
    report: ReadReport | None,
    records: str | None,
    kinds: frozenset[str] | None = None,
) -> Iterator[Paper]:
    text = "\n".join(line for _, line in raw)
    if len(text) > PEOPLE_GZIP_LIMIT and is_gzip(path):
        raise InputError(
            path, f"unzips to more than {size(PEOPLE_GZIP_LIMIT)} of a list written by people", 1
        )
    if raw and raw[0][0] > 1:  # front matter or a BOM line skipped: keep line numbers
        text = "\n" * (raw[0][0] - 1) + text
    try:
        finding = find(parse(text), records, kinds)
    except (RecursionError, doctree.TooManyLines) as error:
        # nesting deeper than a tree walk can follow (hostile, never a list), or more lines
        # than the parser can hold
        too_long = isinstance(error, doctree.TooManyLines)
        if line_reader is None:
            why = f"{error}: too long" if too_long else "nested deeper than paperatlas can read"
            raise InputError(path, why, 1) from None
        if report is not None:
            why = str(error) if too_long else "nested too deeply"
            report.warnings.append(f"{why} for the record finder: read line by line")
        yield from line_reader()
        return
    pattern = finding.pattern
    if names_as_titles(finding.entries):
        # `title = bold` read the names: the dress is the authors', the title the text after them
        pattern = re.sub(
            r"title = ([^,]+)", r"authors = \1 names, title = the text after them", pattern, count=1
        )
    merged = merge_duplicates(finding.entries)
    found = [to_paper(path, e) for e in merged]
    new = estimate([p for p in found if not p.skip], text)

    chosen, quality = found, new
    if line_reader is not None and not records:
        old_papers = list(line_reader())
        old = estimate([p for p in old_papers if not p.skip], text)
        if not _clearly_better(new, old):
            chosen, quality, pattern = old_papers, old, "entries read line by line"
    filled = _names_from(chosen, found) if chosen is not found else 0
    if undress(chosen) + _without_shared_names(chosen) or filled:  # judged again, dress and labels off
        quality = estimate([p for p in chosen if not p.skip], text)
    if report is not None:
        report.pattern = pattern or None
        report.warnings.extend(quality.problems + quality.notes)
        if chosen is found:
            # a paper listed again (under a second heading) is no sign of a bad read: counted
            kept = {id(e) for e in merged}
            for entry in finding.entries:
                if id(entry) not in kept:
                    report.skip("repeats a paper listed before (merged into it)", entry.lineno)
        untitled = finding.candidates - len(finding.entries)
        if chosen is found and untitled >= 3 and untitled > 0.02 * finding.candidates:
            report.warnings.append(
                f"{untitled} of {finding.candidates} records of the pattern found held no title "
                "(left out: read them with --records?)"
            )
    yield from chosen


def _names_from(chosen: list[Paper], found: list[Paper]) -> int:
    """The line reader's papers without names take them from the record finder's reading of the
    same paper (the one paper it found under that title): the finder knows names by their place
    in the list's records (an italic line after the title, a team), the line reader by their
    words alone. How many papers took names."""
    by_title: dict[str, list[Paper]] = {}
    for paper in found:
        # names the person-name judge takes for names, never prose the finder took for them
        if paper.title and paper.authors and not paper.skip and authorish(", ".join(paper.authors)):
            by_title.setdefault(normalise_text(paper.title), []).append(paper)
    filled = 0
    for paper in chosen:
        twins = by_title.get(normalise_text(paper.title or ""), [])
        if not paper.skip and not paper.authors and len(twins) == 1:
            paper.authors = list(twins[0].authors)
            filled += 1
    return filled


_SHARED_MIN = 3  # "names" this many papers of a list share whole ...
_SHARED_SHARE = 0.5  # ... and this share of its named papers


def _without_shared_names(papers: list[Paper]) -> int:
    """ "Names" that most of a list's papers share whole and that never sign a paper beside
    other names (`Short Summary`, `Research Highlights`: a heading every record repeats) are
    the list's label, no paper's authors: taken off. A page owner who signs most papers alone
    signs some with others too. How many papers lost them."""
    named = [p for p in papers if p.authors and not p.skip]
    counts = Counter(tuple(p.authors) for p in named)
    if not counts:
        return 0
    shared, count = counts.most_common(1)[0]
    if len(shared) != 1 or count < max(_SHARED_MIN, _SHARED_SHARE * len(named)):
        return 0
    if any(shared[0] in p.authors for p in named if len(p.authors) > 1):
        return 0
    for paper in named:
        if tuple(paper.authors) == shared:
            paper.authors = []
    return count


def _clearly_better(new: Quality, old: Quality) -> bool:
    if new.papers < 2:
        return False
    if len(new.problems) > len(old.problems):
        return False
    signs_new, signs_old = len(new.problems) + len(new.notes), len(old.problems) + len(old.notes)
    return new.score > _BETTER * old.score + _MARGIN or (
        (len(new.problems) < len(old.problems) or signs_new < signs_old) and new.score >= old.score
    )
