"""Load test of the web app on a 15k-paper atlas, against 127.0.0.1 only.

Starts `paperatlas serve` as a separate process on a free port, then runs N concurrent
closed-loop clients (each sends its next request as soon as the last one answered) for
a fixed time, first on /healthz (the baseline: the framework's own floor), then on a mix
of search pages and paper pages. Prints requests/s, p50/p95/p99 latency and errors.

    .venv/bin/python benchmarks/web_load.py [--data ../shared/data/iclr2026.jsonl.gz]
        [--db /work/cache/web_load/atlas.db] [--clients 50] [--seconds 30] [--workers 1]

The atlas is built once (papers, default-model vectors, map) and reused from --db.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

QUERIES = [
    "machine unlearning", "diffusion models for video generation", "graph neural networks",
    "LLM reasoning with reinforcement learning", "time series forecasting", "protein design",
    "jailbreak attacks on language models", "federated learning privacy", "KV cache compression",
    "mixture of experts routing", "robot manipulation imitation learning", "test-time scaling",
    "sparse autoencoders interpretability", "3D gaussian splatting", "speculative decoding",
    "continual learning catastrophic forgetting", "reward model overoptimization",
    "in-context learning theory", "vision language models hallucination", "quantization of LLMs",
    "optimal transport", "neural operators for PDEs", "benchmark for code generation",
    "multi-agent LLM systems", "causal discovery", "contrastive self-supervised learning",
    "大语言模型的推理能力", "扩散模型", "out-of-distribution detection", "model merging",
]


def build_store(db: Path, data: Path) -> None:
    """Papers (as `paperatlas add` would store them), default-model vectors and the map."""
    from paperatlas import Atlas

    atlas = Atlas(db)
    if atlas.stats()["papers"] == 0:
        tmp = db.with_suffix(".jsonl")
        with gzip.open(data, "rt", encoding="utf-8") as src, tmp.open("w", encoding="utf-8") as out:
            for line in src:
                r = json.loads(line)
                out.write(json.dumps({k: r.get(k) for k in (
                    "id", "title", "abstract", "keywords", "primary_area", "decision",
                    "rating_avg")}, ensure_ascii=False) + "\n")
        print("adding papers ...", flush=True)
        atlas.add([tmp], list_name="iclr2026", enrich=False)
        tmp.unlink()
    print("embedding (default model) ...", flush=True)
    atlas.embed()
    print("map ...", flush=True)
    atlas.build_map()
    atlas.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, port: int, workers: int) -> subprocess.Popen:
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    cmd = [str(REPO / ".venv/bin/paperatlas"), "serve", "--db", str(db), "--port", str(port),
           "--workers", str(workers)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    import httpx
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.3)
    proc.kill()
    sys.exit("server did not start: " + proc.stderr.read().decode()[-2000:])


async def run_load(base: str, make_request, clients: int, seconds: float) -> dict:
    import httpx

    latencies: dict[str, list[float]] = {}
    errors: dict[str, int] = {}
    failures: list[str] = []
    stop = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)

    async def client(rng: random.Random, http: httpx.AsyncClient) -> None:
        while time.perf_counter() < stop:
            kind, url = make_request(rng)
            t0 = time.perf_counter()
            try:
                r = await http.get(base + url)
                ok = r.status_code == 200
                why = f"HTTP {r.status_code} {url}"
            except httpx.HTTPError as exc:
                ok, why = False, f"{type(exc).__name__} {url}"
            latencies.setdefault(kind, []).append(time.perf_counter() - t0)
            if not ok:
                errors[kind] = errors.get(kind, 0) + 1
                if len(failures) < 5:
                    failures.append(why)

    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        started = time.perf_counter()
        await asyncio.gather(*(client(random.Random(i), http) for i in range(clients)))
        elapsed = time.perf_counter() - started
    for why in failures:
        print(f"  failed: {why}")
    return {"elapsed": elapsed, "latencies": latencies, "errors": errors}


def summary(name: str, result: dict) -> dict:
    import numpy as np

    every = [x for xs in result["latencies"].values() for x in xs]
    rows = {"all": every, **result["latencies"]}
    out = {}
    for kind, xs in rows.items():
        a = np.array(xs) * 1000
        out[kind] = {"requests": len(xs), "rps": round(len(xs) / result["elapsed"], 1),
                     "p50_ms": round(float(np.percentile(a, 50)), 1),
                     "p95_ms": round(float(np.percentile(a, 95)), 1),
                     "p99_ms": round(float(np.percentile(a, 99)), 1),
                     "errors": result["errors"].get(kind, 0) if kind != "all"
                     else sum(result["errors"].values())}
    for kind, s in out.items():
        print(f"  {name:9} {kind:7} {s['requests']:>6} req  {s['rps']:>7.1f} req/s  "
              f"p50 {s['p50_ms']:>7.1f} ms  p95 {s['p95_ms']:>7.1f} ms  p99 {s['p99_ms']:>7.1f} ms  "
              f"errors {s['errors']}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=REPO / "../shared/data/iclr2026.jsonl.gz")
    ap.add_argument("--db", type=Path, default=Path("/work/cache/web_load/atlas.db"))
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--baseline-seconds", type=float, default=10)
    ap.add_argument("--workers", type=int, default=1, help="server processes")
    args = ap.parse_args()
    args.db.parent.mkdir(parents=True, exist_ok=True)
    build_store(args.db, args.data)

    from paperatlas.store import Store
    ids = Store(args.db).all_ids()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(args.db, port, args.workers)
    try:
        print(f"server on {base} ({args.workers} worker(s)); {len(ids):,} papers; "
              f"{args.clients} clients; load {os.getloadavg()[0]:.1f}", flush=True)
        # warm up: first search loads the embedding model, first page compiles templates
        asyncio.run(run_load(base, lambda rng: ("warm", "/search?q=" + rng.choice(QUERIES)), 2, 3))
        baseline = asyncio.run(run_load(base, lambda rng: ("healthz", "/healthz"),
                                        args.clients, args.baseline_seconds))
        print("baseline:")
        base_s = summary("baseline", baseline)

        def mixed(rng: random.Random):
            if rng.random() < 0.5:
                return "search", "/search?q=" + rng.choice(QUERIES).replace(" ", "+")
            return "paper", "/papers/" + rng.choice(ids)

        load = asyncio.run(run_load(base, mixed, args.clients, args.seconds))
        print("search + paper pages:")
        mix_s = summary("pages", load)
        print(f"ratio pages/baseline: req/s {mix_s['all']['rps'] / base_s['all']['rps']:.2f}, "
              f"p95 {mix_s['all']['p95_ms'] / max(base_s['all']['p95_ms'], 0.1):.1f}x; "
              f"load at end {os.getloadavg()[0]:.1f}")
    finally:
        server.terminate()
        _, err = server.communicate(timeout=15)
        tail = err.decode(errors="replace").strip().splitlines()[-30:]
        if any("Traceback" in line or "ERROR" in line for line in tail):
            print("server log (tail):\n" + "\n".join(tail))


if __name__ == "__main__":
    main()
