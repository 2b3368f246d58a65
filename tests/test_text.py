"""paperatlas.text: the shared stopword list and TF-IDF set-up."""

from __future__ import annotations

import numpy as np

from paperatlas.text import (
    FUNCTION_WORDS,
    PAPER_WORDS,
    STOPWORDS,
    english_stopwords,
    paper_text,
    tfidf_matrix,
    tfidf_vectorizer,
)


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
