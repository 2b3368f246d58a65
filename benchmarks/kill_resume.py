"""Benchmark: kill `add` and `enrich` of real ICLR 2026 papers mid-enrichment, with this
code and with a baseline checkout in the same run: processes left behind, the store,
and whether running the same `add` again finishes the facts.

    .venv/bin/python benchmarks/kill_resume.py [--data ../shared/data/iclr2026.jsonl.gz]
        [--papers 6000] [--baseline /tmp/paperatlas-base/src]

For each code version: `add --no-enrich` of the first N papers into a fresh store, then
(1) `enrich` killed with kill -9 once some facts are stored, (2) `enrich` sent SIGTERM
likewise, (3) `add` of the same file killed with kill -9 during its enrichment and then
the same `add` run again. Prints one row per (version, case): the worker processes alive
at the kill, those still alive 5 s later (orphans), PRAGMA integrity_check, facts stored
at the kill and after the rerun. Enrichment starts its worker pool from 3,000 papers.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import faultkit as fk  # noqa: E402  (the fault suite's process and store tools)


def first_papers(data: Path, n: int, out: Path) -> Path:
    with gzip.open(data, "rt", encoding="utf-8") as src, open(out, "w", encoding="utf-8") as dst:
        for i, line in enumerate(src):
            if i >= n:
                break
            dst.write(line)
    return out


def run_case(
    version: str, env: dict, case: str, base: Path, paper_list: Path, template: Path, n: int
) -> dict:
    db = base / f"{version}-{case}.db"
    if case == "add":  # the case: `add` into a fresh store, killed while enriching
        args_kill = ["add", paper_list, "--db", db]
    else:
        args_kill = ["enrich", "--db", db]
        shutil.copy(template, db)
    sig = signal.SIGTERM if case == "enrich-term" else signal.SIGKILL
    result = fk.kill_during(
        args_kill, db, lambda c, t: 0 < c.get("facts", 0) < n, sig=sig, env=env, timeout=600, name=case
    )
    facts_at_kill = result.counts_at_kill.get("facts", 0)
    again_args = ["add", paper_list, "--db", db] if case == "add" else ["enrich", "--db", db]
    t0 = time.monotonic()
    again = fk.run_cli(*again_args, env=env, timeout=900)
    rerun_s = time.monotonic() - t0
    counts = fk.store_counts(db)
    return {
        "version": version,
        "case": case,
        "killed": result.killed,
        "workers_at_kill": len(result.children_at_kill),
        "orphans": len(result.orphans),
        "intact": not result.problems,
        "facts_at_kill": facts_at_kill,
        "rerun_rc": again.returncode,
        "facts_after": counts.get("facts", 0),
        "papers": counts.get("papers", 0),
        "rerun_s": rerun_s,
        "rerun_says": _summary(again.stdout),
    }


def _summary(stdout: str) -> str:
    """The line of a rerun's output that says what it did (unchanged / enriched)."""
    lines = stdout.strip().splitlines() or [""]
    said = [ln for ln in lines if "unchanged" in ln or "enriched" in ln]
    return (said or lines)[0].strip()[:90]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "iclr2026.jsonl.gz")
    parser.add_argument("--papers", type=int, default=6000)
    parser.add_argument("--baseline", type=Path, default=Path("/tmp/paperatlas-base/src"))
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="kill-resume-"))
    paper_list = first_papers(args.data, args.papers, base / "iclr_first.jsonl")
    versions = {"this code": {}}
    if args.baseline.exists():
        versions = {"baseline": {"PYTHONPATH": str(args.baseline)}, **versions}
    rows = []
    try:
        for version, env in versions.items():
            template = base / f"{version}-template.db"
            done = fk.run_cli("add", paper_list, "--no-enrich", "--db", template, env=env, timeout=900)
            assert done.returncode == 0, done.stderr
            for case in ("enrich-kill9", "enrich-term", "add"):
                row = run_case(version, env, case, base, paper_list, template, args.papers)
                rows.append(row)
                print(row, flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"\n{args.papers} ICLR 2026 papers; load: {os.getloadavg()[0]:.1f} (1 min)")
    print(
        "| code | case | workers at kill | orphans 5 s later | store intact | facts at kill "
        "| rerun | facts after rerun | rerun says |"
    )
    print("| --- | --- | ---: | ---: | --- | ---: | --- | ---: | --- |")
    for r in rows:
        print(
            f"| {r['version']} | {r['case']} | {r['workers_at_kill']} | {r['orphans']} | "
            f"{'yes' if r['intact'] else 'NO'} | {r['facts_at_kill']:,} | "
            f"{'ok' if r['rerun_rc'] == 0 else 'exit ' + str(r['rerun_rc'])} "
            f"({r['rerun_s']:.0f} s) | {r['facts_after']:,} of {r['papers']:,} | "
            f"{r['rerun_says']} |"
        )


if __name__ == "__main__":
    main()
