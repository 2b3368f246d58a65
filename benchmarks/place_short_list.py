"""Placing a short list on the field in a fresh process, this tree against a baseline tree.

    .venv/bin/python benchmarks/place_short_list.py [--base /tmp/base13] [--runs 5]
        [--list examples/iclr2026_sample_list.txt]

Each run is a new interpreter that imports paperatlas, loads the shipped reference and the
static embedding model, embeds the list's abstracts and places them (what `paperatlas map`
of a fresh short list needs beyond reading it), for this tree and the baseline tree in turn
(alternating, so both see the same load). Printed per tree: wall seconds and CPU seconds
(user + sys of the whole child process, from getrusage), each run and the median, the
child's own phase times, and the load average before and after. Issue 16 target: <= 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = """
import json, sys, time
t0 = time.perf_counter()
from paperatlas.atlas.reference import shipped
from paperatlas.embed import get_backend
t1 = time.perf_counter()
ref = shipped()
t2 = time.perf_counter()
backend = get_backend("static")
t3 = time.perf_counter()
paragraphs = open(sys.argv[1], encoding="utf-8").read().split("\\n\\n")[1:]
vectors = backend.embed([p.strip() for p in paragraphs if p.strip()])
t4 = time.perf_counter()
placed = ref.place(vectors)
t5 = time.perf_counter()
print(json.dumps({"papers": len(placed.broad), "import": t1 - t0, "reference": t2 - t1,
                  "model": t3 - t2, "embed": t4 - t3, "place": t5 - t4,
                  "sklearn": "sklearn" in sys.modules, "scipy": "scipy" in sys.modules}))
"""


def one_run(src: Path, list_file: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(list_file)],
        env=env,
        cwd="/",
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, **json.loads(out.stdout)}


def listed(rs: list[dict], key: str) -> str:
    return ", ".join(f"{r[key]:.2f}" for r in rs)


def report(base: Path, n_runs: int, list_file: Path) -> None:
    """Alternate fresh runs of this tree and the baseline tree; print both and the ratios."""
    trees = {"this tree": REPO / "src", "baseline": base / "src"}
    print(f"load average before: {os.getloadavg()}")
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    for _ in range(n_runs):
        for name, src in trees.items():
            runs[name].append(one_run(src, list_file.resolve()))
    print(f"load average after:  {os.getloadavg()}")
    medians = {}
    for name, rs in runs.items():
        medians[name] = {k: statistics.median(r[k] for r in rs) for k in ("wall", "cpu")}
        phases = ", ".join(
            f"{k} {statistics.median(r[k] for r in rs):.2f}"
            for k in ("import", "reference", "model", "embed", "place")
        )
        print(
            f"{name} ({trees[name]}; {rs[0]['papers']} papers; imports scikit-learn: "
            f"{rs[0]['sklearn']}, scipy: {rs[0]['scipy']})\n"
            f"  wall s: {listed(rs, 'wall')}  median {medians[name]['wall']:.2f}\n"
            f"  cpu s:  {listed(rs, 'cpu')}  median {medians[name]['cpu']:.2f}\n"
            f"  median phases (wall s, in the child): {phases}"
        )
    for k in ("wall", "cpu"):
        ratio = medians["this tree"][k] / medians["baseline"][k]
        print(f"median {k}: this tree / baseline = {ratio:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, default=Path("/tmp/base13"), help="baseline checkout")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--list", type=Path, default=REPO / "examples" / "iclr2026_sample_list.txt")
    args = ap.parse_args()
    report(args.base, args.runs, args.list)


if __name__ == "__main__":
    main()
