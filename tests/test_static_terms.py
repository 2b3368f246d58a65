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
