"""Fit the weights of "more like this" (search/similar_signals.py) and report it beside
the in-house neighbour benchmark and CSFCube.

    .venv/bin/python benchmarks/similar_tune.py [--csfcube DIR] [--heldout-db PATH]
        [--csfcube-db PATH] [--report]

Tuning data, never the reported halves: the tuning half of the held-out ICLR 2026 papers
(benchmarks/similar_iclr.py: NDCG@20, grades from the primary area and author keywords)
and CSFCube's fold1_dev (MAP). A weight grid (each signal 0, 0.25, 0.5, 1, 2) is scored by
the mean of the two figures, each divided by the best single signal's figure on the same
data (so neither benchmark's scale dominates). Printed: the best weights, and with
--report the in-house figures on the test half and CSFCube's fold1_test for the current
similar (static alone), each signal alone and the fused weights in SIGNAL_WEIGHTS.
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from pathlib import Path

import numpy as np

import csfcube as C
from search_common import CACHE
from similar_iclr import IclrQueries, build_heldout_atlas

GRID = (0.0, 0.25, 0.5, 1.0, 2.0)


def csfcube_map(tables, pools, pairs, weights) -> float:
    rankings = {key: [pid for pid, _ in tables[key].fused(weights)] for key in pairs}
    return float(np.mean([C.pair_metrics(rankings[key], pools[key[1]][key[0]])[0] for key in pairs])) * 100


def main() -> None:
    from paperatlas.embed.registry import SEARCH_MODELS
    from paperatlas.search.similar_signals import KEYWORD, SIGNAL_WEIGHTS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csfcube", type=Path, default=C.DEFAULT_DIR)
    ap.add_argument("--csfcube-db", type=Path, default=CACHE / "csfcube" / "csfcube.db")
    ap.add_argument("--heldout-db", type=Path, default=CACHE / "similar" / "heldout.db")
    ap.add_argument("--report", action="store_true", help="also the test half and fold1_test, once")
    ap.add_argument("--no-grid", action="store_true", help="only the report (the weights as shipped)")
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    t0 = time.perf_counter()
    C.check_folder(args.csfcube)
    papers, pools, folds = C.read_papers(args.csfcube), C.read_pools(args.csfcube), C.read_folds(args.csfcube)
    csf_store = C.build_atlas(papers, args.csfcube_db, list(SEARCH_MODELS))
    tables = C.signal_tables(csf_store, papers, pools)
    iclr = IclrQueries(build_heldout_atlas(args.heldout_db, list(SEARCH_MODELS)))
    signals = [KEYWORD, *SEARCH_MODELS]
    dev = folds["fold1_dev"]

    singles = {
        s: (iclr.metrics({s: 1.0}, "tune")[0], csfcube_map(tables, pools, dev, {s: 1.0})) for s in signals
    }
    best_iclr = max(v[0] for v in singles.values())
    best_csf = max(v[1] for v in singles.values())
    for s, (nd, mp) in singles.items():
        print(f"  {s:18s} alone: ICLR tune NDCG@20 {nd:.4f}   CSFCube fold1_dev MAP {mp:.1f}")
    scored = []
    for combo in [] if args.no_grid else itertools.product(GRID, repeat=len(signals)):
        if not any(combo) or max(combo) != 1.0:  # weights count up to a scale: one is 1
            continue
        weights = dict(zip(signals, combo))
        nd = iclr.metrics(weights, "tune")[0]
        mp = csfcube_map(tables, pools, dev, weights)
        scored.append(((nd / best_iclr + mp / best_csf) / 2, nd, mp, weights))
    scored.sort(key=lambda row: -row[0])
    print(f"\n{len(scored)} weightings; best on the tuning data (objective, ICLR NDCG@20, CSFCube MAP):")
    for obj, nd, mp, weights in scored[:8]:
        print(f"  {obj:.4f}  {nd:.4f}  {mp:5.1f}  {weights}")
    if args.report:
        print(
            f"\nreport (test half of the held-out ICLR papers; CSFCube fold1_test), weights {SIGNAL_WEIGHTS}"
        )
        rows = {"similar before (static alone)": {"static": 1.0}}
        rows.update({f"{s} alone": {s: 1.0} for s in signals})
        rows["similar (fused)"] = SIGNAL_WEIGHTS
        print(
            f"{'method':30s} {'ICLR NDCG@20':>13s} {'ICLR area@10':>13s} {'ICLR kNN':>9s} "
            f"{'CSFCube MAP':>12s} {'NDCG%20':>8s}"
        )
        for name, weights in rows.items():
            nd, area, knn = iclr.metrics(weights, "test")
            rankings = {key: [pid for pid, _ in tables[key].fused(weights)] for key in tables}
            per = {key: C.pair_metrics(rankings[key], pools[key[1]][key[0]]) for key in tables}
            mp, ndcg = C.fold_means(per, folds["fold1_test"])
            print(f"{name:30s} {nd:13.4f} {area:13.3f} {knn:9.3f} {mp:12.1f} {ndcg:8.1f}")
    print(f"{time.perf_counter() - t0:.0f}s")


if __name__ == "__main__":
    main()
