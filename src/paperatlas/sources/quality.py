"""How well a list written by people was read: a score per read (to choose between two
readings of the same file) and the signs of a bad read, named for the user.

The signs, each measured on the papers a reading gave and the file's own text:
- the file names more papers than were read (distinct arXiv ids / DOIs / OpenReview ids in
  its text against those in the papers' links: a list read in part);
- untitled papers among titled ones; titles that are section headings (a title shared with papers' sections)
  or that keep their numbering (`[12] Title`);
- links pooled on one entry (one paper holding the ids of several);
- titles repeating one template (the same first words: a label read as the title);
- an "abstract" holding a whole list (many lines' worth of text on one paper), or holding
  only person names (the authors read as the abstract);
- first authors that name an institution (affiliations read as authors);
- titles of three words or fewer with nothing else (headings or navigation read as papers);
- links to papers (arXiv, PDF, a publisher, ...) in the file that no paper read holds;
- a field most papers have and some lack: authors (likely misread), or a link the file gives
  on the paper's own lines (misread); papers with neither a link (none on their lines) nor
  authors, unlike most, are the page's own text read as papers.

`FileTally` watches the papers of a file of any format as `sources.read` yields them: a
record that repeats an earlier one whole (a reference manager's duplicate: same title,
authors, year, links and abstract) is left out; a file whose size says it holds far more
than the records read (a sheet or a list read as one paper), and titles holding a sheet's
delimiters (`Title,Ann Lee,2024`: a CSV/TSV whose columns were not recognised), are named.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field

from paperatlas.identifiers import link_kind
from paperatlas.paper import Paper
from paperatlas.sources._io import line_of
from paperatlas.sources.fields import NUMBERING, titleish
from paperatlas.sources.names import group_author
from paperatlas.sources.text import looks_like_authors

_ID = re.compile(
    r"arxiv\.org/(?:abs|pdf|html)/(\d{4}\.\d{4,5})|openreview\.net/(?:forum|pdf)\?id=([\w-]+)"
    r"|(?:doi\.org/|doi:\s?)(10\.\d{4,9}/[^\s\"<>)\]]+)",
    re.IGNORECASE,
)
_MIN = 3  # never name a problem seen fewer times than this
_SHARE = 0.2  # ... nor one most papers read well do not show
_URL = re.compile(r"https?://[^\s<>\"'`)\]|]+")
_INSTITUTION = re.compile(
    r"\b(universit\w*|institut\w*|laborator\w*|lab|labs|department|school|college|academy|"
    r"centre|center|inc|corp|corporation|ltd|gmbh|research)\b",
    re.IGNORECASE,
)


def names_institution(author: str) -> bool:
    """An author that names an institution: an affiliation read as an author. A group that
    signs a paper (`Northfield University Research Team`) is an author: the readers keep it
    as one (`names.group_author`), and so does this judge."""
    return bool(_INSTITUTION.search(author)) and not group_author(author)


# A record of a paper list takes a few hundred bytes besides its abstract (a BibTeX entry
# with file paths and keywords about 700, a JSON program record about 2,400): far more per
# record read means records were missed or read as one.
_BYTES_PER_RECORD = 8000
_SMALL_FILE = 20_000  # bytes: a short file's header and prose may outweigh its few papers
# a tab, or commas or semicolons with no space after them between words, twice: a sheet's row
_SHEET_ROW = re.compile(r"\t|[^\W\d][,;][^\W\d\s].*[,;]\S")


@dataclass
class Quality:
    papers: int
    score: float  # what the papers hold, summed (see `paper_score`)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # milder signs: reported, not weighed


def linked_ids(text: str) -> set[str]:
    """The distinct papers a text links to (arXiv, OpenReview, DOI)."""
    return {"".join(m.groups(default="")).lower().rstrip(".") for m in _ID.finditer(text)}


def paper_score(paper: Paper) -> float:
    title = paper.title or ""
    if not title or not titleish(title) or len(title.split()) > 40:
        return 0.3 if paper.abstract and len(paper.abstract) < 3000 else 0.0
    score = 1.0 + 0.5 * bool(paper.urls or paper.code_urls) + 0.5 * bool(paper.authors)
    score += 0.3 * bool(paper.abstract) + 0.2 * bool(paper.venue or paper.year)
    if NUMBERING.match(title):
        score -= 0.5
    if len(paper_ids(paper)) >= 3:
        score = 0.2  # several papers' links on one entry
    return score


# A list whose papers nearly all carry a link: an entry without one is likely the page's own
# text (a heading, a note, a setup step) read as a paper, and adds nothing to the reading
_LINKED_LIST = 0.8
_UNLINKED_WEIGHT = 0.0


def reading_score(papers: list[Paper]) -> float:
    """What a reading's papers hold, summed; an entry lacking the link nearly all the others
    carry adds nothing."""
    scores = [paper_score(p) for p in papers]
    linked = [bool(p.urls or p.code_urls) for p in papers]
    if len(papers) < 10 or sum(linked) < _LINKED_LIST * len(papers):
        return sum(scores)
    return sum(s if has else _UNLINKED_WEIGHT * s for s, has in zip(scores, linked, strict=True))


def estimate(papers: list[Paper], text: str) -> Quality:
    n = len(papers)
    quality = Quality(n, reading_score(papers))
    problems = quality.problems
    in_file = linked_ids(text)
    read = set().union(*(paper_ids(p) for p in papers)) if papers else set()
    missed = len(in_file - read)
    if missed >= _MIN and missed > 0.1 * len(in_file):
        problems.append(f"the file links {len(in_file)} papers, the papers read link {len(in_file & read)}")
    if not n:
        return quality
    untitled = sum(not (p.title or "").strip() for p in papers)
    if untitled >= _MIN and 0.2 * n < untitled < n:  # a list of abstracts alone is whole
        problems.append(f"{untitled} of {n} papers have no title (the others have one)")
    sections = {(p.section or "").strip().lower() for p in papers} - {""}
    headings = [p.title for p in papers if (p.title or "").strip().lower() in sections]
    if len(headings) >= 2:
        problems.append(f"{len(headings)} titles are section headings (e.g. {headings[0]!r})")
    numbered = [p.title for p in papers if p.title and NUMBERING.match(p.title)]
    if len(numbered) >= _MIN and len(numbered) > 0.2 * n:
        problems.append(f"{len(numbered)} titles keep their numbering (e.g. {numbered[0]!r})")
    pooled = [p for p in papers if len(paper_ids(p)) >= 3]
    if pooled:
        problems.append(
            f"{len(pooled)} entries hold the links of several papers "
            f"(e.g. {pooled[0].title!r} with {len(paper_ids(pooled[0]))})"
        )
    openings = Counter(" ".join((p.title or "").lower().split()[:3]) for p in papers if p.title)
    if openings and n >= 2 * _MIN:
        words, count = openings.most_common(1)[0]
        if count >= 2 * _MIN and count > 0.3 * n:
            problems.append(f"{count} of {n} titles begin with the same words {words!r}")
    quality.notes.extend(_fields_missed(papers, text))
    lists = [p for p in papers if p.abstract and len(p.abstract) > 3000 and p.abstract.count("\n") > 20]
    if lists:
        problems.append(f"{len(lists)} abstracts are longer than an abstract (a list read as one paper?)")
    problems.extend(_misread_fields(papers))
    if missed_links := _paper_links_missed(papers, text):
        problems.append(missed_links)
    return quality


def _fields_missed(papers: list[Paper], text: str) -> list[str]:
    """A field most papers have that some lack: authors (those were likely misread), or a
    link the file gives on the paper's own lines (misread). A paper whose lines in the file
    hold no link has none to read (a talk with no preprint): no sign of a bad read."""
    n = len(papers)
    out: list[str] = []
    if n < 10:
        return out
    unlinked = [p for p in papers if not (p.urls or p.code_urls)]
    if 0.1 * n < len(unlinked) < 0.6 * n:  # most have one: those without were misread?
        spans = _record_lines(unlinked, papers, text.splitlines())
        given = [p for p in unlinked if any(_URL.search(line) for line in spans.get(id(p), ()))]
        if len(given) > 0.1 * n:
            out.append(f"{len(given)} of {n} papers have no link, though their lines in the file give one")
        # no link in the file and no authors either, unlike most: the page's own text
        seen = {id(p) for p in given}
        bare = [p for p in unlinked if not p.authors and id(p) in spans and id(p) not in seen]
        if len(bare) >= _MIN and len(bare) > 0.1 * n:
            out.append(
                f"{len(bare)} of {n} papers have neither a link (none on their lines in the file) "
                f"nor authors, unlike most (e.g. {bare[0].title!r}): the page's own text read as papers?"
            )
    unauthored = sum(not p.authors for p in papers)
    if 0.1 * n < unauthored < 0.6 * n:
        out.append(f"{unauthored} of {n} papers have no authors (the others have)")
    return out


_RECORD_LINES = 12  # a record's lines at most: past them, a paper's span is a section's prose


def _record_lines(these: list[Paper], papers: list[Paper], lines: list[str]) -> dict[int, list[str]]:
    """The lines in the file of each of `these` papers: from its first line to the next paper's."""
    starts = sorted({line for p in papers if (line := line_of(p.source))})
    spans = {}
    for paper in these:
        if (start := line_of(paper.source)) is None:
            continue
        later = bisect_right(starts, start)
        end = starts[later] if later < len(starts) else len(lines) + 1
        spans[id(paper)] = lines[start - 1 : min(end - 1, start - 1 + _RECORD_LINES)]
    return spans


