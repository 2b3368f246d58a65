"""What a search returns: the hits of one page, each saying why it matched."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

# the parts of a hit's "why" line, by what each says
WHY_WORDS = {"terms": "terms", "meaning": "meaning", "in_note": "in your note", "tagged": "tagged"}


@dataclass
class Hit:
    id: str
    title: str | None
    display_title: str | None
    score: float
    rank: int
    matched_terms: list[str] = field(default_factory=list)
    keyword_rank: int | None = None
    semantic_score: float | None = None
    semantic_rank: int | None = None
    # plain-text pieces of the abstract; `match` marks a matched term (render escaped)
    snippet: list[dict[str, Any]] = field(default_factory=list)
    area: str | None = None
    decision: str | None = None
    kind: str | None = None
    # the paper has no abstract: the list gave its title alone
    title_only: bool = False
    # the query's words in the person's own note: a plain-text excerpt of it (render
    # escaped); None when the note did not match
    in_note: str | None = None
    # the person's tags on the paper that hold a query word
    tagged: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.title or self.display_title or self.id

    def why(self, words: Mapping[str, str] = WHY_WORDS) -> str:
        """Why the hit matched, its parts named by `words` (another language's: web/i18n.py)."""
        parts = []
        if self.matched_terms:
            parts.append(f"{words['terms']}: " + ", ".join(self.matched_terms))
        if self.semantic_score is not None:
            parts.append(f"{words['meaning']}: {self.semantic_score:.2f}")
        if self.in_note is not None:
            parts.append(words["in_note"])
        if self.tagged:
            parts.append(f"{words['tagged']} " + ", ".join(self.tagged))
        return "; ".join(parts) or "—"

    def snippet_text(self, open_mark: str = "[", close_mark: str = "]") -> str:
        return "".join(
            f"{open_mark}{s['text']}{close_mark}" if s["match"] else s["text"] for s in self.snippet
        )

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["why"] = self.why()
        return d


@dataclass
class SearchResult:
    query: str
    hits: list[Hit]
    total: int  # papers ranked (keyword matches plus nearest by meaning, to the depth)
    offset: int
    k: int
    language: str  # detected: "en", "zh", "fr", ...
    mode: str  # hybrid | keyword | semantic | cross-lingual | similar
    model: str | None  # the vector model used, if any
    notes: list[str] = field(default_factory=list)  # things the user should know
    # a query in another language: the English terms it was searched as (None for English)
    read_as: str | None = None
    # the signals that ranked some paper: "keywords", "names", vector models by name,
    # "notes" (the person's own notes and tags, search/kept_match.py)
    signals: list[str] = field(default_factory=list)
    # an English query with misspelt words: what it was searched as ("showing results
    # for …"); search again with spelling off for the words as typed
    corrected: str | None = None
    # the query names a paper (its arXiv id, DOI, OpenReview id, atlas id or exact title):
    # how ("arXiv id", "DOI", "OpenReview id", "id", "title"), and those papers, ranked first
    identified_by: str | None = None
    identified: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["hits"] = [h.to_dict() for h in self.hits]
        return d
