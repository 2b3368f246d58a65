"""CPU per paper page: the app renders `--pages` random paper pages in one process (no
server, no sockets, the page cache off) and the process's CPU time is divided by them; with
`--baseline-src` the same pages are rendered by that checkout's code in the same run.
Measuring starts once `/healthz` says warm (the background preload's CPU is not a page's).

A loaded machine stretches wall-clock latency (benchmarks/web_load.py) far more than CPU
time, so this is the figure to compare when the machine is shared.

    .venv/bin/python benchmarks/paper_page_cpu.py --db ATLAS.db [--pages 300]
        [--baseline-src /work/base] [--baseline-db BASE.db] [--seed 0] [--search] [--commit]

`--search`: search pages too (`--pages` of them, queries drawn from a fixed list of
topics). `--commit`: before each page another connection commits a write that changes no
paper (`UPDATE papers SET title = title` on one row: its full-text entry is written again),
as each batch of an `add` while serving does: what a page rebuilds after any commit shows.

The store is only read (with `--commit`, each run gets its own copy of it); a baseline
that cannot read a newer store's schema needs a store built by it (`paperatlas add` with
that code): `--baseline-db`, else the baseline reads `--db` too.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import tempfile
from pathlib import Path

from child_json import child_json

SRC = Path(__file__).resolve().parents[1] / "src"

# run in a fresh interpreter per checkout: `src` first on the path, so each measures its own code
_RENDER = """
import json, sqlite3, sys, time
sys.path.insert(0, sys.argv[1])
from fastapi.testclient import TestClient
from paperatlas.web.app import create_app
urls, warm, commit = json.loads(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
writer = sqlite3.connect(sys.argv[2], isolation_level=None, timeout=30)
with TestClient(create_app(sys.argv[2], page_cache=False), base_url="http://127.0.0.1") as client:
    while not client.get("/healthz").json().get("warm", True):  # the preload is no page's CPU
        time.sleep(0.2)
    for url in urls[:warm]:  # templates compiled, caches filled
        client.get(url)
    cpu = wall = 0.0
    sizes = []
    for url in urls[warm:]:
        if commit:
            writer.execute("UPDATE papers SET title = title WHERE rowid = (SELECT min(rowid) FROM papers)")
        start, started = time.process_time(), time.perf_counter()
        answer = client.get(url)
        cpu, wall = cpu + time.process_time() - start, wall + time.perf_counter() - started
        assert answer.status_code == 200, (url, answer.status_code)
        sizes.append(len(answer.content))
print(json.dumps({"pages": len(sizes), "cpu_ms": 1000 * cpu / len(sizes), "wall_ms": 1000 * wall / len(sizes),
                  "bytes": sum(sizes) / len(sizes)}))
"""
# what the search pages ask (a topic a reader types; repeats are fine: the page cache is off)
QUERIES = [
    "graph neural networks",
    "diffusion models",
    "language model reasoning",
    "reinforcement learning",
    "attention",
    "differential privacy",
    "benchmark",
    "robot manipulation",
    "vision transformer",
    "protein design",
    "federated learning",
    "causal inference",
    "sparse autoencoders",
    "contrastive learning",
]


def measure(src: Path, db: Path, urls: list[str], warm: int, commit: bool) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        if commit:  # its writes go to a copy
            db = Path(shutil.copy2(db, Path(scratch) / db.name))
        return child_json(_RENDER, str(src), str(db), json.dumps(urls), str(warm), str(int(commit)), src=src)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--pages", type=int, default=300)
    ap.add_argument("--warm", type=int, default=20)
    ap.add_argument("--baseline-src", type=Path)
    ap.add_argument("--baseline-db", type=Path, help="the baseline's own atlas (default: --db)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--search", action="store_true", help="search pages too")
    ap.add_argument("--commit", action="store_true", help="a commit before each page")
    args = ap.parse_args()
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    all_ids = [row[0] for row in conn.execute("SELECT id FROM papers")]
    conn.close()
    rng = random.Random(args.seed)
    plans = {
        "paper": ["/papers/" + pid for pid in rng.sample(all_ids, min(len(all_ids), args.pages + args.warm))]
    }
    if args.search:
        plans["search"] = ["/search?q=" + rng.choice(QUERIES) for _ in range(args.pages + args.warm)]
    runs = [("this code", SRC, args.db)]
    if args.baseline_src:
        base = (
            f"baseline {args.baseline_src}",
            args.baseline_src.resolve() / "src",
            args.baseline_db or args.db,
        )
        runs.insert(0, base)
    after = ", a commit before each" if args.commit else ""
    for kind, urls in plans.items():
        figures = {}
        for label, src, db in runs:
            figures[label] = got = measure(src, db, urls, args.warm, args.commit)
            print(
                f"{label}: {got['pages']} {kind} pages{after}, CPU {got['cpu_ms']:.2f} ms a page, "
                f"wall {got['wall_ms']:.2f} ms, {got['bytes'] / 1024:.1f} KB"
            )
        if len(figures) == 2:
            base_run, this = figures.values()
            print(f"CPU a {kind} page, this code / baseline: {this['cpu_ms'] / base_run['cpu_ms']:.2f}")


if __name__ == "__main__":
    main()
