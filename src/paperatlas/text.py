"""Word lists and the TF-IDF set-up shared by every stage that weighs words.

One English stopword list (`STOPWORDS`: function words plus the words every abstract uses
about itself, "paper", "method", "new"), and one TF-IDF vectorizer factory
(`tfidf_vectorizer`) whose tokenisation every term table and TF-IDF matrix is keyed by;
`tfidf_matrix` over papers' own words (`paper_text`) for recommendations and comparisons,
computed as that vectorizer would without importing scikit-learn (1.5 s of a fresh process).
The vectorizers drop scikit-learn's English list (`english_stopwords()`, read from its file
without importing it), as they always have: the shipped term tables were built with it.
"""

from __future__ import annotations

import importlib.util
import re
import tokenize
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

FUNCTION_WORDS = frozenset(
    """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers how i if in into is it its itself just me more most my
no nor not now of off on once only or other our ours out over own same she should so some
such than that the their them then there these they this those through to too under until
up very was we were what when where which while who whom why will with would you your
""".split()
)
# What abstracts and queries say about themselves rather than their subject.
PAPER_WORDS = frozenset(
    "paper papers using use via based toward towards new approach method methods study".split()
)
STOPWORDS = FUNCTION_WORDS | PAPER_WORDS

# A word: a letter, then letters, digits or hyphens, ending on a letter or digit.
WORD_PATTERN = r"(?u)\b[^\W\d_][\w\-]*\w\b"
# A word of `tfidf_matrix` (recommendations, comparisons): ASCII letters, digits and hyphens.
PAPER_WORD_PATTERN = r"(?u)\b[a-zA-Z][a-zA-Z0-9\-]+\b"


@lru_cache(maxsize=1)
def english_stopwords() -> frozenset[str]:
    """scikit-learn's English stopword list, read (as data, not run) from its own module file
    without importing the scikit-learn package, whose __init__ is the slow part; the package
    import if that file has moved or changed shape. Read with `tokenize`, not `ast`: CPython
    3.11's ast.parse can fail when two threads parse at once, and a server's threads may ask
    for this list together."""
    spec = importlib.util.find_spec("sklearn")  # finds, does not import
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location) / "feature_extraction" / "_stop_words.py"
        if path.exists() and (words := _frozenset_words(path, "ENGLISH_STOP_WORDS")):
            return words
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return ENGLISH_STOP_WORDS


def _frozenset_words(path: Path, name: str) -> frozenset[str] | None:
    """The strings of `NAME = frozenset([...])` in a Python file; None where it is not that shape
    (a string that is not a plain word, anything but strings and commas inside)."""
    with path.open("rb") as fh:
        tokens = [t for t in tokenize.tokenize(fh.readline) if t.type not in _LAYOUT]
    for i, token in enumerate(tokens):
        if token.string != name or [t.string for t in tokens[i + 1 : i + 5]] != ["=", "frozenset", "(", "["]:
            continue
        words: list[str] = []
        for item in tokens[i + 5 :]:
            if item.string == "]":
                return frozenset(words) if words else None
            if item.type == tokenize.STRING and re.fullmatch(r"""(["'])[a-z]+\1""", item.string):
                words.append(item.string[1:-1])
            elif item.string != ",":
                return None
    return None


_LAYOUT = {
    tokenize.ENCODING,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.COMMENT,
    tokenize.INDENT,
    tokenize.DEDENT,
}


def tfidf_vectorizer(**overrides: Any) -> Any:
    """A scikit-learn TfidfVectorizer: sublinear term frequency, accents stripped, lower case,
    WORD_PATTERN tokens, English stopwords out, float32; `overrides` change any of these or
    add others (ngram_range, vocabulary, min_df, ...)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    settings: dict[str, Any] = {
        "sublinear_tf": True,
        "strip_accents": "unicode",
        "lowercase": True,
        "token_pattern": WORD_PATTERN,
        "stop_words": "english",
        "dtype": np.float32,
    }
    settings.update(overrides)
    return TfidfVectorizer(**settings)


def paper_text(paper: dict[str, Any]) -> str:
    """A paper's words for TF-IDF: title, abstract and keywords."""
    keywords = paper.get("keywords") or []
    return " ".join(filter(None, [paper.get("title") or "", paper.get("abstract") or "", " ".join(keywords)]))


