"""Fit a query adapter (search/query_adapter.py) -> models/<model>-query-adapter-v1.npz.

    nice .venv/bin/python scripts/build_query_adapter.py --model minilm-int8 (or use-multilingual,
        static)
        [--data ../shared/data/iclr2026.jsonl.gz] [--cache /work/cache/query_adapter]
        [--tau 0.02] [--epochs N]

all-MiniLM-L6-v2 was trained on general web pairs, and the `static` model's term table
(scripts/build_static.py) on abstracts alone; a researcher's query about a paper and the
paper's abstract are another kind of pair. The adapter is one square matrix W applied to a
query's vector before search (q -> normalise(q W)); papers' vectors are left as they are,
so no atlas is re-embedded. (Rebuilding models/static-v1.npz means refitting its adapter.)

Pairs: the papers that `enrich.areas.is_held_out` does NOT select (the held-out ~20% stay
unseen: the search benchmarks' papers), with real abstracts. Each paper's title and, where
it has one, its OpenReview TL;DR (the authors' one-sentence summary) are queries; its
abstract, embedded as an abstract-only atlas embeds it, is the answer. Nothing here is a
hand-written query of the benchmarks.

Fit: W starts at the identity; the loss is the cross-entropy of each query's own abstract
among ALL the training abstracts (cosine / TAU), by Adam over mini-batches (torch, the
`torch` extra). A tenth of the papers (sha1 of the id) are kept aside; the epoch whose W
ranks their queries' abstracts best (MRR@10 among the training abstracts) is written.
TAU was chosen on that part (MiniLM, best epoch on 2,000 of its queries: TAU 0.05 about
0.84, 0.03 0.859, 0.02 0.866, 0.01 0.863; on all of them the identity 0.812, 0.02 0.866.
static: 0.05 0.605 and 0.02 0.629 after 8 epochs, still rising; 0.02 for 25 epochs 0.653,
the identity 0.461. use-multilingual at 0.02: the identity 0.562, best epoch 3 0.679;
its pairs are English only, yet the map carries over to Chinese queries in the same space:
docs/bench/search.md).

Embeddings are cached under --cache (MiniLM on ~12,400 abstracts is ~10 min on 2 cores;
use-multilingual ~2 min; static, seconds). Deterministic up to float rounding: fixed seed, fixed order.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))
from iclr_data import DEFAULT_DATA, is_held_out, load_rows, real_abstract  # noqa: E402
from paperatlas.embed.normalise import normalise_rows  # noqa: E402
from paperatlas.search.query_adapter import ADAPTER_FILES, MODELS_DIR  # noqa: E402

EPOCHS = {"minilm-int8": 8, "static": 25, "use-multilingual": 8}  # the static fit converges more slowly
VALIDATION_SHARE = 10  # one paper in ten kept aside (sha1 of its id)
BATCH = 512
SEED = 0


def embedded(model: str, name: str, texts: list[str], cache: Path | None, batch: int) -> np.ndarray:
    """`model`'s vectors of `texts`, cached by their content."""
    from paperatlas.embed import get_backend

    key = hashlib.sha1("\x1e".join(texts).encode()).hexdigest()[:12]
    path = cache / f"{model}_{name}_{key}.npy" if cache else None
    if path is not None and path.exists():
        return np.load(path)
    backend = get_backend(model, threads=2)
    out, start = [], time.perf_counter()
    for i in range(0, len(texts), batch):
        out.append(np.asarray(backend.embed(texts[i : i + batch]), dtype=np.float32))
        print(
            f"  {name}: {min(i + batch, len(texts))}/{len(texts)}, {time.perf_counter() - start:.0f}s",
            flush=True,
        )
    vectors = np.vstack(out)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, vectors)
    return vectors


def mrr10(w: np.ndarray, queries: np.ndarray, targets: np.ndarray, docs: np.ndarray) -> float:
    scores = normalise_rows(queries @ w) @ docs.T
    own = scores[np.arange(len(targets)), targets]
    rank = (scores > own[:, None]).sum(axis=1) + 1
    return float(np.mean(np.where(rank <= 10, 1.0 / rank, 0.0)))


