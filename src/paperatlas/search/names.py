"""Papers by their own name: a query that is or holds the name a paper introduces
(CIMemories, BRAIN, "Relational Execution Tracker") finds that paper."""

from __future__ import annotations

import unicodedata
from collections.abc import Set as AbstractSet

from paperatlas.cache import StoreCache

_NAME_TABLES = StoreCache(max_entries=4)
MAX_NAME_WORDS = 4  # longest name looked for inside a query ("Relational Execution Tracker")


def _name_tables(store) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(lower-cased name -> ids, name as written -> ids) of the names papers introduce
    (enrich facts), read once per store change."""
    return _NAME_TABLES.get(store, "names", lambda: _read_names(store))


def _read_names(store) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    lower: dict[str, list[str]] = {}
    exact: dict[str, list[str]] = {}
    for pid, name in store.paper_names():
        name = " ".join(unicodedata.normalize("NFKC", name).split())
        lower.setdefault(name.lower(), []).append(pid)
        exact.setdefault(name, []).append(pid)
    return lower, exact


def name_ranking(store, query: str, allowed: AbstractSet[str] | None = None) -> list[tuple[str, float]]:
    """Papers whose own name (CIMemories, BRAIN, "Relational Execution Tracker") the query
    is or contains: score 1 when the whole query is the name (any case), 0.5 when a name
    written with a capital or digit appears in the query as written ("CIMemories
    privacy"). A name is the one word that picks its paper out of thousands, even a name
    that is also an everyday word to BM25 (BRAIN, MENTOR)."""
    text = " ".join(unicodedata.normalize("NFKC", query).split())
    if not text or len(text) > 200:
        return []
    lower, exact = _name_tables(store)
    found: dict[str, float] = dict.fromkeys(lower.get(text.lower(), []), 1.0)
    words = [w.strip(".,;:!?()[]{}\"'“”") for w in text.split(" ")]
    for size in range(1, MAX_NAME_WORDS + 1):
        for start in range(len(words) - size + 1):
            piece = " ".join(words[start : start + size])
            if piece == text or not any(c.isupper() or c.isdigit() for c in piece):
                continue
            for pid in exact.get(piece, []):
                found.setdefault(pid, 0.5)
    ranked = [(pid, sc) for pid, sc in found.items() if allowed is None or pid in allowed]
    return sorted(ranked, key=lambda kv: (-kv[1], kv[0]))
