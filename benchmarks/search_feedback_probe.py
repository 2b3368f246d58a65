"""Feedback (pseudo-relevance) weight on the English known-item queries, with and without
the MiniLM signal: tuning half only (search_known's split).

    nice .venv/bin/python benchmarks/search_feedback_probe.py [--split tune|test]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from paperatlas import search as S
from paperatlas.store import Store
from search_common import CACHE, DEFAULT_DATA, load_rows
from search_known import known_queries, rank_of

K = 10


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "test"), default="tune")
    args = ap.parse_args()
    store = Store(CACHE / "search" / "heldout_abstracts.db", read_only=True)
    queries = [
        q
        for q in known_queries(load_rows(DEFAULT_DATA), 500, 300)
        if q["split"] == args.split and q.get("lang", "en") == "en"
    ]
    print(
        f"{len(queries)} English known-item queries ({args.split}), load {os.getloadavg()[0]:.1f}", flush=True
    )
    t = time.perf_counter()
    ranked = {
        q["qid"]: S.candidate_rankings(
            store, q["query"], config=S.SearchConfig(fusion={"feedback_weight": 1.0})
        )
        for q in queries
    }
    print(f"rankings in {time.perf_counter() - t:.0f}s", flush=True)
    types = ("term", "title", "paraphrase")
    print(f"{'variant':<28}" + "".join(f"{t:>12}" for t in types) + f"{'mean':>8}")
    for mini in (S.FUSION["minilm_weight"], 0.0):
        for vec in (S.FUSION["vector_weight"], 1.0):
            for fb in (0.0, 0.25, 0.5, 1.0):
                fusion = {"feedback_weight": fb, "minilm_weight": mini, "vector_weight": vec}
                by: dict[str, list[float]] = {}
                for q in queries:
                    top = [p for p, _ in S.fuse_rankings(ranked[q["qid"]], fusion)[0][:K]]
                    r = rank_of(top, q["target"])
                    by.setdefault(q["type"], []).append(1.0 / r if r else 0.0)
                cells = [statistics.fmean(by[t]) for t in types]
                print(
                    f"{f'minilm {mini} vec {vec} fb {fb}':<28}"
                    + "".join(f"{c:>12.3f}" for c in cells)
                    + f"{statistics.fmean(cells):>8.3f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
