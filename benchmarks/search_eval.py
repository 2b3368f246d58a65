"""Search quality: known-item MRR@10 / recall@10 per query type, and need-based nDCG@10.

    nice .venv/bin/python benchmarks/search_eval.py [--data ../shared/data/iclr2026.jsonl.gz]
        [--titles 500] [--names 300] [--tldrs 500] [--no-known] [--no-needs] [--tune] [--no-tune-known]

Part 1, known items (issue 18; search_known.py has the details): titles, names, TL;DRs,
hand-written paraphrases and Chinese queries, each with one target paper, over the
abstract-only held-out atlas; split into a tuning and a test half by a hash of the
target id before any tuning; BM25, vectors, BM25 + MiniLM RRF, the hybrid before
issue 18 and the new hybrid in the same run.

Part 2, information needs (below):

Queries (benchmarks/queries/*.jsonl, any number of files) name an information need; the
needs (needs.jsonl) carry the relevance rule, written per need before looking at any
system's results:

    a paper is relevant when every `also` regex matches its title + keywords + abstract
    and the `core` regex matches there too: grade 2 when `core` matches the title or the
    keywords, grade 1 when it matches only the abstract.

nDCG@10 uses gains 2^grade - 1 against the ideal ordering of all judged papers;
recall@10 = relevant papers in the top 10 / min(10, relevant papers) (capped recall, so a
need with 200 relevant papers can reach 1.0).

Fusion settings are tuned (`--tune`) on the dev half of the needs (odd numbers) and
reported on the test half (even numbers) and on all. Chinese queries are compared with the
English queries of the same needs (recall@10 ratio).

Single methods are reported two ways. "as typed" is each method on the query as the user
typed it: BM25 over the FTS5 index (it cannot match Chinese script against English
abstracts) and vectors from the query language's model (use-multilingual for Chinese).
"+glossary" also gives both the glossary translation of a Chinese query, which is part of
paperatlas's hybrid search: the stricter comparison. English queries are the same either way.

The searched corpus is, by default, the ~20% of papers held out from every model shipped
in paperatlas/models/ (`enrich.areas.is_held_out`; the default `static` embedding was fit
on the rest), so no figure rewards a model for having seen the papers; `--corpus all`
searches all 15,602.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import time
from pathlib import Path

from paperatlas import search as S
from search_common import DEFAULT_DATA, REPO, build_store, load_rows

K = 10


def load_queries(folder: Path) -> tuple[dict, list[dict]]:
    needs, queries = {}, []
    for path in sorted(folder.glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                sys.exit(f"{path}:{n}: not JSON ({exc})")
            if "core" in item:
                needs[item["need"]] = item
            else:
                queries.append(item)
    missing = {q["need"] for q in queries} - set(needs)
    if missing:
        sys.exit(f"queries name needs that needs.jsonl lacks: {sorted(missing)}")
    return needs, queries


def judge(needs: dict, rows: list[dict]) -> dict[str, dict[str, int]]:
    """need -> {paper id: grade} by each need's rule."""
    out = {}
    for need, rule in needs.items():
        core = re.compile(rule["core"], re.I)
        also = [re.compile(a, re.I) for a in rule.get("also", [])]
        grades = {}
        for r in rows:
            head = (r.get("title") or "") + "\n" + "; ".join(r.get("keywords") or [])
            full = head + "\n" + (r.get("abstract") or "")
            if not all(a.search(full) for a in also):
                continue
            if core.search(head):
                grades[r["id"]] = 2
            elif core.search(full):
                grades[r["id"]] = 1
        out[need] = grades
    return out


def ndcg(ranked: list[str], grades: dict[str, int], k: int = K) -> float:
    dcg = sum((2 ** grades.get(p, 0) - 1) / math.log2(i + 2) for i, p in enumerate(ranked[:k]))
    ideal = sorted(grades.values(), reverse=True)[:k]
    idcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall(ranked: list[str], grades: dict[str, int], k: int = K) -> float:
    if not grades:
        return 0.0
    return sum(1 for p in ranked[:k] if p in grades) / min(k, len(grades))


def need_number(need: str) -> int:
    return int(re.sub(r"\D", "", need) or 0)


def split_of(q: dict) -> str:
    return "dev" if need_number(q["need"]) % 2 == 1 else "test"


def rankings_for(store, queries: list[dict], allowed: set[str] | None) -> dict[str, S.Rankings]:
    return {q["qid"]: S.candidate_rankings(store, q["query"], allowed=allowed) for q in queries}


def untranslated_rankings(store, queries: list[dict], allowed: set[str] | None) -> dict[str, S.Rankings]:
    """Rankings of the non-English queries as typed (no translation at all)."""
    return {
        q["qid"]: S.candidate_rankings(
            store, q["query"], allowed=allowed, config=S.SearchConfig(glossary=False, learned=False)
        )
        for q in queries
        if q.get("lang", "en") != "en"
    }


