"""Every stage at N papers beside the 15,602 real ICLR 2026 ones, in the same run.

    .venv/bin/python benchmarks/scale.py --n 100000 [--stages add,enrich,embed,index,search,similar,map]
        [--corpus FILE] [--skip-base] [--work DIR] [--db EXISTING_ATLAS]

For each size, a fresh atlas goes through the stages, each its own process (`paperatlas`
commands; index, search and similar through the library in one process, as a server
runs them): wall time, peak memory (largest single process's resident set, from
`wait4`'s rusage: a stage's worker processes count each on its own), papers/s, and
the store's size after each stage. Search is end to end (`Atlas.search`, hybrid, k=10)
over the 20 queries below twice and the English queries of the 15,602-paper benchmark
(benchmarks/queries), after a server's preload (`api.web_reads.preload`, timed apart: it writes
the postings file beside the store when missing) and one warm-up: p50/p95/max;
search-cli runs `paperatlas search` in a new process for each of the first 10 queries
(wall and peak memory of each, as a terminal user meets it); similar times `Atlas.similar`
(the CLI's) and `api.web_reads.similar_papers` (the web page's panel) over 40 papers. The index stage builds the usearch graph whatever N (ANN threshold 0) to time the ANN build.

N papers come from `make_corpus.py` (SYNTHETIC, recombined real sentences; see
docs/bench/scale.md); the 15,602 are the real file. Run `uptime` beside it (shared
machine): each result line prints the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
REAL = REPO.parent / "shared" / "data" / "iclr2026.jsonl.gz"
STAGES = ["add", "enrich", "embed", "index", "search", "search-cli", "similar", "map"]
QUERIES = [
    "diffusion models for video generation",
    "graph neural networks oversmoothing",
    "offline reinforcement learning value function",
    "privacy of large language models",
    "benchmark for code generation agents",
    "uncertainty quantification in Bayesian deep learning",
    "federated learning with heterogeneous clients",
    "protein structure prediction",
    "test-time scaling of reasoning",
    "sparse autoencoders interpretability",
    "time series forecasting transformer",
    "adversarial robustness certified defenses",
    "contrastive self-supervised representation",
    "mixture of experts routing",
    "neural operators for PDEs",
    "vision language model hallucination",
    "quantization of large models",
    "causal discovery from observational data",
    "robot manipulation policy learning",
    "optimal transport generative models",
]


def run_popen_wait4(
    cmd: list[str], env: dict | None = None, cwd: Path | None = None, check: bool = True
) -> dict:
    """`cmd` with stdout/stderr to files, reaped by wait4 so its own rusage is read: wall
    seconds, CPU seconds (user + sys of the process and of every child it waited for: a
    pool's workers count) and peak memory (the largest resident set of the process or of
    any one of those children). With `check`, a failed command stops the benchmark."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env={**os.environ, **(env or {})}, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        if check and proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err.read()[-3000:]}")
        return {
            "s": wall,
            "cpu_s": usage.ru_utime + usage.ru_stime,
            "rss_mb": usage.ru_maxrss / 1024,
            "rc": proc.returncode,
            "out": out.read(),
            "err": err.read(),
        }


