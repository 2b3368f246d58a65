"""Does a reading look whole? Each file's reading is measured against the file's own text,
and a small logistic model (`models/selfcheck-v1.json`, fit by `scripts/build_selfcheck.py`
on lists whose true papers are known) gives the chance that the reading is not whole.
Above the model's threshold `add` warns, naming the features that weighed most, in the
file's own numbers ("87 links to papers in the file, 12 on papers read"). One reading that
is plainly wrong — a single record read from a file whose own structure repeats many times —
is refused instead.

The features (`FEATURES`; each a share, a log ratio or a count, so a file's size does not
decide alone):
- what the papers hold: shares of untitled, repeated, short (<= 3 words), long (> 30
  words), numbered and sentence-broken titles, titles that are person names; of papers with no link, no authors, an
  abstract, an abstract longer than an abstract, an institution as first author, the links of
  several papers; the mean title length;
- the reading against the file: the share of the file's text the papers hold; links to
  papers (`identifiers.link_kind`) and arXiv/DOI/OpenReview ids in the file against those on
  papers read; links on no paper; papers read against the file's most repeated structure
  (list items, numbered lines, table rows, headings, BibTeX entries, RIS records);
- the readers' own signs of a bad read (`sources.quality`: how many were named), and whether
  the format is a list written by people or a reference manager's export.
Files over `_TEXT_CAP` bytes (data exports, where a reading is a field mapping) and folders
are not judged (`judged`). Beside the model, a list written by people is counted without a
reader (`sources.estimates`): each count the reading disagrees with is named in
`Judgement.disagreements`, whatever the model's chance.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from paperatlas.identifiers import link_kind
from paperatlas.paper import Paper
from paperatlas.sources._io import iter_lines
from paperatlas.sources.estimates import FileCounts, PaperCounts, count, count_fields, disagreements
from paperatlas.sources.fields import NUMBERING
from paperatlas.sources.names import authorish, split_authors
from paperatlas.sources.quality import linked_ids, names_institution, paper_ids

MODEL_FILE = "selfcheck-v1.json"
_TEXT_CAP = 8_000_000  # bytes on disk (a gzip: a tenth of it)
_PEOPLE = frozenset({"markdown", "html", "org", "rst", "text"})
_CITATION = frozenset({"bibtex", "ris", "csl"})
_FIELDED = frozenset({"yaml", "json"})  # records of named fields: the field naming people is counted
_URL = re.compile(r"https?://[^\s<>\"'`)\]|}]+")
_SENTENCE_BREAK = re.compile(r"\w{3,}[.!?]\s+[A-Z]")
# the shapes a list repeats, one per record: (name, pattern), counted in the file's text
_STRUCTURES = (
    ("list items", re.compile(r"^[ \t]*[-*+][ \t]+\S|<li\b", re.M | re.I)),
    ("numbered lines", re.compile(r"^[ \t]*(?:\d{1,4}[.)]|\[\d{1,4}\])[ \t]+\S", re.M)),
    ("table rows", re.compile(r"^[ \t]*\|.*\|[ \t]*$|<tr\b", re.M | re.I)),
    ("headings", re.compile(r"^#{1,6}[ \t]+\S|<h[1-6]\b", re.M | re.I)),
    # @string, @preamble and @comment are no records (a file may define 100 journal macros)
    ("BibTeX entries", re.compile(r"^[ \t]*@(?!(?i:string|preamble|comment)\b)\w+[ \t]*[{(]", re.M)),
    ("RIS records", re.compile(r"^TY  - ", re.M)),
)
# org-mode: `* ` at the start of a line is a heading, and only `-`/`+` or an indented `*` an item
_ORG_STRUCTURES = {
    "list items": re.compile(r"^(?:[ \t]*[-+]|[ \t]+\*)[ \t]+\S", re.M),
    "headings": re.compile(r"^\*+[ \t]+\S", re.M),
}
# a single record from a file repeating one shape this many times is no reading at all
_REFUSE_STRUCTURE = 20
_REFUSE_LINKS = 20

# what a reading's papers hold, counted paper by paper (`Reading`)
PAPER_COUNTS = (
    "untitled",
    "repeated_titles",
    "short_titles",
    "long_titles",
    "numbered_titles",
    "sentence_titles",
    "author_titles",
    "no_link",
    "no_authors",
    "abstracts",
    "long_abstracts",
    "institution_authors",
    "pooled_links",
)
FEATURES = (
    "log_papers",
    "log_kb",
    *PAPER_COUNTS,
    "title_words",
    "text_held",
    "paper_links_missed",
    "log_paper_links_missed",
    "ids_missed",
    "log_ids_missed",
    "links_on_no_paper",
    "papers_per_structure",
    "structure_match",
    "papers_per_paper_link",
    "rule_signs",
    "people_format",
    "citation_format",
)


@dataclass
class Judgement:
    """A file's reading judged: the features, the chance it is not whole, what looked wrong."""

    features: dict[str, float]
    chance: float  # of a reading that is not whole
    warn: bool
    reasons: list[str] = field(default_factory=list)
    # counts of the file the reading disagrees with, each said in one line (`sources.estimates`)
    disagreements: list[str] = field(default_factory=list)

    def warning(self) -> str:
        return (
            f"this reading looks incomplete (self-check: {self.chance:.0%} likely not whole): "
            + "; ".join(self.reasons)
        )


