"""CSFCube (faceted query by example): `similar --text` on its 50 query abstracts, MAP and NDCG%20.

    .venv/bin/python benchmarks/csfcube.py [CSFCUBE_DIR] [--db /work/cache/csfcube/csfcube.db]
        [--compare-src /work/base/src] [--fold fold1_test]

Each query paper's title and abstract is the text; its pool (the candidates judged for
one facet: background, method or result) is the set `similar` ranks (`allowed`), and the
whole pool is ranked. Metrics as the benchmark defines them (its paper and eval script,
re-implemented here): average precision with grades >= 2 relevant, over the whole ranked
pool; NDCG at 20% of the pool's size on the 0-3 grades (the first rank undiscounted,
rank i >= 2 discounted by log2(i)); means over the query-facet pairs of a fold.
Folds: `evaluation_splits.json`; fold1_dev (24 pairs) is the half the fusion may be tuned
on, fold1_test (the other 26) the half reported once (`--fold`). "both" is the mean of
the two test folds' means (all 50 pairs), the benchmark's own test figure.

Rows, in the same run: `similar` of another source tree (`--compare-src`, the code before
this change, in a child process over the same atlas), BM25 of the abstract's key terms,
a TF-IDF cosine, each signal alone, and the fused ranking.

The data folder is a checkout of https://github.com/iesl/CSFCube (never committed here):
`test-pid2anns-csfcube-{background,method,result}.json` (each query's pool and graded
relevance), `evaluation_splits.json` (the two folds), and the papers' titles and abstracts
from `abstracts-csfcube-preds.jsonl` when present, else from `readable_annotations/*.txt`
(the same titles and abstracts, one file per query-facet pair, every pool paper in them).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from paperatlas.store import Store  # noqa: E402
from search_common import CACHE  # noqa: E402

FACETS = ("background", "method", "result")
DEFAULT_DIR = Path(os.environ.get("CSFCUBE_DIR", "CSFCube"))  # a checkout of iesl/CSFCube
SENTENCE_LABEL = re.compile(r"^(background|objective|method|result|other)_label: ", re.M)


def check_folder(folder: Path) -> None:
    wanted = [f"test-pid2anns-csfcube-{f}.json" for f in FACETS] + ["evaluation_splits.json"]
    missing = [name for name in wanted if not (folder / name).exists()]
    if (
        not (folder / "abstracts-csfcube-preds.jsonl").exists()
        and not (folder / "readable_annotations").is_dir()
    ):
        missing.append("abstracts-csfcube-preds.jsonl or readable_annotations/")
    if missing:
        raise SystemExit(
            f"{folder}: not a CSFCube checkout (missing {', '.join(missing)}); clone "
            "https://github.com/iesl/CSFCube and pass its folder (or set CSFCUBE_DIR)"
        )


def read_papers(folder: Path) -> dict[str, dict]:
    """paper id -> {title, abstract} for every query and pool paper."""
    jsonl = folder / "abstracts-csfcube-preds.jsonl"
    papers: dict[str, dict] = {}
    if jsonl.exists():
        for line in jsonl.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                papers[str(row["paper_id"])] = {"title": row["title"], "abstract": " ".join(row["abstract"])}
        return papers
    for path in sorted((folder / "readable_annotations").glob("*.txt")):
        for block in re.split(r"\n=+\n", "\n" + path.read_text(encoding="utf-8")):
            pid = re.search(r"paper_id: (\S+?);", block)
            title = re.search(r"^TITLE: (.*)$", block, re.M)
            abstract = re.search(r"^ABSTRACT: (.*)", block, re.M | re.S)
            if pid and abstract and pid.group(1) not in papers:
                # each sentence is printed after its predicted facet label: drop the labels
                text = SENTENCE_LABEL.sub("", abstract.group(1).strip())
                papers[pid.group(1)] = {
                    "title": title.group(1).strip() if title else None,
                    "abstract": " ".join(text.split()),
                }
    return papers


def read_pools(folder: Path) -> dict[str, dict[str, dict[str, int]]]:
    """facet -> query id -> {candidate id: adjudicated relevance 0-3}."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for facet in FACETS:
        raw = json.loads((folder / f"test-pid2anns-csfcube-{facet}.json").read_text())
        out[facet] = {
            q: dict(zip(map(str, pool["cands"]), pool["relevance_adju"])) for q, pool in raw.items()
        }
    return out


