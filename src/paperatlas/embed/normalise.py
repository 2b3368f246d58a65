"""Rows scaled to unit length: what every back end returns and every index compares.

Its own module so that back ends, the vector index and the callers above embed share it
without importing each other."""

from __future__ import annotations

import numpy as np


def normalise_rows(matrix: np.ndarray) -> np.ndarray:
    """float32 rows of unit L2 norm (an all-zero row stays zero)."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)
