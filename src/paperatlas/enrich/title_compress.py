"""Third stage of display titles: the abstract's key words in order, the filler between them left out.

Real titles keep an abstract's key words in their order but drop what lies between them ("a
novel framework that uses neural uncertainty maps to select views for 3D reconstruction" ->
"View Selection with Neural Uncertainty Maps for 3D Reconstruction"). A contiguous span
cannot do that, so from the sentences of the ranker's best spans this stage composes titles
of whole pieces, in the sentence's order: a noun phrase (a run of content words, possibly
without its first modifiers, ending on a word that real titles end phrases with), then up to
two prepositional phrases after it, each a preposition with the run of content words right
after it ("for 3D reconstruction"; an article after the preposition goes). So a title is
never cut mid-clause: no piece ends on a function word, on a word that needs a complement
("based", "designed": `titles` learns these), or on a word that in real titles rarely ends a
phrase ("efficient", "leverages": learned from the training titles, `end_rates`). A named
paper keeps its "Name: " head; the name's own words are not reused in the body.

A linear model (`scripts/build_titles.py`) scores these titles beside the title the earlier
stages chose (by the chances of their words, `title_words`, their length, gaps and
prepositions); the earlier title stays unless a composed one scores higher.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import pairwise

ARTICLES = frozenset("a an the".split())
PREPOSITIONS = frozenset(
    "of for in on with via to from by under across through without into over between among "
    "towards toward using beyond within against".split()
)
FUNCTION = (
    ARTICLES
    | PREPOSITIONS
    | frozenset(
        "and or that which who whose where when while is are was were be been being we our us it "
        "its they their them this these those such both each not can could may might will would "
        "should has have had do does also as than then thus however here there what how whether "
        "but if so very more most less often only although though whereas because since unless "
        "despite given".split()
    )
)
MAX_NP, MAX_OBJECT = 6, 5  # words in the head noun phrase, in a preposition's object
MAX_PHRASES = 2  # prepositional phrases after the head
SOURCES = 3  # the sentences of the ranker's best this many spans are compressed
END_RATE = 0.3  # a word ends a piece when real titles end a phrase with it this often (or rarely have it)
END_MIN_TITLES = 3  # ... a word in fewer training titles may end one
UNKNOWN_CHANCE = 0.05
_WORD = re.compile(r"\w+")
_STRIP = ",;:.\"'“”"

COMPRESS_FEATURES = (
    "bias",
    "f1_len8",
    "f1_len12",
    "precision",
    "recall",
    "words_10",
    "words_10_sq",
    "min_chance",
    "current",
    "gaps",
    "phrases",
    "starts_sentence",
    "start_position",
    "sentence0",
    "sentence1",
    "named",
    "ranker_score",
    "has_for",
    "has_of",
)


def _low(token: str) -> str:
    return token.lower().strip(".,;:?!\"'“”()")


def end_rates(titles: Iterable[str]) -> dict[str, float]:
    """For each word in >= END_MIN_TITLES real titles, how often it ends a phrase there (before
    a function word, a colon or comma, or the title's end), smoothed."""
    seen: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for title in titles:
        toks = title.replace(":", " : ").split()
        lows = [_low(t) for t in toks]
        for i, w in enumerate(lows):
            if not w:
                continue
            seen[w] += 1
            nxt = lows[i + 1] if i + 1 < len(lows) else None
            if nxt is None or nxt in FUNCTION or toks[i + 1] == ":" or toks[i].endswith((",", ":")):
                ends[w] += 1
    return {w: (ends[w] + 0.5) / (n + 1.0) for w, n in seen.items() if n >= END_MIN_TITLES}


def no_end_words(rates: dict[str, float]) -> frozenset[str]:
    """Words that may not end a piece: known from enough titles and rarely ending a phrase."""
    return frozenset(w for w, r in rates.items() if r < END_RATE)


def pieces(
    tokens: Sequence[str], name: str | None, no_end: frozenset[str]
) -> tuple[list[tuple[int, int]], list[tuple[int, int, int]]]:
    """Noun phrases (i, j) and prepositional phrases (preposition, object start, object end) of
    one sentence's whitespace tokens, as token offsets, inclusive."""
    n = len(tokens)
    low = [_low(t) for t in tokens]
    content = [bool(w) and w not in FUNCTION and not (name and name in tokens[i]) for i, w in enumerate(low)]
    stop_after = [t.endswith((",", ";", ":", ".")) for t in tokens]
    can_end = [content[i] and low[i] not in no_end for i in range(n)]
    nps = []
    for i in range(n):
        if not content[i]:
            continue
        for j in range(i, min(n, i + MAX_NP)):
            if not content[j]:
                break
            if can_end[j]:
                nps.append((i, j))
            if stop_after[j]:
                break
    pps = []
    for k in range(n):
        if low[k] not in PREPOSITIONS or stop_after[k]:
            continue
        s = k + 1
        if s < n and low[s] in ARTICLES and not stop_after[s]:
            s += 1
        if s >= n or not content[s]:
            continue
        for j in range(s, min(n, s + MAX_OBJECT)):
            if not content[j]:
                break
            if can_end[j]:
                pps.append((k, s, j))
            if stop_after[j]:
                break
    return nps, pps


def compositions(tokens: Sequence[str], name: str | None, no_end: frozenset[str]) -> list[list[int]]:
    """Token offsets of each title one sentence can give: a noun phrase and up to MAX_PHRASES
    prepositional phrases after it, in order."""
    nps, pps = pieces(tokens, name, no_end)
    out = []
    for i, j in nps:
        head = list(range(i, j + 1))
        out.append(head)
        later = [p for p in pps if p[0] > j]
        for p in later:
            one = [*head, p[0], *range(p[1], p[2] + 1)]
            out.append(one)
            if MAX_PHRASES >= 2:
                for q in later:
                    if q[0] > p[2]:
                        out.append([*one, q[0], *range(q[1], q[2] + 1)])
    return out


def render(tokens: Sequence[str], offsets: Sequence[int], name: str | None) -> str:
    body = " ".join(tokens[i].strip(_STRIP) for i in offsets)
    body = body[:1].upper() + body[1:]
    return f"{name}: {body}" if name else body


def features(
    text: str,
    chances: dict[str, float],
    total: float,
    offsets: Sequence[int] | None,
    tokens: Sequence[str] | None,
    sentence: int,
    named: bool,
    ranker_score: float,
) -> list[float]:
    """COMPRESS_FEATURES of a title: a composed one (its `offsets` in `tokens` of sentence
    number `sentence`), or the earlier stages' title (`offsets` None)."""
    words = _WORD.findall(text.lower())
    n = max(1, len(words))
    p = [chances.get(w, UNKNOWN_CHANCE) for w in words] or [0.0]
    mass = sum(chances.get(w, UNKNOWN_CHANCE) for w in set(words))
    if offsets is None or tokens is None:
        gaps = phrases = 0
        first = -1
        has: set[str] = set()
    else:
        gaps = sum(1 for a, b in pairwise(offsets) if b != a + 1)
        lows = [_low(tokens[i]) for i in offsets]
        phrases = sum(1 for w in lows if w in PREPOSITIONS)
        first = offsets[0]
        has = set(lows)
    return [
        1.0,
        2 * mass / (n + 8),
        2 * mass / (n + 12),
        mass / n,
        mass / (0.5 * total + 3),
        n / 10,
        (n / 10) ** 2,
        min(p),
        float(offsets is None),
        float(gaps),
        float(phrases),
        float(first == 0),
        max(first, 0) / 20,
        float(sentence == 0),
        float(sentence == 1),
        float(named),
        ranker_score,
        float("for" in has),
        float("of" in has),
    ]


def options(
    current: str,
    sources: list[tuple[int, list[str], float]],
    name: str | None,
    chances: dict[str, float],
    no_end: frozenset[str],
    max_chars: int,
) -> list[tuple[str, list[float]]]:
    """The earlier stages' title first, then every composed title of the source sentences
    (`sources`: sentence number, its tokens, the ranker score of the span taken from it), each
    with its COMPRESS_FEATURES."""
    total = sum(chances.values())
    top = sources[0][2] if sources else 0.0
    out = [(current, features(current, chances, total, None, None, -1, bool(name), top))]
    seen = {current}
    for index, tokens, score in sources:
        for offsets in compositions(tokens, name, no_end):
            text = render(tokens, offsets, name)
            if text in seen or len(text) > max_chars or len(text.split(": ", 1)[-1].split()) < 2:
                continue
            seen.add(text)
            out.append((text, features(text, chances, total, offsets, tokens, index, bool(name), score)))
    return out


def choose(options_: list[tuple[str, list[float]]], weights: Sequence[float]) -> str:
    """The best-scoring option (the first, the earlier stages' title, on a tie)."""
    best, best_score = options_[0][0], float("-inf")
    for text, feats in options_:
        score = sum(w * f for w, f in zip(weights, feats))
        if score > best_score:
            best, best_score = text, score
    return best
