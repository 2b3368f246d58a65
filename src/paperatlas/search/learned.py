"""The learned fusion of an English query's lists: one score per candidate paper from its
BM25, vector, MiniLM and name evidence, with weights fit on thousands of known-item
queries (scripts/build_search_fusion.py -> models/search-fusion-v2.json; v2: refit on the
MiniLM vectors of adapted queries, search/query_adapter.py).

The candidates are the first POOL papers of every list. A candidate missing from a vector
list still gets that model's real cosine (computed for the pool in `pool_cosines`), so a
paper that BM25 ranks first but MiniLM ranks 250th is judged on its MiniLM cosine, not
on "absent": the lists re-rank each other's top papers.
"""

from __future__ import annotations

import functools
import json
import math
from importlib import resources
from typing import Any

import numpy as np

POOL = 100  # candidates taken from the top of each list
MODEL_FILE = "search-fusion-v2.json"
SHORT_TERMS = 3  # a query of at most this many keyword terms is "short" (names, acronyms)
FEW_HITS = 3  # a keyword list this short is rare, exact evidence

# per-candidate features, in the model file's order; the MiniLM ones only when the atlas
# has MiniLM vectors and the query has a MiniLM vector
BASE_FEATURES = (
    "kw",  # BM25 / the query's ceiling (keyword.ceiling): 1 = every term, at its best
    "kw_mm",  # BM25 min-max scaled within the keyword list
    "kw_rr",  # 10 / (9 + rank) in the keyword list, 0 when absent
    "kw_few",  # kw when the keyword list has at most FEW_HITS papers (rare, exact words)
    "kw_short",  # kw for a short query
    "kw_top",  # kw x the list's best kw: keywords count more when some paper has them all
    "vec_mm",  # cosine of the main vector model, min-max scaled by its list's range
    "vec_cos",  # the cosine itself
    "vec_rr",
    "vec_short",  # vec_mm for a short query
    "name",  # name_ranking's score (1: the query is the paper's name)
    "agree",  # lists (of keyword, vectors, MiniLM) that rank it in their first 10
)
MINILM_FEATURES = ("mini_mm", "mini_cos", "mini_rr", "mini_short", "mini_top")


def _rr(rank: int | None) -> float:
    return 10.0 / (9.0 + rank) if rank else 0.0


def pool_ids(r) -> list[str]:
    """The candidates: the first POOL papers of every list (names: all), in list order."""
    ids: dict[str, None] = {}
    for ranking in (r.named, r.keyword[:POOL], r.vector[:POOL], r.minilm[:POOL]):
        ids.update((pid, None) for pid, _ in ranking)
    return list(ids)


def pool_cosines(index, query_vector, ids: list[str]) -> dict[str, float]:
    """The cosine of `query_vector` with each candidate's stored vector (those in `index`)."""
    if index is None or query_vector is None or not ids:
        return {}
    found, matrix = index.vectors_of(ids)
    if not found:
        return {}
    q = np.asarray(query_vector, dtype=np.float32).reshape(-1)
    q = q / (float(np.linalg.norm(q)) or 1.0)
    return dict(zip(found, (matrix @ q).tolist()))


def _vector_columns(ranking: list[tuple[str, float]], cosines: dict[str, float], ids: list[str]):
    """(min-max scaled cosine, cosine, 10/(9+rank)) of every candidate for one vector
    list; the scale is the list's own range, and a candidate outside the list is scaled
    by its real cosine (below the list's last, so at most 0)."""
    if not ranking:
        return np.zeros(len(ids)), np.zeros(len(ids)), np.zeros(len(ids))
    hi, lo = ranking[0][1], ranking[-1][1]
    span = hi - lo or 1.0
    rank = {pid: n for n, (pid, _) in enumerate(ranking, start=1)}
    listed = dict(ranking)
    cos = np.asarray([listed.get(pid, cosines.get(pid, lo)) for pid in ids])
    rr = np.asarray([_rr(rank.get(pid)) for pid in ids])
    return np.minimum((cos - lo) / span, 1.0), cos, rr


