"""The first answer of `recommend`, `digest`, `similar` and the web map page in a fresh
process, at 15,602 papers, for this code and a baseline checkout in the same run.

    .venv/bin/python benchmarks/cold_start.py --db ATLAS [--base-db BASE_ATLAS]
        [--base /work/base/src] [--runs 2] [--commands recommend,digest,similar,map] [--prepare]

ATLAS: an atlas of the ICLR 2026 list with facts, static vectors and a map (what `open`
gives before its background steps; e.g. `paperatlas open DATA --no-browser` stopped
after it serves, or add + `embed --model static` + `map`). Each code gets its own copy
(the files a command leaves beside the atlas, caches included, start out absent), with
five liked papers. BASE_ATLAS (default ATLAS): the baseline's own, where this code's
schema or map is newer than the baseline reads (the same papers, built by the baseline). With
--prepare, each code first runs `embed --model static` on its copy (the vectors are there, so
nothing is embedded; what else `embed` keeps for later commands is saved, as it is on an atlas
made by add + embed + map): its time is printed apart, since the pipeline pays it once. Each
command runs `--runs` times, each time in a fresh process
(PYTHONPATH=its src): run 1 is the first ever on that copy, later runs find what earlier
ones left on disk. Times are wall seconds from the process's start to its answer (the map
page: an app over the atlas answering GET /map and /api/map, as a server's first visitor
would), and the CPU seconds it used (user + system: what it costs, on a machine shared with
other work). Targets: first recommend and first digest <= 5 s. Run `uptime` beside it.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LIKES = 5

MAP_PAGE = r"""
import sys
from fastapi.testclient import TestClient
from paperatlas.web.app import create_app
with TestClient(create_app(sys.argv[1]), base_url="http://127.0.0.1") as client:
    for url in ("/map", "/api/map"):
        assert client.get(url).status_code == 200, url
"""


def command(name: str, db: Path, paper: str) -> list[str]:
    cli = [sys.executable, "-c", "from paperatlas.cli import main; main()"]
    return {
        "recommend": [*cli, "recommend", "-k", "10", "--db", str(db)],
        "digest": [*cli, "digest", "--collection", "likes", "--db", str(db)],
        "similar": [*cli, "similar", paper, "-k", "10", "--db", str(db)],
        "map": [sys.executable, "-c", MAP_PAGE, str(db)],
    }[name]


def copy_atlas(source: Path, into: Path) -> Path:
    """A consistent copy of the atlas alone (SQLite's backup; no file beside it)."""
    target = into / "atlas.db"
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    return target


def timed(args: list[str], src: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process: user + system, its own measure on a
    shared machine whose load stretches the wall time)."""
    env = {**os.environ, "PYTHONPATH": str(src), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True, cwd=REPO)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[3:])} failed ({src}):\n{done.stderr[-2000:]}")
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--base-db", type=Path, default=None)
    parser.add_argument("--base", type=Path, default=Path("/work/base/src"))
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--commands", default="recommend,digest,similar,map")
    parser.add_argument("--prepare", action="store_true", help="run `embed --model static` first")
    args = parser.parse_args()
    names = args.commands.split(",")
    print(f"load before: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        copies = {}
        for code in ("new", "base"):
            folder = Path(tmp) / code
            folder.mkdir()
            copies[code] = copy_atlas(args.base_db if code == "base" and args.base_db else args.db, folder)
            with sqlite3.connect(copies[code]) as conn:
                ids = [r[0] for r in conn.execute("SELECT id FROM papers ORDER BY rowid LIMIT ?", (LIKES,))]
        srcs = {"new": REPO / "src", "base": args.base}
        for code in ("new", "base"):  # the likes, by each code itself
            like = [sys.executable, "-c", "from paperatlas.cli import main; main()", "like", *ids]
            timed([*like, "--db", str(copies[code])], srcs[code])
        if args.prepare:
            for code in ("new", "base"):
                embed = [
                    sys.executable,
                    "-c",
                    "from paperatlas.cli import main; main()",
                    "embed",
                    "--model",
                    "static",
                ]
                took, cpu = timed([*embed, "--db", str(copies[code])], srcs[code])
                print(
                    f"prepare    {code:<4} embed --model static: {took:6.1f} s ({cpu:.1f} s CPU)",
                    flush=True,
                )
        times: dict[tuple[str, str], list[float]] = {}
        cpus: dict[tuple[str, str], list[float]] = {}
        for name in names:
            for run in range(args.runs):
                for code in ("base", "new") if run % 2 else ("new", "base"):
                    took, cpu = timed(command(name, copies[code], ids[0]), srcs[code])
                    times.setdefault((name, code), []).append(took)
                    cpus.setdefault((name, code), []).append(cpu)
                    print(f"{name:<10} {code:<4} run {run + 1}: {took:6.1f} s (CPU {cpu:.1f} s)", flush=True)
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    for name in names:
        new, base = times[(name, "new")], times[(name, "base")]
        new_cpu, base_cpu = cpus[(name, "new")][0], cpus[(name, "base")][0]
        print(
            f"{name:<10} first: new {new[0]:6.1f} s (CPU {new_cpu:.1f}), base {base[0]:6.1f} s "
            f"(CPU {base_cpu:.1f}) ({base[0] / new[0]:.1f}x)"
            + (f"; later: new {min(new[1:]):.1f} s, base {min(base[1:]):.1f} s" if len(new) > 1 else "")
        )
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