def before_rankings(store, queries: list[dict], allowed: set[str] | None) -> dict[str, S.Rankings]:
    """Rankings as search made them before issue 18 (glossary-only translation, the
    min-max fusion's first pass)."""
    from search_known import BEFORE

    return {
        q["qid"]: S.candidate_rankings(
            store,
            q["query"],
            allowed=allowed,
            config=S.SearchConfig(glossary=True, learned=False, fusion=BEFORE),
        )
        for q in queries
    }


def run_methods(
    rankings: dict[str, S.Rankings],
    fusion: dict,
    typed: dict[str, S.Rankings] | None = None,
    before: dict[str, S.Rankings] | None = None,
) -> dict[str, dict[str, list[str]]]:
    """method -> qid -> top-10 ids, for keyword, vector and hybrid; with `typed` (the
    untranslated rankings of non-English queries) also the single methods as typed."""
    out = {"bm25": {}, "vectors": {}, "hybrid": {}}
    if typed is not None:
        out = {"bm25 as typed": {}, "vectors as typed": {}, **out}
    for qid, r in rankings.items():
        out["bm25"][qid] = [p for p, _ in r.keyword[:K]]
        out["vectors"][qid] = [p for p, _ in r.semantic(fusion)[:K]]
        out["hybrid"][qid] = [p for p, _ in S.fuse_rankings(r, fusion)[0][:K]]
        if typed is not None:
            raw = typed.get(qid, r)
            out["bm25 as typed"][qid] = [p for p, _ in raw.keyword[:K]]
            out["vectors as typed"][qid] = [p for p, _ in raw.semantic(fusion)[:K]]
        if before is not None:
            from search_known import BEFORE

            out.setdefault("hybrid before", {})[qid] = [
                p for p, _ in S.fuse_rankings(before[qid], BEFORE)[0][:K]
            ]
    return out


def scores(top: dict[str, list[str]], queries: list[dict], judged: dict) -> dict[str, dict]:
    return {
        q["qid"]: {
            "ndcg": ndcg(top[q["qid"]], judged[q["need"]]),
            "recall": recall(top[q["qid"]], judged[q["need"]]),
        }
        for q in queries
    }


def mean(values) -> float:
    values = list(values)
    return statistics.fmean(values) if values else float("nan")


