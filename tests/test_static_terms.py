"""The static model cuts text into terms without scikit-learn (embed/terms.py): the same
tokens and the same vectors as the scikit-learn vectorizer its term table was built with, on
the sample list's real abstracts and on awkward strings; and placing a short list on the
field in a fresh process imports neither scikit-learn nor scipy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from paperatlas.embed import static as static_mod
from paperatlas.embed.terms import english_stopwords, term_analyzer

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "iclr2026_sample_list.txt"
CORPUS = Path(__file__).resolve().parent / "fixtures" / "collections" / "corpus.jsonl"
AWKWARD = [
    "",
    "the of and which",  # stopwords only
    "Café naïve ÉCOLE résumé Schrödinger",  # accents stripped
    "ﬁne-tuning Ⅻ x² İstanbul straße",  # compatibility forms (NFKD), dotted I
    "x-ray 3d-model l2-norm 42 a_b GPT-4o k-NN -- end- -start",  # hyphens, digits, underscores
    "Large Language Models (LLMs); LLM-as-a-judge, RL/HF\tand\nKV-cache",
    "\U0001d400dam optimiser — \U0001d41bold \uff21\uff24\uff21\uff2d",  # NFKD makes upper case after lower()
]


def texts() -> list[str]:
    paragraphs = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n")]
    abstracts = [p for p in paragraphs if len(p) > 200]
    assert len(abstracts) == 19
    corpus = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    return abstracts + [f"{r['title']}\n{r['abstract']}" for r in corpus[:40]] + AWKWARD


@pytest.fixture(scope="module")
def model():
    return static_mod.StaticBackend.load()


def test_stopwords_are_scikit_learns():
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    assert english_stopwords() == ENGLISH_STOP_WORDS


def test_terms_equal_scikit_learns(model):
    ours = term_analyzer(2)
    theirs = model.vectorizer.build_analyzer()
    for text in texts():
        assert ours(text) == theirs(text), text[:60]
    assert ours("Café naïve résumé") == ["cafe", "naive", "resume", "cafe naive", "naive resume"]
    assert term_analyzer(1)("deep of learning") == ["deep", "learning"]


@pytest.mark.parametrize("sparse_from", [10_000, 1])  # a numpy product per text; one scipy product
def test_vectors_equal_the_vectorizer_times_the_table(model, monkeypatch, sparse_from):
    monkeypatch.setattr(static_mod, "SPARSE_FROM", sparse_from)
    batch = texts()
    weights = model.vectorizer.transform(batch)
    expected = np.asarray(weights @ model.table, dtype=np.float32)
    norms = np.linalg.norm(expected, axis=1, keepdims=True)
    expected = expected / np.maximum(norms, 1e-12)
    got = model.encode(batch)
    assert got.dtype == np.float32 and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, atol=1e-5)
    assert not got[len(batch) - len(AWKWARD) + 1].any()  # stopwords only: the zero vector
    assert np.allclose(np.linalg.norm(got[:19], axis=1), 1.0)


@pytest.mark.slow  # a fresh interpreter, to see what an import loads
def test_placing_a_short_list_imports_neither_scikit_learn_nor_scipy():
    code = (
        "import sys\n"
        "from paperatlas.atlas.reference import shipped\n"
        "from paperatlas.embed import get_backend\n"
        f"paras = open({str(SAMPLE)!r}, encoding='utf-8').read().split('\\n\\n')[1:]\n"
        "placed = shipped().place(get_backend('static').embed([p for p in paras if p.strip()]))\n"
        "print(len(placed.broad), sorted(m for m in ('sklearn', 'scipy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split(None, 1) == ["19", "[]\n"]


def test_byte_words_equal_the_patterns():
    """The fast word cutter (bytes.translate + split, the pattern only where a letter is not
    ASCII) finds the pattern's words on real texts, awkward ones and random strings of the
    characters that make it hard (hyphens, digits, "_", accents, dashes, non-ASCII letters)."""
    import random

    from paperatlas.embed.terms import byte_word_finder, word_finder

    fast, slow = byte_word_finder(), word_finder()
    for text in texts():
        assert fast(text) == [w.encode() for w in slow(text)], text[:60]
    rng = random.Random(0)
    alphabet = list("ab-_3 Xé\u0301—’α.²K\u212a\t-zZ9\U0001d400\uff21")
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert fast(text) == [w.encode() for w in slow(text)], repr(text)


@pytest.mark.parametrize("ngram_max", [2, 1, 3])
def test_batch_counts_equal_the_per_text_counts(model, ngram_max):
    """A batch's sparse weights (words and pairs counted as numbers, embed_store's path) hold
    the same entries in the same order as the texts' `_counts` one by one, so the vectors are
    bitwise the same; and within 1e-6 of the per-text numpy path."""
    from scipy import sparse

    if ngram_max == 1:  # a words-only model: its vocabulary's single words
        vocab = sorted((t for t in model.vocabulary if " " not in t), key=model.vocabulary.__getitem__)
        rows = [model.vocabulary[t] for t in vocab]
        model = static_mod.StaticBackend(vocab, model.idf[rows], model.table[rows], ngram_range=(1, 1))
    elif ngram_max == 3:  # runs of three words are counted text by text
        vocab = sorted(model.vocabulary, key=model.vocabulary.__getitem__)
        model = static_mod.StaticBackend(vocab, model.idf, model.table, ngram_range=(1, 3))
    batch = texts() * 2 + ["word word pair pair word", "x-ray x-ray imaging x-ray"]
    got = model._weights(batch)
    assert isinstance(model._codes, static_mod._TermCodes) == (ngram_max < 3)
    indptr, rows, tf = [0], [], []
    for text in batch:
        counts = model._counts(text)
        rows.extend(counts)
        tf.extend(counts.values())
        indptr.append(len(rows))
    assert len(rows) > 1000
    assert got.indptr.tolist() == indptr
    assert got.indices.tolist() == rows
    expected = sparse.csr_matrix(
        (model._tfidf(np.asarray(rows), np.asarray(tf, np.float32)), rows, indptr), shape=got.shape
    )
    assert np.array_equal(got.data, expected.data)
    assert np.array_equal(got @ model.table, expected @ model.table)
    one_by_one = np.stack([model._embed_one(text) for text in batch])
    norms = np.maximum(np.linalg.norm(one_by_one, axis=1, keepdims=True), 1e-12)
    batch_vectors = np.asarray(got @ model.table, dtype=np.float32)
    batch_norms = np.maximum(np.linalg.norm(batch_vectors, axis=1, keepdims=True), 1e-12)
    assert np.abs(batch_vectors / batch_norms - one_by_one / norms).max() <= 1e-6


def test_stopwords_read_from_sklearns_file_without_ast(monkeypatch):
    """The list scikit-learn ships, read by tokens: CPython 3.11's ast.parse can fail when two
    threads parse at once (a server's threads, a test's), so this path must not use it."""
    import ast

    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from paperatlas.embed import terms

    def no_parse(*args, **kwargs):
        raise AssertionError("ast.parse called")

    monkeypatch.setattr(ast, "parse", no_parse)
    terms.english_stopwords.cache_clear()
    try:
        assert terms.english_stopwords() == ENGLISH_STOP_WORDS
    finally:
        terms.english_stopwords.cache_clear()
