"""CPU per paper page: the app renders `--pages` random paper pages in one process (no
server, no sockets, the page cache off) and the process's CPU time is divided by them; with
`--baseline-src` the same pages are rendered by that checkout's code in the same run.

A loaded machine stretches wall-clock latency (benchmarks/web_load.py) far more than CPU
time, so this is the figure to compare when the machine is shared.

    .venv/bin/python benchmarks/paper_page_cpu.py --db ATLAS.db [--pages 300]
        [--baseline-src /work/base] [--seed 0]

The store is only read; a baseline that cannot read a newer store's schema needs a store
built by it (`paperatlas add` with that code), which this code then opens as it is.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# run in a fresh interpreter per checkout: `src` first on the path, so each measures its own code
_RENDER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from fastapi.testclient import TestClient
from paperatlas.web.app import create_app
ids, warm = json.loads(sys.argv[3]), int(sys.argv[4])
with TestClient(create_app(sys.argv[2], page_cache=False), base_url="http://127.0.0.1") as client:
    for pid in ids[:warm]:  # templates compiled, caches filled
        client.get("/papers/" + pid)
    start, wall = time.process_time(), time.perf_counter()
    sizes = [len(client.get("/papers/" + pid).content) for pid in ids[warm:]]
    cpu, wall = time.process_time() - start, time.perf_counter() - wall
print(json.dumps({"pages": len(sizes), "cpu_ms": 1000 * cpu / len(sizes), "wall_ms": 1000 * wall / len(sizes),
                  "bytes": sum(sizes) / len(sizes)}))
"""


def measure(src: Path, db: Path, ids: list[str], warm: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _RENDER, str(src), str(db), json.dumps(ids), str(warm)],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit(f"{src}: the pages could not be rendered:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--pages", type=int, default=300)
    ap.add_argument("--warm", type=int, default=20)
    ap.add_argument("--baseline-src", type=Path)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    all_ids = [row[0] for row in conn.execute("SELECT id FROM papers")]
    conn.close()
    ids = random.Random(args.seed).sample(all_ids, min(len(all_ids), args.pages + args.warm))
    runs = [("this code", SRC)]
    if args.baseline_src:
        runs.insert(0, (f"baseline {args.baseline_src}", args.baseline_src.resolve() / "src"))
    figures = {}
    for label, src in runs:
        figures[label] = got = measure(src, args.db, ids, args.warm)
        print(
            f"{label}: {got['pages']} paper pages, CPU {got['cpu_ms']:.2f} ms a page, "
            f"wall {got['wall_ms']:.2f} ms, {got['bytes'] / 1024:.1f} KB"
        )
    if len(figures) == 2:
        base, this = figures.values()
        print(f"CPU a page, this code / baseline: {this['cpu_ms'] / base['cpu_ms']:.2f}")


if __name__ == "__main__":
    main()
