"""Embed the 15,602 ICLR 2026 papers with one back end and cache the vectors for other tools.

    .venv/bin/python scripts/cache_vectors.py MODEL [DATA] [--out /work/cache/vectors]

Writes OUT/MODEL.npy (float32, row order = file order) and OUT/ids.json. The text of each
row is `paperatlas.embed.embedding_text(title, abstract)`. For `lsa` the SVD is fit on the
whole file (it is unsupervised and fit on the user's own corpus in real use too).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from iclr_data import DEFAULT_DATA, load_rows, texts_of  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--out", default="/work/cache/vectors")
    args = parser.parse_args()
    from rich.progress import track

    from paperatlas.embed import LSABackend, get_backend

    rows = load_rows(args.data)
    texts = texts_of(rows)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "ids.json").write_text(json.dumps([r["id"] for r in rows]))
    start = time.time()
    if args.model == "lsa":
        backend = LSABackend().fit(texts)
    else:
        backend = get_backend(args.model)
    parts = [backend.embed(texts[i:i + 256])
             for i in track(range(0, len(texts), 256), description=args.model)]
    vectors = np.vstack(parts).astype(np.float32)
    tmp = out / f"{args.model}.tmp.npy"
    np.save(tmp, vectors)
    tmp.rename(out / f"{args.model}.npy")
    print(f"{args.model}: {vectors.shape} in {time.time() - start:.0f}s -> {out / args.model}.npy")


if __name__ == "__main__":
    main()
