"""Benchmark: `sources.read` of one file, this code against a baseline checkout, CPU seconds in
one process per version, the versions alternating (a busy machine slows both alike).

    .venv/bin/python benchmarks/read_speed.py [FILE] --base /tmp/paperatlas-base/src [--rounds 2]

FILE defaults to ../shared/data/iclr2026.jsonl.gz. Prints, per version, the best of `--repeat`
reads in each of `--rounds` child processes, then the ratio new / base (the target: at most 1.10).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT = REPO.parent / "shared" / "data" / "iclr2026.jsonl.gz"

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from paperatlas.sources import read
best, n = None, 0
for _ in range(int(sys.argv[3])):
    start = time.process_time()
    n = sum(1 for _ in read(Path(sys.argv[2])))
    took = time.process_time() - start
    best = took if best is None else min(best, took)
print(json.dumps({"papers": n, "cpu": best}))
"""


def _run(src: Path, path: Path, repeat: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(src), str(path), str(repeat)],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(src), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("file", type=Path, nargs="?", default=DEFAULT)
    parser.add_argument("--base", type=Path, required=True, help="the baseline's src folder")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, src in (("new", REPO / "src"), ("base", args.base)):
            res = _run(src, args.file, args.repeat)
            best[name] = min(best.get(name, res["cpu"]), res["cpu"])
            print(f"  {name}: {res['papers']} papers, {res['cpu']:.2f} s CPU", flush=True)
    print(
        f"sources.read {args.file.name}: new {best['new']:.2f} s, base {best['base']:.2f} s, "
        f"ratio {best['new'] / best['base']:.3f}"
    )


if __name__ == "__main__":
    main()
