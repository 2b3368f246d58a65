"""What a list's titles carry besides the title, taken off when the list's own records show it.

A list written by people dresses every title alike: a citation key before it (`[Lee 19] Title`),
its names and year (`Lee et al. (2016) Title`, `Lee, A. (1999). Title. Journal, 4(2).`), a
score or tag (`31 - Title`, `[new 043] Title`), a nickname before a quoted title
(`KYS: "Title" ECCV`), its venue after it (`Title (CVPR 2025)`). Any one title might truly
read so; when most of a list's titles do, the dress is the list's, and it comes off every title
that wears it (the names becoming the authors, the venue and year the paper's) — the record
pattern found from the records' repeats, never from one record.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from paperatlas.paper import Paper
from paperatlas.sources.entry import YEAR
from paperatlas.sources.fields import names_then_title
from paperatlas.sources.names import ET_AL, authorish, split_authors

_MIN_DRESSED = 3  # a dress is the list's when at least this many titles wear it ...
_DRESSED_SHARE = 0.5  # ... and at least this share of its titles


@dataclass
class Undressed:
    """A title with its dress off, and what the dress said."""

    title: str
    authors: list[str] = field(default_factory=list)
    venue: str | None = None
    year: int | None = None


# `[Kondylakis 18] Title`, `[Lee et al. 2019]`: a citation key; `[new 043]`, `[oral 12]`: a tag
_KEY_FIRST = re.compile(r"^\[(?P<key>[^\[\]]{1,30}?)\]\s+(?=\S)")
_KEY_NAME = re.compile(r"^(?P<name>[A-Z][\w'’-]+)(?:\s+et\s+al\.?)?,?\s+'?(?:\d{2}|(?:19|20)\d\d)[a-z]?$")
# `31 - Title`, `4.5 | Title`: a score or rank, then a dash or bar
_SCORE_FIRST = re.compile(r"^\d{1,3}(?:\.\d{1,2})?\s+[-–—|]\s+(?=\S)")
# `Lee et al. (2016). Title`, `Rusbult, C. E. (1980). Title. Journal, 16(2), 172-186.`
_NAMES_YEAR_FIRST = re.compile(
    r"^(?P<names>[^()]{2,300}?)\s*\((?P<year>(?:19|20)\d\d)[a-z]?\)[.,:]?\s+(?=\S)"
)
# `KYS: "Title" ECCV`, `"Title" CVPR 2020`: the title quoted within its line
_QUOTED = re.compile(r"^(?:[^\"“”]{0,40}?[:\s])?[\"“](?P<title>[^\"“”]{8,300})[\"”](?P<after>[^\"“”]{0,80})$")
# `Title (CVPR 2025)`, `Title (Expert Systems with Applications 2025)`: its venue and year after it
_VENUE_AFTER = re.compile(r"\s*\((?P<venue>[^()]{0,60}?)\s*(?P<year>(?:19|20)\d\d)\)$")
# the end of the title's sentence in a reference: a full stop or question mark, then the venue
_SENTENCE_END = re.compile(r"(?<=[\w)?!])([.?!])\s+(?=[A-Z\d])")


def _key_first(title: str) -> Undressed | None:
    match = _KEY_FIRST.match(title)
    if not match:
        return None
    rest = title[match.end() :]
    name = _KEY_NAME.match(match.group("key"))
    return Undressed(rest, [name.group("name")] if name else [])


def _score_first(title: str) -> Undressed | None:
    match = _SCORE_FIRST.match(title)
    return Undressed(title[match.end() :]) if match else None


def _names_year_first(title: str) -> Undressed | None:
    match = _NAMES_YEAR_FIRST.match(title)
    if not match:
        return None
    names = ET_AL.sub("", match.group("names")).strip(" ,.;")
    if not names or (not authorish(names) and not re.fullmatch(r"[A-Z][\w'’-]+", names)):
        return None
    rest = title[match.end() :]
    # the venue after the title's sentence: "Title. Journal of X, 16(2), 172-186"
    end = _SENTENCE_END.search(rest)
    if end and len(rest[: end.start()].split()) >= 2:
        after = rest[end.end() :]
        if re.search(r"\d", after) or len(after.split()) <= 8:
            rest = rest[: end.start()] + ("?" if end.group(1) == "?" else "")
    return Undressed(rest.strip(), split_authors(names), year=int(match.group("year")))


def _reference(title: str) -> Undressed | None:
    """`Niu Z, Wang H. Title. In: Venue. 2023`, `A. Lee and B. Chen. Title. Venue 2024`."""
    if reference := names_then_title(title):
        names, sentence, _after = reference
        return Undressed(sentence, split_authors(names))
    return None


def _quoted(title: str) -> Undressed | None:
    match = _QUOTED.match(title)
    if not match:
        return None
    after = match.group("after").strip(" ,.;")
    year = YEAR.search(after)
    venue = after[: year.start()].strip(" ,.;(") if year else after
    return Undressed(
        match.group("title").strip(" ,."), venue=venue or None, year=int(year.group(1)) if year else None
    )


def _venue_after(title: str) -> Undressed | None:
    match = _VENUE_AFTER.search(title.rstrip(" \\"))
    if not match or len(title[: match.start()].split()) < 2:
        return None
    venue = match.group("venue").strip(" ,.;") or None
    return Undressed(title[: match.start()], venue=venue, year=int(match.group("year")))


# in the order they are taken off: what opens a title before what closes it
_DRESSES: tuple[Callable[[str], Undressed | None], ...] = (
    _score_first,
    _key_first,
    _names_year_first,
    _reference,
    _quoted,
    _venue_after,
)


def undress(papers: list[Paper]) -> int:
    """Takes off each title the dress most of the list's titles wear; how many titles lost one."""
    titled = [p for p in papers if p.title and not p.skip]
    changed: set[int] = set()
    for dress in _DRESSES:
        found = [(p, u) for p in titled if (u := dress(p.title or "")) is not None and u.title]
        if len(found) < max(_MIN_DRESSED, _DRESSED_SHARE * len(titled)):
            continue
        for paper, off in found:
            paper.title = off.title
            if off.authors:  # names written in the title's own line beat names read elsewhere
                paper.authors = off.authors
            paper.venue = paper.venue or off.venue
            paper.year = paper.year or off.year
            changed.add(id(paper))
    return len(changed)
