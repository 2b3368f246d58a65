"""What `open` does before it serves, run again on an atlas whose fast steps are done:
`Atlas.quick_start` on the same file, in a fresh process, for this code and a baseline
checkout in the same run (one from before `open` runs its three steps: add, enrich, embed
static).

    .venv/bin/python benchmarks/open_rerun.py --db ATLAS [--base-db BASE_ATLAS] \\
        [--file ../shared/data/iclr2026.jsonl.gz] [--base /work/base/src] [--runs 2]

ATLAS: an atlas of FILE with facts and static vectors (e.g. `paperatlas add FILE` +
`embed --model static`); BASE_ATLAS (default ATLAS): the baseline's own, where this code's
schema is newer than the baseline reads. Each code gets a copy, and runs quick_start
`--runs` times: run 1 finds the atlas as it was given (this code reads the file once more
and keeps its fingerprint), the later runs find what run 1 left. Prints wall and CPU
seconds per run. Run `uptime` beside it.

`--serve`: then, on each copy as the runs left it, `paperatlas open FILE --no-browser
--port 0` itself, timed from its start until it says it serves and until the app answers
a search with hits (the process and its background steps are then stopped). BASE must
have `open` for this (e.g. a `git archive` of the commit before the change).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "iclr2026.jsonl.gz"
SERVING = re.compile(r"serving .* at (http://127\.0\.0\.1:\d+/)")

QUICK_START = r"""
import sys
from paperatlas import Atlas
with Atlas(sys.argv[1]) as atlas:
    if hasattr(atlas, "quick_start"):
        done = atlas.quick_start([sys.argv[2]])
        steps = (done.added, done.enriched, done.embedded)
    else:  # a baseline before `open`: the same three steps
        steps = (
            atlas.add([sys.argv[2]], enrich=False),
            atlas.enrich(),
            atlas.embed(model="static", vocabulary=False),
        )
    print(steps[0].added, steps[0].unchanged, steps[1].enriched, steps[2].embedded)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--base-db", type=Path, default=None)
    parser.add_argument("--file", type=Path, default=DATA)
    parser.add_argument("--base", type=Path, default=Path("/work/base/src"))
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--serve", action="store_true")
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()[0]:.1f}")
    srcs = {"new": REPO / "src", "base": args.base}
    with tempfile.TemporaryDirectory() as tmp:
        for code in ("new", "base"):
            source = args.base_db if code == "base" and args.base_db else args.db
            copy = Path(tmp) / f"{code}.db"
            with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as src, sqlite3.connect(copy) as dst:
                src.backup(dst)
            env = {**os.environ, "PYTHONPATH": str(srcs[code]), "HF_HUB_OFFLINE": "1"}
            for run in range(args.runs):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                done = subprocess.run(
                    [sys.executable, "-c", QUICK_START, str(copy), str(args.file)],
                    env=env,
                    capture_output=True,
                    text=True,
                )
                wall = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if done.returncode != 0:
                    raise SystemExit(f"{code} failed:\n{done.stderr[-2000:]}")
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                counts = done.stdout.split()
                print(
                    f"{code:<4} run {run + 1}: {wall:6.1f} s (CPU {cpu:.1f} s); added, unchanged, "
                    f"enriched, embedded: {', '.join(counts)}",
                    flush=True,
                )
            if args.serve:
                serving, answered = serve(copy, args.file, env, Path(tmp) / f"{code}.out")
                print(
                    f"{code:<4} open: serving after {serving:.1f} s, a search answered after {answered:.1f} s"
                )
    print(f"load after: {os.getloadavg()[0]:.1f}")


def serve(db: Path, data: Path, env: dict[str, str], log: Path) -> tuple[float, float]:
    """(seconds until `open` says it serves, until its app answers a search with hits)."""
    start = time.perf_counter()
    with log.open("w+") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "paperatlas.cli",
                "open",
                str(data),
                "--db",
                str(db),
                "--port",
                "0",
                "--no-browser",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        try:
            while not (found := SERVING.search(log.read_text())):
                if process.poll() is not None:
                    raise SystemExit("open ended:\n" + log.read_text()[-2000:])
                time.sleep(0.1)
            serving = time.perf_counter() - start
            url = found.group(1) + "api/search?q=" + urllib.parse.quote("memory in agents")
            while True:
                try:
                    with urllib.request.urlopen(url, timeout=30) as answer:
                        if json.loads(answer.read()).get("hits"):
                            return serving, time.perf_counter() - start
                except OSError:
                    pass
                time.sleep(0.1)
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()


if __name__ == "__main__":
    main()
