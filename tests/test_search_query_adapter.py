"""The query adapters (search/query_adapter.py): the shipped matrices, what they are
applied to, and that search's MiniLM list ranks papers by the adapted query."""

import json
from pathlib import Path

import numpy as np
import pytest

from paperatlas import search as S
from paperatlas.search import query_adapter as A
from paperatlas.search.vectors import embed_query, open_index

PAPERS = [
    json.loads(line)
    for line in (Path(__file__).parent / "fixtures" / "search" / "papers.jsonl")
    .read_text("utf-8")
    .splitlines()
]


@pytest.mark.parametrize(("model", "dim"), [("minilm-int8", 384), ("minilm", 384), ("use-multilingual", 512)])
def test_the_shipped_adapters_are_square_maps_of_their_models_vectors(model, dim):
    w = A.adapter_weights(model)
    assert w is not None and w.shape == (dim, dim) and w.dtype == np.float32
    assert np.isfinite(w).all()
    # fit from the identity: near it, not equal to it
    assert 0.0 < float(np.abs(w - np.eye(dim)).max()) < 1.0


def test_only_models_with_an_adapter_have_their_queries_moved():
    v = np.random.default_rng(0).normal(size=384).astype(np.float32)
    v /= np.linalg.norm(v)
    out = A.adapt_query("minilm-int8", v)
    assert out is not v and np.linalg.norm(out) == pytest.approx(1.0, abs=1e-5)
    assert float(out @ v) < 0.999
    static = np.random.default_rng(2).normal(size=277).astype(np.float32)
    assert A.adapt_query("static", static) is static
    zero = np.zeros(384, np.float32)
    assert A.adapt_query("minilm-int8", zero) is zero  # nothing known: stays nothing
    short = v[:100]
    assert A.adapt_query("minilm-int8", short) is short  # not a MiniLM vector


@pytest.mark.slow  # loads real embedding model weights
@pytest.mark.parametrize("model", ["minilm-int8", "use-multilingual"])
def test_adapted_titles_still_find_their_own_abstracts(model):
    """A broken map scatters queries (MiniLM, a random matrix: MRR 0.13; the fit step
    taken three times over, I + 3 (W - I): 0.64); the fit one keeps each fixture title's
    own abstract first, as the raw model does (MRR over the 24: MiniLM raw and adapted
    0.98, use-multilingual raw 0.94, adapted 0.94)."""
    from paperatlas.embed import get_backend

    backend = get_backend(model)
    docs = backend.embed([p["abstract"] for p in PAPERS])
    titles = np.vstack([A.adapt_query(model, q) for q in backend.embed([p["title"] for p in PAPERS])])
    scores = titles @ docs.T
    own = np.diag(scores)
    rank = (scores > own[:, None]).sum(axis=1) + 1
    assert float(np.mean(1.0 / rank)) >= 0.92


def _ranked_by_the_adapted_vector(store, model: str, query: str, ranking) -> None:
    """Each of the first papers of `ranking` (a model's list for `query`) is scored by its
    cosine with the query's adapted vector, not the raw one."""
    raw = embed_query(store, model, query)
    adapted = A.adapt_query(model, raw)
    found, vectors = open_index(store, model).vectors_of([pid for pid, _ in ranking[:5]])
    listed = dict(ranking)
    assert found
    for pid, vec in zip(found, vectors):
        assert listed[pid] == pytest.approx(float(vec @ adapted), abs=1e-4)
        assert abs(listed[pid] - float(vec @ raw)) > 1e-4


@pytest.mark.slow  # loads real embedding model weights
def test_search_ranks_minilm_candidates_by_the_adapted_query(embedded_search_atlas):
    atlas = embedded_search_atlas
    atlas.embed(model="minilm-int8")
    query = "removing memorised passages from a chatbot"
    r = S.candidate_rankings(atlas.store, query)
    _ranked_by_the_adapted_vector(atlas.store, "minilm-int8", query, r.minilm)


@pytest.mark.slow  # loads real embedding model weights
def test_a_chinese_query_is_searched_by_its_adapted_multilingual_vector(embedded_search_atlas):
    """The adapter fit on English queries moves a Chinese one too: the cross-lingual list
    of a Chinese query ranks papers by the adapted vector, and still finds its paper."""
    atlas = embedded_search_atlas
    atlas.embed(model="use-multilingual")
    query = "大语言模型的机器遗忘"  # machine unlearning in large language models
    r = S.candidate_rankings(atlas.store, query)
    assert r.model == "use-multilingual" and r.language == "zh"
    _ranked_by_the_adapted_vector(atlas.store, "use-multilingual", query, r.vector)
    assert r.vector[0][0].startswith("unlearn")
