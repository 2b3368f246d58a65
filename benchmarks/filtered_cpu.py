"""CPU a filtered search page while other connections commit: `--threads` clients ask for
`--pages` searches at once, each narrowed by one of a few filters (a decision, the list, a
kind, code, unread), and another connection commits every `--commit-every` pages: a like
(`--commit like`: what a filter reads) or a note (`--commit note`: nothing a filter reads).
The app runs its pages as a server does (its page handlers on its event loop's thread, some
work on its thread pool). Printed per checkout: process CPU a page (all threads). With
`--baseline-src` the same is run by that checkout's code in the same run, on its own copy.

    .venv/bin/python benchmarks/filtered_cpu.py --db ATLAS.db [--pages 400] [--threads 16]
        [--commit like|note] [--baseline-src /work/base [--baseline-db BASE.db]]

Each run reads its own copy (sqlite backup) of the atlas.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from child_json import backup_copy, child_json

SRC = Path(__file__).resolve().parents[1] / "src"

_RUN = r"""
import json, random, sqlite3, sys, time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote_plus
src, db, pages, threads, every, commit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
sys.path.insert(0, src)
from fastapi.testclient import TestClient
from paperatlas import Atlas
from paperatlas.web.app import create_app
conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
ids = [r[0] for r in conn.execute("SELECT id FROM papers ORDER BY rowid")]
words = sorted({w.lower() for (kw,) in conn.execute("SELECT keywords FROM papers") for w in json.loads(kw or "[]")
                if 3 <= len(w) <= 40})
lists = [r[0] for r in conn.execute("SELECT name FROM lists ORDER BY name")]
conn.close()
filters = ["decision=Accept", "list=" + quote_plus(lists[0]), "kind=method", "has_code=1", "state=unread"]
rng = random.Random(0)
urls = [f"/search?q={quote_plus(rng.choice(words))}&{rng.choice(filters)}" for _ in range(pages + 40)]
def get(url):
    assert client.get(url).status_code == 200, url
with TestClient(create_app(db, page_cache=False), base_url="http://127.0.0.1") as client:
    while not client.get("/healthz").json().get("warm", True):
        time.sleep(0.2)
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(get, urls[:40]))  # templates compiled, every thread's connection open
    writer = Atlas(db)
    start = time.process_time()
    with ThreadPoolExecutor(threads) as pool:
        for at in range(0, pages, every):
            pid = ids[at % len(ids)]
            writer.like([pid]) if commit == "like" else writer.set_note(pid, f"note {at}")
            list(pool.map(get, urls[40 + at : 40 + at + every]))
    cpu = time.process_time() - start
    writer.close()
print(json.dumps({"page_ms": 1000 * cpu / pages}))
"""


def run(src: Path, db: Path, pages: int, threads: int, every: int, commit: str) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        copy = backup_copy(db, Path(scratch))
        return child_json(_RUN, str(src), str(copy), str(pages), str(threads), str(every), commit, src=src)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--pages", type=int, default=400)
    ap.add_argument("--threads", type=int, default=16, help="threads asking at once, as a server's pool")
    ap.add_argument("--commit-every", type=int, default=50, help="pages between two commits")
    ap.add_argument("--commit", choices=("like", "note"), default="like", help="what each commit writes")
    ap.add_argument("--baseline-src", type=Path)
    ap.add_argument("--baseline-db", type=Path)
    args = ap.parse_args()
    runs = [("this code", SRC, args.db)]
    if args.baseline_src:
        runs.append(
            (
                f"baseline {args.baseline_src}",
                args.baseline_src.resolve() / "src",
                args.baseline_db or args.db,
            )
        )
    figures = {}
    for label, src, db in runs:
        figures[label] = got = run(src, db, args.pages, args.threads, args.commit_every, args.commit)
        print(
            f"{label}: CPU a filtered search page {got['page_ms']:.2f} ms ({args.pages} pages, "
            f"a {args.commit} committed every {args.commit_every})",
            flush=True,
        )
    if len(figures) == 2:
        this, base = figures.values()
        print(f"this code / baseline: {this['page_ms'] / base['page_ms']:.2f}")


if __name__ == "__main__":
    main()
