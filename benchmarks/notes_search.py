"""Notes and tags in search (search/kept_match.py): the need-based queries ranked by
`search()` end to end on a copy of the ICLR atlas, first with no notes, then with notes and
tags on 300 papers that hold none of the queries' words (the ranking must not move), and
known-item queries that only a note can answer (its paper's rank, with and without notes).

    nice .venv/bin/python benchmarks/notes_search.py [--db /work/cache/search/iclr2026.db]

The atlas is copied to a temporary folder: notes are never written into the cached one.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from paperatlas import search as S
from paperatlas.store import Store
from search_common import REPO

NOTED = 300
KNOWN = 50


def top_ids(store, queries: list[str], k: int = 10) -> list[list[str]]:
    return [[h.id for h in S.search(store, q, k=k).hits] for q in queries]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, default=Path("/work/cache/search/iclr2026.db"))
    args = ap.parse_args()
    queries = [
        json.loads(line)["query"]
        for f in sorted((REPO / "benchmarks" / "queries").glob("*.jsonl"))
        if f.name != "needs.jsonl"
        for line in f.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "atlas.db"
        for src in args.db.parent.glob(args.db.name + "*"):
            shutil.copy(src, Path(tmp) / src.name.replace(args.db.name, "atlas.db"))
        store = Store(db)
        top_ids(store, queries)  # loads the indexes and models once, before any timing
        t = time.perf_counter()
        before = top_ids(store, queries)
        took = time.perf_counter() - t
        rng = random.Random(34)
        noted = rng.sample(sorted(store.papers.ids()), NOTED)
        with store.transaction():
            for n, pid in enumerate(noted):
                store.kept.set_note(pid, f"zqxv {n}: 看过，组会再议 qqpl")
                store.kept.add_tags(pid, [f"zzk-{'abcdefg'[n % 7]}"])
        top_ids(store, queries)  # again once: a write may have dropped what was loaded
        t = time.perf_counter()
        after = top_ids(store, queries)
        took_after = time.perf_counter() - t
        moved = sum(a != b for a, b in zip(before, after, strict=True))
        print(
            f"{len(queries)} need queries, top 10 by search(): {moved} changed after notes on {NOTED} papers"
        )
        print(f"  time for all queries (warm): {took:.2f}s without notes, {took_after:.2f}s with")
        known = noted[:KNOWN]
        asks = [f"wombat meeting {n} checklist" for n in range(KNOWN)]
        ranks_without = [
            next((h.rank for h in S.search(store, q, k=10).hits if h.id == pid), None)
            for q, pid in zip(asks, known, strict=True)
        ]
        with store.transaction():
            for n, pid in enumerate(known):
                store.kept.set_note(pid, f"For the wombat meeting {n}: add to the checklist")
        ranks = [
            next((h.rank for h in S.search(store, q, k=10).hits if h.id == pid), None)
            for q, pid in zip(asks, known, strict=True)
        ]
        first = sum(r == 1 for r in ranks) / KNOWN
        first_without = sum(r == 1 for r in ranks_without) / KNOWN
        print(
            f"{KNOWN} queries only a note answers: top-1 {first:.2f} (before the notes: {first_without:.2f})"
        )
        store.close()
    return 0 if moved == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
