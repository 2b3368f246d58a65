"""The `Paper` record: the one type that crosses every stage boundary."""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Paper:
    """One paper as read from a source: an abstract, or a title (title-only: abstract "").

    `id` is the source's own id (OpenReview forum id, arXiv id, BibTeX key) or None;
    the stored id is `paper_id(paper)`. Fields a source has but `Paper` does not name
    (tldr, abstract_final, ratings, categories, number, ...) go into `extra`.

    - `identifiers`: `{"arxiv": "2501.01234" (no version), "doi": "10.1145/x" (lower case),
      "openreview": "AbC12xyz"}`, whichever the source names (see `paperatlas.identifiers`).
    - `urls`: the paper's own links (abstract page, PDF, DOI, program page), main one first;
      `code_urls`: code repositories, project pages, demos and data (GitHub, GitLab,
      Hugging Face, `*.github.io`, ...), kept apart.
    - `section`: the heading the list put the paper under ("Highlight", "Multimodal
      Instruction Tuning"), never its title.
    - `date`: ISO `YYYY-MM-DD` (or `YYYY-MM`) of first publication where the source says.
    - `skip`: set on a record the reader read but that is not a paper to store (a blog post,
      a keynote, a record with a bad field): the reason, e.g. `"not a paper (@misc software)"`.
      Readers yield such records so the import report can count them by reason; they carry
      `source` ("path:line") and whatever title was found, and are never stored.
    """

    abstract: str = ""
    title: str | None = None
    id: str | None = None
    authors: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    venue: str | None = None
    year: int | None = None
    area: str | None = None
    decision: str | None = None
    rating: float | None = None
    urls: list[str] = field(default_factory=list)
    source: str | None = None  # "path:line" where the paper was read
    extra: dict[str, Any] = field(default_factory=dict)
    identifiers: dict[str, str] = field(default_factory=dict)
    code_urls: list[str] = field(default_factory=list)
    section: str | None = None
    date: str | None = None
    skip: str | None = None

    @property
    def title_only(self) -> bool:
        """A paper known by its title (and links, authors, ...) but without an abstract."""
        return not self.abstract.strip() and bool(self.title and self.title.strip())

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def skipped(source: str, reason: str, title: str | None = None) -> Paper:
    """A record a reader read but that is not a paper to store (see `Paper.skip`)."""
    return Paper(title=title, source=source, skip=reason)


_WORD = re.compile(r"\w+")
# ASCII punctuation (neither \w nor \s) -> space, for the ASCII fast path
_ASCII_NON_WORD = bytes(c if re.match(r"[\w\s]", chr(c)) else 32 for c in range(256))


def normalise_text(text: str) -> str:
    """Canonical form used for exact-duplicate detection and hash ids.

    NFKC, lower case, punctuation dropped, whitespace collapsed: two copies of the same
    abstract that differ only in quotes, dashes, spacing or line breaks normalise alike.
    """
    text = unicodedata.normalize("NFKC", text).lower()
    if text.isascii():  # fast path, same result: bytes.translate + split
        return " ".join(text.encode("ascii").translate(_ASCII_NON_WORD).decode("ascii").split())
    # same as replacing [^\w\s] by spaces and collapsing whitespace, in one regex pass
    return " ".join(_WORD.findall(text))


def text_hash(text: str) -> str:
    return hashlib.sha1(normalise_text(text).encode("utf-8")).hexdigest()


def embedding_text(title: str | None, abstract: str | None) -> str:
    """The text a paper is embedded and classified by: title and abstract (either may be
    missing), joined by a blank line."""
    parts = [p.strip() for p in (title, abstract) if p and p.strip()]
    return "\n\n".join(parts)


def paper_id(paper: Paper) -> str:
    """Stable id: the source id where there is one, else `h` + a hash of the normalised
    abstract; a title-only paper: `h` + a hash of its arXiv id, DOI or OpenReview id, else
    of its normalised title (so the same title-only entry read twice gets one id)."""
    if paper.id:
        return paper.id
    if normalise_text(paper.abstract):
        return "h" + text_hash(paper.abstract)[:15]
    for name in ("arxiv", "doi", "openreview"):
        if value := paper.identifiers.get(name):
            return "h" + hashlib.sha1(f"{name}:{value}".encode()).hexdigest()[:15]
    return "h" + hashlib.sha1(("title:" + normalise_text(paper.title or "")).encode("utf-8")).hexdigest()[:15]


# An untitled paper with no written title (not enriched) is shown by its abstract's first words.
TITLE_WORDS = 14


def shown_title(paper: Mapping[str, Any], facts: Mapping[str, Any] | None = None) -> str:
    """The title to show for a paper (a store row): its own; else the one enrich wrote from
    its abstract (`display_title`, in `facts` or joined into the row); else the abstract's
    first TITLE_WORDS words; else ""."""
    title = paper.get("title") or (facts or {}).get("display_title") or paper.get("display_title")
    if title:
        return str(title)
    words = (paper.get("abstract") or "").split()
    return " ".join(words[:TITLE_WORDS]) + ("…" if len(words) > TITLE_WORDS else "")


def finite(value: Any) -> Any:
    """`value` with every float JSON cannot write (inf, -inf, nan: a list's `"rating": 1e999`)
    made None, inside lists and dicts too."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def json_text(value: Any, **options: Any) -> str:
    """`json.dumps(value, **options)` that is always JSON: a number JSON has no word for
    (json.dumps would write Infinity or NaN) is written as null."""
    try:
        return json.dumps(value, allow_nan=False, **options)
    except ValueError:  # rare: walk the value only when it holds such a number
        return json.dumps(finite(value), allow_nan=False, **options)