def tfidf_matrix(texts: list[str]):
    """(L2-normalised TF-IDF matrix, vocabulary) over unigrams and bigrams: what
    `tfidf_vectorizer(strip_accents=None, ngram_range=(1, 2), min_df=2, max_df=0.5,
    max_features=200_000, token_pattern=PAPER_WORD_PATTERN)` gives (min_df 1 and max_df 1.0
    under 50 texts), computed without importing scikit-learn (see `word_and_pair_counts`);
    tests/test_text.py checks the two agree."""
    large = len(texts) >= 50
    findall = re.compile(PAPER_WORD_PATTERN).findall
    counts, terms = word_and_pair_counts(
        texts,
        lambda text: findall(text.lower()),
        english_stopwords(),
        min_df=2 if large else 1,
        max_df=0.5 if large else 1.0,
        max_features=200_000,
    )
    if not len(terms):  # every text empty or stop words only
        return counts, terms
    # scikit-learn's TfidfTransformer(sublinear_tf=True): 1 + ln(count), times the smoothed
    # idf 1 + ln((1 + texts) / (1 + texts with the term)), each row scaled to unit length
    df = np.bincount(counts.indices, minlength=counts.shape[1]).astype(counts.dtype)
    idf = np.log((1 + counts.shape[0]) / (1 + df)) + 1
    np.log(counts.data, out=counts.data)
    counts.data += 1
    counts.data *= idf[counts.indices]
    per_row = np.diff(counts.indptr)
    rows = np.repeat(np.arange(counts.shape[0]), per_row)
    lengths = np.sqrt(np.bincount(rows, weights=counts.data**2, minlength=counts.shape[0]))
    counts.data /= np.repeat(np.where(lengths > 0, lengths, 1), per_row).astype(counts.dtype)
    return counts, terms


def word_and_pair_counts(
    texts: list[str],
    words: Callable[[str], list[str]],
    stop_words: frozenset[str],
    *,
    min_df: float,
    max_df: float,
    max_features: int | None,
):
    """(count matrix, vocabulary) of the texts' words and word pairs: what scikit-learn's
    CountVectorizer(ngram_range=(1, 2), stop_words=stop_words, min_df=..., max_df=...,
    max_features=..., dtype=float32) counts when `words` is its tokenizer, with the same
    columns in the same order (an int bound is a count of texts, a float a share of them).

    scikit-learn builds every word pair of every text as a string and counts it in a Python
    dict, then sorts and prunes a vocabulary of millions of pairs seen once (about 10 s of CPU
    on 15,602 abstracts, 3 s here: benchmarks/word_matrix.py; and 1 s to import it). Here `words` tokenises each text (the only
    per-text Python work), words become integers, a pair one integer of two words, and the
    counting, pruning and ordering are numpy and scipy array operations: only the pairs that
    survive pruning become strings."""
    import itertools
    from numbers import Integral

    from scipy import sparse

    code: dict[str, int] = {}  # token -> its integer, in first-seen order
    lengths: list[int] = []
    chunks = [np.zeros(0, dtype=np.int64)]
    for start in range(0, len(texts), 2000):  # a few thousand texts' token strings at a time
        per_text = [words(text) for text in texts[start : start + 2000]]
        lengths += map(len, per_text)
        tokens = list(itertools.chain.from_iterable(per_text))
        for token in dict.fromkeys(tokens):
            code.setdefault(token, len(code))
        chunks.append(np.fromiter(map(code.__getitem__, tokens), dtype=np.int64, count=len(tokens)))
    vocabulary = list(code)
    ids, row = np.concatenate(chunks), np.repeat(np.arange(len(texts)), lengths)
    stop = np.fromiter((w in stop_words for w in vocabulary), dtype=bool, count=len(vocabulary))
    kept = ~stop[ids]
    ids, row = ids[kept], row[kept]  # pairs join the words left beside each other

    n_words = len(vocabulary)
    same_text = row[:-1] == row[1:]
    pair_codes, pair_columns = np.unique(
        ids[:-1][same_text] * n_words + ids[1:][same_text], return_inverse=True
    )
    columns = np.concatenate([ids, n_words + pair_columns.ravel()])
    counts = sparse.csr_matrix(
        (
            np.ones(len(columns), dtype=np.float32),
            (np.concatenate([row, row[:-1][same_text]]), columns),
        ),
        shape=(len(texts), n_words + len(pair_codes)),
    )
    counts.sum_duplicates()

    df = np.bincount(counts.indices, minlength=counts.shape[1])
    high, low = (float(b) if isinstance(b, Integral) else b * len(texts) for b in (max_df, min_df))
    survivors = np.flatnonzero((df >= max(low, 1)) & (df <= high))
    # a column's words: the word alone, or a pair's first and second (-1: none)
    first = np.concatenate([np.arange(n_words), pair_codes // n_words])[survivors]
    second = np.concatenate([np.full(n_words, -1), pair_codes % n_words])[survivors]
    names = [
        vocabulary[f] if s < 0 else f"{vocabulary[f]} {vocabulary[s]}"
        for f, s in zip(first.tolist(), second.tolist())
    ]
    order = sorted(range(len(names)), key=names.__getitem__)  # scikit-learn's columns: by name
    survivors, terms = survivors[order], np.array([names[i] for i in order], dtype=object)
    counts = counts[:, survivors]
    if max_features is not None and len(terms) > max_features:
        # the most frequent terms, ties broken by the same sort of the same column sums as its
        totals = np.asarray(counts.sum(axis=0)).ravel()
        top = np.sort((-totals).argsort()[:max_features])
        counts, terms = counts[:, top], terms[top]
    counts.sort_indices()
    return counts, terms
