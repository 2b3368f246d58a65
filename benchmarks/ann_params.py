"""The ANN graph's build settings: build time and recall@10 against exact search.

    .venv/bin/python benchmarks/ann_params.py --db STORE [--model static] [--n 100000]
        [--queries 1000] [--configs 16:64:f16,16:64:i8,...] [--threads 0] [--cache DIR]

Reads the store's vectors of `model` (the first `--n` in rowid order), weighted as search
weights them (`registry.retrieval_weights`, what `embed/index.py` indexes), and builds one
usearch graph per configuration CONNECTIVITY:EXPANSION_ADD:DTYPE, as `AnnIndex` does
(keys in store order, added in chunks of 20,000, `threads` workers; 0 = every core).
Per configuration: build wall seconds and CPU seconds (this process: all its threads),
memory of the graph, and recall@10 of `--queries` random papers' own vectors (seed 0, each
paper left out of its own list) against the exact top 10 (a matrix product), at the
query-time expansion search uses (`index.MIN_SEARCH_EXPANSION`, 200) and at 64.
The first configuration is the baseline; each line gives its recall minus the baseline's.
Run it quiet (`flock /work/scratch/quiet.lock`) for wall figures; CPU seconds compare
fairly on a loaded machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np


def load_vectors(db: str, model: str, n: int, cache: str | None) -> np.ndarray:
    path = os.path.join(cache, f"vectors-{model}-{n}.npy") if cache else None
    if path and os.path.exists(path):
        return np.load(path)
    from paperatlas.embed.normalise import normalise_rows
    from paperatlas.embed.registry import retrieval_weights
    from paperatlas.store import Store

    store = Store(db, read_only=True)
    _, matrix = store.vectors.get(model)
    matrix = matrix[:n]
    weights = retrieval_weights(model)
    if weights is not None and weights.shape[0] == matrix.shape[1]:
        matrix = matrix * weights
    matrix = normalise_rows(matrix)
    if path:
        os.makedirs(cache, exist_ok=True)
        np.save(path, matrix)
    return matrix


def exact_top(matrix: np.ndarray, queries: np.ndarray, k: int) -> np.ndarray:
    """Each query paper's k nearest others (itself left out), by exact cosine."""
    out = np.empty((len(queries), k), dtype=np.int64)
    for start in range(0, len(queries), 100):
        block = queries[start : start + 100]
        scores = matrix[block] @ matrix.T
        scores[np.arange(len(block)), block] = -np.inf
        part = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        out[start : start + 100] = part
    return out


def build(matrix: np.ndarray, connectivity: int, expansion_add: int, dtype: str, threads: int):
    from usearch.index import Index

    index = Index(
        ndim=matrix.shape[1],
        metric="cos",
        dtype=dtype,
        connectivity=connectivity,
        expansion_add=expansion_add,
        expansion_search=96,
    )
    wall, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(matrix), 20_000):
        keys = np.arange(start, min(len(matrix), start + 20_000), dtype=np.uint64)
        index.add(keys, matrix[start : start + 20_000], threads=threads)
    return index, time.perf_counter() - wall, time.process_time() - cpu


def recall(
    index, matrix: np.ndarray, queries: np.ndarray, truth: np.ndarray, expansion: int, k: int
) -> float:
    index.expansion_search = expansion
    found = index.search(matrix[queries], k + 1, threads=1)
    hits = 0
    for row, q in enumerate(queries):
        got = [int(key) for key in found.keys[row] if int(key) != q][:k]
        hits += len(set(got) & set(truth[row].tolist()))
    return hits / (len(queries) * k)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", required=True)
    parser.add_argument("--model", default="static")
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--configs", default="16:64:f16,16:64:i8,16:64:bf16,16:48:f16,16:32:f16,12:64:f16")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--cache", default=None, help="folder for the vectors read from the store")
    parser.add_argument("--json", default=None, help="write the results here too")
    args = parser.parse_args()

    matrix = load_vectors(args.db, args.model, args.n, args.cache)
    rng = np.random.default_rng(0)
    queries = rng.choice(len(matrix), size=min(args.queries, len(matrix)), replace=False)
    truth = exact_top(matrix, queries, args.k)
    print(
        f"{len(matrix):,} vectors of {matrix.shape[1]} dims; {len(queries)} queries; loadavg "
        f"{os.getloadavg()}",
        flush=True,
    )
    results = []
    base = None
    for config in args.configs.split(","):
        connectivity, expansion_add, dtype = config.split(":")
        index, wall, cpu = build(matrix, int(connectivity), int(expansion_add), dtype, args.threads)
        row = {
            "config": config,
            "build_wall_s": round(wall, 2),
            "build_cpu_s": round(cpu, 2),
            "memory_mb": round(index.memory_usage / 1e6, 1),
            "recall_at_200": recall(index, matrix, queries, truth, 200, args.k),
            "recall_at_64": recall(index, matrix, queries, truth, 64, args.k),
            "loadavg": round(os.getloadavg()[0], 2),
        }
        base = base or row
        row["recall_delta"] = round(row["recall_at_200"] - base["recall_at_200"], 4)
        results.append(row)
        print(json.dumps(row), flush=True)
        del index
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
