"""Embed the 15,602 ICLR 2026 papers with one back end and cache the vectors for other tools.

    .venv/bin/python scripts/cache_vectors.py MODEL [DATA] [--out /work/cache/vectors]

Writes OUT/MODEL.npy (float32, row order = file order) and OUT/ids.json. The text of each
row is `paperatlas.embed.embedding_text(title, abstract)`. For `lsa` the SVD is fit on the
whole file (it is unsupervised and fit on the user's own corpus in real use too).

Slow back ends (minilm) work in parts of 512 rows saved under OUT/parts/MODEL/, held-out
papers first (the benchmarks need those), so an interrupted run resumes and the held-out
vectors are usable early: OUT/heldout/MODEL.npy + OUT/heldout/ids.json. For minilm the
first 256-token window of each text is kept too (`minilm-first256`, what truncation gives),
so chunking can be compared without a second pass.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from iclr_data import DEFAULT_DATA, is_held_out, load_rows, texts_of

PART = 512


def minilm_both(backend, texts):
    """(chunked-and-pooled, first-window) MiniLM vectors of texts, in one pass."""
    from paperatlas.embed.normalise import normalise_rows as l2_normalise

    engine = backend.engine  # the torch engine (this script runs where the torch extra is)
    pieces, owner, weight, first = [], [], [], []
    for i, text in enumerate(texts):
        for j, window in enumerate(engine._windows(text)):
            if j == 0:
                first.append(len(pieces))
            pieces.append(window)
            owner.append(i)
            weight.append(len(window))
    vecs = engine.model.encode(
        pieces, batch_size=64, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
    )
    pooled = np.zeros((len(texts), vecs.shape[1]), dtype=np.float64)
    np.add.at(pooled, np.asarray(owner), vecs * np.asarray(weight, dtype=np.float64)[:, None])
    return l2_normalise(pooled), l2_normalise(vecs[first])


def in_parts(model, texts, ids, out: Path) -> None:
    from paperatlas.embed import get_backend

    held = [i for i, pid in enumerate(ids) if is_held_out(pid)]
    order = held + [i for i, pid in enumerate(ids) if not is_held_out(pid)]
    parts = out / "parts" / model
    parts.mkdir(parents=True, exist_ok=True)
    backend = get_backend(model)
    names = [model] + (["minilm-first256"] if model == "minilm" else [])
    for n, start in enumerate(range(0, len(order), PART)):
        path = parts / f"{n:05d}.npz"
        if path.exists():
            continue
        rows = np.asarray(order[start : start + PART])
        batch = [texts[i] for i in rows]
        vecs = minilm_both(backend, batch) if model == "minilm" else (backend.embed(batch),)
        tmp = parts / f"{n:05d}.tmp.npz"
        np.savez(tmp, rows=rows, **dict(zip(names, vecs)))
        tmp.rename(path)
        done = min(start + PART, len(order))
        print(f"{model}: {done}/{len(order)} rows ({time.strftime('%H:%M:%S')})", flush=True)
        if done >= len(held) and not (out / "heldout" / f"{model}.npy").exists():
            assemble(parts, names, held, ids, out / "heldout", only=set(held))
    assemble(parts, names, list(range(len(ids))), ids, out, only=None)


def assemble(parts: Path, names, rows_wanted, ids, out: Path, only) -> None:
    got = {}
    for path in sorted(parts.glob("[0-9]*.npz")):
        with np.load(path) as z:
            for k, r in enumerate(z["rows"]):
                if only is None or int(r) in only:
                    got[int(r)] = {name: z[name][k] for name in names}
    if any(r not in got for r in rows_wanted):
        return
    out.mkdir(parents=True, exist_ok=True)
    if only is not None:
        (out / "ids.json").write_text(json.dumps([ids[r] for r in rows_wanted]))
    for name in names:
        np.save(out / f"{name}.npy", np.vstack([got[r][name] for r in rows_wanted]).astype(np.float32))
    print(f"wrote {', '.join(names)} ({len(rows_wanted)} rows) to {out}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--out", default="/work/cache/vectors")
    args = parser.parse_args()
    from paperatlas.embed import LSABackend, get_backend

    rows = load_rows(args.data)
    texts = texts_of(rows)
    ids = [r["id"] for r in rows]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "ids.json").write_text(json.dumps(ids))
    start = time.time()
    if args.model == "minilm":
        in_parts(args.model, texts, ids, out)
        return
    backend = LSABackend().fit(texts) if args.model == "lsa" else get_backend(args.model)
    vectors = np.vstack([backend.embed(texts[i : i + 256]) for i in range(0, len(texts), 256)])
    np.save(out / f"{args.model}.tmp.npy", vectors.astype(np.float32))
    (out / f"{args.model}.tmp.npy").rename(out / f"{args.model}.npy")
    print(f"{args.model}: {vectors.shape} in {time.time() - start:.0f}s -> {out / args.model}.npy")


if __name__ == "__main__":
    main()
