"""Render time of the pages the follow buttons were added to (a paper page, a search page), in this tree and in another tree's sources, measured in one run.

    benchmarks/follow_pages.py --data ../shared/data/iclr2026.jsonl.gz --papers 2000 \\
        --compare-src /work/base/src

Builds a small atlas of the first N papers of the list (no enrich, no vectors: keyword
search) once per tree (a tree writes its own schema), then runs each tree in a child process,
alternating, asking every page ROUNDS times through the in-process client with the page cache
off (create_app(page_cache=False)), and prints p50/p95 per page and tree and the ratio."""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ALTERNATIONS = 6
CHILD = r"""
import json, sys, time
from fastapi.testclient import TestClient
from paperatlas.web.app import create_app
db, paths, rounds = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
out = {}
with TestClient(create_app(db, page_cache=False), base_url="http://127.0.0.1") as c:
    for p in paths:
        c.get(p)  # warm
        times = []
        for _ in range(rounds):
            t = time.perf_counter(); r = c.get(p); times.append(time.perf_counter() - t)
            assert r.status_code == 200, (p, r.status_code)
        out[p] = times
print(json.dumps(out))
"""


def build(src: str, data: Path, n: int, db: Path) -> list[str]:
    """An atlas of the list's first n papers, written by the tree at `src`; its first paper's id."""
    rows = []
    with gzip.open(data, "rt", encoding="utf-8") as f:
        for line in f:
            rows.append(line)
            if len(rows) == n:
                break
    part = db.parent / "part.jsonl"
    part.write_text("".join(rows), encoding="utf-8")
    code = f"from paperatlas import Atlas\na = Atlas({str(db)!r}, create=True)\na.add([{str(part)!r}], list_name='iclr', enrich=False)\na.close()"
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": src})
    return [str(r[0]) for r in sqlite3.connect(db).execute("SELECT id FROM papers ORDER BY rowid LIMIT 1")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--papers", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--compare-src", required=True)
    args = ap.parse_args()
    mine = str(Path(__file__).parents[1] / "src")
    tmp = Path(tempfile.mkdtemp())
    trees = {"this tree": mine, "baseline": args.compare_src}
    dbs = {}
    for name, src in trees.items():
        (tmp / name).mkdir()
        dbs[name] = tmp / name / "atlas.db"
        ids = build(src, args.data, args.papers, dbs[name])
    paths = [f"/papers/{ids[0]}", "/search?q=diffusion+model"]
    env = dict(os.environ)
    times: dict[str, dict[str, list[float]]] = {n: {p: [] for p in paths} for n in trees}
    for _ in range(ALTERNATIONS):  # alternate the trees so the machine's load falls on both
        for name, src in trees.items():
            res = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    CHILD,
                    str(dbs[name]),
                    json.dumps(paths),
                    str(args.rounds // ALTERNATIONS),
                ],
                check=True,
                capture_output=True,
                text=True,
                env={**env, "PYTHONPATH": src},
            )
            for p, ts in json.loads(res.stdout.strip().splitlines()[-1]).items():
                times[name][p].extend(ts)
    print(f"load {os.getloadavg()[0]:.1f}; {args.papers} papers; {args.rounds} requests per page and tree")
    for p in paths:
        line = []
        for name in trees:
            ts = sorted(times[name][p])
            p50, p95 = statistics.median(ts) * 1000, ts[int(0.95 * (len(ts) - 1))] * 1000
            line.append(f"{name}: p50 {p50:.1f} ms, p95 {p95:.1f} ms")
        a = sorted(times["this tree"][p])
        b = sorted(times["baseline"][p])
        p95 = a[int(0.95 * (len(a) - 1))] / b[int(0.95 * (len(b) - 1))]
        p50 = statistics.median(a) / statistics.median(b)
        print(f"{p}: " + "; ".join(line) + f"; ratio p50 {p50:.2f}x, p95 {p95:.2f}x")


if __name__ == "__main__":
    main()