LIBRARY_STAGE = r"""
import json, resource, statistics, sys, time
from paperatlas import Atlas
from paperatlas.api import web_reads
stage, db, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
queries = json.loads(sys.argv[4])
atlas = Atlas(db)
out = {}

def spread(times):
    times = sorted(times)
    return {"p50_ms": 1000 * statistics.median(times), "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))],
            "max_ms": 1000 * times[-1]}

def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

if stage == "index":
    from paperatlas.embed.index import open_index
    t = time.perf_counter()
    index = open_index(atlas.store, "static", ann_threshold=0)
    out = {"build_s": time.perf_counter() - t, "kind": type(index).__name__, "vectors": len(index)}
elif stage == "search":
    t = time.perf_counter()
    web_reads.preload(atlas)  # what a server does in the background before it is warm
    preload_s = time.perf_counter() - t
    rss_preload = rss_mb()
    atlas.search("warm up the indexes", k=10)
    times = []
    for q in queries:
        t = time.perf_counter(); atlas.search(q, k=10); times.append(time.perf_counter() - t)
    out = {**spread(times), "queries": len(times), "preload_s": preload_s, "rss_after_preload_mb": rss_preload}
elif stage == "similar":
    from paperatlas.search import similar_ranking  # noqa: F401 (loaded before timing)
    ids = atlas.store.papers.ids()
    step = max(1, len(ids) // 41)
    picks = ids[step::step][:40]
    del ids
    atlas.similar(picks[0], k=10)
    cli, web = [], []
    for pid in picks:
        t = time.perf_counter(); atlas.similar(pid, k=10); cli.append(time.perf_counter() - t)
        paper = atlas.store.papers.get(pid)
        t = time.perf_counter(); web_reads.similar_papers(atlas, paper, k=10); web.append(time.perf_counter() - t)
    out = {**spread(cli), "papers": len(cli), "web_panel": spread(web)}
out["rss_in_mb"] = rss_mb()
print(json.dumps(out))
"""


def bench_queries() -> list[str]:
    """The English queries of the 15,602-paper search benchmark (benchmarks/queries)."""
    out = []
    for path in sorted((REPO / "benchmarks" / "queries").glob("*.jsonl")):
        if path.stem == "needs":  # descriptions of needs, not queries
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            query = json.loads(line)["query"] if line.strip() else ""
            if query.isascii() and query.strip():
                out.append(query)
    return out


