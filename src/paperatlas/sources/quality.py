"""How well a list written by people was read: a score per read (to choose between two
readings of the same file) and the signs of a bad read, named for the user.

The signs, each measured on the papers a reading gave and the file's own text:
- the file names more papers than were read (distinct arXiv ids / DOIs / OpenReview ids in
  its text against those in the papers' links: a list read in part);
- untitled papers among titled ones; titles that are section headings (a title shared with papers' sections)
  or that keep their numbering (`[12] Title`);
- links pooled on one entry (one paper holding the ids of several);
- titles repeating one template (the same first words: a label read as the title);
- an "abstract" holding a whole list (many lines' worth of text on one paper);
- a field most papers have and some lack (a link, authors): those were likely misread.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from paperatlas.paper import Paper
from paperatlas.sources.fields import NUMBERING, titleish

_ID = re.compile(
    r"arxiv\.org/(?:abs|pdf|html)/(\d{4}\.\d{4,5})|openreview\.net/(?:forum|pdf)\?id=([\w-]+)"
    r"|(?:doi\.org/|doi:\s?)(10\.\d{4,9}/[^\s\"<>)\]]+)",
    re.IGNORECASE,
)
_MIN = 3  # never name a problem seen fewer times than this


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
    if len(_ids(paper)) >= 3:
        score = 0.2  # several papers' links on one entry
    return score


def estimate(papers: list[Paper], text: str) -> Quality:
    n = len(papers)
    quality = Quality(n, sum(paper_score(p) for p in papers))
    problems = quality.problems
    in_file = linked_ids(text)
    read = set().union(*(_ids(p) for p in papers)) if papers else set()
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
    pooled = [p for p in papers if len(_ids(p)) >= 3]
    if pooled:
        problems.append(
            f"{len(pooled)} entries hold the links of several papers "
            f"(e.g. {pooled[0].title!r} with {len(_ids(pooled[0]))})"
        )
    openings = Counter(" ".join((p.title or "").lower().split()[:3]) for p in papers if p.title)
    if openings and n >= 2 * _MIN:
        words, count = openings.most_common(1)[0]
        if count >= 2 * _MIN and count > 0.3 * n:
            problems.append(f"{count} of {n} titles begin with the same words {words!r}")
    for what, has in (("links", lambda p: p.urls or p.code_urls), ("authors", lambda p: p.authors)):
        missing = sum(not has(p) for p in papers)
        if n >= 10 and 0.1 * n < missing < 0.6 * n:  # most have it: those without were misread?
            quality.notes.append(f"{missing} of {n} papers have no {what} (the others have)")
    lists = [p for p in papers if p.abstract and len(p.abstract) > 3000 and p.abstract.count("\n") > 20]
    if lists:
        problems.append(f"{len(lists)} abstracts are longer than an abstract (a list read as one paper?)")
    return quality


def _ids(paper: Paper) -> set[str]:
    return linked_ids(" ".join(paper.urls))
