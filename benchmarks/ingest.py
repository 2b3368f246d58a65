"""Benchmark: adding the ICLR 2026 file to a fresh store, against parsing it with json.loads.

    .venv/bin/python benchmarks/ingest.py [PATH_TO_iclr2026.jsonl.gz] [--sample LIST] [--big]

Prints: the json.loads baseline, papers/s of `add_files` into a fresh store (dedup
included), the ratio, peak memory, the time of a repeated add; then checks the sample
list merges into its ICLR twins. `--big` also streams a generated ~200 MB JSONL file and
prints the peak memory of reading and adding it next to that of the small file.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from paperatlas.ingest import add_files  # noqa: E402
from paperatlas.store import Store  # noqa: E402


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def baseline_parse(path: Path) -> tuple[int, float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    n = 0
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            json.loads(line)
            n += 1
    return n, time.perf_counter() - start, time.process_time() - cpu


def table_digest(store: Store) -> str:
    """A digest of every row of every table: equal digests mean nothing changed."""
    h = hashlib.sha1()
    for (table,) in store.conn.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ):
        if "fts" in table:
            continue
        for row in store.conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2"):
            h.update(repr(tuple(row)).encode())
    return h.hexdigest()


def timed_add(store: Store, path: Path, list_name: str | None = None):
    """(file report, wall seconds, CPU seconds of this process)."""
    start, cpu = time.perf_counter(), time.process_time()
    report = add_files(store, [path], list_name=list_name)
    return report.files[0], time.perf_counter() - start, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data", nargs="?", default=str(REPO / "../shared/data/iclr2026.jsonl.gz"))
    parser.add_argument("--sample", default=str(REPO / "examples/iclr2026_sample_list.txt"))
    parser.add_argument("--big", action="store_true", help="also stream a generated ~200 MB file")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, Path(args.data))
    data, sample = Path(args.data), Path(args.sample)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")

    n, parse_s, parse_cpu = baseline_parse(data)
    print(
        f"baseline  json.loads of {data.name}: {n} rows in {parse_s:.2f} s wall, "
        f"{parse_cpu:.2f} s CPU ({n / parse_s:,.0f} rows/s)"
    )

    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db")
        rss_before = peak_rss_mb()
        first, add_s, add_cpu = timed_add(store, data)
        rss_after = peak_rss_mb()
        print(
            f"fresh add {first.added} papers in {add_s:.2f} s wall, {add_cpu:.2f} s CPU "
            f"({first.added / add_s:,.0f} papers/s); {add_s / parse_s:.1f}x the json.loads "
            f"baseline (CPU {add_cpu / parse_cpu:.1f}x); target <= 10 s wall: "
            f"{'met' if add_s <= 10 else 'NOT met'}"
        )
        print(f"peak RSS {rss_after:.0f} MB (was {rss_before:.0f} MB before the add)")
        again, again_s, again_cpu = timed_add(store, data)
        print(
            f"repeated add: {again_s:.2f} s wall, {again_cpu:.2f} s CPU "
            f"(added {again.added}, merged {again.merged}, "
            f"unchanged {again.unchanged}); target <= 3 s: {'met' if again_s <= 3 else 'NOT met'}"
        )

        listed, list_s, _ = timed_add(store, sample)
        total = store.papers.count()
        ids = store.papers.ids(listed.list_name)
        papers = store.papers.get_many(ids)
        titled = sum(bool(p["title"]) for p in papers)
        with_area = sum(bool(p["area"]) for p in papers)
        in_both = sum(
            sorted(store.lists.containing(pid)) == sorted([first.list_name, listed.list_name]) for pid in ids
        )
        checks = [
            ("total papers after data + sample", total, 15602),
            ("sample entries read", listed.read, 19),
            ("sample entries merged into ICLR twins", listed.merged, 19),
            ("sample papers with a title", titled, 19),
            ("sample papers with an area", with_area, 19),
            ("sample papers in both lists", in_both, 19),
            (f"papers in list '{first.list_name}'", store.papers.count(first.list_name), 15602),
            (f"papers in list '{listed.list_name}'", store.papers.count(listed.list_name), 19),
        ]
        digest = table_digest(store)
        for path in (data, sample):
            again_report, _, _ = timed_add(store, path)
            checks.append((f"re-add {path.name}: rows changed", 0 if table_digest(store) == digest else 1, 0))
            checks.append(
                (f"re-add {path.name}: added + merged", again_report.added + again_report.merged, 0)
            )
        print(f"sample list added in {list_s:.2f} s")
        store.close()
        # the other order: the list first (hash ids), then the data (twins take the source ids)
        reverse = Store(Path(tmp) / "reverse.db")
        timed_add(reverse, sample)
        timed_add(reverse, data)
        sample_ids = reverse.papers.ids(listed.list_name)
        checks += [
            ("list first, then data: total papers", reverse.papers.count(), 15602),
            (
                "list first, then data: sample papers now under OpenReview ids",
                sum(not pid.startswith("h") for pid in sample_ids),
                19,
            ),
            (
                "list first, then data: sample papers with a title",
                sum(bool(p["title"]) for p in reverse.papers.get_many(sample_ids)),
                19,
            ),
        ]
        reverse.close()
        for what, got, want in checks:
            ok = got == want
            failures += not ok
            print(f"  {'ok ' if ok else 'BAD'} {what}: {got} (want {want})")

        if args.big:
            failures += big_file(Path(tmp), data)
    return 1 if failures else 0


def big_file(tmp: Path, data: Path) -> int:
    """Generate ~200 MB of JSONL (ICLR rows with new ids, abstracts varied) and measure the
    peak memory of reading and of adding it, each in a fresh process."""
    big = tmp / "big.jsonl"
    with gzip.open(data, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    size, copy = 0, 0
    with open(big, "w", encoding="utf-8") as fh:
        while size < 200 * 1024 * 1024:
            for row in rows:
                tag = hashlib.md5(f"{row['id']}{copy}".encode()).hexdigest()
                row = dict(
                    row,
                    id=f"{row['id']}-{copy}",
                    abstract=f"Variant {copy} {tag}. " + row["abstract"][:: -1 if copy % 2 else 1],
                )
                row.pop("abstract_final", None)
                line = json.dumps(row, ensure_ascii=False) + "\n"
                fh.write(line)
                size += len(line.encode())
            copy += 1
    print(f"big file: {size / 2**20:.0f} MB, {copy * len(rows)} rows")
    failures = 0
    results = {}
    for mode in ("read-small", "read-big", "add-big"):
        target = data if mode == "read-small" else big
        out = subprocess.run(
            [sys.executable, __file__, str(target), "--child", mode],
            capture_output=True,
            text=True,
            check=False,
        )
        print("  " + out.stdout.strip().replace("\n", "\n  "))
        if out.returncode:
            print(out.stderr[-2000:])
            failures += 1
        else:
            results[mode] = json.loads(out.stdout.strip().splitlines()[-1])
    if "read-small" in results and "read-big" in results:
        grow = results["read-big"]["peak_mb"] - results["read-small"]["peak_mb"]
        print(
            f"  reading {size / 2**20:.0f} MB instead of {data.stat().st_size / 2**20:.0f} MB (gz) "
            f"raises peak memory by {grow:.0f} MB"
        )
    return failures


def child(mode: str, path: Path) -> int:
    from paperatlas import sources

    start = time.perf_counter()
    if mode.startswith("read"):
        n = sum(1 for _ in sources.read(path))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            store = Store(Path(tmp) / "big.db")
            n = add_files(store, [path]).files[0].added
            store.close()
    seconds = time.perf_counter() - start
    print(
        json.dumps({"mode": mode, "papers": n, "seconds": round(seconds, 1), "peak_mb": round(peak_rss_mb())})
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
