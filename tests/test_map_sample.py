"""A list above MAP_SAMPLE papers: layout and topics fit on a sample, the rest placed on it.
Vectors drawn around a few known centres: placed papers land in their own group's topic and
region as sampled ones do; every paper gets a position, topics and an outlier flag."""

from __future__ import annotations

import numpy as np
import pytest

from paperatlas.atlas import cluster as atlas_cluster


def blobs(n: int, groups: int = 5, dim: int = 32, seed: int = 3):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(groups, dim)) * 3
    truth = rng.integers(0, groups, size=n)
    vectors = centres[truth] + rng.normal(size=(n, dim))
    return vectors.astype(np.float32), truth


def purity(labels: np.ndarray, truth: np.ndarray) -> float:
    """Share of papers whose topic's most common true group is their own."""
    hits = 0
    for t in np.unique(labels):
        members = truth[labels == t]
        hits += np.bincount(members).max()
    return hits / len(labels)


@pytest.fixture()
def small_sample(monkeypatch):
    monkeypatch.setattr(atlas_cluster, "MAP_SAMPLE", 400)


@pytest.mark.slow  # fits UMAP and HNSW on 1,600 vectors
def test_large_list_is_fit_on_a_sample_and_the_rest_placed(small_sample):
    vectors, truth = blobs(1600)
    vectors[7] = 0.0  # a paper with no usable text
    result = atlas_cluster.cluster_papers(vectors, k_broad=5, k_fine=15)
    assert "placed" in result.seconds and "sample" in result.seconds
    n = len(vectors)
    assert result.xy.shape == (n, 2) and result.fine.shape == (n,) and result.broad.shape == (n,)
    assert np.isfinite(result.xy).all()
    rng = np.random.default_rng(atlas_cluster.SEED)
    sample = np.sort(rng.choice(n, 400, replace=False))
    rest = np.setdiff1d(np.arange(n), sample)
    # placed papers are grouped as well as the fitted ones
    assert purity(result.broad[rest], truth[rest]) >= 0.97
    assert purity(result.broad[sample], truth[sample]) >= 0.97
    # a placed paper lies nearer its own group's fitted papers than any other group's
    centres = np.array([result.xy[sample][truth[sample] == g].mean(axis=0) for g in range(5)])
    nearest = np.linalg.norm(result.xy[rest][:, None, :] - centres[None], axis=2).argmin(axis=1)
    assert (nearest == truth[rest]).mean() >= 0.97
    # topics: every fine topic has one parent, numbered by size over all papers
    assert np.array_equal(result.fine_parent[result.fine], result.broad)
    sizes = np.bincount(result.broad)
    assert list(sizes) == sorted(sizes, reverse=True)
    assert result.outlier[7] and result.outlier_reason[7] == "no usable text"
    # density outliers: the same rule over fitted and placed papers alike
    assert result.outlier.mean() < 0.1
    assert abs(result.outlier[rest].mean() - result.outlier[sample].mean()) < 0.03


@pytest.mark.slow  # fits UMAP and HNSW on 1,600 vectors
def test_below_the_sample_size_nothing_is_placed(small_sample):
    vectors, truth = blobs(300)
    result = atlas_cluster.cluster_papers(vectors, k_broad=5, k_fine=15)
    assert "placed" not in result.seconds
    assert purity(result.broad, truth) >= 0.97


@pytest.mark.slow  # fits UMAP and HNSW on 1,600 vectors
def test_the_sample_graph_finds_the_exact_nearest_sampled_papers():
    # placement searches an HNSW graph of the sample: its neighbours are (nearly) the exact ones
    vectors, _ = blobs(3000, groups=8, dim=48, seed=5)
    sample, query = atlas_cluster.unit_rows(vectors[:1000]), atlas_cluster.unit_rows(vectors[1000:])
    graph = atlas_cluster._sample_graph(sample)
    keys, sims = atlas_cluster._nearest(graph, sample, query, 15)
    exact = query @ sample.T
    truth = np.argsort(-exact, axis=1)[:, :15]
    recall = np.mean([len(set(a) & set(b)) / 15 for a, b in zip(keys, truth)])
    assert recall >= 0.95
    assert np.allclose(sims, np.take_along_axis(exact, keys, axis=1), atol=1e-4)
    # a zero row (no text) gets k neighbours too, by the exact fallback
    keys, sims = atlas_cluster._nearest(graph, sample, np.zeros((2, 48), np.float32), 15)
    assert keys.shape == (2, 15) and (keys >= 0).all() and (keys < 1000).all()


@pytest.mark.slow  # fits UMAP and HNSW on 1,600 vectors
def test_placement_reads_the_vectors_a_block_at_a_time(small_sample):
    vectors, truth = blobs(1600)
    rows = np.arange(0, 1600, 3)
    fit = atlas_cluster._fit(vectors[:400], atlas_cluster.SEED, 5, 15, None)
    sample_v = atlas_cluster.unit_rows(vectors[:400])
    by_rows = atlas_cluster.place_on_sample(vectors, sample_v, fit, atlas_cluster.SEED, block=100, rows=rows)
    whole = atlas_cluster.place_on_sample(vectors[rows], sample_v, fit, atlas_cluster.SEED)
    assert np.array_equal(by_rows.fine, whole.fine)
    assert np.allclose(by_rows.xy, whole.xy, atol=1e-5)
    assert purity(fit.fine_parent[by_rows.fine], truth[rows]) >= 0.97
