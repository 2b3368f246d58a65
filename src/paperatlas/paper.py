"""The `Paper` record: the one type that crosses every stage boundary."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Paper:
    """One paper as read from a source. Only `abstract` is required.

    `id` is the source's own id (OpenReview forum id, arXiv id, BibTeX key) or None;
    the stored id is `paper_id(paper)`. Fields a source has but `Paper` does not name
    (tldr, abstract_final, ratings, categories, number, ...) go into `extra`.
    """

    abstract: str
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


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


def paper_id(paper: Paper) -> str:
    """Stable id: the source id where there is one, else `h` + a hash of the normalised abstract."""
    if paper.id:
        return paper.id
    return "h" + text_hash(paper.abstract)[:15]
