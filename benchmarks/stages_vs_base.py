"""The pipeline's stages on the ICLR 2026 papers: this tree beside another (the starting code), same run.

    .venv/bin/python benchmarks/stages_vs_base.py --base-src /work/base/src [--n 2000]
        [--data ../shared/data/iclr2026.jsonl.gz] [--stages add,enrich,embed,search,map] [--work DIR]

Each tree builds its own atlas of the file's first N papers (all of them by default), one
stage at a time, each stage in a fresh process: the venv's `paperatlas` command (or, for
search, a short script) with the tree's src first on PYTHONPATH. The two trees alternate,
this tree first at the 1st, 3rd, 5th stage and the other first at the rest, so a load that
drifts on a shared machine weighs on both. The stages:

- add: `add FILE --list iclr --no-enrich` into a new atlas (a fresh ingest);
- enrich: `enrich` (names, kinds, numbers, links, ...; its worker pool as the CLI sets it);
- embed: `embed --model static` (what search and map read below);
- search: `search(store, query, k=20)` for each query of benchmarks/queries (exact,
  paraphrase, Chinese; search_latency.py's set), after one untimed English and one Chinese
  query: wall and CPU milliseconds per query, p50/p95;
- map: `map --list iclr --model static`.

Each tree runs from a copy of its src under the work folder, its modules compiled once
beforehand (untimed), as an installed package runs: from a shell that sets
PYTHONDONTWRITEBYTECODE every process would otherwise compile every module it imports, a cost
no installed copy pays and one that grows with the number of modules, not with the work.

Per stage and tree: wall seconds, CPU seconds (user + sys of the process and of the workers
it waited for) and peak memory (the largest resident set of the process or of any one worker),
then the ratios this / other. Run `uptime` beside it: the load before and after each stage is
printed too.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from scale import run_popen_wait4
from search_latency import load_queries

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "iclr2026.jsonl.gz"
STAGES = ["add", "enrich", "embed", "search", "map"]
LIST = "iclr"

# One search process per tree: the warm-ups load each model once, then every query is
# timed alone. Only `search()` and `Store` are used, which both trees have.
SEARCH_CHILD = r"""
import json, sys, time
from paperatlas import search as S
from paperatlas.store import Store
store = Store(sys.argv[1])
for warm in ("warm up", "热身"):
    S.search(store, warm, k=20)
walls, cpus = [], []
for query in json.loads(sys.argv[2]):
    t, c = time.perf_counter(), time.process_time()
    S.search(store, query, k=20)
    walls.append(1000 * (time.perf_counter() - t))
    cpus.append(1000 * (time.process_time() - c))
print(json.dumps({"wall_ms": walls, "cpu_ms": cpus}))
"""


def first_papers(data: Path, n: int | None, work: Path) -> tuple[Path, int]:
    """The list both trees add: the file itself, or its first n records in a JSONL file."""
    with (
        gzip.open(data, "rt", encoding="utf-8")
        if data.suffix == ".gz"
        else open(data, encoding="utf-8") as fh
    ):
        lines = [line for line in fh if line.strip()]
    if n is None or n >= len(lines):
        return data, len(lines)
    part = work / f"iclr-first-{n}.jsonl"
    part.write_text("".join(lines[:n]), encoding="utf-8")
    return part, n


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def compiled_copy(src: Path, dest: Path) -> Path:
    """A copy of a tree's src with its bytecode written beside it, as `pip install` leaves it."""
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    run_popen_wait4([sys.executable, "-m", "compileall", "-q", str(dest)])
    return dest


