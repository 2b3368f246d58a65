"""Search latency: p50/p95 at 15,602 papers (end to end) and at 1,000,000 (vector part).

    nice -n 10 .venv/bin/python benchmarks/search_latency.py [--data ...] [--large 1000000]
        [--skip-large] [--db /work/cache/search/iclr2026.db] [--minilm-standin]
        [--compare-src /tmp/base13/src]

1. 15,602 real papers (../shared/data), the queries of benchmarks/queries: `search()`
   end to end — language detection, query embedding, BM25, vector search, fusion,
   filters, snippets — after one warm-up query per model; wall and CPU p50/p95 overall
   and per query kind (exact, paraphrase, chinese). Baselines in the same rounds,
   alternating per query: the search before issue 18 (its fusion settings, in this
   process) and, with --compare-src, another source tree's search() in a child process
   over the same store; then the vector part alone by exact numpy and by the ANN graph.
2. 1,000,000 synthetic vectors (drawn around the real paper vectors of the default
   model, with noise shaped like their covariance so neighbourhoods look like those of
   document embeddings): usearch HNSW build time and memory, ANN p50/p95 and recall@10
   against exact brute-force numpy, whose p50/p95 is the baseline.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from paperatlas import search as S
from paperatlas.embed import index as I
from paperatlas.filters import Filters
from paperatlas.search.vectors import embed_query, one_blas_thread
from search_common import DEFAULT_DATA, REPO, build_store


def pct(values, p) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def fmt(ms: list[float]) -> str:
    return f"p50 {pct(ms, 50):7.2f} ms  p95 {pct(ms, 95):7.2f} ms  (n={len(ms)})"


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_queries() -> list[dict]:
    out = []
    for path in sorted((REPO / "benchmarks" / "queries").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line) if line.strip() else {}
            if "query" in item:
                out.append(item)
    return out


BEFORE = {
    "learned": False,
    "method": "score",
    "keyword_scale": "minmax",
    "keyword_weight": 0.5,
    "vector_weight": 1.0,
    "name_weight": 0.0,
    "minilm_weight": 0.0,
    "multilingual_weight": 0.125,
}


# a search() of another source tree (--compare-src), in a child process: one JSON query
# per line in, its wall and CPU milliseconds out
CHILD = """
import json, sys, time
from paperatlas import search as S
from paperatlas.store import Store
store = Store(sys.argv[1])
for line in sys.stdin:
    q = json.loads(line)
    t, c = time.perf_counter(), time.process_time()
    S.search(store, q, k=20)
    print(1000 * (time.perf_counter() - t), 1000 * (time.process_time() - c), flush=True)
