"""`similar` latency at 15,602 papers with every signal: p50/p95 by paper id and by text.

    nice -n 10 .venv/bin/python benchmarks/similar_latency.py [--db PATH] [--n 100]
        [--compare-src /work/base/src] [--standin-from ATLAS ...]

The atlas of ../shared/data (benchmarks/search_common.py builds and caches it, all of
`paperatlas embed`'s models). Where it lacks a model's vectors for some papers, they are
filled with real vectors of that model from the other atlases named by --standin-from,
cycled (timing only, as search_latency.py's --minilm-standin: a ranking's cost does not
depend on the values; said in the output). Queries: `--n` papers drawn with a fixed seed,
each asked for by id and by its title and abstract as text (k = 10), end to end
(`Atlas.similar`: language, query vectors, BM25 of the key terms, every model's list,
fusion, hits), after one warm-up query of each kind, with the postings file a server
writes beside the atlas (`keyword.preload`; `--no-postings-file` skips writing it: postings
then come from SQLite, as in a first `paperatlas similar` before any server ran, when no
earlier run left the file). Baseline in the same rounds,
alternating per query: `similar` of another source tree (--compare-src) in a child
process over the same atlas.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from search_common import CACHE, DEFAULT_DATA, build_store

CHILD = """
import json, sys, time
from paperatlas.search import similar
from paperatlas.store import Store
store = Store(sys.argv[1], read_only=True)
for line in sys.stdin:
    q = json.loads(line)
    t, c = time.perf_counter(), time.process_time()
    similar(store, paper_id=q.get("id"), text=q.get("text"), k=10)
    print((time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000, flush=True)
"""


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def fill_standins(store, sources: list[Path]) -> None:
    from paperatlas.embed.registry import SEARCH_MODELS
    from paperatlas.store import Store

    ids = store.papers.ids()
    for model in SEARCH_MODELS:
        got, matrix = store.vectors.get(model)
        have = set(got)
        missing = [pid for pid in ids if pid not in have]
        if not missing:
            continue
        pool = [matrix] if len(got) else []
        for src in sources:
            _, other = Store(src, read_only=True).vectors.get(model)
            if len(other):
                pool.append(other)
        real = np.vstack(pool)
        fill = real[np.arange(len(missing)) % len(real)]
        with store.transaction():
            store.vectors.put(model, missing, fill, ["standin"] * len(missing))
        print(f"{model}: {len(ids) - len(missing):,} real vectors, {len(missing):,} stand-ins (timing only)")


def main() -> None:
    from paperatlas.api import Atlas
    from paperatlas.embed.registry import DEFAULT_MODEL
    from paperatlas.paper import embedding_text

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--db", type=Path, default=CACHE / "search" / "iclr2026.db")
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--compare-src", default=str(Path(__file__).resolve().parents[2] / "base" / "src"))
    ap.add_argument("--standin-from", type=Path, nargs="*", default=[])
    ap.add_argument("--no-postings-file", action="store_true")
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    store = build_store(args.data, args.db, [DEFAULT_MODEL])
    fill_standins(store, args.standin_from)
    atlas = Atlas(args.db)
    if not args.no_postings_file:
        from paperatlas.search import keyword

        keyword.preload(atlas.store)
    print(f"postings: {'SQLite' if args.no_postings_file else 'the postings file beside the atlas'}")
    papers = {p["id"]: p for p in atlas.store.papers.iter()}
    picked = random.Random(0).sample(sorted(papers), args.n)
    queries = [{"id": pid} for pid in picked] + [
        {"text": embedding_text(papers[pid].get("title"), papers[pid].get("abstract"))} for pid in picked
    ]
    child = None
    if args.compare_src:
        env = {**os.environ, "PYTHONPATH": args.compare_src}
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(args.db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def theirs(q: dict) -> tuple[float, float]:
        assert child is not None and child.stdin is not None and child.stdout is not None
        child.stdin.write(json.dumps(q) + "\n")
        child.stdin.flush()
        wall, cpu = child.stdout.readline().split()
        return float(wall), float(cpu)

    for q in (queries[0], queries[-1]):  # warm-up: models loaded, postings read
        r = atlas.similar(paper_id=q.get("id"), text=q.get("text"), k=10)
        if child:
            theirs(q)
    print(f"signals: {r.model} + keywords; notes: {r.notes or 'none'}")
    # wall and CPU milliseconds per query kind; CPU time is what a query costs on a quiet
    # machine (a query runs on one thread), wall time what it cost on this one
    ours: dict[tuple[str, str], list[float]] = {}
    base: dict[tuple[str, str], list[float]] = {}
    for q in queries:
        kind = "id" if "id" in q else "text"
        t, c = time.perf_counter(), time.process_time()
        atlas.similar(paper_id=q.get("id"), text=q.get("text"), k=10)
        ours.setdefault((kind, "wall"), []).append((time.perf_counter() - t) * 1000)
        ours.setdefault((kind, "cpu"), []).append((time.process_time() - c) * 1000)
        if child:
            wall, cpu = theirs(q)
            base.setdefault((kind, "wall"), []).append(wall)
            base.setdefault((kind, "cpu"), []).append(cpu)
    for key, values in ours.items():
        line = f"by {key[0]:4s} {key[1]:4s}: similar p50 {pct(values, 50):6.1f} ms  p95 {pct(values, 95):6.1f} ms"
        if key in base:
            b = base[key]
            line += f"   | before: p50 {pct(b, 50):6.1f} ms  p95 {pct(b, 95):6.1f} ms"
            line += f"   | p95 ratio {pct(values, 95) / pct(b, 95):.2f}x"
        print(line + f"  (n={len(values)})")
    for measure in ("wall", "cpu"):
        every = ours[("id", measure)] + ours[("text", measure)]
        print(f"all {len(every)} queries, {measure}: p95 {pct(every, 95):.1f} ms (target <= 100 ms)")
    if child:
        child.stdin.close()  # type: ignore[union-attr]
        child.wait()


if __name__ == "__main__":
    main()
