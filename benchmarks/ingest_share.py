"""Benchmark: the ingest stage alone (dedup, merge, store), this code against a baseline
checkout, on the same `Paper` objects, so the readers' own speed does not enter.

    .venv/bin/python benchmarks/ingest_share.py [DATA] [--base /tmp/paperatlas-base/src] [--rounds 2]

Reads DATA (default ../shared/data/iclr2026.jsonl.gz) once with this code's readers and
pickles the papers; then, alternating, each version's `add_files` runs in a fresh process
on copies of them (`read` replaced): a fresh add and a repeated add. Prints the CPU seconds
of each (wall seconds beside them; on a loaded machine trust the CPU figures), the reading
time of each version's readers, and the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import copy, json, pickle, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import paperatlas.ingest as ingest
from paperatlas import sources
from paperatlas.store import Store
papers = pickle.load(open(sys.argv[2], "rb"))
data = Path(sys.argv[3])
def stand_in(path, report=None):
    for p in papers:
        yield copy.copy(p)
start = time.process_time()
sum(1 for _ in sources.read(data))
read_cpu = time.process_time() - start
# the module that reads a file for an add: ingest.importer, or the package in older trees
import importlib.util
reading = "paperatlas.ingest.importer" if importlib.util.find_spec("paperatlas.ingest.importer") else "paperatlas.ingest"
sys.modules[reading].read = stand_in
out = {"read_cpu": read_cpu}
with tempfile.TemporaryDirectory() as tmp:
    store = Store(Path(tmp) / "a.db")
    for name in ("add", "readd"):
        wall, cpu = time.perf_counter(), time.process_time()
        report = ingest.add_files(store, [data]).files[0]
        out[name + "_cpu"] = time.process_time() - cpu
        out[name + "_wall"] = time.perf_counter() - wall
        out[name + "_counts"] = [report.added, report.merged, report.unchanged]
    store.close()
print(json.dumps(out))
"""


def run(src: str, pickled: Path, data: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, src, str(pickled), str(data)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data", nargs="?", default=str(REPO / "../shared/data/iclr2026.jsonl.gz"))
    parser.add_argument("--base", default="/tmp/paperatlas-base/src")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "src"))
    from paperatlas import sources

    data = Path(args.data)
    papers = list(sources.read(data))
    with tempfile.TemporaryDirectory() as tmp:
        pickled = Path(tmp) / "papers.pkl"
        pickled.write_bytes(pickle.dumps(papers))
        print(f"{len(papers)} papers from {data.name}; machine: {os.cpu_count()} cores")
        results: dict[str, list[dict]] = {"base": [], "new": []}
        for i in range(args.rounds):
            for name, src in (("base", args.base), ("new", str(REPO / "src"))):
                load = os.getloadavg()[0]
                r = run(src, pickled, data)
                results[name].append(r)
                print(
                    f"round {i + 1} {name:4s} (load {load:.1f}): read {r['read_cpu']:.2f} s CPU; "
                    f"add {r['add_cpu']:.2f} s CPU ({r['add_wall']:.1f} wall) {r['add_counts']}; "
                    f"re-add {r['readd_cpu']:.2f} s CPU ({r['readd_wall']:.1f} wall) {r['readd_counts']}"
                )
    for what in ("read_cpu", "add_cpu", "readd_cpu"):
        base = min(r[what] for r in results["base"])
        new = min(r[what] for r in results["new"])
        print(f"best of {args.rounds}: {what} base {base:.2f} s, new {new:.2f} s, ratio {new / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
