"""Benchmark: the pieces of an import that the readers and ingest pay per record, this code
against a baseline checkout, each version in its own process, alternating.

    .venv/bin/python benchmarks/ingest_pieces.py [DATA] --base /tmp/ingest-base/src [--rounds 2]

Per version (CPU seconds, best of 5; `read()` best of 3): `paper_from_record` over every row of
DATA (JSON Lines), `sources.read` of the whole file, `Store.papers.get_many` of every stored row
after that version's own `add_files`, and `merge_changes` of every paper read into its stored
row (what a repeated add does per record). The baseline is run with its own `src` on the path.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from store_parts_compat import SHIM

REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import gzip, json, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from paperatlas.ingest import add_files, merge_changes
from paperatlas.sources import read
from paperatlas.sources.records import paper_from_record
from paperatlas.store import Store
#STORE_PARTS_SHIM#

data = Path(sys.argv[2])
with gzip.open(data, "rt", encoding="utf-8") if data.suffix == ".gz" else open(data) as fh:
    records = [json.loads(line) for line in fh if line.strip()]

def best(work, rounds=5):
    times = []
    for _ in range(rounds):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)

out = {
    "paper_from_record": best(lambda: [paper_from_record(r, "x:1") for r in records]),
    "read": best(lambda: sum(1 for _ in read(data)), 3),
}
papers = list(read(data))
with tempfile.TemporaryDirectory() as tmp:
    store = Store(Path(tmp) / "pieces.db")
    add_files(store, [data])
    ids = [p.id for p in papers]
    out["get_papers"] = best(lambda: store.papers.get_many(ids))
    stored = {p["id"]: p for p in store.papers.get_many(ids)}
    out["merge_changes"] = best(lambda: [merge_changes(stored[p.id], p) for p in papers])
    store.close()
print(json.dumps(out))
"""
CHILD = CHILD.replace("#STORE_PARTS_SHIM#", SHIM)


def run(src: str, data: str) -> dict[str, float]:
    import json

    done = subprocess.run(
        [sys.executable, "-c", CHILD, src, data], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data", nargs="?", default=str(REPO.parent / "shared/data/iclr2026.jsonl.gz"))
    parser.add_argument("--base", required=True, help="the baseline checkout's src folder")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    versions = {"base": args.base, "new": str(REPO / "src")}
    best: dict[str, dict[str, float]] = {}
    for round_no in range(1, args.rounds + 1):
        for name, src in versions.items():
            load = os.getloadavg()[0]
            got = run(src, args.data)
            print(
                f"round {round_no} {name:4} (load {load:.1f}): "
                + "; ".join(f"{k} {v:.3f} s" for k, v in got.items())
            )
            mine = best.setdefault(name, {})
            for k, v in got.items():
                mine[k] = min(v, mine.get(k, v))
    for k in best["base"]:
        base, new = best["base"][k], best["new"][k]
        print(f"best of {args.rounds}: {k:18} base {base:.3f} s, new {new:.3f} s, ratio {new / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
