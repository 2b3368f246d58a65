"""The static model's terms of a text without importing scikit-learn.

The shipped term tables are keyed by the tokens of `paperatlas.text.tfidf_vectorizer` (lower
case, accents stripped, WORD_PATTERN, scikit-learn's English stopwords out, then word pairs of
what is left). Importing scikit-learn for that costs ~1.5 s of a fresh process (it pulls in
scipy.stats), ten times the rest of placing a short list, so the same steps are done here
with `re`; tests/test_static_terms.py checks the tokens equal scikit-learn's on real abstracts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from itertools import filterfalse

from paperatlas.text import WORD_PATTERN, english_stopwords

_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


def _drop_combining(run: re.Match[str]) -> str:
    return "".join(c for c in run.group() if not unicodedata.combining(c))


def strip_accents(text: str) -> str:
    """Accented letters to their base letter (scikit-learn's strip_accents='unicode': NFKD,
    then every combining mark dropped). Combining marks are never ASCII, so only the runs
    of non-ASCII characters are looked at one by one (an abstract with one dash is not
    walked a character at a time)."""
    if text.isascii():
        return text
    return _NON_ASCII_RUN.sub(_drop_combining, unicodedata.normalize("NFKD", text))


def word_finder() -> Callable[[str], list[str]]:
    """text -> its words (lower case, accents stripped, WORD_PATTERN), stopwords still in."""
    findall = re.compile(WORD_PATTERN).findall

    def words_of(text: str) -> list[str]:
        return findall(strip_accents(text.lower()))

    return words_of


# The ASCII characters a WORD_PATTERN word is made of (upper case read as lower case);
# every other byte is a separator.
_WORD_BYTES = b"abcdefghijklmnopqrstuvwxyz0123456789_-"
_TO_RUNS = bytes(c if c in _WORD_BYTES else (c + 32 if 65 <= c <= 90 else 32) for c in range(256))
# where a word may start inside a run of word characters and hyphens: a letter at the
# run's start or after a hyphen (elsewhere the previous character is a word character)
_RUN_WORD_START = re.compile(rb"(?:^|(?<=-))[a-z]")
_ASCII_UPPER = re.compile("[A-Z]")


def _non_word_blank(run: re.Match[str]) -> str:
    # re's \w is str.isalnum() or "_"
    return "".join(c if c.isalnum() or c == "_" else " " for c in run.group())


def _run_word(run: bytes) -> bytes:
    """The WORD_PATTERN word of a run of [a-z0-9_-] that is not all letters ("" if none):
    it starts at the first letter that begins the run or follows a hyphen and, being
    greedy, ends at the run's last word character; at most one per run."""
    run = run.rstrip(b"-")
    start = _RUN_WORD_START.search(run)
    return run[start.start() :] if start else b""


def byte_word_finder() -> Callable[[str], list[bytes]]:
    """`word_finder`'s words as UTF-8 bytes, found ~2x faster: an ASCII text (most
    abstracts, and most others once their non-word symbols such as dashes and quotes are
    blanked) is lower-cased and cut into runs of word characters and hyphens by one
    bytes.translate and split, a run of letters alone being its own word; a run with a
    digit, "_" or "-" is cut as the pattern would (`_run_word`), words of one character
    dropped. A text with a non-ASCII letter after accent stripping, or with an upper-case
    letter made by NFKD after lower-casing, goes through the pattern itself. tests/test_static_terms.py checks both give the same words."""
    findall = re.compile(WORD_PATTERN).findall

    def words_of(text: str) -> list[bytes]:
        if not text.isascii():
            text = _NON_ASCII_RUN.sub(_non_word_blank, strip_accents(text.lower()))
            # a non-ASCII letter, or an upper-case ASCII one that NFKD made after the
            # lower-casing (mathematical bold "𝐀" -> "A"; the pattern keeps it upper case)
            if not text.isascii() or _ASCII_UPPER.search(text):
                return [word.encode("utf-8") for word in findall(text)]
        runs = text.encode("ascii").translate(_TO_RUNS).split()
        words = [run if run.isalpha() else _run_word(run) for run in runs]
        return [word for word in words if len(word) > 1]

    return words_of


def term_analyzer(ngram_max: int = 2, stop_words: frozenset[str] | None = None) -> Callable[[str], list[str]]:
    """text -> its words, then its runs of 2..ngram_max consecutive words (after stopwords
    are dropped, as scikit-learn does), in scikit-learn's order."""
    words_of = word_finder()
    stop = english_stopwords() if stop_words is None else stop_words

    def analyze(text: str) -> list[str]:
        # filterfalse and map(" ".join, zip(...)) loop in C: a per-word Python expression
        # was most of the static model's time (docs/bench/scale.md, "static embed and ANN build at 1M")
        words = list(filterfalse(stop.__contains__, words_of(text)))
        terms = list(words)
        for n in range(2, min(ngram_max, len(words)) + 1):
            terms.extend(map(" ".join, zip(*(words[i:] for i in range(n)))))
        return terms

    return analyze
