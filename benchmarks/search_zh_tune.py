"""Chinese known-item queries alone, for tuning the learned cross-lingual terms quickly.

    nice .venv/bin/python benchmarks/search_zh_tune.py [--split tune|test] [--grid NAME=V1,V2 ...]
        [--glossary-too]

The 290 hand-written Chinese queries of benchmarks/queries/known/chinese.jsonl over the
abstract-only held-out atlas (search_known.py: same store, same split by target id),
MRR@10 and recall@10 of the library's search with the glossary off and on. `--grid
NAME=V1,V2 ...` tries every combination of the named settings of search/translate.py
(e.g. MIN_SIMILARITY, TERMS_PER_UNIT, NEAR_BEST, WORD_WEIGHT, DICTIONARY, DICT_BONUS)
with the glossary off, and with `--glossary-too` on as well: tune on `--split tune` only;
report `--split test` once, with the chosen settings.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
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


def evaluate(store, queries, glossary: bool, config: S.SearchConfig = S.SHIPPED) -> tuple[float, float]:
    """(MRR@10, recall@10) of the queries, searched with `config` (its glossary switch
    set to `glossary`)."""
    config = dataclasses.replace(config, glossary=glossary)
    rr, hit = [], []
    for q in queries:
        r = S.candidate_rankings(store, q["query"], config=config)
        top = [p for p, _ in S.fuse_rankings(r, config.fusion_overrides())[0][:K]]
        rank = rank_of(top, q["target"])
        rr.append(1.0 / rank if rank else 0.0)
        hit.append(1.0 if rank else 0.0)
    return statistics.fmean(rr), statistics.fmean(hit)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=str(CACHE / "search" / "heldout_abstracts.db"))
    ap.add_argument("--split", choices=("tune", "test"), default="tune")
    ap.add_argument(
        "--grid",
        nargs="+",
        type=grid_axis,
        metavar="NAME=V1,V2",
        help="settings of search/translate.py to try (every combination), e.g. DICT_BONUS=0,0.2",
    )
    ap.add_argument(
        "--glossary-too",
        action="store_true",
        help="with --grid, also each setting's figures with the glossary on",
    )
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
    names = [name for name, _ in args.grid]
    base = {name: getattr(X, name) for name in names}
    results = []
    for values in itertools.product(*(vals for _, vals in args.grid)):
        for name, value in zip(names, values):
            setattr(X, name, value)
        mrr, rec = evaluate(store, queries, False)
        setting = " ".join(f"{n}={v}" for n, v in zip(names, values))
        results.append((mrr, rec, setting))
        line = f"{setting}: glossary off MRR@10 {mrr:.3f} R@10 {rec:.3f}"
        if args.glossary_too:
            on = evaluate(store, queries, True)
            line += f"; on MRR@10 {on[0]:.3f} R@10 {on[1]:.3f}"
        print(line, flush=True)
    for name, value in base.items():
        setattr(X, name, value)
    best = max(results)
    print(f"best: MRR@10 {best[0]:.3f} R@10 {best[1]:.3f} with {best[2]} ({time.perf_counter() - t:.0f}s)")


def grid_axis(spec: str) -> tuple[str, list]:
    """ "NAME=v1,v2" -> (NAME, values parsed as Python literals)."""
    name, _, values = spec.partition("=")
    if not hasattr(X, name):
        raise argparse.ArgumentTypeError(f"search/translate.py has no setting {name}")
    return name, [ast.literal_eval(v) for v in values.split(",")]


if __name__ == "__main__":
    main()
