"""A paper's own name finds it first: every unique extracted name as a query, top-1 rate.

    nice .venv/bin/python benchmarks/search_names.py [--data ...] [--db ...] [--limit N]

Every paper of ../shared/data gets its headline name from the enrich extractor
(`extract_names`, the facts' `name`: "CIMemories", "CoDeC", ...). Names that more than
one paper carries (case-insensitive) are left out: a query for them has no single right
answer. Each remaining name is searched over all 15,602 papers with `search()` exactly
as the CLI and the web app call it (default model vectors, hybrid), and the hit at rank 1
is compared with the paper the name came from. The bench atlas carries the names in its
facts, as an atlas built by `paperatlas add` does. Baseline in the same run: the fusion
before issue 18 (`keyword_scale="minmax"`: each list min-max scaled, so a keyword list
with a single hit scores that hit 0; no name lookup).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections import Counter
from pathlib import Path

from paperatlas import search as S
from search_common import CACHE, DEFAULT_DATA, build_store, ensure_names, load_rows

BASELINE = {
    "learned": False,
    "keyword_scale": "minmax",
    "keyword_weight": 0.5,
    "vector_weight": 1.0,
    "method": "score",
    "name_weight": 0.0,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--db", type=Path, default=CACHE / "search" / "iclr2026.db")
    ap.add_argument("--limit", type=int, default=0, help="a random sample of this many names (0: all)")
    ap.add_argument("--no-baseline", action="store_true")
    args = ap.parse_args()

    from paperatlas.embed import DEFAULT_MODEL

    rows = load_rows(args.data)
    store = build_store(args.data, args.db, [DEFAULT_MODEL])
    names = {pid: n[0] for pid, n in ensure_names(store, rows).items()}
    counts = Counter(n.lower() for n in names.values())
    unique = sorted((pid, n) for pid, n in names.items() if counts[n.lower()] == 1)
    print(f"{len(rows):,} papers; {len(names):,} carry a name, {len(unique):,} of them unique")
    if args.limit and args.limit < len(unique):
        unique = random.Random(18).sample(unique, args.limit)
    print(f"load: {os.getloadavg()[0]:.2f}")
    systems = [("new hybrid (default)", None)]
    if not args.no_baseline:
        systems.append(("fusion before issue 18", BASELINE))
    for label, fusion in systems:
        t = time.perf_counter()
        top1 = top10 = 0
        misses = []
        for pid, name in unique:
            hits = [h.id for h in S.search(store, name, k=10, config=S.SearchConfig(fusion=fusion)).hits]
            top1 += bool(hits) and hits[0] == pid
            top10 += pid in hits
            if not hits or hits[0] != pid:
                misses.append((name, pid, hits[:1]))
        n = len(unique)
        print(
            f"{label}: top-1 {top1 / n:.4f} ({top1}/{n}), top-10 {top10 / n:.4f}  "
            f"[{time.perf_counter() - t:.0f}s, load {os.getloadavg()[0]:.2f}]"
        )
        for name, pid, got in misses[:15]:
            print(f"    miss: {name!r} -> {pid}, got {got}")


if __name__ == "__main__":
    main()
