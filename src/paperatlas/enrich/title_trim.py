"""Word deletion inside a chosen display title: drop the words a real title would not keep.

Real titles rarely keep an abstract's articles, its "novel"/"simple"/"effective" and its
"-ly" adverbs ("a novel framework that simultaneously generates" -> "framework that
generates"). Only such words may go, and only where the rest still reads as a phrase: a leading article,
a filler adjective after it or at the start, an adverb between lower-case words; never the
last word, a word carrying punctuation, or one beside "and"/"yet"/"or" ("simple yet
effective" stays whole); an article goes with the word after it (no "a approach"). Among
them, a logistic model fit on the training papers' chosen titles (`scripts/build_titles.py`)
predicts whether the real title kept the word; it is dropped when that chance is below a
threshold picked on a validation fifth.
"""

from __future__ import annotations

import math
import re

ARTICLES = frozenset(("a", "an", "the"))
FILLER = frozenset(
    "novel new simple effective first comprehensive general principled lightweight powerful".split()
)
_JOINERS = frozenset(("and", "yet", "or", "but", "&"))
_ADJ_SUFFIX = ("ive", "al", "ous", "ful", "ent", "ant", "ic", "able", "ible")
_WORD = re.compile(r"\w+")
MIN_KEPT = 3  # words a trimmed title keeps at least

TRIM_FEATURES = (
    "bias",
    "rate",
    "rate_sq",
    "article",
    "first",
    "position",
    "filler",
    "adverb_ly",
    "adj_suffix",
    "after_article",
    "rate_next",
    "rate_prev",
    "capital",
    "abstract_count",
    "short",
)


def _low(token: str) -> str:
    return token.lower().strip(".,;:\"'“”()")


def deletable(tokens: list[str], i: int) -> bool:
    """Whether tokens[i] may go without breaking the phrase (see the module docstring)."""
    if i >= len(tokens) - 1 or tokens[i] != tokens[i].strip(",;:.\"'()"):
        return False
    word = _low(tokens[i])
    nxt = _low(tokens[i + 1])
    prev = _low(tokens[i - 1]) if i else ""
    if nxt in _JOINERS or prev in _JOINERS:
        return False
    if word in ARTICLES:  # only the leading one: "The scalability of X"; inside a clause
        return i == 0  # ("pose a threat") the article is grammar, not filler
    if word in FILLER:  # "a novel framework", not "novel view synthesis"
        return i == 0 or prev in ARTICLES
    # "depends critically on", "requires accurately identifying"; not "methods, especially
    # LoRA", nor an adverb opening a noun phrase ("Spatially informed autoencoders")
    return (
        word.endswith("ly")
        and word.isalpha()
        and len(word) > 4
        and tokens[i + 1][:1].islower()
        and i > 0
        and prev not in ARTICLES
        and not tokens[i - 1].endswith(",")
    )


def features(
    tokens: list[str], i: int, rates: dict[str, float], counts: dict[str, int], default: float
) -> list[float]:
    word = _low(tokens[i])
    n = len(tokens)
    prev = _low(tokens[i - 1]) if i else ""
    nxt = _low(tokens[i + 1]) if i + 1 < n else ""
    rate = rates.get(word, default)
    return [
        1.0,
        rate,
        rate * rate,
        float(word in ARTICLES),
        float(i == 0),
        i / n,
        float(word in FILLER),
        float(word.endswith("ly")),
        float(word.endswith(_ADJ_SUFFIX)),
        float(prev in ARTICLES),
        rates.get(nxt, default),
        rates.get(prev, default) if prev else 0.0,
        float(tokens[i][:1].isupper()),
        min(counts.get(word, 0), 5) / 5,
        float(len(word) <= 3),
    ]


def abstract_counts(sents: list[str]) -> dict[str, int]:
    """In how many of the abstract's sentences each word occurs."""
    counts: dict[str, int] = {}
    for s in sents:
        for w in set(_WORD.findall(s.lower())):
            counts[w] = counts.get(w, 0) + 1
    return counts


def trim(
    body: str,
    rates: dict[str, float],
    counts: dict[str, int],
    weights: tuple[float, ...],
    threshold: float,
    default: float,
) -> str:
    """`body` (a title without its "Name: " prefix) with the droppable words dropped."""
    tokens = body.split()
    drop = [False] * len(tokens)
    for i in range(len(tokens)):
        if deletable(tokens, i):
            z = sum(w * f for w, f in zip(weights, features(tokens, i, rates, counts, default)))
            drop[i] = 1.0 / (1.0 + math.exp(-z)) < threshold
    for i in range(len(tokens) - 1):  # an article goes with the word after it
        if drop[i + 1] and _low(tokens[i]) in ARTICLES:
            drop[i] = True
    kept = [t for t, d in zip(tokens, drop) if not d]
    if len(kept) < MIN_KEPT or kept == tokens:
        return body
    if drop[0]:  # the new first word is capitalised like the old one
        kept[0] = kept[0][:1].upper() + kept[0][1:]
    return " ".join(kept)