def read_folds(folder: Path) -> dict[str, list[tuple[str, str]]]:
    """fold name (fold1_dev, fold1_test, ...) -> [(query id, facet)] over all facets."""
    raw = json.loads((folder / "evaluation_splits.json").read_text())
    folds: dict[str, list[tuple[str, str]]] = {}
    for facet in FACETS:
        for fold, keys in raw[facet].items():
            folds.setdefault(fold, []).extend((k.rsplit("_", 1)[0], facet) for k in keys)
    return folds


def build_atlas(papers: dict[str, dict], db: Path, models: list[str], log=print) -> Store:
    """An atlas of the CSFCube papers (title + abstract), with vectors of `models`."""
    from paperatlas.embed import embed_store

    db.parent.mkdir(parents=True, exist_ok=True)
    store = Store(db)
    if store.papers.count() != len(papers):
        with store.transaction():
            have = set(store.papers.ids())
            for pid, p in papers.items():
                if pid not in have:
                    store.papers.insert({"id": pid, "title": p["title"], "abstract": p["abstract"]})
        log(f"CSFCube atlas: {len(papers):,} papers at {db}")
    for model in models:
        if store.vectors.signature(model)[0] != len(papers):
            embed_store(store, model=model, progress=False)
            log(f"vectors: {model}")
    return store


# -- metrics ---------------------------------------------------------------------------------


def average_precision(grades: list[int], threshold: int = 2) -> float:
    """Average precision of a ranked pool, grades >= `threshold` relevant (0 when none is)."""
    hits, total = 0, 0.0
    for rank, grade in enumerate(grades, start=1):
        if grade >= threshold:
            hits += 1
            total += hits / rank
    return total / hits if hits else 0.0


def dcg(grades: list[int], k: int) -> float:
    top = np.asarray(grades[:k], dtype=np.float64)
    if not len(top):
        return 0.0
    return float(top[0] + np.sum(top[1:] / np.log2(np.arange(2, len(top) + 1))))


def ndcg_share(grades: list[int], share: float = 0.2) -> float:
    """NDCG at `share` of the pool's size (NDCG%20)."""
    k = int(share * len(grades))
    best = dcg(sorted(grades, reverse=True), k)
    return dcg(grades, k) / best if best else 0.0


def pair_metrics(ranked: list[str], pool: dict[str, int]) -> tuple[float, float]:
    """(AP, NDCG%20) of a ranking of the pool; candidates it left out follow in pool order."""
    seen = [pid for pid in dict.fromkeys(ranked) if pid in pool]
    order = seen + [pid for pid in pool if pid not in set(seen)]
    grades = [pool[pid] for pid in order]
    return average_precision(grades), ndcg_share(grades)


def fold_means(per_pair: dict[tuple[str, str], tuple[float, float]], pairs) -> tuple[float, float]:
    values = np.array([per_pair[p] for p in pairs])
    return float(values[:, 0].mean()) * 100, float(values[:, 1].mean()) * 100


# -- rankings ------------------------------------------------------------------------------------


def query_text(papers: dict[str, dict], qid: str) -> str:
    from paperatlas.paper import embedding_text

    return embedding_text(papers[qid]["title"], papers[qid]["abstract"])


def tfidf_rankings(papers, pools) -> dict[tuple[str, str], list[str]]:
    """Cosine of TF-IDF vectors (fit on every CSFCube paper) of the query and each candidate."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    ids = list(papers)
    where = {pid: i for i, pid in enumerate(ids)}
    matrix = TfidfVectorizer(sublinear_tf=True, stop_words="english").fit_transform(
        [query_text(papers, pid) for pid in ids]
    )
    out = {}
    for facet, queries in pools.items():
        for qid, pool in queries.items():
            cands = list(pool)
            sims = (matrix[[where[c] for c in cands]] @ matrix[where[qid]].T).toarray().ravel()
            out[(qid, facet)] = [cands[i] for i in np.argsort(-sims, kind="stable")]
    return out


# a `similar_ranking` of another source tree, in a child process: JSON {text, pool} per line
# in, the ranked ids out (the signature of similar_ranking before it took `like`)
CHILD = """
import json, sys
from paperatlas.search import similar_ranking
from paperatlas.store import Store
store = Store(sys.argv[1], read_only=True)
for line in sys.stdin:
    q = json.loads(line)
    got = similar_ranking(store, q["text"], len(q["pool"]), None, set(q["pool"]))
    print(json.dumps([pid for pid, _ in got[0]]), flush=True)
