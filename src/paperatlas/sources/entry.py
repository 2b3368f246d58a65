"""One entry of a list written by people, as the entry reader (`sources.entries`) builds it:
its title, fields, texts and links; how two entries for the same paper merge (a second pass
over a section, a paper listed twice); and the `Paper` it becomes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from paperatlas.identifiers import find_identifiers
from paperatlas.paper import Paper, normalise_text, skipped
from paperatlas.sources.limits import too_long
from paperatlas.sources.mdlines import cjk_count, plain, without_links
from paperatlas.sources.records import iso_date

_PROSE_WORDS = 20
_PROSE_CJK = 40
# an untitled paragraph outside any entry is a paper only when it is a real abstract
PARA_WORDS = 40
PARA_CJK = 80
YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")
_ABSTRACT_RANK = {"abstract": 4, "summary": 3, "quote": 2, "body": 1}


@dataclass
class Entry:
    lineno: int
    kind: str  # heading | item | table | field
    title: str | None = None
    level: int = 0
    number: int | None = None
    section: str | None = None
    authors: list[str] = field(default_factory=list)
    abstracts: dict[str, list[str]] = field(default_factory=dict)  # rank name -> parts
    body: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)  # venue, date, ... as read
    extra: dict[str, object] = field(default_factory=dict)
    group: int = 0  # index of the section run it was read in

    def add_text(self, rank: str, text: str) -> None:
        self.abstracts.setdefault(rank, []).append(text)

    def abstract(self) -> tuple[str, str | None]:
        """The best text it has for an abstract: labelled, else a summary, a quote, or the
        entry's own prose (not a line of venue and links), and which of them it is."""
        for rank in sorted(self.abstracts, key=lambda r: -_ABSTRACT_RANK.get(r, 0)):
            if rank == "tldr":
                continue
            text = _join(self.abstracts[rank])
            if text or rank == "abstract":  # a labelled abstract left empty: no abstract
                return text, rank if text else None
        prose = [b for b in self.body if is_prose(b) or is_sentence(b)]
        if prose:
            return _join(prose), "body"
        return "", None

    def keys(self) -> list[str]:
        ids = find_identifiers(*self.urls, self.fields.get("arxiv_id"), self.fields.get("doi"))
        keys = [f"{k}:{v}" for k, v in sorted(ids.items())]
        norm = normalise_text(self.title or "")
        if (len(norm) >= 8 and len(norm.split()) >= 2) or len(norm) >= 12:
            keys.append("title:" + norm)
        return keys


def is_prose(text: str, words: int = 0, cjk: int = 0) -> bool:
    """Reads as an abstract: enough words (or CJK characters) to be more than a label."""
    return len(without_links(text).split()) >= (words or _PROSE_WORDS) or cjk_count(text) >= (
        cjk or _PROSE_CJK
    )


def is_sentence(text: str) -> bool:
    """A short paragraph that is still a sentence or more (not `arXiv 2025, [Paper](...)`)."""
    bare = plain(without_links(text)).strip()
    return bare.endswith((".", "。", "!", "?", "！", "？")) and (
        len(bare.split()) >= 3 or cjk_count(bare) >= 10
    )


def _join(parts: list[str]) -> str:
    return " ".join(" ".join(p.split()) for p in parts if p and p.strip()).strip()


# -- merging ----------------------------------------------------------------------------


