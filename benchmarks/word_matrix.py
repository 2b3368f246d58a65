"""The recommender's word matrix (`text.tfidf_matrix`) of N ICLR 2026 papers: this tree beside
another (the starting code), same run, each in a fresh process.

    .venv/bin/python benchmarks/word_matrix.py --base-src /work/base/src [--n 15602]
        [--data ../shared/data/iclr2026.jsonl.gz] [--rounds 3]

Each round runs one child process per tree (alternating which goes first), which reads the
papers' texts (`paper_text`), calls `tfidf_matrix` on two short texts (what it imports,
scikit-learn for the starting code, is imported then), then on the papers: CPU seconds of
that call, of both calls (the call with its imports), of the whole child, and the shape. The last round's two matrices are
compared: the same terms, the same non-zero entries, values within float32 rounding.
Run `uptime` beside it (a shared machine): the load is printed per round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from scale import run_popen_wait4

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "iclr2026.jsonl.gz"

CHILD = r"""
import gzip, json, sys, time
import numpy as np
from paperatlas.text import paper_text
texts = []
with gzip.open(sys.argv[1], "rt", encoding="utf-8") as fh:
    for line in fh:
        texts.append(paper_text(json.loads(line)))
        if len(texts) == int(sys.argv[2]):
            break
from paperatlas.text import tfidf_matrix
started = time.process_time()
tfidf_matrix(["graph neural networks", "neural networks"])  # what the call imports, imported
imported = time.process_time()
matrix, terms = tfidf_matrix(texts)
done = time.process_time()
matrix.sort_indices()  # (the starting code's rows were not sorted by column)
np.savez(sys.argv[3], data=matrix.data, indices=matrix.indices, indptr=matrix.indptr,
         terms=np.array([str(t) for t in terms]))
print(json.dumps({"call": done - imported, "with_imports": done - started, "shape": matrix.shape}))
"""


def run(src: Path, data: Path, n: int, out: Path) -> dict:
    result = run_popen_wait4(
        [sys.executable, "-c", CHILD, str(data), str(n), str(out)], env={"PYTHONPATH": str(src)}
    )
    return {**json.loads(result["out"]), "process": result["cpu_s"]}


def same(a: Path, b: Path) -> str:
    import numpy as np

    with np.load(a) as x, np.load(b) as y:
        if list(x["terms"]) != list(y["terms"]):
            return "terms differ"
        if not (np.array_equal(x["indptr"], y["indptr"]) and np.array_equal(x["indices"], y["indices"])):
            return "non-zero entries differ"
        return f"same terms and entries; largest value difference {np.abs(x['data'] - y['data']).max():.1e}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-src", type=Path, required=True, help="the other tree's src folder")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--n", type=int, default=15602, help="the file's first N papers")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    trees = {"this": REPO / "src", "base": args.base_src.resolve()}
    work = Path(tempfile.mkdtemp(prefix="pa-words-"))
    results: dict[str, list[dict]] = {name: [] for name in trees}
    for round_ in range(args.rounds):
        names = list(trees) if round_ % 2 == 0 else list(trees)[::-1]
        load = os.getloadavg()[0]
        for name in names:
            results[name].append(run(trees[name], args.data, args.n, work / f"{name}.npz"))
        print(f"round {round_ + 1}: load {load:.1f} -> {os.getloadavg()[0]:.1f}", flush=True)
    print(f"{args.n:,} papers; medians of {args.rounds} rounds (CPU seconds)")
    print("| tree | tfidf_matrix | with its imports | whole process | shape |")
    print("| --- | --- | --- | --- | --- |")
    medians = {}
    for name, rows in results.items():
        medians[name] = {
            k: statistics.median(r[k] for r in rows) for k in ("call", "with_imports", "process")
        }
        m = medians[name]
        print(
            f"| {name} | {m['call']:.2f} | {m['with_imports']:.2f} | {m['process']:.2f} | {tuple(rows[-1]['shape'])} |"
        )
    ratios = {k: medians["this"][k] / medians["base"][k] for k in medians["this"]}
    print("this / base: " + ", ".join(f"{k} {v:.2f}x" for k, v in ratios.items()))
    print("matrices: " + same(work / "this.npz", work / "base.npz"))


if __name__ == "__main__":
    main()