def fit(queries, targets, docs, held, tau: float, epochs: int, log=print) -> tuple[np.ndarray, float]:
    """(best W by the kept-aside queries' MRR@10, that MRR@10)."""
    import torch

    torch.manual_seed(SEED)
    dim = queries.shape[1]
    w = torch.eye(dim, requires_grad=True)
    docs_t, queries_t, targets_t = torch.tensor(docs), torch.tensor(queries), torch.tensor(targets)
    optimiser = torch.optim.Adam([w], lr=1e-3)
    train = np.flatnonzero(~held)
    check = np.flatnonzero(held)
    best_w, best = (
        np.eye(dim, dtype=np.float32),
        mrr10(np.eye(dim, dtype=np.float32), queries[check], targets[check], docs),
    )
    log(f"  identity: kept-aside MRR@10 {best:.4f}")
    rng = np.random.default_rng(SEED)
    for epoch in range(epochs):
        rng.shuffle(train)
        for i in range(0, len(train), BATCH):
            b = torch.tensor(train[i : i + BATCH])
            q = torch.nn.functional.normalize(queries_t[b] @ w, dim=1)
            loss = torch.nn.functional.cross_entropy(q @ docs_t.T / tau, targets_t[b])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        current = w.detach().numpy().copy()
        score = mrr10(current, queries[check], targets[check], docs)
        log(f"  epoch {epoch + 1}: kept-aside MRR@10 {score:.4f}")
        if score > best:
            best_w, best = current, score
    return best_w, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=sorted(EPOCHS), default="minilm-int8")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--cache", type=Path, default=Path("/work/cache/query_adapter"))
    ap.add_argument("--tau", type=float, default=0.02)
    ap.add_argument("--epochs", type=int, help="default: 25 for static, else 8")
    ap.add_argument(
        "--out", type=Path, help="default: models/ for the adapters search reads, else the cache folder"
    )
    args = ap.parse_args()
    model = args.model
    epochs = args.epochs or EPOCHS[model]
    # a model search has no adapter for (static: measured, not shipped) is written beside
    # the cache, where search does not read it
    shipped = ADAPTER_FILES.get(model)
    out = args.out or (MODELS_DIR / shipped if shipped else args.cache / f"{model}-query-adapter-v1.npz")

    from paperatlas.paper import embedding_text

    rows = [r for r in load_rows(args.data) if real_abstract(r) and not is_held_out(r["id"])]
    print(f"{len(rows):,} training papers (held-out papers left out)")
    docs = normalise_rows(
        embedded(model, "abstracts", [embedding_text(None, r["abstract"]) for r in rows], args.cache, 32)
    )
    titles = [r["title"] for r in rows]
    with_tldr = [i for i, r in enumerate(rows) if (r.get("tldr") or "").strip()]
    tldrs = [rows[i]["tldr"].strip() for i in with_tldr]
    queries = normalise_rows(
        np.vstack(
            [
                embedded(model, "titles", titles, args.cache, 256),
                embedded(model, "tldrs", tldrs, args.cache, 256),
            ]
        )
    )
    targets = np.concatenate([np.arange(len(rows)), np.asarray(with_tldr)])
    aside = np.asarray([hashlib.sha1(r["id"].encode()).digest()[0] % VALIDATION_SHARE == 0 for r in rows])
    print(f"queries: {len(titles):,} titles, {len(tldrs):,} TL;DRs; {int(aside.sum()):,} papers kept aside")
    w, score = fit(queries, targets, docs, aside[targets], args.tau, epochs)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out,
        weights=w.astype(np.float32),
        model=np.asarray(model),
        tau=np.asarray(args.tau),
        kept_aside_mrr10=np.asarray(score),
    )
    print(f"wrote {out} (kept-aside MRR@10 {score:.4f})")


if __name__ == "__main__":
    main()
