"""Chinese known-item queries alone, for tuning the learned cross-lingual terms quickly.

    nice .venv/bin/python benchmarks/search_zh_tune.py [--split tune|test] [--grid]

The 110 hand-written Chinese queries of benchmarks/queries/known/chinese.jsonl over the
abstract-only held-out atlas (search_known.py: same store, same split by target id),
MRR@10 and recall@10 of the library's search with the glossary off and on. `--grid`
tries settings of search/translate.py (similarity threshold, terms per word, how close to
a word's best term a second one must be, the weight of a lone word's terms, the longest
run looked up whole) with the glossary off: tune on `--split tune` only; report
`--split test` once, with the chosen settings.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import time

from paperatlas import search as S
from paperatlas.search import translate as X
from paperatlas.store import Store
from search_common import CACHE
from search_known import KNOWN, rank_of, split_of

K = 10


def evaluate(store, queries, glossary: bool) -> tuple[float, float]:
    rr, hit = [], []
    for q in queries:
        r = S.candidate_rankings(store, q["query"], glossary=glossary)
        top = [p for p, _ in S.fuse_rankings(r)[0][:K]]
        rank = rank_of(top, q["target"])
        rr.append(1.0 / rank if rank else 0.0)
        hit.append(1.0 if rank else 0.0)
    return statistics.fmean(rr), statistics.fmean(hit)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=str(CACHE / "search" / "heldout_abstracts.db"))
    ap.add_argument("--split", choices=("tune", "test"), default="tune")
    ap.add_argument("--grid", action="store_true")
    args = ap.parse_args()
    store = Store(args.db, read_only=True)
    queries = [
        json.loads(line)
        for line in (KNOWN / "chinese.jsonl").read_text(encoding="utf-8").splitlines()
        if line
    ]
    queries = [q for q in queries if split_of(q["target"]) == args.split]
    print(f"{len(queries)} Chinese queries ({args.split} half), load {os.getloadavg()[0]:.1f}")
    t = time.perf_counter()
    if not args.grid:
        for glossary in (False, True):
            mrr, rec = evaluate(store, queries, glossary)
            print(f"glossary {'on ' if glossary else 'off'}: MRR@10 {mrr:.3f}  R@10 {rec:.3f}")
        print(f"({time.perf_counter() - t:.0f}s)")
        return
    base = {
        k: getattr(X, k)
        for k in ("MIN_SIMILARITY", "TERMS_PER_UNIT", "NEAR_BEST", "WORD_WEIGHT", "MAX_RUN_CHARS")
    }
    grid = itertools.product((0.45,), (2, 3), (0.04, 0.08, 0.12), (0.25, 0.5, 0.75), (8, 24))
    results = []
    for sim, per, near, word, run in grid:
        (X.MIN_SIMILARITY, X.TERMS_PER_UNIT, X.NEAR_BEST, X.WORD_WEIGHT, X.MAX_RUN_CHARS) = (
            sim,
            per,
            near,
            word,
            run,
        )
        mrr, rec = evaluate(store, queries, False)
        results.append((mrr, rec, sim, per, near, word, run))
        print(
            f"min_sim {sim} terms {per} near {near} word {word} run {run}: MRR@10 {mrr:.3f} R@10 {rec:.3f}",
            flush=True,
        )
    for k, v in base.items():
        setattr(X, k, v)
    best = max(results)
    print(
        f"best: MRR@10 {best[0]:.3f} R@10 {best[1]:.3f} with min_sim {best[2]}, terms "
        f"{best[3]}, near {best[4]}, word weight {best[5]}, run {best[6]} ({time.perf_counter() - t:.0f}s)"
    )


if __name__ == "__main__":
    main()