class Reading:
    """What a file's papers hold, counted as `sources.read` yields them."""

    def __init__(self) -> None:
        self.papers = 0
        self.counts: dict[str, int] = dict.fromkeys(PAPER_COUNTS, 0)
        self.examples: dict[str, str] = {}
        self.title_words = 0
        self.text_chars = 0
        self.urls: set[str] = set()
        self.ids: set[str] = set()
        self._titles: set[str] = set()
        self.held = PaperCounts()

    def _count(self, what: str, example: str | None = None) -> None:
        self.counts[what] += 1
        if example:
            self.examples.setdefault(what, example)

    def see(self, paper: Paper) -> None:
        self.papers += 1
        self.held.see(paper)
        title = (paper.title or "").strip()
        words = len(title.split())
        self.title_words += words
        if not title:
            self._count("untitled")
        elif (key := title.lower()) in self._titles:
            self._count("repeated_titles", title)
        else:
            self._titles.add(key)
        if title and words <= 3:
            self._count("short_titles", title)
        if words > 30:
            self._count("long_titles", title)
        if title and NUMBERING.match(title):
            self._count("numbered_titles", title)
        if _SENTENCE_BREAK.search(title):
            self._count("sentence_titles", title)
        if words >= 2 and person_names(title):
            self._count("author_titles", title)
        links = (*paper.urls, *paper.code_urls)
        if not links:
            self._count("no_link")
        if not paper.authors:
            self._count("no_authors")
        else:
            if names_institution(paper.authors[0]):
                self._count("institution_authors", paper.authors[0])
            self.text_chars += sum(len(a) for a in paper.authors)
        if paper.abstract:
            self._count("abstracts")
            if len(paper.abstract) > 3000:
                self._count("long_abstracts")
            self.text_chars += len(paper.abstract)
        self.text_chars += len(title)
        self.urls.update(u.rstrip(".,;:/") for u in links)
        ids = paper_ids(paper)
        if len(ids) >= 3:
            self._count("pooled_links", title)
        self.ids |= ids


def person_names(title: str) -> bool:
    """Is a title a list of person names (`Ann Lee, Bo Chen`), as the readers judge names? One
    capitalised phrase (`A Good Record`) is a title in Title Case, no list."""
    return authorish(title) and len(split_authors(title)) >= 2


@dataclass
class FileText:
    """What the file's own text holds, against which a reading is measured."""

    chars: int
    paper_links: set[str]
    ids: set[str]
    links: set[str]
    structure: tuple[str, int]  # the file's most repeated shape and its count
    structures: dict[str, int]  # each shape's count
    counts: FileCounts | None  # a list written by people: what `sources.estimates` counts


