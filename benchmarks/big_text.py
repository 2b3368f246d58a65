"""Benchmark: reading a big plain-text file grows linearly with its size.

    .venv/bin/python benchmarks/big_text.py [TEXT_FILE] [--base OLD_SRC] [--sizes 0.2,0.4,...]
        [--limit SECONDS]

Reads prefixes of TEXT_FILE (whole lines; by default a generated dictionary-like file of
one short entry per line, no blank lines, under a few `#` comment lines, as CC-CEDICT is)
with `sources.read`, each in a fresh process, and prints per size: seconds, the papers
read and the skip reasons. With --base (src/ of the code before the change) the same
prefix is read by the old code right before the new, so both see the same load; an old
read past --limit seconds is stopped and printed as "> limit".
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

_READ = """
import json, sys, time
from paperatlas.errors import InputError
from paperatlas.sources import ReadReport, read
report = ReadReport()
start = time.perf_counter()
try:
    papers = list(read(sys.argv[1], report))
    error = None
except InputError as exc:
    papers, error = [], str(exc).split(': ', 1)[-1]
print(json.dumps({"s": time.perf_counter() - start, "papers": len(papers),
                  "longest": max((len(p.abstract or "") for p in papers), default=0),
                  "skipped": dict(report.skipped), "error": error}))
"""


def generated(path: Path, size: int) -> None:
    """Dictionary-like lines (`word word [pin1 yin1] /gloss/gloss/`) under a comment header."""
    rng = random.Random(13)
    words = "model graph learning data train loss layer token value attention sample noise".split()
    lines = ["# A generated glossary", "#", "# One entry per line.", "#", "# License: none", "#! version=1"]
    total = 0
    while total < size:
        head = "".join(rng.choice("abcdefghijklmnop") for _ in range(rng.randint(2, 6)))
        gloss = "/".join(" ".join(rng.choices(words, k=rng.randint(1, 5))) for _ in range(rng.randint(1, 3)))
        line = f"{head} {head.upper()} [{head}{rng.randint(1, 4)}] /{gloss}/"
        lines.append(line)
        total += len(line) + 1
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def prefix(source: Path, size: int, out: Path) -> int:
    """The first `size` bytes of the file, cut back to a whole line; its real size."""
    with source.open("rb") as fh:
        data = fh.read(size)
    data = data[: data.rfind(b"\n") + 1]
    out.write_bytes(data)
    return len(data)


def timed_read(path: Path, src: Path, limit: float) -> dict | None:
    env = {**os.environ, "PYTHONPATH": str(src)}
    try:
        done = subprocess.run(
            [sys.executable, "-c", _READ, str(path)], env=env, capture_output=True, text=True, timeout=limit
        )
    except subprocess.TimeoutExpired:
        return None
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout)


def show(result: dict | None, limit: float) -> str:
    if result is None:
        return f"> {limit:.0f} s (stopped)"
    what = f"{result['papers']} papers"
    if result["papers"]:
        what += f" (longest abstract {result['longest']:,} chars)"
    if result["skipped"]:
        what += f"; skipped: {result['skipped']}"
    return f"{result['s']:7.2f} s  {what}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("text", nargs="?", type=Path, help="a big text file (default: generated)")
    parser.add_argument("--base", type=Path, help="src/ of the code before the change")
    parser.add_argument("--sizes", default="0.2,0.4,0.8,1.6,3.2", help="prefix sizes in MB")
    parser.add_argument("--limit", type=float, default=300.0, help="seconds before an old read is stopped")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        source = args.text
        sizes = [int(float(s) * 1024 * 1024) for s in args.sizes.split(",")]
        if source is None:
            source = tmp / "glossary.txt"
            generated(source, max(sizes))
        print(f"{source}: prefixes of {args.sizes} MB, load {os.getloadavg()[0]:.1f}")
        for size in sizes:
            path = tmp / f"prefix-{size}.txt"
            real = prefix(source, size, path)
            print(f"{real / 1024 / 1024:5.2f} MB", flush=True)
            if args.base:
                print(f"   old: {show(timed_read(path, args.base, args.limit), args.limit)}", flush=True)
            print(f"   new: {show(timed_read(path, REPO / 'src', args.limit), args.limit)}", flush=True)


if __name__ == "__main__":
    main()
