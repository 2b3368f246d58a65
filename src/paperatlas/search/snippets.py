"""Which words of a paper a query matched, and the stretch of its abstract to show.

Matched words are wrapped in private-use markers while the text is cut, then returned as
plain-text segments flagged `match`: front ends style those segments themselves and escape
the text, so nothing from an abstract is ever HTML.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

MARK_OPEN, MARK_CLOSE = "\ue000", "\ue001"  # private-use code points: never in real text
SNIPPET_CHARS = 320

_MARKED = re.compile(re.escape(MARK_OPEN) + "(.*?)" + re.escape(MARK_CLOSE), re.S)


_SUFFIXES = (
    "ational",
    "ations",
    "ation",
    "ments",
    "ment",
    "ness",
    "ings",
    "ing",
    "ies",
    "ied",
    "ers",
    "ed",
    "er",
    "es",
    "ly",
    "s",
    "e",
)


@functools.lru_cache(maxsize=65536)  # abstracts repeat their words: stem each once
def stem(word: str) -> str:
    """A light suffix-stripping stem, close enough to FTS5's Porter stemmer to show which
    words of a paper a query term matched (training/trained/train, models/model)."""
    w = word.lower()
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":  # forgetting -> forget
        w = w[:-1]
    return w


def mark_terms(text: str, stems: dict[str, str]) -> str:
    """`text` with every word whose stem is among `stems` wrapped in the private markers."""
    text = text.replace(MARK_OPEN, "").replace(MARK_CLOSE, "")
    if not stems:
        return text
    return _stem_prefixes(tuple(stems)).sub(
        lambda m: f"{MARK_OPEN}{m.group(0)}{MARK_CLOSE}" if _word_stem(m.group(0)) in stems else m.group(0),
        text,
    )


@functools.lru_cache(maxsize=256)
def _stem_prefixes(stems: tuple[str, ...]) -> re.Pattern:
    """Words starting with one of `stems` (a stem is a prefix of its word: only those
    words need stemming); compiled once per query, not once per hit."""
    return re.compile(r"(?i)(?<![^\W_])(?:" + "|".join(map(re.escape, stems)) + r")[^\W_]*")


def _word_stem(word: str) -> str:
    return stem(unicodedata.normalize("NFKC", word))


def matched_terms(marked: str, stems: dict[str, str]) -> list[str]:
    """The query terms found (in query order)."""
    found = {_word_stem(m) for m in _MARKED.findall(marked)}
    return [term for st, term in stems.items() if st in found]


def _best_window(found: list[tuple[int, int, str]], width: int) -> int:
    """The start of the first marked term whose window of `width` characters holds the
    most distinct whole marked terms: one pass with two pointers (the terms are in
    order and never overlap, so those a window holds are a run of them)."""
    best, best_n = found[0][0], 0
    counts: dict[str, int] = {}
    end = 0  # found[i:end] fit in the window of found[i]
    for i, (start, _, _) in enumerate(found):
        if end < i:
            end = i
        while end < len(found) and found[end][1] <= start + width:
            counts[found[end][2]] = counts.get(found[end][2], 0) + 1
            end += 1
        if len(counts) > best_n:
            best, best_n = start, len(counts)
        if end > i:  # found[i] leaves the window
            term = found[i][2]
            counts[term] -= 1
            if not counts[term]:
                del counts[term]
    return best


def snippet(marked: str, width: int = SNIPPET_CHARS) -> list[dict[str, Any]]:
    """The stretch of the abstract with the most distinct matched terms (its start when
    nothing matched), cut at word boundaries, as [{text, match}] segments."""
    text = " ".join(marked.split())
    found = [(m.start(), m.end(), m.group(1).lower()) for m in _MARKED.finditer(text)]
    begin = 0
    if found:
        best = _best_window(found, width)
        # start a little before the first match, at a word boundary
        begin = max(0, best - width // 4)
        if begin > 0:
            space = text.find(" ", begin)
            begin = space + 1 if 0 <= space < best else begin
    end = min(len(text), begin + width)
    if end < len(text):
        space = text.rfind(" ", begin, end)
        end = space if space > begin else end
    # never cut inside a marked term
    opened = text.rfind(MARK_OPEN, begin, end)
    if opened > text.rfind(MARK_CLOSE, begin, end):
        close = text.find(MARK_CLOSE, end)
        end = close + 1 if close >= 0 else end
    piece = text[begin:end]
    segments: list[dict[str, Any]] = []
    if begin > 0:
        segments.append({"text": "…", "match": False})
    pos = 0
    for m in _MARKED.finditer(piece):
        if m.start() > pos:
            segments.append({"text": piece[pos : m.start()], "match": False})
        segments.append({"text": m.group(1), "match": True})
        pos = m.end()
    if pos < len(piece):
        segments.append({"text": piece[pos:], "match": False})
    if end < len(text):
        segments.append({"text": "…", "match": False})
    # stray marker characters (a cut we did not foresee) must not reach the user
    for seg in segments:
        seg["text"] = seg["text"].replace(MARK_OPEN, "").replace(MARK_CLOSE, "")
    return segments
