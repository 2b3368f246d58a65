"""Time of `Atlas.backup` (SQLite's online backup API) on a real atlas, with a plain file
copy of the same atlas (checkpointed first, so the copy is whole) as the same-run baseline,
and a backup taken while another connection commits a row every few milliseconds, checked
with `PRAGMA integrity_check`.

    benchmarks/backup_copy.py --db /tmp/atlas.db     # an atlas `paperatlas add` made

Prints the median of ROUNDS runs of each, the ratio, and the concurrent backup's verdict."""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from paperatlas import Atlas

ROUNDS = 5


def _timed(run: Callable[[], object]) -> float:
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "atlas.db"
        with Atlas(args.db, read_only=True) as source:
            source.backup(work)  # a private atlas: the writer below must not touch the given one
        target = Path(tmp) / "copy.db"
        with Atlas(work) as atlas:
            atlas.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            size = work.stat().st_size
            plain = _timed(lambda: shutil.copyfile(work, target))
            backup = _timed(lambda: atlas.backup(target))
            stop = threading.Event()
            commits = 0

            def write() -> None:
                nonlocal commits
                conn = sqlite3.connect(work, isolation_level=None, timeout=30)
                while not stop.is_set():
                    conn.execute("INSERT INTO paper_tags(paper_id, tag) VALUES ('x', ?)", (f"t{commits}",))
                    commits += 1
                    time.sleep(0.002)
                conn.close()

            writer = threading.Thread(target=write)
            writer.start()
            time.sleep(0.05)
            during = _timed(lambda: atlas.backup(target))
            stop.set()
            writer.join()
        check = sqlite3.connect(target)
        verdict = check.execute("PRAGMA integrity_check").fetchone()[0]
        tags = check.execute("SELECT count(*) FROM paper_tags WHERE paper_id = 'x'").fetchone()[0]
        check.close()
    print(f"atlas {args.db}: {size / 1e6:.1f} MB")
    print(f"plain file copy (baseline): {plain * 1000:.0f} ms (median of {ROUNDS})")
    print(f"Atlas.backup:               {backup * 1000:.0f} ms ({backup / plain:.2f}x the copy)")
    print(
        f"Atlas.backup while another connection commits: {during * 1000:.0f} ms; "
        f"{commits} commits during the run, the last copy holds {tags} of them; integrity_check: {verdict}"
    )


if __name__ == "__main__":
    main()
