"""Word lists and the TF-IDF set-up shared by every stage that weighs words.

One English stopword list (`STOPWORDS`: function words plus the words every abstract uses
about itself, "paper", "method", "new"), and one TF-IDF vectorizer factory
(`tfidf_vectorizer`) whose tokenisation every term table and TF-IDF matrix is keyed by;
`tfidf_matrix` over papers' own words (`paper_text`) for recommendations and comparisons.
The vectorizers drop scikit-learn's English list (`english_stopwords()`), as they always
have: the shipped term tables were built with it.
"""

from __future__ import annotations

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


def english_stopwords() -> frozenset[str]:
    """scikit-learn's English stopword list (what `tfidf_vectorizer` drops)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return ENGLISH_STOP_WORDS


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
    """(L2-normalised TF-IDF matrix, vocabulary) over unigrams and bigrams."""
    from sklearn.feature_extraction.text import TfidfTransformer

    large = len(texts) >= 50
    vectorizer = tfidf_vectorizer(
        strip_accents=None,  # as before: recommend's cached matrices (TFIDF_VERSION) were fitted so
        ngram_range=(1, 2),
        min_df=2 if large else 1,
        max_df=0.5 if large else 1.0,
        max_features=200_000,
        token_pattern=r"(?u)\b[a-zA-Z][a-zA-Z0-9\-]+\b",
    )
    counts, terms = word_and_pair_counts(texts, vectorizer)
    if not len(terms):  # every text empty or stop words only
        from scipy import sparse

        return sparse.csr_matrix((len(texts), 0), dtype=np.float32), terms
    weigh = TfidfTransformer(
        norm=vectorizer.norm,
        use_idf=vectorizer.use_idf,
        smooth_idf=vectorizer.smooth_idf,
        sublinear_tf=vectorizer.sublinear_tf,
    )
    return weigh.fit_transform(counts).tocsr(), terms


def word_and_pair_counts(texts: list[str], vectorizer: Any):
    """(count matrix, vocabulary): what `vectorizer.fit_transform` (a word analyzer with
    ngram_range (1, 2): its lower-casing, token pattern and stop words; its min_df, max_df and
    max_features) counts before weighing, with the same columns in the same order.

    scikit-learn builds every word pair of every text as a string and counts it in a Python
    dict, then sorts and prunes a vocabulary of millions of pairs seen once (12 s of CPU on
    15,602 abstracts). Here each text's words are tokenised by the vectorizer's own tokenizer
    (the only per-text Python work), words become integers, a pair becomes one integer of two
    words, and counting, pruning and ordering are numpy and scipy array operations: only the
    pairs that survive pruning become strings."""
    import itertools
    from numbers import Integral

    from scipy import sparse

    preprocess, tokenize = vectorizer.build_preprocessor(), vectorizer.build_tokenizer()
    stop = vectorizer.get_stop_words() or frozenset()
    per_text = [tokenize(preprocess(text)) for text in texts]
    tokens = list(itertools.chain.from_iterable(per_text))
    words = list(dict.fromkeys(tokens))  # each distinct token once, in first-seen order
    code = dict(zip(words, range(len(words))))
    ids = np.fromiter(map(code.__getitem__, tokens), dtype=np.int64, count=len(tokens))
    row = np.repeat(np.arange(len(texts)), [len(t) for t in per_text])
    kept = ~np.fromiter((w in stop for w in words), dtype=bool, count=len(words))[ids]
    ids, row = ids[kept], row[kept]  # pairs join the words left beside each other, as sklearn's

    n_words = len(words)
    same_text = row[:-1] == row[1:]
    pair_codes, pair_columns = np.unique(
        ids[:-1][same_text] * n_words + ids[1:][same_text], return_inverse=True
    )
    columns = np.concatenate([ids, n_words + pair_columns.ravel()])
    rows = np.concatenate([row, row[:-1][same_text]])
    counts = sparse.csr_matrix(
        (np.ones(len(columns), dtype=vectorizer.dtype), (rows, columns)),
        shape=(len(texts), n_words + len(pair_codes)),
    )
    counts.sum_duplicates()

    # the vectorizer's document-frequency bounds, as it reads min_df and max_df
    df = np.bincount(counts.indices, minlength=counts.shape[1])
    high, low = (
        float(b) if isinstance(b, Integral) else b * len(texts)
        for b in (vectorizer.max_df, vectorizer.min_df)
    )
    survivors = np.flatnonzero((df >= max(low, 1)) & (df <= high))
    # a column's words: the word alone, or a pair's first and second (-1: none)
    first = np.concatenate([np.arange(n_words), pair_codes // n_words])[survivors]
    second = np.concatenate([np.full(n_words, -1), pair_codes % n_words])[survivors]
    names = [words[f] if s < 0 else f"{words[f]} {words[s]}" for f, s in zip(first.tolist(), second.tolist())]
    order = sorted(range(len(names)), key=names.__getitem__)  # sklearn's columns: terms by name
    survivors, terms = survivors[order], np.array([names[i] for i in order], dtype=object)
    counts = counts[:, survivors]
    limit = vectorizer.max_features
    if limit is not None and len(terms) > limit:
        # the most frequent terms, ties broken by the same sort of the same column sums as sklearn's
        totals = np.asarray(counts.sum(axis=0)).ravel()
        top = np.sort((-totals).argsort()[:limit])
        counts, terms = counts[:, top], terms[top]
    counts.sort_indices()
    return counts, terms