def merge_repeated_sections(entries: list[Entry]) -> list[Entry]:
    """A run of numbered entries that repeats an earlier run (same numbers, same titles)
    is a second pass over the same papers: each entry merges into its number's twin."""
    groups: dict[int, list[Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.group, []).append(entry)
    order = sorted(groups)
    merged_into: dict[int, Entry] = {}
    for b_index, b in enumerate(order):
        later = groups[b]
        numbered = {e.number: e for e in later if e.number is not None}
        if len(numbered) < 2:
            continue
        for a in order[:b_index]:
            earlier = {e.number: e for e in groups[a] if e.number is not None and id(e) not in merged_into}
            titled = [n for n, e in numbered.items() if e.title]
            same = len(
                [
                    n
                    for n in titled
                    if n in earlier
                    and earlier[n].title
                    and normalise_text(earlier[n].title or "") == normalise_text(numbered[n].title or "")
                ]
            )
            if titled and same >= 2 and same >= 0.8 * len(titled):
                for n, e in numbered.items():
                    if n in earlier:
                        merge(earlier[n], e)
                        merged_into[id(e)] = earlier[n]
                break
    return [e for e in entries if id(e) not in merged_into]


def merge_duplicates(entries: list[Entry]) -> list[Entry]:
    by_key: dict[str, Entry] = {}
    kept: list[Entry] = []
    for entry in entries:
        keys = entry.keys()
        twin = next((by_key[k] for k in keys if k in by_key), None)
        if twin is not None:
            merge(twin, entry)
            for k in twin.keys():  # noqa: SIM118 (an Entry's keys(), not a dict's)
                by_key.setdefault(k, twin)
            continue
        kept.append(entry)
        for k in keys:
            by_key.setdefault(k, entry)
    return kept


def merge(into: Entry, other: Entry) -> None:
    if not into.title and other.title:
        into.title = other.title
    if not into.authors:
        into.authors = other.authors
    for rank, parts in other.abstracts.items():
        if rank not in into.abstracts:
            into.abstracts[rank] = parts
    if not into.abstract()[0] and other.body:
        into.body = into.body + other.body
    for url in other.urls:
        if url not in into.urls:
            into.urls.append(url)
    for url in other.code:
        if url not in into.code:
            into.code.append(url)
    for key, value in other.fields.items():
        into.fields.setdefault(key, value)
    for key, item in other.extra.items():
        into.extra.setdefault(key, item)
    into.section = into.section or other.section


# -- entry -> Paper ---------------------------------------------------------------------


def to_paper(path: Path, entry: Entry) -> Paper:
    abstract, rank = entry.abstract()
    if reason := too_long(abstract):
        return skipped(f"{path}:{entry.lineno}", reason, entry.title)
    extra: dict[str, object] = dict(entry.extra)
    venue = entry.fields.get("venue")
    year = None
    date = iso_date(entry.fields.get("date")) if entry.fields.get("date") else None
    if date:
        year = int(date[:4])
    elif entry.fields.get("date") and (m := YEAR.search(entry.fields["date"])):
        year = int(m.group(1))
    if entry.fields.get("year") and (m := YEAR.search(entry.fields["year"])):
        year = year or int(m.group(1))
    meta = [b for b in entry.body if b and rank != "body"]
    if rank != "body":
        for text in meta:  # "arXiv 2025, [Paper](...)" / "NeurIPS 2025 Highlight"
            short = plain(without_links(text)).strip(" ,.;:|-–—")
            if not short or len(short.split()) > 12:
                continue
            if m := YEAR.search(short):
                year = year or int(m.group(1))
                before = short[: m.start()].strip(" ,.;:(")
                if before and not venue and len(before.split()) <= 6:
                    venue = before
                break
    if venue:
        venue = venue.strip(" ,.;:")
        if m := YEAR.search(venue):
            year = year or int(m.group(1))
    if entry.number is not None:
        extra["number"] = entry.number
    for key in ("affiliation", "category", "keywords"):
        if entry.fields.get(key):
            extra["affiliations" if key == "affiliation" else "categories" if key == "category" else key] = (
                entry.fields[key]
            )
    for rank_name in ("tldr", "summary"):
        if rank_name in entry.abstracts and rank != rank_name:
            extra[rank_name] = _join(entry.abstracts[rank_name])
    identifiers = find_identifiers(
        *entry.urls,
        entry.fields.get("arxiv_id"),
        entry.fields.get("doi"),
        *([f"arXiv:{entry.fields['arxiv_id']}"] if entry.fields.get("arxiv_id") else []),
    )
    keywords = [k.strip() for k in re.split(r"[,;，；、]", entry.fields.get("keywords", "")) if k.strip()]
    extra.pop("keywords", None)
    urls = list(entry.urls)
    if not urls and identifiers.get("arxiv"):
        urls = [f"https://arxiv.org/abs/{identifiers['arxiv']}"]
    return Paper(
        abstract=abstract,
        title=entry.title or None,
        authors=entry.authors,
        keywords=keywords,
        venue=venue or None,
        year=year,
        urls=urls,
        code_urls=list(entry.code),
        identifiers=identifiers,
        section=entry.section,
        date=date,
        source=f"{path}:{entry.lineno}",
        extra=extra,
    )