def cold_searches(db: Path, queries: list[str]) -> dict:
    """`paperatlas search` in a new process per query, as a terminal user runs it."""
    walls, peaks = [], []
    for q in queries:
        r = run_popen_wait4([str(BIN / "paperatlas"), "search", q, "--db", str(db), "-k", "10", "--json"])
        walls.append(r["s"])
        peaks.append(r["rss_mb"])
    walls.sort()
    return {
        "s": sum(walls),
        "rss_mb": max(peaks),
        "p50_ms": 1000 * walls[len(walls) // 2],
        "p95_ms": 1000 * walls[int(0.95 * (len(walls) - 1))],
        "max_ms": 1000 * walls[-1],
        "queries": len(walls),
    }


def store_mb(db: Path) -> float:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*")) / 1e6


# Map stages whose cost does not grow with the list above the sample: the fit on
# cluster.MAP_SAMPLE papers ("sample" is the sum of its three) and the labels (the
# sample's text). Every other second of the map stage (reading the papers, placing them on
# the field and on the sample, saving, the process's start) counts as linear in papers.
FIXED_MAP_STAGES = ("sample knn", "sample layout", "sample clusters", "labels")


def map_stages(db: Path) -> dict:
    import sqlite3

    con = sqlite3.connect(db)
    row = con.execute("SELECT meta FROM maps WHERE scope = 'big'").fetchone()
    con.close()
    return json.loads(row[0]).get("stage_seconds", {}) if row else {}


def project_map(r: dict, n: int, target: int) -> str:
    """The map's time at `target` papers from a run at n: its fixed stages as they were,
    the rest scaled linearly (a PROJECTION, not a measurement)."""
    stages = r.get("map_stages") or {}
    fixed = sum(v for k, v in stages.items() if k in FIXED_MAP_STAGES)
    linear = r["s"] - fixed
    total = fixed + linear * target / n
    return (
        f"map at {target:,} papers, PROJECTED from {n:,}: fixed {fixed:.0f} s + "
        f"{1000 * linear / n:.2f} ms/paper x {target:,} = {total / 60:.1f} min"
    )


def run_size(label: str, corpus: Path, n: int, work: Path, stages: list[str], db: Path | None = None) -> dict:
    db = db or work / f"{label}.db"
    pa = str(BIN / "paperatlas")
    results = {}
    for stage in stages:
        if stage == "add":
            r = run_popen_wait4([pa, "add", str(corpus), "--list", "big", "--no-enrich", "--db", str(db)])
        elif stage == "enrich":
            r = run_popen_wait4([pa, "enrich", "--db", str(db)])
        elif stage == "embed":
            r = run_popen_wait4([pa, "embed", "--model", "static", "--db", str(db)])
        elif stage == "map":
            r = run_popen_wait4([pa, "map", "--list", "big", "--model", "static", "--db", str(db)])
        elif stage == "search-cli":
            r = cold_searches(db, QUERIES[:10])
        else:
            queries = QUERIES * 2 + bench_queries()
            r = run_popen_wait4(
                [sys.executable, "-c", LIBRARY_STAGE, stage, str(db), str(n), json.dumps(queries)]
            )
            r.update(json.loads(r["out"].strip().splitlines()[-1]))
        r.pop("out", None)
        r.pop("err", None)
        if stage == "map":
            r["map_stages"] = map_stages(db)
        r["papers_s"] = n / r["s"] if stage not in ("search", "search-cli", "similar") else None
        r["store_mb"] = store_mb(db)
        r["load"] = os.getloadavg()[0]
        results[stage] = r
        print(
            f"{label} {stage}: "
            + json.dumps({k: (round(v, 2) if isinstance(v, float) else v) for k, v in r.items()}),
            flush=True,
        )
    return results


def count_lines(path: Path) -> int:
    import gzip

    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return sum(1 for line in fh if line.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--stages", default=",".join(STAGES))
    ap.add_argument("--corpus", type=Path, help="an existing make_corpus.py file of N papers")
    ap.add_argument("--skip-base", action="store_true", help="skip the 15,602 baseline")
    ap.add_argument("--work", type=Path, help="folder for the corpus and atlases (default: a temp dir)")
    ap.add_argument(
        "--db",
        type=Path,
        help="an existing atlas of the N papers (e.g. for --stages search,search-cli,similar)",
    )
    args = ap.parse_args()
    stages = [s for s in args.stages.split(",") if s]
    work = args.work or Path(tempfile.mkdtemp(prefix="pa-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"work dir {work}; load {os.getloadavg()}; cores {os.cpu_count()}", flush=True)
    corpus = args.corpus
    if corpus is None and args.db is not None:
        corpus = args.db  # not read: the stages given run on the existing atlas
    if corpus is None:
        corpus = work / f"corpus-{args.n}.jsonl.gz"
        if not corpus.exists():
            t = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    str(REPO / "benchmarks" / "make_corpus.py"),
                    str(args.n),
                    "--out",
                    str(corpus),
                ],
                check=True,
            )
            print(f"corpus of {args.n:,}: {time.perf_counter() - t:.0f} s", flush=True)
    all_results = {}
    if not args.skip_base:
        all_results["15602"] = run_size("real-15602", REAL, count_lines(REAL), work, stages)
    all_results[str(args.n)] = run_size(f"synthetic-{args.n}", corpus, args.n, work, stages, args.db)
    print("\n| stage | " + " | ".join(f"{k} papers: s / MB peak / papers/s" for k in all_results) + " |")
    print("| --- |" + " --- |" * len(all_results))
    for stage in stages:
        cells = []
        for _size, res in all_results.items():
            r = res[stage]
            if stage in ("search", "search-cli", "similar"):
                cells.append(
                    f"p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, max {r['max_ms']:.0f} ms / {r['rss_mb']:.0f}"
                )
            else:
                cells.append(f"{r['s']:.1f} / {r['rss_mb']:.0f} / {r['papers_s']:.0f}")
        print(f"| {stage} | " + " | ".join(cells) + " |")
    print(
        "store MB: "
        + ", ".join(f"{k}: {max(r['store_mb'] for r in res.values()):.0f}" for k, res in all_results.items())
    )
    for size, res in all_results.items():
        if "map" in res and res["map"].get("map_stages"):
            print(f"map stages at {size}: {res['map']['map_stages']}")
            if int(size) > 40_000:
                print(project_map(res["map"], int(size), 1_000_000))
    print(f"load at end {os.getloadavg()}")
    (work / "results.json").write_text(json.dumps(all_results, indent=1))


if __name__ == "__main__":
    main()
