"""`paperatlas add` then `paperatlas map` of a list on a fresh store, then a first Chinese
query, this tree against a baseline tree.

    .venv/bin/python benchmarks/map_fresh_list.py [--base /tmp/base13] [--runs 3]
        [--list examples/iclr2026_sample_list.txt] [--query 薛定谔桥]

Each command is the real CLI in a new interpreter, on a new store per run and tree; the
trees alternate so both see the same load. Printed per tree and command: wall seconds and
CPU seconds (user + sys of the child, from getrusage), each run and the median, and the
load average before and after. Issue 16 target: `map` <= 2 s wall.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CLI = "from paperatlas.cli import main; main()"


def timed(src: Path, *args: str) -> tuple[float, float]:
    """(wall s, CPU s) of one CLI command run with `src` first on the path."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", CLI, *args],
        env={**os.environ, "PYTHONPATH": str(src)},
        cwd="/",
        capture_output=True,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def one_run(src: Path, list_file: Path, query: str, folder: Path) -> dict[str, tuple[float, float]]:
    db = str(folder / f"atlas-{time.monotonic_ns()}.db")
    return {
        "add": timed(src, "add", str(list_file), "--db", db),
        "map": timed(src, "map", "--db", db),
        "first Chinese query": timed(src, "search", query, "--db", db),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, default=Path("/tmp/base13"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--list", type=Path, default=REPO / "examples" / "iclr2026_sample_list.txt")
    parser.add_argument("--query", default="薛定谔桥")  # not in the glossary: learned terms only
    args = parser.parse_args()
    trees = {"this tree": REPO / "src", f"base ({args.base})": args.base / "src"}
    results: dict[str, list[dict[str, tuple[float, float]]]] = {name: [] for name in trees}
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="map-fresh-") as tmp:
        for _ in range(args.runs):
            for name, src in trees.items():
                results[name].append(one_run(src, args.list.resolve(), args.query, Path(tmp)))
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    medians: dict[str, dict[str, tuple[float, float]]] = {}
    for name, runs in results.items():
        print(f"\n{name}")
        medians[name] = {}
        for command in runs[0]:
            walls = [r[command][0] for r in runs]
            cpus = [r[command][1] for r in runs]
            medians[name][command] = (statistics.median(walls), statistics.median(cpus))
            print(
                f"  {command:20s} wall {', '.join(f'{w:.2f}' for w in walls)} (median {medians[name][command][0]:.2f})"
                f"  CPU {', '.join(f'{c:.2f}' for c in cpus)} (median {medians[name][command][1]:.2f})"
            )
    new, base = medians.values()
    print("\nratio this tree / base (medians)")
    for command in new:
        print(
            f"  {command:20s} wall {new[command][0] / base[command][0]:.2f}  CPU {new[command][1] / base[command][1]:.2f}"
        )
    print(f"\nmap <= 2 s wall (median): {'met' if new['map'][0] <= 2.0 else 'not met'}")


if __name__ == "__main__":
    main()