"""


def other_tree_rankings(src: str, db: Path, papers, pools) -> dict[tuple[str, str], list[str]]:
    import subprocess

    keys = [(qid, facet) for facet, queries in pools.items() for qid in queries]
    lines = "".join(
        json.dumps({"text": query_text(papers, qid), "pool": list(pools[facet][qid])}) + "\n"
        for qid, facet in keys
    )
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(db)],
        input=lines,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return dict(zip(keys, (json.loads(line) for line in done.stdout.splitlines())))


def signal_tables(store, papers, pools, log=print) -> dict[tuple[str, str], object]:
    """(query, facet) -> its SignalScores over its pool, every signal computed."""
    from paperatlas.search.similar_signals import signal_scores

    every = {"keyword": 1.0, **dict.fromkeys(store.vectors.models(), 1.0)}
    out = {}
    t = time.perf_counter()
    for facet, queries in pools.items():
        for qid, pool in queries.items():
            out[(qid, facet)] = signal_scores(
                store, query_text(papers, qid), len(pool), allowed=set(pool), weights=every
            )
    log(f"signals of {len(out)} query-facet pairs in {time.perf_counter() - t:.0f}s")
    return out


def fused_rankings(tables, weights) -> dict[tuple[str, str], list[str]]:
    return {key: [pid for pid, _ in table.fused(weights)] for key, table in tables.items()}


def report_rows(rows: dict[str, dict], pools, folds, fold: str, log=print) -> dict[str, dict[str, float]]:
    """Print MAP and NDCG%20 of each method on the tuning fold, `fold` and both test folds."""
    tune = "fold1_dev" if fold == "fold1_test" else "fold2_dev"
    out = {}
    log(f"{'method':28s} {'tune ' + tune:>22s} {'report ' + fold:>22s} {'both test folds':>20s}")
    log(f"{'':28s} {'MAP':>10s} {'NDCG%20':>11s} {'MAP':>10s} {'NDCG%20':>11s} {'MAP':>9s} {'NDCG%20':>10s}")
    for name, ranked in rows.items():
        per = {key: pair_metrics(ranked[key], pools[key[1]][key[0]]) for key in ranked}
        t_map, t_ndcg = fold_means(per, folds[tune])
        r_map, r_ndcg = fold_means(per, folds[fold])
        both = [fold_means(per, folds[f]) for f in ("fold1_test", "fold2_test")]
        b_map, b_ndcg = float(np.mean([b[0] for b in both])), float(np.mean([b[1] for b in both]))
        out[name] = {"tune_map": t_map, "tune_ndcg": t_ndcg, "map": r_map, "ndcg": r_ndcg, "both_map": b_map}
        log(
            f"{name:28s} {t_map:10.1f} {t_ndcg:11.1f} {r_map:10.1f} {r_ndcg:11.1f} {b_map:9.1f} {b_ndcg:10.1f}"
        )
    return out


def main() -> None:
    import argparse

    from paperatlas.embed.registry import SEARCH_MODELS
    from paperatlas.search.similar_signals import SIGNAL_WEIGHTS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR, help="a CSFCube checkout")
    ap.add_argument(
        "--db", type=Path, default=CACHE / "csfcube" / "csfcube.db", help="its atlas (built once)"
    )
    ap.add_argument("--compare-src", default=str(REPO.parent / "base" / "src"), help="the baseline's src/")
    ap.add_argument("--fold", default="fold1_test", choices=("fold1_test", "fold2_test"))
    args = ap.parse_args()
    check_folder(args.folder)
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    papers, pools, folds = read_papers(args.folder), read_pools(args.folder), read_folds(args.folder)
    store = build_atlas(papers, args.db, list(SEARCH_MODELS))
    tables = signal_tables(store, papers, pools)
    rows: dict[str, dict] = {}
    if args.compare_src:
        rows["similar before (baseline)"] = other_tree_rankings(args.compare_src, args.db, papers, pools)
    rows["tf-idf cosine"] = tfidf_rankings(papers, pools)
    for signal in ["keyword", *store.vectors.models()]:
        rows[f"{signal} alone"] = fused_rankings(tables, {signal: 1.0})
    rows["similar (fused)"] = fused_rankings(tables, SIGNAL_WEIGHTS)
    print(f"weights: {SIGNAL_WEIGHTS}")
    report_rows(rows, pools, folds, args.fold)
    print("SPECTER (the benchmark's own figure, both test folds): MAP 34.2, NDCG%20 53.3")


if __name__ == "__main__":
    main()
