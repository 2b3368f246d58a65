"""Benchmark: does the import report warn where a list reads badly, and only there? And how
do title-only lists merge into a full store?

    .venv/bin/python benchmarks/import_checks.py [--realworld ../shared/realworld] [--base /tmp/paperatlas-base/src]

1. Warnings. Every real list of ../shared/realworld is read by the starting code's readers
   (a baseline checkout, in a subprocess) and by this code's; the papers each yields go
   through this code's `ingest.report.EntryStats`. The starting code read 11 of the 12 lists
   badly (issue 13), so its reads should draw warnings and this code's should not (nor
   should the ICLR file).
2. Title-only lists against a full store: the ICLR file first, then each real list that is
   mostly title-only; CPU time, papers added and merged, and the merged papers' titles.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

# Runs under the baseline's PYTHONPATH: its readers, this code's checks (loaded by path).
BASE_CHILD = r"""
import importlib.util, json, sys
sys.path.insert(0, sys.argv[1])
from paperatlas import sources
spec = importlib.util.spec_from_file_location("import_report_new", sys.argv[2])
report = importlib.util.module_from_spec(spec)
sys.modules["import_report_new"] = report
spec.loader.exec_module(report)
stats = report.EntryStats()
try:
    for p in sources.read(sys.argv[3]):
        for name, empty in (("code_urls", []), ("identifiers", {}), ("section", None)):
            if not hasattr(p, name):
                setattr(p, name, empty)
        if p.abstract.strip():  # the starting code's ingest skipped the rest
            stats.see(p)
    print(json.dumps({"papers": stats.papers, "warnings": stats.warnings()}))
except Exception as exc:
    print(json.dumps({"error": str(exc)[:120]}))
"""


def new_read(path: Path) -> dict:
    from paperatlas import sources
    from paperatlas.ingest.report import EntryStats

    stats = EntryStats()
    try:
        for p in sources.read(path):
            stats.see(p)
    except Exception as exc:
        return {"error": str(exc)[:120]}
    return {"papers": stats.papers, "warnings": stats.warnings()}


def base_read(base: str, path: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", BASE_CHILD, base, str(REPO / "src/paperatlas/ingest/report.py"), str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else {"error": done.stderr.strip()[-120:]}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--realworld", default=str(REPO / "../shared/realworld"))
    parser.add_argument("--data", default=str(REPO / "../shared/data/iclr2026.jsonl.gz"))
    parser.add_argument("--base", default="/tmp/paperatlas-base/src")
    args = parser.parse_args()
    files = sorted(p for p in Path(args.realworld).iterdir() if p.suffix != ".md" or p.name != "README.md")
    files = [p for p in files if p.name != "truth.jsonl"]

    print("1. warnings (base readers -> this code's checks | this code's readers)")
    warned_base = warned_new = 0
    for path in [*files, Path(args.data)]:
        base, new = base_read(args.base, path), new_read(path)
        b = "error" if "error" in base else f"{base['papers']:5d} papers, {len(base['warnings'])} warnings"
        n = "error" if "error" in new else f"{new['papers']:5d} papers, {len(new['warnings'])} warnings"
        warned_base += bool(base.get("warnings"))
        warned_new += bool(new.get("warnings"))
        print(f"  {path.name:28s} base: {b:28s} new: {n}")
        for w in base.get("warnings", [])[:2]:
            print(f"      base: {w[:110]}")
        for w in new.get("warnings", []):
            print(f"      NEW:  {w[:110]}")
    print(
        f"  files with a warning: base readers {warned_base}, this code's readers {warned_new} "
        f"(of {len(files) + 1})"
    )

    print("2. title-only lists added to a store holding the ICLR file")
    from paperatlas.ingest import add_files
    from paperatlas.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "a.db")
        add_files(store, [Path(args.data)])
        for name in ("aces_lab_papers.bib", "awesome_mllm.md", "deep_review_refs.json"):
            path = Path(args.realworld) / name
            if not path.exists():
                continue
            start = time.process_time()
            f = add_files(store, [path]).files[0]
            cpu = time.process_time() - start
            print(
                f"  {name:24s} {cpu:.2f} s CPU: read {f.read}, title-only {f.stats.title_only}, "
                f"added {f.added}, merged {f.merged}, error {f.error}"
            )
            for pid in store.papers.ids(f.list_name):
                if "iclr2026" in store.lists.containing(pid):
                    paper = store.papers.get(pid)
                    print(f"      = ICLR {pid}: {paper['title'][:80]} {paper['identifiers']}")
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
