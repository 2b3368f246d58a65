"""What the sampled map's shortcuts cost in quality, on the real ICLR 2026 papers.

Above `cluster.MAP_SAMPLE` papers the map is fit on a sample and every other paper is
placed on it, and topic labels read only the sample's text. 15,602 papers are below the
sample size, so this forces a smaller sample (--sample) and measures, on ONE fit:

  - placement: the HNSW graph search (the map's own) against the exact search it
    replaced (baseline, same run): share of placed papers given the same fine topic,
    AMI of broad and fine topics against `primary_area` on the held-out papers
    (`enrich.areas.is_held_out`; each half by a salted sha1 of the id), seconds;
  - labels: topics labelled from the sample's text against labels from every paper's
    text (baseline): how many labels differ, broad and fine.

Nothing here is tuned: the figures are read, not searched over.

    .venv/bin/python benchmarks/map_sample_eval.py --db STORE [--sample 8000]

STORE: an atlas holding the 15,602 papers with `static` vectors (`paperatlas add
../shared/data/iclr2026.jsonl.gz && paperatlas embed --model static`), enriched or not.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def half(pid: str) -> str:
    return "A" if hashlib.sha1(b"map-sample-half:" + pid.encode()).digest()[0] % 2 == 0 else "B"


def exact_nearest(graph, target, query, k):
    sims = query @ target.T
    part = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    return part, np.take_along_axis(sims, part, axis=1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--sample", type=int, default=8000)
    ap.add_argument("--model", default="static")
    args = ap.parse_args()

    from sklearn.metrics import adjusted_mutual_info_score as ami
    from threadpoolctl import threadpool_limits

    import paperatlas.atlas.cluster as cl
    from paperatlas.atlas.build import MIN_WORDS
    from paperatlas.atlas.topics import describe_topics, read_pages
    from paperatlas.enrich.areas import is_held_out
    from paperatlas.enrich.text import text_length
    from paperatlas.store import Store

    store = Store(args.db)
    ids, vectors = store.vectors.get(args.model)
    area = {p["id"]: p.get("area") for p in store.papers.get_many(ids)}
    print(f"{len(ids):,} papers, sample {args.sample:,}; load {os.getloadavg()[0]:.1f}", flush=True)
    n = len(ids)
    sample = np.sort(np.random.default_rng(cl.SEED).choice(n, args.sample, replace=False))
    rest = np.setdiff1d(np.arange(n), sample)
    pages = read_pages(
        store, ids, lambda p: text_length(p.get("abstract") or "") or (MIN_WORDS if p.get("title") else 0)
    )
    short = pages.words < MIN_WORDS
    auto_broad, auto_fine = cl.topic_counts(n)
    with threadpool_limits(limits=1):
        fit = cl._fit(vectors[sample], cl.SEED, auto_broad, auto_fine, short[sample])
        results = {}
        graph_nearest = cl._nearest
        for name, nearest in (("exact (baseline)", exact_nearest), ("HNSW graph", graph_nearest)):
            cl._nearest = nearest
            started = time.perf_counter()
            placed = cl.place_on_sample(vectors, cl.unit_rows(vectors[sample]), fit, cl.SEED, rows=rest)
            seconds = time.perf_counter() - started
            merged = cl._merge(n, sample, fit, rest, placed, short, cl.StageClock())
            merged.fitted = sample
            results[name] = (placed, merged, seconds)
        cl._nearest = graph_nearest

    held = np.array([is_held_out(pid) for pid in ids])
    halves = np.array([half(pid) for pid in ids])
    truth = np.array([area[pid] or "" for pid in ids])
    placed_mask = np.zeros(n, bool)
    placed_mask[rest] = True
    print("\nplacement of the papers outside the sample:")
    print(
        "| search | seconds | ms/paper | AMI broad held-out A / B | AMI fine held-out A / B | same fine topic as exact |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    exact_fine = results["exact (baseline)"][0].fine
    for name, (placed, merged, seconds) in results.items():
        cells = []
        for labels in (merged.broad, merged.fine):
            cells.append(
                " / ".join(
                    f"{ami(truth[m], labels[m]):.4f}"
                    for h in "AB"
                    for m in [held & (halves == h) & placed_mask]
                )
            )
        same = float((placed.fine == exact_fine).mean())
        print(
            f"| {name} | {seconds:.1f} | {1000 * seconds / len(rest):.2f} | {cells[0]} | {cells[1]} | {same:.1%} |"
        )

    merged = results["HNSW graph"][1]
    started = time.perf_counter()
    sampled, _ = describe_topics(store, ids, merged, pages)
    t_sampled = time.perf_counter() - started
    merged.fitted = None
    started = time.perf_counter()
    every, _ = describe_topics(store, ids, merged, pages)
    t_every = time.perf_counter() - started
    print("\nlabels of the same topics:")
    for level, name in ((0, "broad"), (1, "fine")):
        a = [t["label"] for t in sampled if t["level"] == level]
        b = [t["label"] for t in every if t["level"] == level]
        differ = [(x, y) for x, y in zip(a, b) if x != y]
        print(f"  {name}: {len(differ)} of {len(a)} labels differ from the every-paper labels (baseline)")
        for x, y in differ[:8]:
            print(f"    sample: {x!r}   every paper: {y!r}")
    print(f"  seconds: sample text {t_sampled:.1f}, every paper's text {t_every:.1f}")


if __name__ == "__main__":
    main()
