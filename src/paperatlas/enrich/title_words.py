"""How likely each word of an abstract is to be in the paper's title, and what that says of a span.

A word's corpus title rate ("we" 0.003, "learning" 0.34) says little about one paper: the
same "graph" is the topic of one abstract and a passing remark in another. So a logistic model
(fit by `scripts/build_titles.py` on the training papers, rates left-one-out) reads the rate
with what this abstract does with the word: how often and how early it uses it, whether it is
in the contribution sentence ("we propose ...") or the name's sentence, capitalised, part of
the name. A candidate title is then scored by the chances of its words, as an expected
precision and recall against the unseen title (`span_features`).
"""

from __future__ import annotations

import math
import re

import numpy as np

_WORD = re.compile(r"\w+")
_STOP = frozenset(
    "a an the of to for in on with and or by our its their this these that is are be we "
    "from as at into via it than such both each".split()
)

WORD_FEATURES = (
    "bias",
    "rate",
    "rate_logit",
    "log_count",
    "sentence_share",
    "first_sentence_index",
    "in_first",
    "in_intro",
    "in_name_sentence",
    "capitalised",
    "in_name",
    "stop",
    "length",
    "rate_x_log_count",
    "in_last",
)
SPAN_FEATURES = (
    "word_precision",
    "word_recall",
    "word_f1",
    "word_f1_len",
    "word_min",
    "words_10",
    "words_10_sq",
)
UNKNOWN_CHANCE = 0.05  # a token the abstract does not have (rare: spans are the abstract's words)
TITLE_LENGTH = 9.2  # words in a real title, on average


def word_features(
    sents: list[str], intro: list[bool], name: str | None, rates: dict[str, float], default: float
) -> tuple[list[str], list[list[float]]]:
    """The abstract's distinct lower-cased words and WORD_FEATURES for each; `intro[i]`: whether
    sentence i states the contribution."""
    name_words = set(_WORD.findall(name.lower())) if name else set()
    count: dict[str, int] = {}
    in_sents: dict[str, int] = {}
    first: dict[str, int] = {}
    capital: dict[str, int] = {}
    in_intro: set[str] = set()
    in_name_sentence: set[str] = set()
    last: set[str] = set()
    for i, s in enumerate(sents):
        tokens = _WORD.findall(s)
        lows = [t.lower() for t in tokens]
        for t, w in zip(tokens, lows):
            count[w] = count.get(w, 0) + 1
            capital[w] = capital.get(w, 0) + t[:1].isupper()
            first.setdefault(w, i)
        distinct = set(lows)
        for w in distinct:
            in_sents[w] = in_sents.get(w, 0) + 1
        if intro[i]:
            in_intro |= distinct
        if name and name in s:
            in_name_sentence |= distinct
        if i == len(sents) - 1:
            last = distinct
    n = max(1, len(sents))
    words = list(count)
    rows = []
    for w in words:
        rate = min(max(rates.get(w, default), 1e-4), 1 - 1e-4)
        log_count = math.log1p(count[w])
        rows.append(
            [
                1.0,
                rate,
                math.log(rate / (1 - rate)),
                log_count,
                in_sents[w] / n,
                min(first[w], 6) / 6,
                float(first[w] == 0),
                float(w in in_intro),
                float(w in in_name_sentence),
                capital[w] / count[w],
                float(w in name_words),
                float(w in _STOP),
                min(len(w), 12) / 12,
                rate * log_count,
                float(w in last),
            ]
        )
    return words, rows


def word_chances(
    sents: list[str],
    intro: list[bool],
    name: str | None,
    rates: dict[str, float],
    weights: tuple[float, ...],
    default: float,
) -> dict[str, float]:
    """Each word of the abstract -> the model's chance that the title has it."""
    words, rows = word_features(sents, intro, name, rates, default)
    if not words:
        return {}
    z = np.clip(np.array(rows) @ np.array(weights), -30.0, 30.0)
    return dict(zip(words, (1.0 / (1.0 + np.exp(-z))).tolist()))


def span_features(text: str, chances: dict[str, float], total: float) -> list[float]:
    """SPAN_FEATURES of a candidate title: the mean chance of its words (an expected
    precision), the chance mass of its distinct words over the abstract's (a recall), their
    F1, the F1 against an average-length title, the weakest word, and the length."""
    tokens = _WORD.findall(text.lower())
    if not tokens or not chances:
        return [0.0] * len(SPAN_FEATURES)
    p = [chances.get(t, UNKNOWN_CHANCE) for t in tokens]
    n = len(tokens)
    precision = sum(p) / n
    recall = sum(chances.get(t, UNKNOWN_CHANCE) for t in set(tokens)) / (0.5 * total + 3)
    return [
        precision,
        recall,
        2 * precision * recall / (precision + recall + 1e-9),
        2 * sum(p) / (n + TITLE_LENGTH),
        min(p),
        n / 10,
        (n / 10) ** 2,
    ]
