"""Map quality and speed on ICLR 2026, side by side in one run.

For the same stored vectors:
  - paperatlas: `build_map` (layout + two-level topics + labels + store), timed end to end;
  - k-means with the same number of clusters as paperatlas's broad topics;
  - BERTopic 0.17 with its defaults (if installed: `pip install 'bertopic==0.17.*'`).
Reported per method: adjusted mutual information and purity of the topics against
`primary_area` over ALL papers (outliers included: BERTopic's -1 counts as one cluster),
outlier share, number of topics, wall time with embeddings already stored, sample labels.

Nothing here is fit on primary_area: the areas are only used to score the clusters.

    .venv/bin/python benchmarks/atlas_eval.py [--data ../shared/data/iclr2026.jsonl.gz]
        [--vectors /work/cache/vectors/minilm.npy --ids /work/cache/vectors/ids.json]
        [--model minilm] [--no-bertopic]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))


def purity(labels, truth) -> float:
    counts: dict = defaultdict(Counter)
    for c, t in zip(labels, truth):
        counts[c][t] += 1
    return sum(max(v.values()) for v in counts.values()) / len(truth)


HELD_OUT: list[bool] = []  # per paper: in the evaluation split no shipped model was fit on


def scores(labels, truth) -> dict:
    """AMI and purity over all papers, and over the held-out split only (the figure that
    counts for vectors from a model fit on the rest of this data, e.g. `static`)."""
    from sklearn.metrics import adjusted_mutual_info_score

    labels, truth = list(labels), list(truth)
    held = [i for i, h in enumerate(HELD_OUT) if h]
    hl, ht = [labels[i] for i in held], [truth[i] for i in held]
    return {
        "ami": round(float(adjusted_mutual_info_score(truth, labels)), 4),
        "purity": round(purity(labels, truth), 4),
        "ami_held_out": round(float(adjusted_mutual_info_score(ht, hl)), 4) if held else None,
        "purity_held_out": round(purity(hl, ht), 4) if held else None,
    }


def load(data: Path, vectors: Path, ids_path: Path, limit: int | None):
    with gzip.open(data, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    matrix = np.load(vectors).astype(np.float32)
    ids = json.loads(ids_path.read_text())
    if len(ids) != len(matrix):
        sys.exit(f"{vectors}: {len(matrix)} rows but {ids_path} has {len(ids)} ids")
    position = {pid: i for i, pid in enumerate(ids)}
    rows = [r for r in rows if r["id"] in position]
    if limit:
        rows = rows[:limit]
    matrix = matrix[[position[r["id"]] for r in rows]]
    return rows, matrix


def make_store(path: Path, rows, matrix, model: str):
    from paperatlas.paper import text_hash
    from paperatlas.store import Store

    store = Store(path)
    with store.transaction():
        store.lists.ensure("iclr2026")
        for i, r in enumerate(rows):
            store.papers.insert(
                {
                    "id": r["id"],
                    "title": r["title"],
                    "abstract": r["abstract"],
                    "keywords": r.get("keywords") or [],
                    "area": r["primary_area"],
                    "decision": r.get("decision"),
                    "rating": r.get("rating_avg"),
                    "venue": "ICLR 2026",
                    "year": 2026,
                }
            )
            store.lists.add_member("iclr2026", r["id"], i)
        store.vectors.put(model, [r["id"] for r in rows], matrix, [text_hash(r["abstract"]) for r in rows])
    return store


def run_paperatlas(store, model: str, truth):
    from paperatlas.atlas import build_map

    started = time.perf_counter()
    stored = build_map(store, list_name="iclr2026", model=model, force=True)
    seconds = time.perf_counter() - started
    by_id = {a["paper_id"]: a for a in stored["assignments"]}
    ids = store.papers.ids("iclr2026")
    broad = [by_id[i]["broad"] for i in ids]
    fine = [by_id[i]["fine"] for i in ids]
    outliers = sum(by_id[i]["outlier"] for i in ids)
    topics = sorted((t for t in stored["topics"] if t["level"] == 0), key=lambda t: -t["size"])
    fine_topics = sorted((t for t in stored["topics"] if t["level"] == 1), key=lambda t: -t["size"])
    again = time.perf_counter()
    build_map(store, list_name="iclr2026", model=model)
    reuse = time.perf_counter() - again
    return {
        "method": "paperatlas",
        "topics": len(topics),
        "fine_topics": len(fine_topics),
        **scores(broad, truth),
        "fine": scores(fine, truth),
        "outlier_share": round(outliers / len(ids), 4),
        "seconds": round(seconds, 1),
        "stage_seconds": stored["meta"].get("stage_seconds"),
        "reuse_seconds": round(reuse, 2),
        "labels": [f"{t['label']} ({t['size']})" for t in topics],
        "fine_labels": [t["label"] for t in fine_topics[:40]],
    }


def run_kmeans(matrix, k: int, truth):
    from sklearn.cluster import KMeans

    from paperatlas.atlas.cluster import unit_rows

    started = time.perf_counter()
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):  # as fast as it gets on a shared 2-core machine
        labels = KMeans(n_clusters=k, n_init=3, random_state=0).fit_predict(unit_rows(matrix))
    return {
        "method": f"k-means (k={k})",
        "topics": k,
        **scores(labels, truth),
        "outlier_share": 0.0,
        "seconds": round(time.perf_counter() - started, 1),
        "labels": [],
    }


def run_bertopic(rows, matrix, truth):
    try:
        from bertopic import BERTopic
    except ImportError:
        return None
    docs = [f"{r['title']}\n\n{r['abstract']}" for r in rows]
    started = time.perf_counter()
    model = BERTopic()  # defaults: UMAP(5-d) + HDBSCAN(min_cluster_size=10) + c-TF-IDF
    labels, _ = model.fit_transform(docs, embeddings=matrix)
    seconds = time.perf_counter() - started
    labels = np.asarray(labels)
    info = model.get_topic_info()
    names = [f"{n} ({c})" for n, c in zip(info["Name"], info["Count"]) if not n.startswith("-1")]
    return {
        "method": "BERTopic 0.17 (defaults)",
        "topics": int(labels.max()) + 1,
        **scores(labels, truth),
        "outlier_share": round(float((labels == -1).mean()), 4),
        "seconds": round(seconds, 1),
        "labels": names[:25],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=REPO / "../shared/data/iclr2026.jsonl.gz")
    ap.add_argument("--model", default="minilm", help="name of the vectors (file <model>.npy)")
    ap.add_argument("--vectors", type=Path, help="default /work/cache/vectors/<model>.npy")
    ap.add_argument(
        "--ids", type=Path, help="row ids of the vectors (default: ids.json beside the vectors file)"
    )
    ap.add_argument("--limit", type=int, help="only the first N papers (quick runs)")
    ap.add_argument("--no-bertopic", action="store_true")
    ap.add_argument("--out", type=Path, help="also write the results as JSON here")
    args = ap.parse_args()
    vectors = args.vectors or Path(f"/work/cache/vectors/{args.model}.npy")
    args.ids = args.ids or vectors.with_name("ids.json")
    if not args.data.exists():
        sys.exit(f"{args.data}: no such file (pass --data)")
    if not vectors.exists():
        sys.exit(f"{vectors}: no such file (pass --vectors, or embed the data first)")

    rows, matrix = load(args.data, vectors, args.ids, args.limit)
    truth = [r["primary_area"] for r in rows]
    from paperatlas.enrich.areas import is_held_out

    HELD_OUT[:] = [is_held_out(r["id"]) for r in rows]
    print(
        f"{len(rows):,} papers, vectors {args.model} {matrix.shape}, "
        f"{len(set(truth))} primary areas; load {os.getloadavg()[0]:.1f}",
        flush=True,
    )

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        store = make_store(Path(tmp) / "eval.db", rows, matrix, args.model)
        results.append(run_paperatlas(store, args.model, truth))
        print(f"paperatlas done in {results[-1]['seconds']} s", flush=True)
        store.close()
    results.append(run_kmeans(matrix, results[0]["topics"], truth))
    print(f"k-means done in {results[-1]['seconds']} s", flush=True)
    if not args.no_bertopic:
        bt = run_bertopic(rows, matrix, truth)
        if bt is None:
            print("BERTopic not installed: skipped (pip install 'bertopic==0.17.*')")
        else:
            results.append(bt)

    print()
    print(
        f"{'method':28} {'topics':>6} {'AMI':>6} {'purity':>7} {'AMI(held-out)':>13} "
        f"{'purity(h-o)':>11} {'outliers':>9} {'seconds':>8}"
    )
    for r in results:
        print(
            f"{r['method']:28} {r['topics']:>6} {r['ami']:>6.3f} {r['purity']:>7.3f} "
            f"{r['ami_held_out']:>13.3f} {r['purity_held_out']:>11.3f} "
            f"{r['outlier_share']:>9.1%} {r['seconds']:>8.1f}"
        )
    print(
        f"(held-out: the {sum(HELD_OUT):,} papers of the evaluation split; the only AMI that "
        f"counts for vectors from a model fit on this data, such as `static`)"
    )
    pa = results[0]
    for other in results[1:]:
        print(
            f"AMI ratio paperatlas / {other['method']}: {pa['ami'] / max(other['ami'], 1e-9):.2f} "
            f"(held-out {pa['ami_held_out'] / max(other['ami_held_out'], 1e-9):.2f})"
        )
    print(
        f"paperatlas fine level: {pa['fine_topics']} topics, AMI {pa['fine']['ami']:.3f}, "
        f"purity {pa['fine']['purity']:.3f}; stages {pa['stage_seconds']}; "
        f"unchanged rebuild {pa['reuse_seconds']} s"
    )
    for r in results:
        if r["labels"]:
            print(f"\n{r['method']} labels:")
            for label in r["labels"][:25]:
                print(f"  {label}")
    print("\npaperatlas fine labels (largest 40):")
    for label in pa["fine_labels"]:
        print(f"  {label}")
    print(f"\nload at end {os.getloadavg()[0]:.1f}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
