"""paperatlas.text: the shared stopword list and TF-IDF set-up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from paperatlas.text import (
    FUNCTION_WORDS,
    PAPER_WORD_PATTERN,
    PAPER_WORDS,
    STOPWORDS,
    english_stopwords,
    paper_text,
    tfidf_matrix,
    tfidf_vectorizer,
    word_and_pair_counts,
)

PAPERS = Path(__file__).parent / "fixtures" / "atlas" / "papers.jsonl"


def test_stopwords_are_function_words_and_paper_words():
    assert {"the", "of", "which", "very"} <= FUNCTION_WORDS
    assert {"paper", "method", "new", "using"} <= PAPER_WORDS
    assert STOPWORDS == FUNCTION_WORDS | PAPER_WORDS
    assert "diffusion" not in STOPWORDS and "learning" not in STOPWORDS
    assert "the" in english_stopwords() and "paper" not in english_stopwords()


def test_vectorizer_defaults_and_overrides():
    vectorizer = tfidf_vectorizer()
    vectorizer.fit(["The Café-style 3D model learns", "model 42 learns quickly"])
    vocabulary = set(vectorizer.get_feature_names_out())
    # accents stripped, lower case, stopwords out, tokens start with a letter (no bare numbers)
    assert {"cafe-style", "model", "learns", "quickly"} <= vocabulary
    assert "the" not in vocabulary and "42" not in vocabulary and "3d" not in vocabulary
    assert vectorizer.dtype == np.float32

    bigrams = tfidf_vectorizer(ngram_range=(1, 2), stop_words=None)
    bigrams.fit(["the model learns"])
    assert "the model" in set(bigrams.get_feature_names_out())


def test_tfidf_matrix_rows_are_unit_length_and_empty_input_gives_no_columns():
    papers = [
        {
            "title": "Sparse attention",
            "abstract": "Sparse attention for long context.",
            "keywords": ["attention"],
        },
        {"title": "Diffusion sampling", "abstract": "Faster diffusion sampling.", "keywords": []},
    ]
    texts = [paper_text(p) for p in papers]
    assert texts[0] == "Sparse attention Sparse attention for long context. attention"
    matrix, terms = tfidf_matrix(texts)
    assert matrix.shape == (2, len(terms)) and "sparse attention" in set(terms)
    assert np.allclose(np.sqrt(matrix.multiply(matrix).sum(axis=1)).A.ravel(), 1.0)

    empty, no_terms = tfidf_matrix(["", "the of and"])
    assert empty.shape == (2, 0) and len(no_terms) == 0


def _fixture_texts() -> list[str]:
    papers = [json.loads(line) for line in PAPERS.read_text(encoding="utf-8").splitlines()]
    # and texts at the edges: empty, stop words only, one word, hyphens, digits, accents, a pair
    # repeated, the same words in both orders
    return [paper_text(p) for p in papers] + [
        "",
        "The of and which",
        "attention",
        "Self-attention self-attention 3D 42 x2 Café naïve",
        "graph neural graph neural graph neural networks",
        "Graph neural networks.",
        "",  # an empty text last: a row with nothing in it at the end of the matrix
    ]


def test_tfidf_matrix_is_scikit_learns_vectorizer_with_its_settings():
    texts = _fixture_texts()
    assert len(texts) >= 50  # the bounds for a conference: pairs in two papers, in at most half
    matrix, terms = tfidf_matrix(texts)
    reference = tfidf_vectorizer(
        strip_accents=None,
        ngram_range=(1, 2),
        min_df=2,
        max_df=0.5,
        max_features=200_000,
        token_pattern=PAPER_WORD_PATTERN,
    )
    expected = reference.fit_transform(texts).tocsr()
    expected.sort_indices()
    assert list(terms) == list(reference.get_feature_names_out())
    assert "graph neural" in set(terms) and "neural graph" not in set(terms)  # in two texts; in one
    assert matrix.dtype == expected.dtype == np.float32
    assert np.array_equal(matrix.indptr, expected.indptr) and np.array_equal(matrix.indices, expected.indices)
    assert np.allclose(matrix.data, expected.data, rtol=1e-6, atol=0)


@pytest.mark.parametrize(
    "settings",
    [
        {"min_df": 2, "max_df": 0.5},
        {"min_df": 1, "max_df": 1.0},
        {"min_df": 3, "max_df": 20, "stop_words": None},  # counts, not shares; stop words kept in pairs
        {"min_df": 0.05, "max_df": 0.9, "max_features": 40},  # many terms tie at the cut
        {"max_features": 7, "lowercase": False},
    ],
)
def test_word_and_pair_counts_are_what_the_vectorizer_counts(settings):
    from sklearn.feature_extraction.text import CountVectorizer

    texts = _fixture_texts()
    vectorizer = tfidf_vectorizer(ngram_range=(1, 2), strip_accents=None, **settings)
    tokenize, preprocess = vectorizer.build_tokenizer(), vectorizer.build_preprocessor()
    counts, terms = word_and_pair_counts(
        texts,
        lambda text: tokenize(preprocess(text)),
        vectorizer.get_stop_words() or frozenset(),
        min_df=vectorizer.min_df,
        max_df=vectorizer.max_df,
        max_features=vectorizer.max_features,
    )
    # the vectorizer's counting half, every setting of it as given
    reference = CountVectorizer(
        **{name: getattr(vectorizer, name) for name in CountVectorizer().get_params()}
    )
    expected = reference.fit_transform(texts).tocsr()
    expected.sort_indices()
    assert list(terms) == list(reference.get_feature_names_out())
    assert (counts != expected).nnz == 0 and counts.dtype == np.float32


def test_tfidf_matrix_imports_no_scikit_learn():
    """A first `recommend` and `embed` build the matrix in a fresh process: importing
    scikit-learn there would cost more than the matrix."""
    code = (
        "import sys; from paperatlas.text import tfidf_matrix; "
        "m, t = tfidf_matrix(['graph neural networks', 'graph neural nets'] * 30); "
        "assert m.shape[0] == 60 and len(t); print(sorted(n for n in sys.modules if n.startswith('sklearn')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
