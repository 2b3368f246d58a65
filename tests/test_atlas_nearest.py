"""atlas.nearest: the exact top-k by group maxima equals a full sort of each row (ties,
duplicates, a remainder group, NaN, tiny blocks), and blocks on threads give the same
placement as in order."""

from __future__ import annotations

import numpy as np
import pytest

from paperatlas.atlas import nearest


def _full_sort(sims: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    cols = np.array([np.lexsort((np.arange(len(r)), -r))[:k] for r in sims])
    return cols, np.take_along_axis(sims, cols, axis=1)


@pytest.mark.parametrize("m", [16, 64 * 20, 64 * 20 + 37, 3001])
def test_top_k_is_a_full_sort(m):
    rng = np.random.default_rng(m)
    sims = rng.standard_normal((300, m)).astype(np.float32)
    # clustered columns (neighbours in a few groups), rounded values (ties at the boundary),
    # a constant row (every column tied) and a zero row
    sims[:50, 100:140] += 3.0
    sims[50:100] = np.round(sims[50:100], 1)
    sims[100] = 0.25
    sims[101] = 0.0
    for k in (1, 15):
        cols, values = nearest.top_k(sims, k)
        want_cols, want_values = _full_sort(sims, k)
        assert cols.shape == (300, min(k, m))
        np.testing.assert_array_equal(cols, want_cols)
        np.testing.assert_array_equal(values, want_values)


def test_top_k_with_nan_falls_back_to_the_full_partition():
    rng = np.random.default_rng(1)
    sims = rng.standard_normal((20, 2000)).astype(np.float32)
    sims[3, :] = np.nan
    cols, _ = nearest.top_k(sims, 15)
    np.testing.assert_array_equal(cols[4:], _full_sort(sims[4:], 15)[0])


def test_blocks_on_threads_match_blocks_in_order(monkeypatch):
    data = np.arange(10_000, dtype=np.float64)
    seen: list[int] = []

    def run(out):
        def block(start):
            seen.append(start)
            out[start : start + 256] = np.sqrt(data[start : start + 256])

        return block

    monkeypatch.setattr(nearest, "PARALLEL_FROM", 1)
    monkeypatch.setenv("PAPERATLAS_WORKERS", "2")
    threaded = np.zeros_like(data)
    nearest.each_block(run(threaded), len(data), 256)
    assert sorted(seen) == list(range(0, 10_000, 256))
    monkeypatch.setenv("PAPERATLAS_WORKERS", "1")
    ordered = np.zeros_like(data)
    nearest.each_block(run(ordered), len(data), 256)
    np.testing.assert_array_equal(threaded, ordered)


def test_an_error_in_a_block_is_raised(monkeypatch):
    monkeypatch.setattr(nearest, "PARALLEL_FROM", 1)
    monkeypatch.setenv("PAPERATLAS_WORKERS", "2")

    def block(start):
        if start == 512:
            raise ValueError("bad block")

    with pytest.raises(ValueError, match="bad block"):
        nearest.each_block(block, 4096, 256)
