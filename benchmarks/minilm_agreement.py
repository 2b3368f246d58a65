"""How close `minilm` on its two engines is: the int8 ONNX export (the default install)
against the float32 torch model (the `torch` extra), on real ICLR 2026 abstracts.

    .venv/bin/python benchmarks/minilm_agreement.py [DATA] [--n 300]

Needs the torch extra (`pip install 'paperatlas[torch]'`). Both engines embed the same
texts (title and abstract, as `embed_store` does; long ones chunked and pooled by each);
prints the cosine per text between the two vectors (min, 1st/5th percentile, median,
mean, share within 1e-2 of 1), and how many of each paper's 10 nearest papers both
engines agree on. Run `uptime` beside it: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from iclr_data import DEFAULT_DATA, load_rows, real_abstract
from paperatlas.embed import embedding_text
from paperatlas.embed.minilm import MiniLM, torch_installed

GAP = 1e-2  # the budget: cosine >= 1 - GAP per text


def neighbour_agreement(a: np.ndarray, b: np.ndarray, k: int = 10) -> float:
    """Mean share of each row's k nearest other rows that both matrices agree on."""
    shared = []
    for m in (a, b):
        sims = m @ m.T
        np.fill_diagonal(sims, -np.inf)
        shared.append(np.argsort(-sims, axis=1)[:, :k])
    return float(np.mean([len(set(x) & set(y)) / k for x, y in zip(*shared)]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--n", type=int, default=300)
    args = parser.parse_args()
    if not torch_installed():
        raise SystemExit("needs the torch extra: pip install 'paperatlas[torch]'")
    rows = [r for r in load_rows(args.data) if real_abstract(r)][: args.n]
    texts = [embedding_text(r.get("title"), r.get("abstract")) for r in rows]
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    vectors = {}
    for engine in ("torch", "onnx"):
        backend = MiniLM.load(engine=engine)
        t0 = time.perf_counter()
        vectors[engine] = np.vstack([backend.embed(texts[i : i + 64]) for i in range(0, len(texts), 64)])
        print(f"{engine}: {len(texts)} texts in {time.perf_counter() - t0:.1f} s")
    cos = (vectors["torch"] * vectors["onnx"]).sum(axis=1)
    print(
        f"cosine int8 ONNX vs float32 torch over {len(cos)} abstracts: min {cos.min():.4f}, "
        f"p1 {np.percentile(cos, 1):.4f}, p5 {np.percentile(cos, 5):.4f}, median {np.median(cos):.4f}, "
        f"mean {cos.mean():.4f}; within {GAP:g}: {np.mean(cos >= 1 - GAP):.1%}"
    )
    print(f"10 nearest papers in common: {neighbour_agreement(vectors['torch'], vectors['onnx']):.1%}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
