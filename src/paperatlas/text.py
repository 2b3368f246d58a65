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
    min_df = 2 if len(texts) >= 50 else 1
    vectorizer = tfidf_vectorizer(
        strip_accents=None,  # as before: recommend's cached matrices (TFIDF_VERSION) were fitted so
        ngram_range=(1, 2),
        min_df=min_df,
        max_df=0.5 if len(texts) >= 50 else 1.0,
        max_features=200_000,
        token_pattern=r"(?u)\b[a-zA-Z][a-zA-Z0-9\-]+\b",
    )
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # every text empty or stop words only
        from scipy import sparse

        return sparse.csr_matrix((len(texts), 0), dtype=np.float32), np.array([], dtype=object)
    return matrix.tocsr(), vectorizer.get_feature_names_out()