def judged(path: Path, fmt: str) -> bool:
    """Is a reading of this file judged? Not a folder's (each file in it is a list of its own),
    nor one of a file over `_TEXT_CAP` (a data export, where a reading is a field mapping)."""
    if fmt == "folder":
        return False
    return path.stat().st_size <= (_TEXT_CAP // 10 if path.suffix.lower() == ".gz" else _TEXT_CAP)


def file_text(path: Path, fmt: str) -> FileText:
    """The file's text measured."""
    text = "\n".join(line for _, line in iter_lines(path, None))
    links = {u.rstrip(".,;:/") for u in _URL.findall(text)}
    shapes = [
        (name, _ORG_STRUCTURES.get(name, pattern) if fmt == "org" else pattern)
        for name, pattern in _STRUCTURES
    ]
    counts = [(name, len(pattern.findall(text))) for name, pattern in shapes]
    return FileText(
        chars=len(text),
        paper_links={u for u in links if link_kind(u) == "paper"},
        ids=linked_ids(text),
        links=links,
        structure=max(counts, key=lambda c: c[1]),
        structures=dict(counts),
        counts=count(text) if fmt in _PEOPLE else count_fields(text) if fmt in _FIELDED else None,
    )


def features(reading: Reading, text: FileText, fmt: str, rule_signs: int) -> dict[str, float]:
    n = max(reading.papers, 1)
    share = {what: count / n for what, count in reading.counts.items()}
    links_missed = len(text.paper_links - reading.urls)
    ids_missed = len(text.ids - reading.ids)
    return {
        "log_papers": math.log1p(reading.papers),
        "log_kb": math.log1p(text.chars / 1000),
        **share,
        "title_words": reading.title_words / n / 10,
        "text_held": min(reading.text_chars / max(text.chars, 1), 1.5),
        "paper_links_missed": links_missed / len(text.paper_links) if text.paper_links else 0.0,
        "log_paper_links_missed": math.log1p(links_missed),
        "ids_missed": ids_missed / len(text.ids) if text.ids else 0.0,
        "log_ids_missed": math.log1p(ids_missed),
        "links_on_no_paper": len(text.links - reading.urls) / len(text.links) if text.links else 0.0,
        "papers_per_structure": math.log((reading.papers + 1) / (text.structure[1] + 1)),
        "structure_match": _structure_match(reading.papers, text),
        "papers_per_paper_link": math.log((reading.papers + 1) / (len(text.paper_links) + 1)),
        "rule_signs": float(rule_signs),
        "people_format": float(fmt in _PEOPLE),
        "citation_format": float(fmt in _CITATION),
    }


def _structure_match(papers: int, text: FileText) -> float:
    """How far the papers read are from the nearest count the file repeats (a shape, its links
    to papers, its ids), as a log ratio: a whole reading usually matches one of them."""
    counts = [*text.structures.values(), len(text.paper_links), len(text.ids)]
    gaps = [abs(math.log((papers + 1) / (c + 1))) for c in counts if c >= 3]
    return min(gaps, default=0.0)


@dataclass(frozen=True)
class Model:
    names: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float

    def contributions(self, values: dict[str, float]) -> dict[str, float]:
        return {
            name: w * (values[name] - m) / s
            for name, m, s, w in zip(self.names, self.mean, self.scale, self.weights, strict=True)
        }

    def chance(self, values: dict[str, float]) -> float:
        z = self.bias + sum(self.contributions(values).values())
        return 1 / (1 + math.exp(-max(min(z, 50.0), -50.0)))


def model_from_dict(data: dict) -> Model:
    return Model(
        names=tuple(data["features"]),
        mean=tuple(data["mean"]),
        scale=tuple(data["scale"]),
        weights=tuple(data["weights"]),
        bias=float(data["bias"]),
        threshold=float(data["threshold"]),
    )


@lru_cache(maxsize=1)
def shipped_model() -> Model:
    path = resources.files("paperatlas") / "models" / MODEL_FILE
    return model_from_dict(json.loads(path.read_text(encoding="utf-8")))


def judge(
    reading: Reading, text: FileText, fmt: str, rule_signs: int, model: Model | None = None
) -> Judgement:
    model = model or shipped_model()
    values = features(reading, text, fmt, rule_signs)
    chance = model.chance(values)
    warn = chance >= model.threshold
    reasons: list[str] = []
    if warn:
        weighed = sorted(model.contributions(values).items(), key=lambda kv: -kv[1])
        for name, weight in weighed:
            if weight <= 0 or len(reasons) >= 3:
                break
            if (reason := _reason(name, reading, text)) and reason not in reasons:  # (a count and its log)
                reasons.append(reason)
        reasons = reasons or ["no single sign stands out"]
    said = disagreements(reading.held, text.counts) if text.counts else []
    return Judgement(values, chance, warn, reasons, said)


def refusal(reading: Reading, text: FileText) -> str | None:
    """A reading plainly wrong: one record from a file that repeats a shape many times, or
    that links many papers. Said why, or None."""
    if reading.papers != 1:
        return None
    name, count = text.structure
    if count >= _REFUSE_STRUCTURE:
        return f"read as a single paper, yet the file has {count} {name}: its records were not found"
    if len(text.paper_links) >= _REFUSE_LINKS:
        return (
            f"read as a single paper, yet the file links {len(text.paper_links)} papers: "
            "its records were not found"
        )
    return None


def _reason(name: str, reading: Reading, text: FileText) -> str | None:
    """What a feature that weighed toward "not whole" says, in the file's own numbers."""
    n = reading.papers
    count = reading.counts.get(name, 0)
    example = reading.examples.get(name)
    eg = f" (e.g. {_quote(example)})" if example else ""
    held_links = len(text.paper_links & reading.urls)
    held_ids = len(text.ids & reading.ids)
    structure, repeats = text.structure
    messages = {
        "untitled": f"{count} of {n} papers have no title",
        "repeated_titles": f"{count} of {n} titles repeat an earlier title{eg}",
        "short_titles": f"{count} of {n} titles are three words or fewer{eg}: headings?",
        "long_titles": f"{count} of {n} titles are over 30 words{eg}",
        "numbered_titles": f"{count} of {n} titles keep their numbering{eg}",
        "author_titles": f"{count} of {n} titles are a list of person names{eg}: authors read as titles?",
        "sentence_titles": f"{count} of {n} titles run on past a sentence's end{eg}: other fields in the title?",
        "no_link": f"{count} of {n} papers have no link",
        "no_authors": f"{count} of {n} papers have no authors",
        "abstracts": f"{count} of {n} papers have an abstract",
        "long_abstracts": f"{count} of {n} abstracts are longer than any abstract",
        "institution_authors": f"{count} of {n} first authors name an institution{eg}",
        "pooled_links": f"{count} papers hold the links of several papers{eg}",
        "title_words": f"titles are {reading.title_words / max(n, 1):.1f} words long on average",
        "text_held": f"the papers read hold {_percent(reading.text_chars, text.chars)} of the file's text",
        "paper_links_missed": f"{len(text.paper_links)} links to papers in the file, {held_links} on papers read",
        "log_paper_links_missed": f"{len(text.paper_links)} links to papers in the file, "
        f"{held_links} on papers read",
        "ids_missed": f"{len(text.ids)} arXiv/DOI/OpenReview ids in the file, {held_ids} on papers read",
        "log_ids_missed": f"{len(text.ids)} arXiv/DOI/OpenReview ids in the file, {held_ids} on papers read",
        "links_on_no_paper": f"{len(text.links - reading.urls)} of the file's {len(text.links)} links "
        "are on no paper read",
        "papers_per_structure": f"{n} papers read from a file of {repeats} {structure}",
        "structure_match": f"{n} papers read, matching no count the file repeats ({_counts(text)})",
        "papers_per_paper_link": f"{n} papers read, {len(text.paper_links)} links to papers in the file",
        "log_papers": f"{n} papers read from {text.chars // 1000} KB of text",
        "log_kb": f"{n} papers read from {text.chars // 1000} KB of text",
    }
    message = messages.get(name)
    if message is None or (name in reading.counts and not count):
        return None
    return message


def _counts(text: FileText) -> str:
    named = [(c, name) for name, c in text.structures.items() if c >= 3]
    named.append((len(text.paper_links), "links to papers"))
    return ", ".join(f"{c} {name}" for c, name in sorted(named, reverse=True)[:3])


def _percent(part: int, whole: int) -> str:
    return f"{min(part / max(whole, 1), 1.0):.0%}"


def _quote(text: str, width: int = 50) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= width else text[: width - 1] + "…")
