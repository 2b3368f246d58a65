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
from paperatlas.sources.entry import YEAR, Entry
from paperatlas.sources.fields import names_then_title, title_text, titleish
from paperatlas.sources.names import ET_AL, authorish, group_author, split_authors

_MIN_DRESSED = 3  # a dress is the list's when at least this many titles wear it ...
_DRESSED_SHARE = 0.5  # ... and at least this share of its titles
_NAMED_SHARE = 0.6  # names are a list's titles' place when this share of its titles are names


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
# `2014 - SIGKDD - Title`, `2026-04-30 Title`, `1998《Title》`, `Poster 3 - Title`: a date, a year and
# venue, or a label and its number before the title
_WHEN_FIRST = re.compile(
    r"^(?:(?P<date>(?:19|20)\d\d[-/.]\d{1,2}(?:[-/.]\d{1,2})?)(?:\s*[-–—_|:：]\s*|\s+)"
    r"|(?P<year>(?:19|20)\d\d)(?:\s*[-–—_|:：]\s*|\s*(?=《))"
    r"|[^\W\d_]{2,12}\.?\s*#?\d{1,4}\s*[-–—_|:：]\s*)"
    r"(?:(?P<venue>[^\W\d_][\w&'’.]*(?:\s[\w&'’.]+)?)\s+[-–—_|]\s+)?(?=\S)"
)
# `《Title》`: a title in CJK book-title marks
_BOOK_MARKS = re.compile(r"^《(?P<title>[^《》]+)》$")
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


# one person's name in a list of them: two to four capitalised words or initials, a mark after it
_ONE_NAME = re.compile(r"(?:[A-Z][\w'’-]*\.?\s+|[A-Z]\.\s*){1,3}[A-Z][\w'’-]+\.?[*†‡#\d]*")
_NAME_RUN_ET_AL = re.compile(r"et\.?\s*al\.?", re.IGNORECASE)
# the end of a title after its names: a full stop (not an initial's) or a venue and year after a comma
_TITLE_END = re.compile(r"(?<!\b[A-Z])\.[,;]?\s+(?=\S)|,\s*(?=[^,]*\b(?:19|20)\d\d\b[^,]*(?:,|$))")
_VENUE_LAST = re.compile(r",\s*[A-Z][\w&.+-]*(?:\s\w+)?\s*$")  # `, ICML`, `, Arxiv`, `, Black Hat`
_TEX_QUOTED = re.compile(r"^(?:``|[\"“])(?P<title>[^\"“”`']{8,400}?)(?:''|[\"”])")


def _names_listed_first(title: str) -> Undressed | None:
    """`Ann Lee, Bo Chen, Title, ICML 2024`, `Ann Lee, Bo Chen., Title., Venue, 2022`: a reference
    whose names end at a comma, not a full stop: two names or more, then the title."""
    parts = title.split(",")
    names: list[str] = []
    used = 0
    for part in parts:
        bare = part.strip().rstrip(".")
        if _NAME_RUN_ET_AL.fullmatch(bare):
            used += 1
            continue
        each = [n for n in re.split(r"(?:^|\s+)(?:and|&)\s+", bare) if n]  # "Bo Chen and C. Wu"
        if not each or not all(_ONE_NAME.fullmatch(n) for n in each):
            break
        names.extend(re.sub(r"[*†‡#\d]+$", "", n) for n in each)
        used += 1
    if len(names) < 2 or used >= len(parts):
        return None
    rest = ",".join(parts[used:]).strip(" ,.")
    if re.match(r"(?:and|&)\s", rest):
        return None  # "Deep Learning, Big Data, and the Future": a title's own list of terms
    if quoted := _TEX_QUOTED.match(rest):
        return Undressed(quoted.group("title").strip(" ,."), names)
    end = _TITLE_END.search(rest)
    rest = rest[: end.start()] if end else rest
    if (venue := _VENUE_LAST.search(rest)) and len(rest[: venue.start()].split()) >= 3:
        rest = rest[: venue.start()]  # "Title, ICML", its year read off already
    rest = rest.strip(" ,.'\"“”`")  # "``Title''": TeX's quotes, their opening one lost to Markdown
    return Undressed(rest, names) if len(rest.split()) >= 2 else None


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


def _when_first(title: str) -> Undressed | None:
    match = _WHEN_FIRST.match(title)
    if not match or len(title[match.end() :].split()) < 1:
        return None
    when = match.group("date") or match.group("year")
    return Undressed(title[match.end() :], venue=match.group("venue"), year=int(when[:4]) if when else None)


def _book_marks(title: str) -> Undressed | None:
    match = _BOOK_MARKS.match(title.strip())
    return Undressed(match.group("title").strip()) if match else None


def _venue_after(title: str) -> Undressed | None:
    match = _VENUE_AFTER.search(title.rstrip(" \\"))
    if not match or len(title[: match.start()].split()) < 2:
        return None
    venue = match.group("venue").strip(" ,.;") or None
    return Undressed(title[: match.start()], venue=venue, year=int(match.group("year")))


# in the order they are taken off: what opens a title before what closes it
_DRESSES: tuple[Callable[[str], Undressed | None], ...] = (
    _score_first,
    _when_first,
    _book_marks,
    _key_first,
    _names_year_first,
    _reference,
    _names_listed_first,
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


def _person_names(text: str) -> bool:
    names = ET_AL.sub("", text).strip(" .,;")
    return bool(names) and authorish(names) and not group_author(names)


def _title_after(entry: Entry) -> int | None:
    """Where in the record's other text its title is: the first title-like text that is no
    list of names."""
    for i, text in enumerate(entry.body):
        if titleish(text) and not _person_names(text):
            return i
    return None


def names_as_titles(entries: list[Entry]) -> int:
    """`- **Ann Lee and Bo Chen**.` then `Title` on the next line: when most of a list's records
    took person names for their title (emphasised names before a plain title) and hold a
    title-like text besides, the names are the authors and that text the title. Any one title
    might read as names; most titles of a list do not. How many records changed."""
    titled = [e for e in entries if e.title]
    named = [(e, i) for e in titled if _person_names(e.title or "") and (i := _title_after(e)) is not None]
    if len(named) < max(_MIN_DRESSED, _NAMED_SHARE * len(titled)):
        return 0
    for entry, i in named:
        names = ET_AL.sub("", entry.title or "").strip(" .,;")
        entry.title = title_text(entry.body.pop(i))
        entry.authors = split_authors(names)
    return len(named)
