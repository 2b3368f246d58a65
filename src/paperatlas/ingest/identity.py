"""What identifies a record read from a file, for finding its paper among those stored:
its source id, the ids its links carry (arXiv, DOI, OpenReview), its text's hashes and
MinHash signatures, and its title where that is long enough to tell papers apart."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from paperatlas.identifiers import find_identifiers
from paperatlas.ingest import dedup
from paperatlas.paper import Paper, normalise_text, paper_id

HASH_ID = re.compile(r"^h[0-9a-f]{15}$")  # an id made from a paper's text (no source id)
_SAME_TITLE_MIN = 0.5  # word Jaccard below which one id carries two differently titled papers
_ID_KINDS = ("arxiv", "doi", "openreview")
_ID_KIND_SET = frozenset(_ID_KINDS)
ID_AS_PAPER_ID = ("openreview", "arxiv")  # kinds whose value is often the paper's own id
_ID_HINT = re.compile(r"arxiv|doi|openreview", re.IGNORECASE)
_TITLE_MIN_CHARS = 15  # a normalised title shorter than this ("Introduction") is no identifier


@dataclass
class ImportRecord:
    paper: Paper
    versions: list[str]
    identifiers: dict[str, str]  # arXiv / DOI / OpenReview ids (see identifiers_of)
    norms: list[str] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    signatures: list[Any] = field(default_factory=list)
    id_clash: bool = False

    @cached_property
    def title_key(self) -> str | None:
        return title_key(self.paper.title)

    @cached_property
    def paper_id(self) -> str:  # (asked several times per record; a hash of its text)
        return paper_id(self.paper)

    @property
    def clash_id(self) -> str:
        """The id of the second paper under a source id another paper has (`smith2020~1a2b3c4d`)."""
        return f"{self.paper_id}~{self.clash_tag}"

    @property
    def clash_tag(self) -> str:
        """8 hex digits that tell apart two papers sharing a source id."""
        if self.hashes:
            return self.hashes[0][:8]
        text = normalise_text(self.paper.abstract or self.paper.title or "")
        return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def identifiers_of(paper: Paper) -> dict[str, str]:
    """arXiv / DOI / OpenReview ids: the reader's, else found in the paper's id and links."""
    found = paper.identifiers
    if found and found.keys() <= _ID_KIND_SET and ((doi := found.get("doi")) is None or doi == doi.lower()):
        return found  # as readers give them: known kinds, DOI in lower case
    if not found:  # readers fill them; a stand-in or older reader may not
        texts = [u for u in (paper.id, *paper.urls) if u and _ID_HINT.search(u)]
        found = find_identifiers(*texts) if texts else {}
    return {k: str(found[k]).lower() if k == "doi" else str(found[k]) for k in _ID_KINDS if found.get(k)}


def title_key(title: str | None) -> str | None:
    """A hash of the normalised title where that is long enough to tell papers apart."""
    if not title:
        return None
    norm = normalise_text(title)
    if len(norm) < _TITLE_MIN_CHARS:
        return None
    return hashlib.sha1(norm.encode("utf-8")).hexdigest()[:16]


def similar_titles(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return True  # nothing to tell them apart: trust the id
    wa, wb = set(normalise_text(a).split()), set(normalise_text(b).split())
    return dedup.jaccard(wa, wb) >= _SAME_TITLE_MIN
