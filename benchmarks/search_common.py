"""Shared by the search benchmarks: an atlas of ../shared/data built once and cached.

The papers go in through `Store.papers.insert` (title, abstract, keywords, area, decision),
and their vectors come from the embeddings cache (/work/cache/vectors/<model>.npy with
ids.json, rows in data-file order) when it is there, else they are computed with
`embed_store` (slow on 2 cores: minutes per model).
"""

from __future__ import annotations

import gzip
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from paperatlas.embed import embedding_text  # noqa: E402
from paperatlas.paper import text_hash  # noqa: E402
from paperatlas.store import Store  # noqa: E402

DEFAULT_DATA = REPO / ".." / "shared" / "data" / "iclr2026.jsonl.gz"
CACHE = Path(os.environ.get("PAPERATLAS_BENCH_CACHE", "/work/cache"))
VECTOR_CACHE = CACHE / "vectors"


def load_rows(data: Path) -> list[dict]:
    with gzip.open(data, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def build_store(data: Path, db: Path, models: list[str], log=print) -> Store:
    """The atlas of `data` at `db`, with vectors of `models` (reused when already there)."""
    db.parent.mkdir(parents=True, exist_ok=True)
    store = Store(db)
    rows = load_rows(data)
    if store.papers.count() != len(rows):
        t = time.perf_counter()
        with store.transaction():
            have = set(store.papers.ids())
            for r in rows:
                if r["id"] in have:
                    continue
                store.papers.insert(
                    {
                        "id": r["id"],
                        "title": r.get("title"),
                        "abstract": r["abstract"] or "",
                        "keywords": r.get("keywords") or [],
                        "year": r.get("year"),
                        "area": r.get("primary_area"),
                        "decision": r.get("decision"),
                        "venue": "ICLR 2026",
                    }
                )
        log(f"store: {len(rows):,} papers inserted in {time.perf_counter() - t:.1f}s")
    for model in models:
        ensure_vectors(store, rows, model, log)
    return store


def ensure_vectors(store: Store, rows: list[dict], model: str, log=print) -> None:
    if store.vectors.signature(model)[0] == len(rows):
        return
    cached = VECTOR_CACHE / f"{model}.npy"
    ids_file = VECTOR_CACHE / "ids.json"
    if cached.exists() and ids_file.exists():
        ids = json.loads(ids_file.read_text())
        matrix = np.load(cached)
        if len(ids) == len(rows) == matrix.shape[0]:
            by_id = {r["id"]: r for r in rows}
            hashes = [text_hash(embedding_text(by_id[i].get("title"), by_id[i]["abstract"])) for i in ids]
            with store.transaction():
                store.vectors.put(model, ids, matrix, hashes)
            log(f"vectors: {model} loaded from {cached}")
            return
    from paperatlas.embed import embed_store

    log(f"vectors: {model} not cached; embedding {len(rows):,} papers (slow) ...")
    t = time.perf_counter()
    embed_store(store, model=model, progress=True)
    log(f"vectors: {model} embedded in {time.perf_counter() - t:.0f}s")


def paper_names(rows: list[dict], cache: Path | None = None, log=print) -> dict[str, list[str]]:
    """paper id -> the names its abstract introduces (enrich's `extract_names`, headline
    first), for papers that name something; cached per data file."""
    cache = cache or CACHE / "search" / "names.json"
    if cache.exists():
        return json.loads(cache.read_text())
    from paperatlas.enrich.names import extract_names
    from paperatlas.enrich.text import clean

    out = {}
    t = time.perf_counter()
    for r in rows:
        raw = r.get("abstract") or ""
        names = extract_names(raw, clean(raw))
        if names:
            out[r["id"]] = names
    log(f"names extracted from {len(rows):,} abstracts in {time.perf_counter() - t:.0f}s")
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(out))
    return out


def ensure_names(store: Store, rows: list[dict], log=print) -> dict[str, list[str]]:
    """The bench atlas carries each paper's names in its facts, as `paperatlas add` (which
    runs enrich) leaves them: search finds a paper by its name. Only name facts are
    written (enrich's other facts are not needed by search)."""
    names = paper_names(rows, log=log)
    have = {pid for pid, _ in store.facts.paper_names()}
    todo = [(pid, n) for pid, n in names.items() if pid not in have]
    if todo:
        with store.transaction():
            for pid, n in todo:
                store.facts.set(pid, {"name": n[0], "names": n}, "", "bench-names")
        log(f"names: {len(todo):,} papers' name facts written")
    return names


def build_abstract_store(data: Path, db: Path, models: list[str], log=print) -> Store:
    """The held-out papers (`enrich.areas.is_held_out`: no shipped model was fit on them)
    as an abstract-only atlas: no title, no keywords, so a title typed as a query must be
    found through the abstract's own words and meaning (the known-item evaluation)."""
    from paperatlas.embed import embed_store
    from paperatlas.enrich.areas import is_held_out

    db.parent.mkdir(parents=True, exist_ok=True)
    store = Store(db)
    rows = [r for r in load_rows(data) if is_held_out(r["id"])]
    if store.papers.count() != len(rows):
        with store.transaction():
            have = set(store.papers.ids())
            for r in rows:
                if r["id"] not in have:
                    store.papers.insert(
                        {
                            "id": r["id"],
                            "title": None,
                            "abstract": r["abstract"] or "",
                            "keywords": [],
                            "year": r.get("year"),
                            "area": r.get("primary_area"),
                            "decision": r.get("decision"),
                            "venue": "ICLR 2026",
                        }
                    )
        log(f"abstract-only store: {len(rows):,} held-out papers")
    for model in models:
        if store.vectors.signature(model)[0] != len(rows):
            t = time.perf_counter()
            embed_store(store, model=model, progress=True)
            log(f"vectors: {model} for {len(rows):,} abstracts in {time.perf_counter() - t:.0f}s")
    return store


def vocabulary_atlas(description: str):
    """(path, store, vocabulary) of the atlas `--db` names (default: the held-out abstract-only
    atlas), for the benchmarks of the learned Chinese lookup; exits when it has no vocabulary."""
    import argparse

    from paperatlas.search.translate_vocabulary import load_vocabulary

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--db", default=str(CACHE / "search" / "heldout_abstracts.db"))
    args = ap.parse_args()
    store = Store(args.db, read_only=True)
    vocab = load_vocabulary(store)
    if vocab is None:
        raise SystemExit(f"{args.db}: no vocabulary for Chinese queries (run `paperatlas embed`)")
    return args.db, store, vocab