def _many(count: int, n: int) -> bool:
    return count >= _MIN and count > _SHARE * n


def _misread_fields(papers: list[Paper]) -> list[str]:
    """Fields holding what another field should: names as abstracts, affiliations as
    authors, headings or navigation as titles."""
    n, out = len(papers), []
    names = [
        p.abstract for p in papers if p.abstract and len(p.abstract) < 300 and looks_like_authors(p.abstract)
    ]
    if _many(len(names), n):
        out.append(f"{len(names)} of {n} abstracts are only person names (e.g. {names[0][:60]!r}): authors?")
    places = [p.authors[0] for p in papers if p.authors and names_institution(p.authors[0])]
    if _many(len(places), n):
        out.append(f"{len(places)} of {n} first authors name an institution (e.g. {places[0][:60]!r})")
    bare = [
        p.title
        for p in papers
        if p.title and len(p.title.split()) <= 3 and not (p.urls or p.code_urls or p.authors or p.abstract)
    ]
    if _many(len(bare), n):
        out.append(
            f"{len(bare)} of {n} papers are a title of three words or fewer and nothing else "
            f"(e.g. {bare[0]!r}): headings or navigation?"
        )
    return out


def _paper_links_missed(papers: list[Paper], text: str) -> str | None:
    """Most links to papers in the file held by no paper read: papers missed."""
    in_file = {u.rstrip(".,;:") for u in _URL.findall(text)}
    in_file = {u for u in in_file if link_kind(u) == "paper"}
    held = {u for p in papers for u in (*p.urls, *p.code_urls)}
    missed = len(in_file - held)
    if missed >= 5 and missed > 0.5 * len(in_file):
        return f"{missed} of the {len(in_file)} links to papers in the file are on no paper read"
    return None