def tune(rankings, queries, judged) -> dict:
    """The fusion setting with the best mean hybrid nDCG@10 on the dev split."""
    dev = [q for q in queries if split_of(q) == "dev"]
    grid = [
        {"method": "rrf", "rrf_k": k, "keyword_weight": w, "vector_weight": 1.0}
        for k in (10, 30, 60)
        for w in (0.5, 1.0, 2.0)
    ]
    grid += [
        {"method": "score", "rrf_k": 60, "keyword_weight": w, "vector_weight": 1.0}
        for w in (0.5, 0.75, 1.0, 1.5)
    ]
    best, best_score = None, -1.0
    for fusion in grid:
        top = run_methods({q["qid"]: rankings[q["qid"]] for q in dev}, fusion)["hybrid"]
        s = mean(v["ndcg"] for v in scores(top, dev, judged).values())
        print(f"  tune {fusion}: dev hybrid nDCG@10 {s:.3f}")
        if s > best_score:
            best, best_score = fusion, s
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--queries", type=Path, default=REPO / "benchmarks" / "queries")
    ap.add_argument("--db", type=Path, default=Path("/work/cache/search/iclr2026.db"))
    ap.add_argument("--tune", action="store_true", help="grid-search fusion on the dev split")
    ap.add_argument("--json", type=Path, help="write per-query figures here")
    ap.add_argument("--corpus", choices=("heldout", "all"), default="heldout")
    ap.add_argument(
        "--models", nargs="+", help="vector models to load (default: the default model and use-multilingual)"
    )
    ap.add_argument(
        "--no-glossary", action="store_true", help="do not translate Chinese queries with the glossary"
    )
    ap.add_argument("--no-known", action="store_true", help="skip the known-item part")
    ap.add_argument("--no-needs", action="store_true", help="skip the need-based part")
    ap.add_argument("--titles", type=int, default=500, help="title queries (known items)")
    ap.add_argument("--names", type=int, default=300, help="name queries (known items)")
    ap.add_argument("--tldrs", type=int, default=500, help="TL;DR queries (known items)")
    ap.add_argument(
        "--no-tune-known",
        action="store_true",
        help="known items: report the library's FUSION instead of tuning",
    )
    args = ap.parse_args()
    if not args.no_known:
        import search_known

        print("== known items ==")
        search_known.run(args.data, args.titles, not args.no_tune_known, args.names, args.tldrs)
    if args.no_needs:
        return
    print()
    print("== information needs ==")

    from paperatlas.embed import DEFAULT_MODEL

    rows = load_rows(args.data)
    store = build_store(args.data, args.db, args.models or [DEFAULT_MODEL, S.MULTILINGUAL_MODEL])
    from paperatlas.search.translate_vocabulary import build_vocabulary

    build_vocabulary(store, progress=True)  # as `paperatlas embed` leaves an atlas
    needs, queries = load_queries(args.queries)
    allowed = None
    if args.corpus == "heldout":
        from paperatlas.enrich.areas import is_held_out

        rows = [r for r in rows if is_held_out(r["id"])]
        allowed = {r["id"] for r in rows}
    print(f"corpus: {args.corpus} ({len(rows):,} papers)")
    judged = judge(needs, rows)
    sizes = sorted(len(g) for g in judged.values())
    print(
        f"{len(queries)} queries over {len(needs)} needs; relevant papers per need: "
        f"min {sizes[0]}, median {sizes[len(sizes) // 2]}, max {sizes[-1]}"
    )

    t = time.perf_counter()
    rankings = {
        q["qid"]: S.candidate_rankings(
            store, q["query"], allowed=allowed, config=S.SearchConfig(glossary=not args.no_glossary)
        )
        for q in queries
    }
    typed = untranslated_rankings(store, queries, allowed)
    before = before_rankings(store, queries, allowed)
    print(f"candidate rankings for {len(queries)} queries in {time.perf_counter() - t:.1f}s")
    # overrides of the library's fusion: none (a whole FUSION dict would also override
    # FUSION_FOREIGN, which the library applies to Chinese queries)
    fusion: dict = {}
    if args.tune:
        fusion = tune(rankings, queries, judged)
        print(f"best on dev: {fusion}")
    print(
        f"fusion: {fusion or 'the library default'} (FUSION {S.FUSION}, other languages {S.FUSION_FOREIGN})"
    )

    top = run_methods(rankings, fusion, typed, before)
    per = {m: scores(top[m], queries, judged) for m in top}
    types = sorted({q["type"] for q in queries})
    print()
    print(f"{'subset':<22}{'n':>4} | " + " | ".join(f"{m:>16}" for m in per))
    print(f"{'':<22}{'':>4} | " + " | ".join(f"{'nDCG@10 R@10':>16}" for _ in per))
    subsets = [("all", queries)]
    subsets += [(f"split={s}", [q for q in queries if split_of(q) == s]) for s in ("dev", "test")]
    subsets += [(f"type={t}", [q for q in queries if q["type"] == t]) for t in types]
    subsets += [
        (f"test, type={t}", [q for q in queries if q["type"] == t and split_of(q) == "test"]) for t in types
    ]
    summary = {}
    for name, qs in subsets:
        cells = []
        for m in per:
            nd = mean(per[m][q["qid"]]["ndcg"] for q in qs)
            rc = mean(per[m][q["qid"]]["recall"] for q in qs)
            summary[(name, m)] = (nd, rc)
            cells.append(f"{nd:>7.3f} {rc:>8.3f}")
        print(f"{name:<22}{len(qs):>4} | " + " | ".join(cells))

    print()
    singles = [("bm25", "vectors", "single methods +glossary (stricter)")]
    if typed is not None:
        singles.insert(0, ("bm25 as typed", "vectors as typed", "single methods as typed"))
    for name in ("all", "split=test"):
        hybrid = summary[(name, "hybrid")][0]
        for bm25, vectors, label in singles:
            best_single = max(summary[(name, bm25)][0], summary[(name, vectors)][0])
            print(
                f"{name}: hybrid nDCG@10 {hybrid:.3f} / better of the {label} "
                f"{best_single:.3f} = {hybrid / best_single:.2f}x (target >= 1.15x)"
            )

    # Chinese vs English for the same needs (the system as users get it: hybrid/auto)
    zh = [q for q in queries if q.get("lang") == "zh"]
    zh_needs = {q["need"] for q in zh}
    for kind in ("exact", "paraphrase"):
        en = [
            q for q in queries if q.get("lang", "en") == "en" and q["type"] == kind and q["need"] in zh_needs
        ]
        if zh and en:
            r_zh = mean(per["hybrid"][q["qid"]]["recall"] for q in zh)
            r_en = mean(per["hybrid"][q["qid"]]["recall"] for q in en)
            print(
                f"Chinese recall@10 {r_zh:.3f} vs English ({kind}) {r_en:.3f} for the same "
                f"needs = {r_zh / r_en:.0%} (target >= 80%)"
            )
    en_all = [q for q in queries if q.get("lang", "en") == "en" and q["need"] in zh_needs]
    if zh and en_all:
        r_zh = mean(per["hybrid"][q["qid"]]["recall"] for q in zh)
        r_en = mean(per["hybrid"][q["qid"]]["recall"] for q in en_all)
        print(f"Chinese recall@10 {r_zh:.3f} vs all English {r_en:.3f} = {r_zh / r_en:.0%}")

    if args.json:
        args.json.write_text(json.dumps({"fusion": fusion, "per_query": per}, indent=1))


if __name__ == "__main__":
    main()
