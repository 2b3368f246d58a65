"""Which change since the need-based figures of 2026-11-29 moved them: one change at a time.

    nice .venv/bin/python benchmarks/search_ablation.py [--split dev|test|all]

The 72 need queries of benchmarks/queries (search_eval.py part 2, same corpus, judgments
and store), hybrid nDCG@10 per query type for the library's fusion and for variants that
each put one thing back as it was before issue 18:
- bm25 scale: BM25 min-max scaled per list at weight 0.5 (before) instead of the
  query's ceiling at weight 2;
- weights: keyword / vector weights as before, on the new (ceiling) scale;
- learned zh: Chinese queries translated with the glossary only (no learned terms);
- foreign: no foreign-language overrides (Chinese fused with the English weights);
- names: no name bonus;
and the full fusion before issue 18 (search_known.BEFORE) for reference.
Tune on `--split dev` (odd needs); report `--split test` once at the end.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from paperatlas import search as S
from search_common import DEFAULT_DATA, REPO, build_store, load_rows
from search_eval import judge, load_queries, mean, ndcg, recall, split_of
from search_known import BEFORE

K = 10


def variants() -> dict[str, tuple[str, dict]]:
    """name -> (which rankings, overrides of the library's fusion). Overrides only: a
    whole FUSION dict would also override FUSION_FOREIGN for Chinese queries."""
    english = {k: S.FUSION[k] for k in S.FUSION_FOREIGN}
    return {
        "current": ("new", {}),
        "bm25 minmax 0.5": ("new", {"keyword_scale": "minmax", "keyword_weight": 0.5}),
        "bm25 minmax 0.5, vec 1": (
            "new",
            {"keyword_scale": "minmax", "keyword_weight": 0.5, "vector_weight": 1.0},
        ),
        "ceiling kw 1": ("new", {"keyword_weight": 1.0}),
        "ceiling kw 1, vec 1": ("new", {"keyword_weight": 1.0, "vector_weight": 1.0}),
        "ceiling kw 0.5, vec 1": ("new", {"keyword_weight": 0.5, "vector_weight": 1.0}),
        "vec 1": ("new", {"vector_weight": 1.0}),
        "no names": ("new", {"name_weight": 0.0}),
        "zh glossary not overriding": ("nooverride", {}),
        "zh glossary only": ("glossary", {}),
        "zh no foreign overrides": ("new", english),
        "before (all)": ("before", BEFORE),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--queries", type=Path, default=REPO / "benchmarks" / "queries")
    ap.add_argument("--db", type=Path, default=Path("/work/cache/search/iclr2026.db"))
    ap.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    args = ap.parse_args()

    from paperatlas.embed import DEFAULT_MODEL
    from paperatlas.enrich.areas import is_held_out

    rows = [r for r in load_rows(args.data) if is_held_out(r["id"])]
    store = build_store(args.data, args.db, [DEFAULT_MODEL, S.MULTILINGUAL_MODEL])
    allowed = {r["id"] for r in rows}
    needs, queries = load_queries(args.queries)
    if args.split != "all":
        queries = [q for q in queries if split_of(q) == args.split]
    judged = judge(needs, rows)

    t = time.perf_counter()
    sets: dict[str, dict] = {"new": {}, "glossary": {}, "before": {}, "nooverride": {}}
    for q in queries:
        text = q["query"]
        sets["new"][q["qid"]] = S.candidate_rankings(store, text, allowed=allowed, config=S.SearchConfig())
        sets["before"][q["qid"]] = S.candidate_rankings(
            store, text, allowed=allowed, config=S.SearchConfig(glossary=True, learned=False, fusion=BEFORE)
        )
        sets["glossary"][q["qid"]] = (
            S.candidate_rankings(
                store,
                text,
                allowed=allowed,
                config=S.SearchConfig(glossary=True, learned=False),
            )
            if q.get("lang") == "zh"
            else sets["new"][q["qid"]]
        )
        sets["nooverride"][q["qid"]] = (
            S.candidate_rankings(
                store,
                text,
                allowed=allowed,
                config=S.SearchConfig(glossary_overrides=False),
            )
            if q.get("lang") == "zh"
            else sets["new"][q["qid"]]
        )
    print(f"{len(queries)} queries ({args.split}), rankings in {time.perf_counter() - t:.0f}s")

    types = sorted({q["type"] for q in queries})
    print(f"{'variant':<26}" + "".join(f"{t:>12}" for t in types) + f"{'mean':>9}")
    for name, (which, fusion) in variants().items():
        by: dict[str, list[tuple[float, float]]] = {}
        for q in queries:
            r = sets[which][q["qid"]]
            top = [p for p, _ in S.fuse_rankings(r, fusion)[0][:K]]
            by.setdefault(q["type"], []).append(
                (ndcg(top, judged[q["need"]]), recall(top, judged[q["need"]]))
            )
        cells = [mean(v[0] for v in by[t]) for t in types]
        print(f"{name:<26}" + "".join(f"{c:>12.3f}" for c in cells) + f"{mean(cells):>9.3f}")


if __name__ == "__main__":
    main()
