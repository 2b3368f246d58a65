"""Misspelt query words corrected to the words of the atlas's titles.

A query word is corrected when the atlas's index does not know it, or knows it from so
few papers, none by its title, that a word one letter dropped, added or swapped away is
far more common (a typo that slipped into some abstract: "grpah"). The correction is the title word nearest by optimal string alignment
(Damerau-Levenshtein: a dropped, doubled, swapped or mistyped letter costs one edit, as
`benchmarks/typo_queries.py` models them), then the one most titles use; rapidfuzz
computes the distances. A rare word the atlas does know is kept beside its correction, so
it still matches itself; words under four letters (acronyms), words with digits and very
long words are left alone.
"""

from __future__ import annotations

import re

from rapidfuzz import process
from rapidfuzz.distance import OSA

from paperatlas.search.keyword import known_doc_freq
from paperatlas.search.query import query_terms
from paperatlas.search.titles import titles

MIN_LENGTH = 4  # shorter words have too many neighbours one edit away to guess from
MAX_LENGTH = 30  # longer "words" are pasted identifiers, not typing
KNOWN_PAPERS = 3  # a word in this many papers is a word of the field, never corrected
MORE_COMMON = 20  # a rare known word is corrected only to a word this many times as common
LETTERS = re.compile(r"[a-z]+")


def max_edits(word: str) -> int:
    """Edits allowed: one in a short word, two from eight letters on."""
    return 1 if len(word) < 8 else 2


def corrections(store, query: str) -> dict[str, tuple[str, bool]]:
    """query word -> (its correction, whether the atlas knows the word itself)."""
    words = [w for w in query_terms(query) if MIN_LENGTH <= len(w) <= MAX_LENGTH and LETTERS.fullmatch(w)]
    if not words:
        return {}
    freq = known_doc_freq(store, words)
    rare = [w for w in words if freq.get(w, 0) < KNOWN_PAPERS]
    if not rare:  # most queries: the titles' words (one pass over every title) are not needed
        return {}
    table = titles(store)
    out: dict[str, tuple[str, bool]] = {}
    for word in rare:
        known = freq.get(word, 0)
        if known and table.words[word]:  # titles name methods: UniSS
            continue
        edits = max_edits(word)
        pool = [
            w for n in range(len(word) - edits, len(word) + edits + 1) for w in table.by_length.get(n, [])
        ]
        found = process.extract(word, pool, scorer=OSA.distance, score_cutoff=edits, limit=None)
        near = [(w, int(d)) for w, d, _ in found if w != word]
        if not near:
            continue
        best, dist = min(near, key=lambda c: (c[1], -table.words[c[0]]))
        if known and not _slip_of(word, best, dist, known, store):
            continue
        out[word] = (best, known > 0)
    return out


def _slip_of(word: str, best: str, dist: int, known: int, store) -> bool:
    """Whether a word some papers hold is a slip of `best`: one letter dropped, added or
    swapped with its neighbour (a letter in place of another joins real words too often:
    came/game, a method's name CELF/self), and `best` far more common."""
    if dist > 1 or (len(best) == len(word) and sorted(best) != sorted(word)):
        return False
    return known_doc_freq(store, [best]).get(best, 0) >= MORE_COMMON * known


def corrected_query(query: str, fixed: dict[str, tuple[str, bool]]) -> str:
    """`query` with each corrected word replaced (whole words, any case)."""
    if not fixed:
        return query
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, fixed)) + r")\b", re.IGNORECASE)
    return pattern.sub(lambda m: fixed.get(m.group(0).lower(), (m.group(0), False))[0], query)