def paper_ids(paper: Paper) -> set[str]:
    return linked_ids(" ".join(paper.urls))


class FileTally:
    """What `sources.read` sees of a file's papers: repeats to leave out, and the file's size
    against the records read."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.records = 0
        self.abstract_chars = 0
        self.repeats = 0
        self.sheet_rows: list[str] = []  # titles that are a sheet's rows
        self._seen: dict[tuple, str | None] = {}  # a record's whole content -> its id

    def repeat(self, paper: Paper) -> bool:
        """Does the paper repeat an earlier record of the file whole, each under an id of
        its own (a reference manager's `Romer1990` and `Romer1990a`)?"""
        if not paper.title:
            return False
        # as written (a manager's duplicate is a copy); the abstract by its hash, so a big
        # file's abstracts are not held twice
        key = (paper.title, tuple(paper.authors), paper.year, tuple(paper.urls), hash(paper.abstract))
        if key in self._seen:
            # under the same id it is one paper already, and a record naming the id of one
            # that had none gives it its id: ingest's to count and merge
            if not paper.id or not self._seen[key] or self._seen[key] == paper.id:
                return False
            self.repeats += 1
            return True
        self._seen[key] = paper.id
        return False

    def see(self, paper: Paper | None) -> None:
        """Count a record read (a paper) or skipped (None)."""
        self.records += 1
        if paper is not None and paper.abstract:
            self.abstract_chars += len(paper.abstract)
        title = paper.title if paper is not None else None
        if title and ("\t" in title or title.count(",") + title.count(";") >= 2) and _SHEET_ROW.search(title):
            self.sheet_rows.append(title)

    def problems(self) -> list[str]:
        out = []
        rows = len(self.sheet_rows)
        if rows and (rows >= _MIN or self.records < _MIN) and rows >= _SHARE * self.records:
            out.append(
                f"{rows} title{'s hold' if rows > 1 else ' holds'} a sheet's delimiters "
                f"(e.g. {self.sheet_rows[0][:60]!r}): a CSV/TSV whose columns were not recognised? "
                "(name the title column 'title')"
            )
        if self.records and self.size > _SMALL_FILE:
            per_record = (self.size - self.abstract_chars) / self.records
            if per_record > _BYTES_PER_RECORD:
                out.append(
                    f"the file holds {self.size // 1000} KB besides its abstracts, and only "
                    f"{self.records} record{'s' if self.records > 1 else ''} read in it "
                    f"(a list read as one paper?)"
                )
        return out
