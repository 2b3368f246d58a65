"""UMAP's numba functions are kept on disk: a second fresh process fits the same map
without compiling them again, and gets exactly the same coordinates."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Fits a small UMAP layout in a fresh interpreter; prints the coordinates and how many
# umap/pynndescent signatures the fit compiled rather than loaded from numba's cache.
FIT = """
import json, sys
import numpy as np
import pynndescent, umap
from numba.core.dispatcher import Dispatcher
from paperatlas.atlas import cluster

def dispatchers():
    found = {}
    for name, module in list(sys.modules.items()):
        if module is not None and name.split(".")[0] in ("umap", "pynndescent"):
            for value in vars(module).values():
                if isinstance(value, Dispatcher):
                    found[id(value)] = value
    return found.values()

def counts():
    found = list(dispatchers())
    return (sum(len(d.overloads) for d in found),
            sum(sum(d.stats.cache_hits.values()) for d in found))

rng = np.random.default_rng(0)
v = rng.normal(size=(300, 16)).astype(np.float32)
v /= np.linalg.norm(v, axis=1, keepdims=True)
knn = cluster._knn(v, cluster.KNN, cluster.SEED)
overloads, hits = counts()
xy = cluster._layout_umap(v, knn, cluster.SEED)
overloads_after, hits_after = counts()
print(json.dumps({"xy": xy.tolist(),
                  "compiled": (overloads_after - overloads) - (hits_after - hits),
                  "loaded": hits_after - hits}))
"""


def fit_in_fresh_process(cache_dir: Path) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir)}
    src = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, "-c", FIT], env=env, capture_output=True, text=True, check=True, timeout=600
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_second_process_loads_umap_from_disk_and_maps_identically(tmp_path: Path) -> None:
    first = fit_in_fresh_process(tmp_path)
    second = fit_in_fresh_process(tmp_path)
    assert first["compiled"] > 0  # an empty cache: the first fit compiles
    assert second["compiled"] == 0, second["compiled"]
    assert second["loaded"] > 0
    assert second["xy"] == first["xy"]  # machine code from disk: bit-identical layout
    assert any(tmp_path.rglob("*.nbi"))  # written where NUMBA_CACHE_DIR says
