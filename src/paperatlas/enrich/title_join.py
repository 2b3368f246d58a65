"""Second stage of display titles: a short chosen span joined with what the abstract says it is for.

Real titles often put a method and its task side by side ("Directional Textual Inversion for
Personalized Text-to-Image Generation") where the abstract has them in two places. So the best
short spans of the ranker ("DTI: Directional Textual Inversion") may each take a phrase that
the abstract opens with "for", "in", "on", ... ("for text-to-image personalization"), cut where a
clause or phrase ends, like any candidate. A linear model (`scripts/build_titles.py`) scores the
unjoined best span and the joins together; a join is shown only when it scores higher.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from paperatlas.enrich.title_words import SPAN_FEATURES, span_features

PREPOSITIONS = ("for", "in", "on", "of", "via", "with", "under", "across")
_OPENS = re.compile(r"\b(" + "|".join(PREPOSITIONS) + r")\s+", re.I)
_NO_START = frozenset("the a an this these that those our its their it them we such each both".split())
_CLAUSE = frozenset("that which who whose where when while".split())
MAX_HEAD_WORDS = 6  # a head longer than this already says enough
MAX_TAIL_WORDS = 6
HEADS = 3  # the ranker's best this many spans may take a tail
TAILS = 8  # ... and the tails whose words are the likeliest title words

JOIN_FEATURES = (
    "bias",
    "head_score",
    "joined",
    *(f"text_{f}" for f in SPAN_FEATURES),
    "tail_words",
    *(f"prep_{p}" for p in PREPOSITIONS),
    "tail_precision",
    "tail_recall",
    "tail_f1",
)


def tails(
    sentences: list[str], ends: Callable[[str], list[int]], bad_last: frozenset[str]
) -> list[tuple[str, str]]:
    """(preposition, phrase) for each phrase a preposition opens in `sentences`, ending where
    `ends` says a clause or phrase may end, 1-MAX_TAIL_WORDS words, not on a word in `bad_last`."""
    out: dict[tuple[str, str], None] = {}
    for s in sentences:
        stops = ends(s)
        for m in _OPENS.finditer(s):
            for b in stops:
                if b <= m.end():
                    continue
                phrase = s[m.end() : b].strip(" ,;:")
                words = phrase.split()
                if not 2 <= len(words) <= MAX_TAIL_WORDS:
                    continue
                if words[0].lower() in _NO_START or words[-1].lower().strip(".,;:") in bad_last:
                    continue
                out[(m.group(1).lower(), phrase)] = None
    return list(out)


def noun_phrase(body: str) -> bool:
    """Whether a short span reads as a thing that can be "for" something: it opens with an
    article ("a one-shot pruning framework") or is all capitalised words, a name's expansion
    ("Directional Textual Inversion"); a clause ("Time series exhibit ...") cannot take a tail."""
    words = body.split()
    if not 2 <= len(words) <= MAX_HEAD_WORDS or _CLAUSE & {w.lower() for w in words}:
        return False  # "A strategy that extends models" + "for X": what is for X?
    return words[0].lower() in ("a", "an") or all(w[:1].isupper() or not w[:1].isalpha() for w in words)


def features(
    text: str, head_score: float, tail: tuple[str, str] | None, chances: dict[str, float], total: float
) -> list[float]:
    """JOIN_FEATURES of a shown title: the unjoined head (tail None) or the head joined with `tail`."""
    joined = tail is not None
    prep, phrase = tail if tail else ("", "")
    own = span_features(phrase, chances, total)[:3] if joined else [0.0, 0.0, 0.0]
    return (
        [1.0, head_score, float(joined)]
        + span_features(text, chances, total)
        + [len(phrase.split()) / MAX_TAIL_WORDS if joined else 0.0]
        + [float(prep == p) for p in PREPOSITIONS]
        + own
    )


def options(
    best: tuple[str, float],
    heads: list[tuple[str, float]],
    tail_list: list[tuple[str, str]],
    chances: dict[str, float],
    total: float,
    max_chars: int,
) -> list[tuple[str, list[float]]]:
    """The best span as it is (`best`: the shown candidate and its ranker score) and the
    ranker's top spans (`heads`, best first) each joined with the likeliest tails, at most
    `max_chars` long."""
    out = [(best[0], features(best[0], best[1], None, chances, total))]

    def precision(t: tuple[str, str]) -> float:
        return span_features(t[1], chances, total)[0]

    top_tails = sorted(tail_list, key=precision, reverse=True)[:TAILS]
    for head, score in heads[:HEADS]:
        if not noun_phrase(head.split(": ", 1)[-1]):
            continue
        low = head.lower()
        for tail in top_tails:
            if tail[1].lower() in low:
                continue
            text = f"{head} {tail[0]} {tail[1]}"
            if len(text) > max_chars:
                continue
            out.append((text, features(text, score, tail, chances, total)))
    return out
