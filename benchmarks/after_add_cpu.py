"""CPU a page before and after another process adds papers to the atlas being served: the
app renders `--pages` pages of web_load.py's mix (paper pages and searches of a random
paper's author keywords, half and half; page cache off) in one process, then a second
process adds the held-back papers (`Atlas.add`, facts on: an `add` as the CLI runs it),
then the app renders `--pages` more. Printed per checkout: CPU a page (this process's
time, all threads: the background work a commit sets off is counted) before the add, the
pages after it, and everything from the add's start on divided by those pages. With
`--baseline-src` the same is run by that checkout's code in the same run.

    .venv/bin/python benchmarks/after_add_cpu.py --db ATLAS.db --held-back HELD.jsonl
        [--pages 600] [--baseline-src /work/base --baseline-db BASE.db
        --baseline-held-back BASE_HELD.jsonl]

Each run reads its own copy (sqlite backup) of the atlas; the atlases and held-back files
are those `benchmarks/web_load.py --add-while-loading N` writes.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from child_json import backup_copy, child_json

SRC = Path(__file__).resolve().parents[1] / "src"

_RUN = r"""
import json, random, sqlite3, subprocess, sys, time
from urllib.parse import quote_plus
src, db, held, pages, settle = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
sys.path.insert(0, src)
from fastapi.testclient import TestClient
from paperatlas.web.app import create_app
ADD = "import sys; sys.path.insert(0, sys.argv[1]); from paperatlas import Atlas; Atlas(sys.argv[2]).add([sys.argv[3]], list_name='added')"
conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
ids, words = [], []
for pid, kw in conn.execute("SELECT id, keywords FROM papers"):
    ids.append(pid)
    ks = [w.lower() for w in json.loads(kw or "[]") if 2 <= len(w) <= 80]
    if ks:
        words.append(ks)
conn.close()
rng = random.Random(0)
def plan(n):
    return ["/papers/" + rng.choice(ids) if rng.random() < 0.5 else "/search?q=" + quote_plus(rng.choice(rng.choice(words)))
            for _ in range(n)]
def render(client, urls):
    for url in urls:
        assert client.get(url).status_code == 200, url
with TestClient(create_app(db, page_cache=False), base_url="http://127.0.0.1") as client:
    while not client.get("/healthz").json().get("warm", True):
        time.sleep(0.2)
    render(client, plan(40))  # templates compiled
    before_urls, after_urls = plan(pages), plan(pages)
    start = time.process_time()
    render(client, before_urls)
    quiet = time.process_time() - start
    start = time.process_time()
    subprocess.run([sys.executable, "-c", ADD, src, db, held], check=True, capture_output=True)
    time.sleep(settle)  # what the commits set off in the background, counted below
    pages_start = time.process_time()
    render(client, after_urls)
    end = time.process_time()
print(json.dumps({"quiet_ms": 1000 * quiet / pages, "after_ms": 1000 * (end - pages_start) / pages,
                  "from_add_ms": 1000 * (end - start) / pages}))
"""


def run(src: Path, db: Path, held: Path, pages: int, settle: float) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        copy = backup_copy(db, Path(scratch))
        return child_json(_RUN, str(src), str(copy), str(held), str(pages), str(settle), src=src)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--held-back", type=Path, required=True)
    ap.add_argument("--pages", type=int, default=600, help="pages before the add, and as many after")
    ap.add_argument("--settle", type=float, default=4.0, help="seconds between the add's end and the pages")
    ap.add_argument("--baseline-src", type=Path)
    ap.add_argument("--baseline-db", type=Path)
    ap.add_argument("--baseline-held-back", type=Path)
    args = ap.parse_args()
    runs = [("this code", SRC, args.db, args.held_back)]
    if args.baseline_src:
        runs.append(
            (
                f"baseline {args.baseline_src}",
                args.baseline_src.resolve() / "src",
                args.baseline_db or args.db,
                args.baseline_held_back or args.held_back,
            )
        )
    figures = {}
    for label, src, db, held in runs:
        figures[label] = got = run(src, db, held, args.pages, args.settle)
        print(
            f"{label}: CPU a page {got['quiet_ms']:.2f} ms before the add, {got['after_ms']:.2f} ms after it, "
            f"{got['from_add_ms']:.2f} ms counting everything from the add on ({args.pages} pages each)",
            flush=True,
        )
    if len(figures) == 2:
        this, base = figures.values()
        print(
            "this code / baseline: before the add "
            f"{this['quiet_ms'] / base['quiet_ms']:.2f}, after it {this['after_ms'] / base['after_ms']:.2f}, "
            f"from the add on {this['from_add_ms'] / base['from_add_ms']:.2f}"
        )


if __name__ == "__main__":
    main()
