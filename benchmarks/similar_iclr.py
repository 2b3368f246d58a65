"""The in-house "more like this" benchmark: held-out ICLR 2026 papers as queries, the papers
sharing their primary area and author keywords as the ones a reader wanted.

The atlas: the held-out papers (`enrich.areas.is_held_out`: no shipped model, the static
model's area block included, was fit on them), with titles and abstracts and without their
author keywords (the relevance below is read from those keywords: BM25 must not see them).
Queries are these papers by id; each is split into the tuning half or the test half by
`search_known.split_of` (a salted hash of its id, fixed before any tuning). Grades: 1 for
the same primary area, +1 when the two papers share an author keyword (lower-cased).
Figures: NDCG@20 on the grades (the ideal over every held-out paper), the share of the
first 10 similar papers in the query's primary area, and the kNN accuracy of
benchmarks/knn_areas.py (the first 10 vote for an area) with `similar`'s ranking as the
neighbours.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import numpy as np

from paperatlas.store import Store
from search_common import DEFAULT_DATA, load_rows
from search_known import split_of

DEPTH = 100  # candidates per signal


def build_heldout_atlas(db: Path, models: list[str], data: Path = DEFAULT_DATA, log=print) -> Store:
    from paperatlas.embed import embed_store
    from paperatlas.enrich.areas import is_held_out

    db.parent.mkdir(parents=True, exist_ok=True)
    store = Store(db)
    rows = [
        r for r in load_rows(data) if is_held_out(r["id"]) and len((r.get("abstract") or "").strip()) >= 100
    ]
    if store.papers.count() != len(rows):
        with store.transaction():
            have = set(store.papers.ids())
            for r in rows:
                if r["id"] not in have:
                    store.papers.insert(
                        {
                            "id": r["id"],
                            "title": r.get("title"),
                            "abstract": r["abstract"],
                            "area": r.get("primary_area"),
                        }
                    )
        log(f"held-out atlas: {len(rows):,} papers at {db}")
    for model in models:
        if store.vectors.signature(model)[0] != len(rows):
            embed_store(store, model=model)
            log(f"vectors: {model}")
    return store


def labels(data: Path = DEFAULT_DATA) -> dict[str, tuple[str, frozenset[str]]]:
    """paper id -> (primary area, its author keywords lower-cased)."""
    return {
        r["id"]: (r.get("primary_area") or "", frozenset(k.strip().lower() for k in r.get("keywords") or []))
        for r in load_rows(data)
    }


def grade(a: tuple[str, frozenset[str]], b: tuple[str, frozenset[str]]) -> int:
    return int(a[0] == b[0]) + int(bool(a[1] & b[1]))


class IclrQueries:
    """Every held-out paper's signals as a query by id, and the metrics of a ranking."""

    def __init__(self, store: Store, data: Path = DEFAULT_DATA, log=print):
        from paperatlas.paper import embedding_text
        from paperatlas.search.similar_signals import signal_scores

        self.labels = labels(data)
        papers = {p["id"]: p for p in store.papers.iter()}
        self.ids = sorted(papers)
        every = {"keyword": 1.0, **dict.fromkeys(store.vectors.models(), 1.0)}
        self.tables = {}
        t = time.perf_counter()
        for pid in self.ids:
            text = embedding_text(papers[pid].get("title"), papers[pid].get("abstract"))
            self.tables[pid] = signal_scores(store, text, DEPTH, like=[pid], exclude={pid}, weights=every)
        log(f"signals of {len(self.ids):,} held-out papers in {time.perf_counter() - t:.0f}s")
        self.ideal = {pid: self._ideal(pid) for pid in self.ids}
        self.split = {pid: split_of(pid) for pid in self.ids}

    def _ideal(self, pid: str) -> float:
        grades = sorted((grade(self.labels[pid], self.labels[o]) for o in self.ids if o != pid), reverse=True)
        return _dcg(grades[:20])

    def metrics(self, weights: dict[str, float], split: str) -> tuple[float, float, float]:
        """(mean NDCG@20, mean share of the first 10 in the query's area, the share of
        queries whose first 10 vote for their own area: knn_areas.py's kNN accuracy, k = 10,
        one vote each, ties to the nearer) over a half."""
        ndcg, area, votes = [], [], []
        for pid in self.ids:
            if self.split[pid] != split:
                continue
            ranked = [o for o, _ in self.tables[pid].fused(weights)[:20]]
            grades = [grade(self.labels[pid], self.labels[o]) for o in ranked]
            ndcg.append(_dcg(grades) / self.ideal[pid] if self.ideal[pid] else 0.0)
            areas = [self.labels[o][0] for o in ranked[:10]]
            area.append(np.mean([a == self.labels[pid][0] for a in areas]))
            count = Counter(areas)
            top = max(count.values(), default=0)
            votes.append(next((a for a in areas if count[a] == top), None) == self.labels[pid][0])
        return float(np.mean(ndcg)), float(np.mean(area)), float(np.mean(votes))


def _dcg(grades: list[int]) -> float:
    return float(sum(g / np.log2(i + 2) for i, g in enumerate(grades)))
