"""Embedding speed and peak memory per back end on 2,000 real ICLR 2026 abstracts.

    .venv/bin/python benchmarks/embed_speed.py [DATA] [--n 2000] [--models a,b,...]

Each back end runs in its own process (so peak memory is its own): load time, docs/s over
the texts in batches of 256 (after a 32-text warm-up), and peak resident memory. The
baseline is all-MiniLM-L6-v2 (chunked) measured in the same run. lsa's time includes its
fit on the same texts (it has no model without one). Targets: the default >= 150 docs/s,
use-multilingual >= 80 docs/s. Run `uptime` beside it: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

from iclr_data import DEFAULT_DATA, load_rows, real_abstract, texts_of

MODELS = ["static", "use-multilingual", "lsa", "minilm"]
TARGETS = {"static": 150, "use-multilingual": 80}


def measure(model: str, data: str, n: int) -> dict:
    from paperatlas.embed import LSABackend, get_backend

    texts = texts_of([r for r in load_rows(data) if real_abstract(r)][:n])
    t0 = time.perf_counter()
    if model == "lsa":
        backend = LSABackend()
    else:
        backend = get_backend(model)
        backend.embed(texts[:32])
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    if model == "lsa":
        backend.fit(texts)
    for i in range(0, len(texts), 256):
        backend.embed(texts[i:i + 256])
    seconds = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"model": model, "docs": len(texts), "seconds": seconds, "docs_per_s": len(texts) / seconds,
            "load_s": load_s, "peak_mb": peak_mb, "threads": os.cpu_count()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.data, args.n)))
        return
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    results = {}
    for model in args.models.split(","):
        out = subprocess.run([sys.executable, __file__, args.data, "--n", str(args.n),
                              "--one", model], capture_output=True, text=True, check=True)
        results[model] = json.loads(out.stdout.strip().splitlines()[-1])
        r = results[model]
        print(f"{model:18s} {r['docs_per_s']:8.1f} docs/s  ({r['docs']} in {r['seconds']:.1f}s, "
              f"load {r['load_s']:.1f}s)  peak {r['peak_mb']:.0f} MB", flush=True)
    base = results.get("minilm")
    for model, target in TARGETS.items():
        if model in results:
            r = results[model]["docs_per_s"]
            ratio = f", {r / base['docs_per_s']:.1f}x minilm" if base else ""
            print(f"target {model}: {r:.0f} docs/s vs >= {target} -> "
                  f"{'met' if r >= target else 'NOT met'}{ratio}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