def features(r) -> tuple[list[str], np.ndarray, tuple[str, ...]]:
    """(candidate ids, their feature matrix, the feature names) of one query's Rankings."""
    ids = pool_ids(r)
    names = BASE_FEATURES + (MINILM_FEATURES if r.minilm else ())
    if not ids:
        return [], np.zeros((0, len(names))), names
    short = 1.0 if len(r.terms) <= SHORT_TERMS else 0.0
    few = 1.0 if 0 < len(r.keyword) <= FEW_HITS else 0.0
    bm25 = dict(r.keyword)
    kw_rank = {pid: n for n, (pid, _) in enumerate(r.keyword, start=1)}
    ceiling = r.keyword_ceiling or (r.keyword[0][1] if r.keyword else 1.0) or 1.0
    kw = np.asarray([bm25.get(pid, 0.0) / ceiling for pid in ids])
    kw_mm = np.zeros(len(ids))
    if r.keyword:
        hi, lo = r.keyword[0][1], r.keyword[-1][1]
        kw_mm = np.asarray([(bm25[p] - lo) / (hi - lo or 1.0) if p in bm25 else 0.0 for p in ids])
    kw_rr = np.asarray([_rr(kw_rank.get(pid)) for pid in ids])
    vec_mm, vec_cos, vec_rr = _vector_columns(r.vector, r.cosines.get("vector", {}), ids)
    named = dict(r.named)
    top10 = (kw_rr >= 0.5).astype(float) + (vec_rr >= 0.5)
    mini = None
    if r.minilm:
        mini = _vector_columns(r.minilm, r.cosines.get("minilm", {}), ids)
        top10 = top10 + (mini[2] >= 0.5)
    columns = {
        "kw": kw,
        "kw_mm": kw_mm,
        "kw_rr": kw_rr,
        "kw_few": kw * few,
        "kw_short": kw * short,
        "kw_top": kw * float(kw.max()),
        "vec_mm": vec_mm,
        "vec_cos": vec_cos,
        "vec_rr": vec_rr,
        "vec_short": vec_mm * short,
        "name": np.asarray([named.get(pid, 0.0) for pid in ids]),
        "agree": top10,
    }
    if mini is not None:
        mini_mm, mini_cos, mini_rr = mini
        columns.update(
            mini_mm=mini_mm,
            mini_cos=mini_cos,
            mini_rr=mini_rr,
            mini_short=mini_mm * short,
            mini_top=mini_mm * float(r.minilm[0][1]),
        )
    return ids, np.column_stack([columns[n] for n in names]), names


@functools.lru_cache(maxsize=1)
def load_model() -> dict[str, Any]:
    """{variant: {"features": [...], "weights": [...]}} from the shipped model file; a
    variant is there only where it beat the score fusion in cross-validation."""
    text = (resources.files("paperatlas") / "models" / MODEL_FILE).read_text(encoding="utf-8")
    return json.loads(text)


def variant(r) -> str:
    return "minilm" if r.minilm else "no_minilm"


def applies(r) -> bool:
    """Whether the learned fusion ranks `r` (an English query whose variant was kept)."""
    return r.language == "en" and (bool(r.vector) or bool(r.minilm)) and variant(r) in load_model()


def learned_ranking(r, model: dict[str, Any] | None = None) -> list[tuple[str, float]]:
    """The candidates of `r` best first, each with a score in (0, 1): the logistic of the
    learned linear score (its order is the model's)."""
    ids, x, names = features(r)
    if not ids:
        return []
    spec = (model or load_model())[variant(r)]
    if tuple(spec["features"]) != names:
        raise ValueError(f"fusion model features {spec['features']} != {names}")
    z = np.clip(x @ np.asarray(spec["weights"], dtype=np.float64), -50.0, 50.0)
    scored = [(pid, 1.0 / (1.0 + math.exp(-s))) for pid, s in zip(ids, z.tolist())]
    return sorted(scored, key=lambda kv: (-kv[1], kv[0]))