"""


class OtherTree:
    """search() as the code in `src` has it, over the same store, timed in its own process."""

    def __init__(self, src: Path, db: Path):
        self.src = src
        env = {**os.environ, "PYTHONPATH": str(src)}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def search(self, query: str) -> tuple[float, float]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(query) + "\n")
        self.proc.stdin.flush()
        wall, cpu = self.proc.stdout.readline().split()
        return float(wall), float(cpu)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait()


def kind_of(q: dict) -> str:
    return "chinese" if q.get("lang") == "zh" else q.get("type", "english")


def small_case(store, queries: list[dict], rounds: int, other: OtherTree | None = None) -> None:
    from paperatlas.embed import DEFAULT_MODEL

    print(f"== {store.papers.count():,} papers, end to end (search() as the CLI calls it) ==")
    print(
        f"  signals: vectors of {', '.join(store.vectors.models())}; names; English "
        f"vocabulary for Chinese queries"
    )
    for q in ("warm up", "热身"):  # load each model once; not timed
        S.search(store, q)
        S.search(store, q, config=S.SearchConfig(fusion=BEFORE, learned=False))
        if other:
            other.search(q)
    # every signal on (this version), and in the same rounds, alternating per query, the
    # search before issue 18 (min-max fusion, no MiniLM, no names, glossary-only Chinese)
    # and, with --compare-src, another tree's search() in a child process
    runs = ["new", "before"] + (["other"] if other else [])
    kinds = sorted({kind_of(q) for q in queries})
    times: dict[tuple[str, str], list[float]] = {(r, k): [] for r in runs for k in kinds}
    cpu: dict[tuple[str, str], list[float]] = {(r, k): [] for r in runs for k in kinds}
    first_zh: dict[str, list[float]] = {r: [] for r in runs}  # round 1: no word looked up before
    for round_no in range(rounds):
        for q in queries:
            kind = kind_of(q)
            for run in runs:
                if run == "other" and other:
                    wall, c = other.search(q["query"])
                else:
                    fusion, learned = (None, True) if run == "new" else (BEFORE, False)
                    t0, c0 = time.perf_counter(), time.process_time()
                    S.search(store, q["query"], k=20, config=S.SearchConfig(fusion=fusion, learned=learned))
                    wall, c = 1000 * (time.perf_counter() - t0), 1000 * (time.process_time() - c0)
                times[(run, kind)].append(wall)
                cpu[(run, kind)].append(c)
                if kind == "chinese" and round_no == 0:
                    first_zh[run].append(wall)
    labels = {
        "new": "every signal on (this tree)",
        "before": "before issue 18 (baseline: min-max fusion, no MiniLM/names/learned terms)",
        "other": f"search() of {other.src if other else ''} (same run, child process)",
    }
    for run in runs:
        every = [v for k in kinds for v in times[(run, k)]]
        print(f"  [{labels[run]}]")
        print(f"  all queries      {fmt(every)}   target p50 <= 30 ms, p95 <= 60 ms")
        for k in kinds:
            print(
                f"  {k:<16} {fmt(times[(run, k)])}   CPU p50 {pct(cpu[(run, k)], 50):6.2f} p95 {pct(cpu[(run, k)], 95):6.2f} ms"
            )
        if first_zh[run]:  # later rounds repeat the queries: their words' terms are kept
            print(f"  chinese, round 1 {fmt(first_zh[run])}  (words not looked up before)")
        print(
            f"  CPU time, all    {fmt([v for k in kinds for v in cpu[(run, k)]])}  (wall time "
            f"minus waiting for the shared cores)"
        )
    t = time.perf_counter()
    for q in queries:
        S.search(store, q["query"], k=20, filters=Filters(decision="Accept"))
    print(f"  with a filter (decision=Accept): mean {1000 * (time.perf_counter() - t) / len(queries):.1f} ms")

    # the vector part alone, exact numpy vs ANN, on the real vectors of the default model
    ids, matrix = store.vectors.get(DEFAULT_MODEL)
    exact = I.ExactIndex(ids, matrix)
    ann = I.AnnIndex(matrix.shape[1])
    t = time.perf_counter()
    ann.add(ids, matrix)
    build = time.perf_counter() - t
    qv = [embed_query(store, DEFAULT_MODEL, q["query"]) for q in queries if q.get("lang") != "zh"]
    e_ms, a_ms, rec = [], [], []
    with one_blas_thread():
        for v in qv:
            t = time.perf_counter()
            e = exact.search(v, 10)
            e_ms.append(1000 * (time.perf_counter() - t))
            t = time.perf_counter()
            a = ann.search(v, 10)
            a_ms.append(1000 * (time.perf_counter() - t))
            rec.append(len({p for p, _ in e} & {p for p, _ in a}) / 10)
    print(f"  vector part, exact numpy  {fmt(e_ms)}")
    print(
        f"  vector part, ANN          {fmt(a_ms)}  recall@10 {np.mean(rec):.3f}  "
        f"(build {build:.1f}s; exact is used below {I.ANN_THRESHOLD:,} vectors)"
    )


def standin_minilm(store) -> None:
    """MiniLM vectors for every paper: the real ones the store has (or the held-out
    abstract store has), and for the others real MiniLM vectors of other papers, cycled
    (for timing only; said in the output)."""
    from paperatlas.store import Store
    from search_common import CACHE

    have = store.vectors.signature(S.MINILM_MODEL)[0]
    ids = store.papers.ids()
    if have >= len(ids):
        return
    src_ids, src = store.vectors.get(S.MINILM_MODEL) if have else ([], None)
    if not have:
        src_ids, src = Store(CACHE / "search" / "heldout_abstracts.db").vectors.get(S.MINILM_MODEL)
    real = dict(zip(src_ids, src))
    missing = [i for i in ids if i not in real]
    fill = np.stack([src[n % len(src)] for n in range(len(missing))])
    with store.transaction():
        store.vectors.put(
            S.MINILM_MODEL,
            [i for i in ids if i in real],
            np.stack([real[i] for i in ids if i in real]),
            ["standin"] * sum(1 for i in ids if i in real),
        )
        store.vectors.put(S.MINILM_MODEL, missing, fill, ["standin"] * len(missing))
    print(
        f"minilm-int8 stand-in: {len(ids) - len(missing):,} real vectors, {len(missing):,} "
        f"copies of other papers' real vectors (timing only)"
    )


def synthetic(base: np.ndarray, n: int, seed: int, noise: float) -> np.ndarray:
    """n unit vectors: random rows of `base` plus Gaussian noise shaped like the real
    vectors' own covariance (scaled by `noise`), so the new points spread along the
    directions real papers vary in rather than into uniform noise (chunked: bounded
    memory)."""
    rng = np.random.default_rng(seed)
    centred = base - base.mean(axis=0)
    evals, evecs = np.linalg.eigh(centred.T @ centred / len(base))
    shape = (evecs * np.sqrt(np.clip(evals, 0, None))).T.astype(np.float32)  # cov^(1/2)
    out = np.empty((n, base.shape[1]), dtype=np.float32)
    for start in range(0, n, 100_000):
        m = min(100_000, n - start)
        x = base[rng.integers(0, len(base), m)]
        x = x + noise * (rng.standard_normal(x.shape, dtype=np.float32) @ shape)
        out[start : start + m] = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


def large_case(base: np.ndarray, n: int, n_queries: int, threads: int, noise: float) -> None:
    dim = base.shape[1]
    print(f"\n== {n:,} synthetic vectors ({dim}-d around {len(base):,} real paper vectors, noise {noise}) ==")
    rss0 = rss_mb()
    t = time.perf_counter()
    data = synthetic(base, n, 1, noise)
    queries = synthetic(base, n_queries, 2, noise)
    print(f"  generated in {time.perf_counter() - t:.1f}s; matrix {data.nbytes / 2**20:,.0f} MiB")
    ids = [str(i) for i in range(n)]

    exact = I.ExactIndex(ids, data)  # normalise_rows keeps a float32 copy
    del data
    gc.collect()
    e_ms, truth = [], []
    with one_blas_thread():
        for q in queries:
            t = time.perf_counter()
            hits = exact.search(q, 10)
            e_ms.append(1000 * (time.perf_counter() - t))
            truth.append({p for p, _ in hits})

    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
        path = Path(tmp) / "bench.usearch"
        ann = I.AnnIndex(dim, path)
        t = time.perf_counter()
        step = 100_000
        for start in range(0, n, step):
            ann.add(ids[start : start + step], exact.matrix[start : start + step], threads=threads)
            print(f"    built {min(n, start + step):,} / {n:,}  ({time.perf_counter() - t:.0f}s)", flush=True)
        build = time.perf_counter() - t
        t = time.perf_counter()
        ann.save()
        save = time.perf_counter() - t
        size = path.stat().st_size + path.with_name(path.name + ".json").stat().st_size
        t = time.perf_counter()
        loaded = I.AnnIndex.load(path, dim)
        load = time.perf_counter() - t
        print(
            f"  ANN build {build:.0f}s on {threads or 'all'} threads; save {save:.1f}s, "
            f"load {load:.1f}s, on disk {size / 2**20:,.0f} MiB; graph memory "
            f"{loaded.memory_bytes() / 2**20:,.0f} MiB; process peak RSS "
            f"{rss_mb() - rss0:,.0f} MiB above start"
        )
        default_ms = []
        for ef in (64, 96, 128):
            loaded._index.expansion_search = ef
            a_ms, rec = [], []
            for q, want in zip(queries, truth):
                t = time.perf_counter()
                hits = loaded.search(q, 10)
                a_ms.append(1000 * (time.perf_counter() - t))
                rec.append(len({p for p, _ in hits} & want) / 10)
            print(f"  ANN (expansion_search={ef:3d}) {fmt(a_ms)}  recall@10 {np.mean(rec):.3f}")
            if ef == loaded._params["expansion_search"]:
                default_ms = a_ms
    print(f"  exact numpy (baseline)      {fmt(e_ms)}")
    if default_ms:
        print(
            f"  ratio exact/ANN p50 at the default expansion_search: "
            f"{pct(e_ms, 50) / pct(default_ms, 50):,.0f}x "
            f"(target: ANN p50 <= 10 ms, recall@10 >= 0.95)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--db", type=Path, default=Path("/work/cache/search/iclr2026.db"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--large", type=int, default=1_000_000)
    ap.add_argument("--queries", type=int, default=200, help="queries in the large case")
    ap.add_argument("--threads", type=int, default=2, help="threads for the ANN build")
    ap.add_argument("--noise", type=float, default=0.5)
    ap.add_argument("--skip-small", action="store_true")
    ap.add_argument(
        "--compare-src",
        type=Path,
        help="also time search() of the source tree here (e.g. /tmp/base13/src), in a "
        "child process over the same store, alternating per query (a same-run baseline)",
    )
    ap.add_argument(
        "--compare-db",
        type=Path,
        help="the store copy the --compare-src tree reads (an older tree cannot open a store "
        "this one has upgraded); default: --db",
    )
    ap.add_argument("--skip-large", action="store_true")
    ap.add_argument(
        "--minilm-standin",
        action="store_true",
        help="fill the MiniLM vectors the store lacks with real MiniLM vectors of "
        "other papers (timing only: a search's cost does not depend on the "
        "values; for a store built before `paperatlas embed` computed them: it embeds "
        "all three search models of 15,602 papers in ~8 min on 2 quiet cores)",
    )
    ap.add_argument(
        "--partial-multilingual",
        action="store_true",
        help="use the multilingual vectors already in --db instead of embedding all "
        "papers (minutes on 2 quiet cores, far longer when they are shared); Chinese "
        "timings then scan fewer rows",
    )
    args = ap.parse_args()

    from paperatlas.embed import DEFAULT_MODEL

    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    models = [DEFAULT_MODEL] + ([] if args.skip_small else [S.MULTILINGUAL_MODEL])
    if args.partial_multilingual:
        models = [DEFAULT_MODEL]
    store = build_store(args.data, args.db, models)
    if args.partial_multilingual:
        print(
            f"multilingual vectors in the store: {store.vectors.signature(S.MULTILINGUAL_MODEL)[0]:,} "
            "(partial; --partial-multilingual)"
        )
    from paperatlas.search.translate_vocabulary import build_vocabulary
    from search_common import ensure_names, load_rows

    ensure_names(store, load_rows(args.data))
    build_vocabulary(store, progress=True)
    if args.minilm_standin:
        standin_minilm(store)
    if not args.skip_small:
        other = OtherTree(args.compare_src, args.compare_db or args.db) if args.compare_src else None
        small_case(store, load_queries(), args.rounds, other)
        if other:
            other.close()
    if not args.skip_large:
        _, base = store.vectors.get(DEFAULT_MODEL)
        large_case(np.ascontiguousarray(base), args.large, args.queries, args.threads, args.noise)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