def run_stage(stage: str, src: Path, db: Path, papers: Path, queries: list[str]) -> dict:
    """One stage of one tree in its own process; its usage, and for search the per-query times."""
    env = {"PYTHONPATH": str(src), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    pa = str(Path(sys.executable).parent / "paperatlas")
    commands = {
        "add": [pa, "add", str(papers), "--list", LIST, "--no-enrich", "--db", str(db)],
        "enrich": [pa, "enrich", "--db", str(db)],
        "embed": [pa, "embed", "--model", "static", "--db", str(db)],
        "search": [sys.executable, "-c", SEARCH_CHILD, str(db), json.dumps(queries)],
        "map": [pa, "map", "--list", LIST, "--model", "static", "--db", str(db)],
    }
    load_before = os.getloadavg()[0]
    result = run_popen_wait4(commands[stage], env=env)
    result["load"] = (load_before, os.getloadavg()[0])
    if stage == "search":
        times = json.loads(result["out"].strip().splitlines()[-1])
        for kind in ("wall_ms", "cpu_ms"):
            result[kind] = {
                "p50": statistics.median(times[kind]),
                "p95": percentile(times[kind], 95),
                "n": len(times[kind]),
            }
    return result


def ratio(mine: float, other: float) -> str:
    return f"{mine / other:.2f}x" if other else "-"


def cell(r: dict, stage: str) -> str:
    usage = f"{r['s']:.1f} s / {r['cpu_s']:.1f} CPU-s / {r['rss_mb']:.0f} MB"
    if stage != "search":
        return usage
    w, c = r["wall_ms"], r["cpu_ms"]
    return f"p50 {w['p50']:.1f} / p95 {w['p95']:.1f} ms; CPU p50 {c['p50']:.1f} / p95 {c['p95']:.1f} ms; process {usage}"


def ratios(mine: dict, other: dict, stage: str) -> str:
    out = f"wall {ratio(mine['s'], other['s'])}, CPU {ratio(mine['cpu_s'], other['cpu_s'])}, peak {ratio(mine['rss_mb'], other['rss_mb'])}"
    if stage == "search":
        out = (
            f"p95 wall {ratio(mine['wall_ms']['p95'], other['wall_ms']['p95'])}, "
            f"p95 CPU {ratio(mine['cpu_ms']['p95'], other['cpu_ms']['p95'])}; process " + out
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base-src", type=Path, required=True, help="the other tree's src folder")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--n", type=int, help="only the file's first N papers (default: all)")
    ap.add_argument("--stages", default=",".join(STAGES), help="comma-separated, in pipeline order")
    ap.add_argument("--work", type=Path, help="folder for the two atlases (default: a new temp folder)")
    args = ap.parse_args()
    stages = [s for s in args.stages.split(",") if s]
    unknown = sorted(set(stages) - set(STAGES))
    if unknown:
        ap.error(f"unknown stage(s): {', '.join(unknown)} (known: {', '.join(STAGES)})")
    work = args.work or Path(tempfile.mkdtemp(prefix="pa-stages-"))
    work.mkdir(parents=True, exist_ok=True)
    papers, n = first_papers(args.data, args.n, work)
    queries = [q["query"] for q in load_queries()]
    print(f"{n:,} papers from {args.data}; {len(queries)} queries; work {work}; cores {os.cpu_count()}")
    print(f"this: {REPO / 'src'}\nbase: {args.base_src.resolve()}", flush=True)
    trees = {
        "this": (compiled_copy(REPO / "src", work / "src-this"), work / "this.db"),
        "base": (compiled_copy(args.base_src.resolve(), work / "src-base"), work / "base.db"),
    }
    results: dict[str, dict[str, dict]] = {"this": {}, "base": {}}
    for i, stage in enumerate(stages):
        for name in ("this", "base") if i % 2 == 0 else ("base", "this"):
            src, db = trees[name]
            r = run_stage(stage, src, db, papers, queries)
            results[name][stage] = r
            print(
                f"{stage:<7} {name}: {cell(r, stage)}  (load {r['load'][0]:.1f} -> {r['load'][1]:.1f})",
                flush=True,
            )
    print(f"\n{n:,} papers | this tree | base ({args.base_src}) | this / base")
    print("| stage | this tree: wall / CPU / peak | base, same run | ratio |\n| --- | --- | --- | --- |")
    for stage in stages:
        mine, other = results["this"][stage], results["base"][stage]
        print(f"| {stage} | {cell(mine, stage)} | {cell(other, stage)} | {ratios(mine, other, stage)} |")


if __name__ == "__main__":
    main()
