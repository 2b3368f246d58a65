"""Peak memory of `embed` (and `enrich`) on a big store: this checkout vs a baseline one.

    .venv/bin/python benchmarks/stream_memory.py --db /tmp/scale/100k.db \
        --baseline-src /tmp/base13/src [--stage embed|enrich] [--model static] [--work DIR]

Each stage runs twice, each in its own process on its own copy of the store (`--db` is not
written): with the baseline's code (`PYTHONPATH=<baseline-src>`) and with this checkout's.
Peak memory is the process's own peak RSS (getrusage RUSAGE_SELF): enrich's worker
processes are not in it (`--workers 1` keeps the extraction in the measured process), nor
are the Ray processes of `embed-ray` (the driver alone, `--workers` actors). The two stores' results
are compared afterwards: vectors bit for bit, or facts and their hashes and versions.
Run niced; the machine is shared (the load is printed), but memory does not depend on it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Each child prints (papers done, its own peak RSS in KB): RUSAGE_SELF, so a local Ray
# instance's processes (started by the child) are not counted, only the driver.
_SELF_RSS = "import resource; print(n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
CHILD = {
    "embed": (
        "import sys; from paperatlas.store import Store; from paperatlas.embed import embed_store; "
        "n = embed_store(Store(sys.argv[1]), sys.argv[2])['embedded']; " + _SELF_RSS
    ),
    "enrich": (
        "import sys; from paperatlas.store import Store; from paperatlas.enrich.pipeline import enrich_store; "
        "n = enrich_store(Store(sys.argv[1]), workers=int(sys.argv[3]))['enriched']; " + _SELF_RSS
    ),
    # the Ray driver: a local instance with `--workers` actors
    "embed-ray": (
        "import sys; from paperatlas.store import Store; from paperatlas.embed.distributed import embed_store_ray; "
        "n = embed_store_ray(Store(sys.argv[1]), sys.argv[2], workers=int(sys.argv[3]))['embedded']; "
        + _SELF_RSS
    ),
}


def run(stage: str, src: Path, db: Path, model: str, workers: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src)}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD[stage], str(db), model, str(workers)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = proc.communicate()
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{stage} with {src} failed:\n{err[-3000:]}")
    done, rss_kb = out.strip().splitlines()[-1].split()
    return {"done": int(done), "s": seconds, "rss_mb": int(rss_kb) / 1024}


def results(db: Path, stage: str, model: str) -> list[tuple]:
    conn = sqlite3.connect(db)
    if stage == "embed":
        sql, params = (
            "SELECT paper_id, vector, text_hash FROM embeddings WHERE model = ? ORDER BY paper_id",
            (model,),
        )
    else:
        sql, params = "SELECT paper_id, data, text_hash, version FROM facts ORDER BY paper_id", ()
    rows = conn.execute(sql, params).fetchall()
    conn.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, required=True, help="a store (not written; copied)")
    ap.add_argument("--baseline-src", type=Path, required=True, help="the baseline checkout's src/")
    ap.add_argument("--stage", choices=sorted(CHILD), default="embed")
    ap.add_argument("--model", default="static")
    ap.add_argument("--workers", type=int, default=1, help="enrich's worker processes, embed-ray's actors")
    ap.add_argument("--work", type=Path, help="where the copies go (default: a temp dir)")
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="pa-mem-"))
    work.mkdir(parents=True, exist_ok=True)
    papers = sqlite3.connect(args.db).execute("SELECT count(*) FROM papers").fetchone()[0]
    print(f"{args.stage} on {papers:,} papers ({args.db}); load {os.getloadavg()}", flush=True)
    runs = {}
    try:
        for label, src in (("baseline", args.baseline_src), ("this checkout", REPO / "src")):
            db = work / f"{label.replace(' ', '_')}.db"
            shutil.copy(args.db, db)
            runs[label] = {**run(args.stage, src, db, args.model, args.workers), "db": db}
            print(label, {k: v for k, v in runs[label].items() if k != "db"}, flush=True)
        same = results(runs["baseline"]["db"], args.stage, args.model) == results(
            runs["this checkout"]["db"], args.stage, args.model
        )
        base, new = runs["baseline"], runs["this checkout"]
        print("\n| code | papers done | time s | peak RSS MB |")
        print("| --- | --- | --- | --- |")
        for label, r in runs.items():
            print(f"| {label} | {r['done']:,} | {r['s']:.1f} | {r['rss_mb']:.0f} |")
        print(
            f"\npeak RSS this checkout / baseline: {new['rss_mb'] / base['rss_mb']:.2f}; "
            f"results identical: {same}; load at end {os.getloadavg()}"
        )
        print(json.dumps({k: {"s": r["s"], "rss_mb": r["rss_mb"]} for k, r in runs.items()} | {"same": same}))
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
