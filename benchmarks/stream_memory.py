"""Peak memory of `embed` (and `enrich`) on a big store: this checkout vs a baseline one.

    .venv/bin/python benchmarks/stream_memory.py --db /tmp/scale/100k.db \
        --baseline-src /tmp/base13/src [--stage embed|enrich] [--model static] [--work DIR] \
        [--rounds N] [--done FRACTION]

Each stage runs twice (`--rounds N`: N times each, alternating baseline and this checkout),
each run in its own process on its own copy of the store (`--db` is not written): with the
baseline's code (`PYTHONPATH=<baseline-src>`) and with this checkout's. Peak memory is the
process's own peak RSS (getrusage RUSAGE_SELF): enrich's worker processes are not in it
(`--workers 1` keeps the extraction in the measured process), nor are the Ray processes of
`embed-ray` (the driver alone, `--workers` actors). CPU seconds are the process's and its
reaped children's (user + system): papers per CPU-second do not depend on the load, wall
seconds do. `--done F` (enrich): a rerun of a job killed after the first F of the papers, whose
facts are stored (as placeholders, with their real hashes and version) in the copy both
codes start from. The stores' results are compared afterwards: vectors bit for bit, or
facts and their hashes and versions. Run niced; the machine is shared (the load is printed).
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

# Each child prints (papers done, its own peak RSS in KB, CPU seconds): RUSAGE_SELF for the
# peak, so a local Ray instance's processes (started by the child) are not counted, only the
# driver; the CPU adds enrich's reaped worker processes.
_SELF_RSS = (
    "import resource; me, kids = (resource.getrusage(w) for w in "
    "(resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)); "
    "print(n, me.ru_maxrss, me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime)"
)
# --done: the first share of the papers gets facts (placeholders with the real hash and
# version), as a job killed there leaves them; run with this checkout's code
_MARK_DONE = (
    "import sys; from paperatlas.store import Store; "
    "from paperatlas.enrich.pipeline import facts_hash, plan_enrich; "
    "st = Store(sys.argv[1]); version = plan_enrich(st).version; "
    "rows = st.conn.execute('SELECT id, title, abstract, code_urls FROM papers ORDER BY rowid LIMIT ?', "
    "(int(sys.argv[2]),)).fetchall(); import json\n"
    "with st.transaction():\n"
    "    for pid, t, a, c in rows: st.set_facts(pid, {}, facts_hash(t, a, json.loads(c or '[]')), version)\n"
    "print(version, len(rows))"
)
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
    done, rss_kb, cpu = out.strip().splitlines()[-1].split()
    return {"done": int(done), "s": seconds, "cpu_s": float(cpu), "rss_mb": int(rss_kb) / 1024}


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
    ap.add_argument(
        "--src", type=Path, default=REPO / "src", help="the new code's src/ (default: this checkout's)"
    )
    ap.add_argument("--stage", choices=sorted(CHILD), default="embed")
    ap.add_argument("--model", default="static")
    ap.add_argument("--workers", type=int, default=1, help="enrich's worker processes, embed-ray's actors")
    ap.add_argument("--work", type=Path, help="where the copies go (default: a temp dir)")
    ap.add_argument("--rounds", type=int, default=1, help="runs of each code, alternating")
    ap.add_argument("--done", type=float, default=0.0, help="enrich: share of papers already done")
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="pa-mem-"))
    work.mkdir(parents=True, exist_ok=True)
    papers = sqlite3.connect(args.db).execute("SELECT count(*) FROM papers").fetchone()[0]
    print(f"{args.stage} on {papers:,} papers ({args.db}); load {os.getloadavg()}", flush=True)
    source = args.db
    runs: dict[str, list[dict]] = {"baseline": [], "this checkout": []}
    try:
        if args.done:
            source = work / "start.db"
            shutil.copy(args.db, source)
            marked = subprocess.run(
                [sys.executable, "-c", _MARK_DONE, str(source), str(round(args.done * papers))],
                env={**os.environ, "PYTHONPATH": str(args.src)},
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            print(f"{int(marked[1]):,} papers marked done (facts version {marked[0]})", flush=True)
        for i in range(args.rounds):
            for label, src in (("baseline", args.baseline_src), ("this checkout", args.src)):
                db = work / f"{label.replace(' ', '_')}-{i}.db"
                shutil.copy(source, db)
                r = {**run(args.stage, src, db, args.model, args.workers), "db": db}
                runs[label].append(r)
                print(
                    label, i, {k: v for k, v in r.items() if k != "db"}, "load", os.getloadavg(), flush=True
                )
        first = results(runs["baseline"][0]["db"], args.stage, args.model)
        same = all(results(r["db"], args.stage, args.model) == first for rs in runs.values() for r in rs)
        print("\n| code | round | papers done | time s | CPU s | papers per CPU-s | peak RSS MB |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for i in range(args.rounds):
            for label, rs in runs.items():
                r = rs[i]
                rate = r["done"] / r["cpu_s"] if r["cpu_s"] else 0.0
                print(
                    f"| {label} | {i + 1} | {r['done']:,} | {r['s']:.1f} | {r['cpu_s']:.1f} | {rate:.0f} "
                    f"| {r['rss_mb']:.0f} |"
                )
        base, new = ({k: sum(r[k] for r in rs) for k in ("cpu_s", "done")} for rs in runs.values())
        peak = {label: max(r["rss_mb"] for r in rs) for label, rs in runs.items()}
        print(
            f"\npeak RSS this checkout / baseline: {peak['this checkout'] / peak['baseline']:.2f}; "
            f"CPU per paper this checkout / baseline: "
            f"{(new['cpu_s'] / max(new['done'], 1)) / (base['cpu_s'] / max(base['done'], 1)):.2f}; "
            f"results identical: {same}; load at end {os.getloadavg()}"
        )
        print(
            json.dumps(
                {
                    k: [{"s": r["s"], "cpu_s": r["cpu_s"], "rss_mb": r["rss_mb"]} for r in rs]
                    for k, rs in runs.items()
                }
                | {"same": same}
            )
        )
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
