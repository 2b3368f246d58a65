"""Benchmark: the cost of `paperatlas add` when nothing is added (a re-add), where the
command still asks the store whether facts are pending (Store.facts.pending).

    .venv/bin/python benchmarks/add_noop.py STORE.db [--base OLD_SRC] [--runs N]

STORE.db: an enriched atlas (the 15,602 ICLR papers); it is copied, never changed.
Prints, alternating old and new in the same minutes:
- facts_pending on the copy: this code's count against the join it replaced (the
  baseline query, inlined here), median ms, and that both give the same number;
- with --base (a checkout's src/ of the code before the change, on its own copy, as
  its schema is older): the wall time of `paperatlas add` of five stored papers, a
  process each, old and new taking turns (start-up included: the figure a user sees).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from paperatlas.store import Store  # noqa: E402

OLD_QUERY = (  # Store.facts.pending before the facts_current index (stop 13)
    "SELECT count(*) FROM papers p LEFT JOIN facts f ON f.paper_id = p.id "
    "WHERE f.paper_id IS NULL OR f.text_hash = '' OR (? IS NOT NULL AND f.version != ?)"
)


def copy_store(src: Path, dst: Path) -> Path:
    """A consistent copy (the WAL folded in) of an atlas that others may be reading."""
    import sqlite3

    source = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    target = sqlite3.connect(dst)
    source.backup(target)
    source.close()
    target.close()
    return dst


def ms(seconds: list[float]) -> float:
    return round(statistics.median(seconds) * 1000, 2)


def query_times(path: Path, runs: int) -> None:
    store = Store(path)  # brings the copy to this code's schema (the new index)
    old, new = [], []
    for _ in range(runs):
        start = time.perf_counter()
        before = store.conn.execute(OLD_QUERY, (None, None)).fetchone()[0]
        old.append(time.perf_counter() - start)
        start = time.perf_counter()
        after = store.facts.pending()
        new.append(time.perf_counter() - start)
        assert before == after, (before, after)
    papers = store.papers.count()
    print(f"facts_pending on {papers:,} papers ({after} pending), median of {runs}:")
    print(f"  baseline (join): {ms(old)} ms; now: {ms(new)} ms; ratio {ms(old) / max(ms(new), 0.01):.0f}x")
    store.close()


def add_times(new_db: Path, old_db: Path, base_src: Path, tmp: Path, runs: int) -> None:
    store = Store(new_db, read_only=True)
    rows = [dict(p) for p in store.papers.get_many(store.papers.ids()[:5])]
    store.close()
    lines = [json.dumps({"id": r["id"], "title": r["title"], "abstract": r["abstract"]}) for r in rows]
    stored = tmp / "five.jsonl"
    stored.write_text("\n".join(lines) + "\n")
    exe = [sys.executable, "-c", "from paperatlas.cli import main; main()"]
    env_new = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    env_old = {**os.environ, "PYTHONPATH": str(base_src)}
    old, new = [], []
    for _ in range(runs):
        for env, db, out in ((env_old, old_db, old), (env_new, new_db, new)):
            start = time.perf_counter()
            done = subprocess.run(
                [*exe, "add", str(stored), "--list", "five", "--db", str(db)],
                env=env,
                capture_output=True,
                text=True,
            )
            out.append(time.perf_counter() - start)
            assert done.returncode == 0, done.stderr
            assert "added 0" in done.stdout, done.stdout
    print(f"`paperatlas add` of 5 stored papers (nothing added), median wall of {runs} each:")
    print(f"  baseline ({base_src}): {ms(old)} ms; now: {ms(new)} ms; saved {ms(old) - ms(new):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--base", type=Path, help="src/ of the code before the change")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        new_db = copy_store(args.store, tmp / "new.db")
        query_times(new_db, args.runs)
        if args.base:
            old_db = copy_store(args.store, tmp / "old.db")
            add_times(new_db, old_db, args.base, tmp, args.runs)
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
