"""How well do recommendations from a few liked papers find the rest of a user's interest?

Simulated users: each is an interest defined by a rule on the data (an ICLR primary area,
or a phrase in a paper's title or author keywords). The recommender is given 5, 10 or 20
of the user's papers as likes and ranks all the other 15,602 - n papers; we measure
precision@20 and recall@100 against the user's remaining papers. Baselines in the same
run: random, popularity (mean reviewer rating) and a TF-IDF centroid (cosine to the mean
TF-IDF vector of the likes). The recommender is paperatlas.recommend's own ranking
(linear SVM over embedding + TF-IDF from 5 likes on; centroid below), on the cached
embedding vectors of the embeddings stage.

    .venv/bin/python benchmarks/recommend_eval.py [--data ../shared/data/iclr2026.jsonl.gz]
        [--vectors /work/cache/vectors] [--model NAME] [--seeds 3] [--json out.json]
        [--db ATLAS --models static,minilm-int8,use-multilingual] [--compare-src /work/base/src]
        [--users all|tune|test] [--mix "static=1,minilm-int8=0.5;static=1,minilm-int8=1"]

With --models, the vectors are read from the atlas --db (it must hold every evaluated
paper's) and read as `recommend` reads every stored model (`recommend.split_models`,
RECOMMEND_WEIGHTS: the classifier on the first, the others fused beside it); the same-run baseline is then the
recommender on the first model's vectors only, as before every model was read: the ranking
functions of another source tree with --compare-src (the starting code), else this tree's.
--mix adds one row per weighting (what benchmarks the weights were chosen by); --users picks
a half of the users, split by a fixed hash of their names (`user_half`): tune the weights on
one, report the other.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paperatlas import recommend as rec  # noqa: E402
from paperatlas.text import paper_text, tfidf_matrix  # noqa: E402

SIZES = (5, 10, 20)
MIN_REST = 10  # a user needs this many papers beyond the likes to be measured
# vector models fit with the data's labels (static: its area block), measured on held-out papers
SUPERVISED_MODELS = {"static"}

# Interests by primary area (submission-time area)
AREA_USERS = [
    "learning theory",
    "causal reasoning",
    "reinforcement learning",
    "interpretability and explainable AI",
    "learning on graphs and other geometries & topologies",
    "applications to neuroscience & cognitive science",
    "optimization",
    "learning on time series and dynamical systems",
]


def _has(paper, *patterns, where=("title", "keywords")):
    text = " ".join(
        [
            paper["title"] if "title" in where else "",
            " ".join(paper["keywords"]) if "keywords" in where else "",
        ]
    ).lower()
    return all(re.search(p, text) for p in patterns)


# Interests by a phrase in the title or author keywords (never the abstract, which the
# rankers read; the rule still favours word-matching, which we report as a caveat).
KEYWORD_USERS = {
    "unlearning": lambda p: _has(p, r"unlearn"),
    "speculative decoding": lambda p: _has(p, r"speculative (decoding|sampling)"),
    "diffusion models for inverse problems": lambda p: (
        _has(p, r"inverse problem") and _has(p, r"diffusion", where=("title", "keywords"))
    ),
    "model merging": lambda p: _has(p, r"model merging|merging models|merge models|merged model"),
    "mixture of experts": lambda p: _has(p, r"mixture[- ]of[- ]experts|\bmoe\b"),
    "jailbreaks": lambda p: _has(p, r"jailbreak"),
    "federated learning": lambda p: _has(p, r"federated"),
    "kv cache": lambda p: _has(p, r"\bkv[- ]?cache|key-value cache"),
    "protein design and structure": lambda p: _has(p, r"protein"),
    "watermarking": lambda p: _has(p, r"watermark"),
    "optimal transport": lambda p: _has(p, r"optimal transport|wasserstein"),
    "test-time scaling / reasoning": lambda p: _has(p, r"test[- ]time (scaling|compute)"),
}


def user_half(name: str) -> str:
    """'tune' or 'test': a fixed split of the simulated users by a hash of their names
    (4 area and 5 measurable keyword users on each side)."""
    return "tune" if hashlib.sha1(name.encode("utf-8")).digest()[0] % 2 == 0 else "test"


def parse_mix(text: str) -> list[dict[str, float]]:
    """The weightings of 'static=1,minilm-int8=0.5;static=1': [{static: 1, minilm-int8: 0.5}, {static: 1}]."""
    mixes = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        pairs = (item.split("=") for item in part.split(","))
        mixes.append({name.strip(): float(value) for name, value in pairs})
    return mixes


def other_recommend(src: Path):
    """The recommend module of another source tree (its pure ranking functions; what they
    import from the package is this tree's)."""
    spec = importlib.util.spec_from_file_location("baseline_recommend", src / "paperatlas" / "recommend.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def load_rows(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def load_vectors(directory: Path, model: str | None, ids: list[str]) -> tuple[str, np.ndarray]:
    candidates = sorted(directory.glob("*.npy"))
    if model is None:  # the best model cached: the transformer, else the default, else any
        try:
            from paperatlas.embed import DEFAULT_MODEL
        except Exception:
            DEFAULT_MODEL = None
        names = [c.stem for c in candidates]
        preferred = [m for m in ("minilm", DEFAULT_MODEL, "lsa") if m in names]
        if preferred or names:
            model = (preferred or names)[0]
        else:
            sys.exit(f"no cached vectors in {directory} (the embeddings stage writes them)")
    matrix = np.load(directory / f"{model}.npy", mmap_mode="r")
    cached_ids = json.loads((directory / "ids.json").read_text())
    if cached_ids != ids:
        where = {pid: i for i, pid in enumerate(cached_ids)}
        matrix = np.stack([matrix[where[pid]] for pid in ids])
    return model, rec.normalise_rows(np.asarray(matrix, dtype=np.float32))


def atlas_vectors(db: Path, models: list[str], ids: list[str]) -> dict[str, np.ndarray]:
    """model -> the vectors of `ids` (rows in that order) from the atlas at `db`."""
    from paperatlas.store import Store

    store = Store(db, read_only=True)
    out = {}
    for model in models:
        got, matrix = store.vectors.get(model)
        where = {pid: i for i, pid in enumerate(got)}
        missing = [pid for pid in ids if pid not in where]
        if missing:
            sys.exit(f"{db}: no {model} vectors for {len(missing)} of the evaluated papers")
        out[model] = np.asarray(matrix[[where[pid] for pid in ids]], dtype=np.float32)
    return out


def precision_recall(ranked: np.ndarray, relevant: set[int]) -> tuple[float, float]:
    hits20 = sum(1 for r in ranked[:20] if int(r) in relevant)
    hits100 = sum(1 for r in ranked[:100] if int(r) in relevant)
    return hits20 / 20, hits100 / max(1, len(relevant))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/iclr2026.jsonl.gz")
    parser.add_argument("--vectors", type=Path, default=Path("/work/cache/vectors"))
    parser.add_argument("--model", default=None, help="cached vector file stem")
    parser.add_argument("--seeds", type=int, default=3, help="draws of likes per user and size")
    parser.add_argument("--json", type=Path, default=None, help="write all figures here")
    parser.add_argument("--db", type=Path, default=None, help="the atlas --models reads vectors from")
    parser.add_argument(
        "--models", default=None, help="comma-separated models to combine as recommend does (needs --db)"
    )
    parser.add_argument("--compare-src", type=Path, default=None, help="the baseline's src/ (with --models)")
    parser.add_argument("--users", choices=("all", "tune", "test"), default="all", help="a half of the users")
    parser.add_argument(
        "--mix", default="", help="extra weightings, e.g. 'static=1,minilm-int8=0.5;static=1'"
    )
    parser.add_argument(
        "--held-out",
        choices=("auto", "yes", "no"),
        default="auto",
        help="evaluate only on the ~20%% of papers no shipped model was fit on "
        "(auto: yes for models trained on this data, e.g. static)",
    )
    args = parser.parse_args()

    started = time.time()
    rows = load_rows(args.data)
    ids = [r["id"] for r in rows]
    tfidf, terms = tfidf_matrix([paper_text(r) for r in rows])
    models = args.models.split(",") if args.models else []
    if models:
        model = " + ".join(models)
        held_out = args.held_out == "yes" or (
            args.held_out == "auto" and any(m in SUPERVISED_MODELS for m in models)
        )
    else:
        model, emb = load_vectors(args.vectors, args.model, ids)
        held_out = args.held_out == "yes" or (args.held_out == "auto" and model in SUPERVISED_MODELS)
    if held_out:
        # the model saw the other 80% (and their areas) when it was fit: measure on the rest
        from paperatlas.enrich.areas import is_held_out
        from paperatlas.store import Store

        in_atlas = set(Store(args.db, read_only=True).papers.ids()) if models else None
        # with --models, the held-out papers the atlas holds (it may leave out empty abstracts)
        keep = [i for i, pid in enumerate(ids) if is_held_out(pid) and (in_atlas is None or pid in in_atlas)]
        rows, ids = [rows[i] for i in keep], [ids[i] for i in keep]
        tfidf = tfidf[keep]
        if not models:
            emb = emb[keep]
    first_alone = None
    base: Any = rec
    mixes: dict[str, Any] = {}
    if models:
        blocks = {m: rec.normalise_rows(v) for m, v in atlas_vectors(args.db, models, ids).items()}
        features = rec.split_models(ids, blocks, tfidf, terms)  # each mode at its own weights
        emb = features.emb
        base = other_recommend(args.compare_src) if args.compare_src else rec
        first_alone = base.Features(ids=ids, emb=blocks[models[0]], tfidf=tfidf, terms=terms, model=models[0])
        for weights in parse_mix(args.mix):
            name = "mix " + " ".join(f"{m}={w:g}" for m, w in weights.items())
            mixes[name] = rec.split_models(ids, blocks, tfidf, terms, weights)
            assert mixes[name].model.split(" + ")[0] == features.model.split(" + ")[0], "one classifier"
    else:
        features = rec.Features(ids=ids, emb=emb, tfidf=tfidf, terms=terms, model=model)
    tfidf_only = rec.Features(ids=ids, emb=None, tfidf=tfidf, terms=terms)
    design = rec.design_matrix(features)
    rating = np.array([r.get("rating_avg") or 0.0 for r in rows])
    print(
        f"{len(rows)} papers{' (held-out split only)' if held_out else ''}, TF-IDF "
        f"{tfidf.shape[1]} terms, vectors {model} {emb.shape}, loaded in {time.time() - started:.0f}s"
    )

    users: dict[str, set[int]] = {}
    for area in AREA_USERS:
        users[f"area: {area}"] = {i for i, r in enumerate(rows) if r["primary_area"] == area}
    for name, rule in KEYWORD_USERS.items():
        users[f"kw: {name}"] = {i for i, r in enumerate(rows) if rule(r)}
    if args.users != "all":
        users = {name: members for name, members in users.items() if user_half(name) == args.users}
    for name, members in users.items():
        print(f"  {name:60s} {len(members):5d} papers")

    source = f"starting code, {args.compare_src}" if args.compare_src else "this code"
    BASELINE = f"{models[0]} alone ({source})" if models else ""
    if models:
        print(f"weights: {rec.recommend_weights(models)}; users: {args.users}")
    methods = {
        "random": None,
        "popularity": None,
        "tfidf centroid": None,
        "embedding centroid": None,
        **({BASELINE: None} if first_alone is not None else {}),
        **dict.fromkeys(mixes),
        "paperatlas": None,
    }
    first_design = base.design_matrix(first_alone) if first_alone is not None else None
    results: dict[tuple[str, str, int], list[tuple[float, float]]] = {}
    for user, members in users.items():
        member_list = sorted(members)
        for n in SIZES:
            if len(member_list) < n + MIN_REST:
                continue
            for seed in range(args.seeds):
                rng = np.random.default_rng(1000 * seed + n)
                liked = [int(i) for i in rng.choice(member_list, size=n, replace=False)]
                relevant = members - set(liked)
                first_scores = None
                for method in methods:
                    if method == "random":
                        scores = rng.random(len(ids))
                    elif method == "popularity":
                        scores = rating + 1e-6 * rng.random(len(ids))
                    elif method == "tfidf centroid":
                        scores = rec.rank_centroid(tfidf_only, liked)
                    elif method == "embedding centroid":
                        scores = emb @ rec._centroid(emb, liked)
                    elif method == "paperatlas":
                        scores, _ = rec.rank_scores(features, liked, design=design)
                    elif method in mixes:
                        # the same classifier as paperatlas's (same model, design and likes): fit once
                        if first_scores is None:
                            first_scores, _ = rec.rank_scores(
                                rec.Features(ids=ids, emb=emb, tfidf=tfidf, terms=terms), liked, design=design
                            )
                        scores = rec.with_side_signals(mixes[method], first_scores, liked)
                    else:  # the recommender on the first model alone (--models)
                        assert first_alone is not None
                        if n >= base.MIN_LIKES_FOR_CLASSIFIER:
                            scores, _ = base.rank_linear(first_alone, liked, design=first_design)
                        else:
                            scores = base.rank_centroid(first_alone, liked)
                    ranked = rec.top_unseen(np.asarray(scores), liked, 100)
                    results.setdefault((method, user, n), []).append(precision_recall(ranked, relevant))
        print(f"  done {user} ({time.time() - started:.0f}s)", flush=True)

    def mean(method, n, which, user_filter=lambda u: True):
        values = [
            np.mean([v[which] for v in vals])
            for (m, u, size), vals in results.items()
            if m == method and size == n and user_filter(u)
        ]
        return float(np.mean(values)) if values else float("nan")

    summary = {}
    print(f"\nmean over {len(users)} users x {args.seeds} draws (model {model})")
    header = f"{'method':22s}" + "".join(f"  P@20 n={n:<3d} R@100 n={n:<3d}" for n in SIZES)
    print(header)
    for method in methods:
        line = f"{method:22s}"
        for n in SIZES:
            p, r = mean(method, n, 0), mean(method, n, 1)
            summary[f"{method}|{n}"] = {"p@20": p, "r@100": r}
            line += f"  {p:10.3f} {r:13.3f}"
        print(line)
    for group, test in (
        ("area users", lambda u: u.startswith("area")),
        ("keyword users", lambda u: u.startswith("kw")),
    ):
        print(f"\n{group}: P@20 at 5 likes")
        for method in methods:
            print(f"  {method:22s} {mean(method, 5, 0, test):.3f}   R@100 {mean(method, 5, 1, test):.3f}")
            summary[f"{group}|{method}|5"] = {
                "p@20": mean(method, 5, 0, test),
                "r@100": mean(method, 5, 1, test),
            }
    print("\nper user, P@20 at 5 likes: paperatlas vs tfidf centroid")
    for user in users:
        ours = np.mean([v[0] for v in results.get(("paperatlas", user, 5), [(np.nan, 0)])])
        base = np.mean([v[0] for v in results.get(("tfidf centroid", user, 5), [(np.nan, 0)])])
        print(f"  {user:60s} {ours:.3f}  {base:.3f}")
    ours5, base5 = mean("paperatlas", 5, 0), mean("tfidf centroid", 5, 0)
    ratio = ours5 / base5 if base5 else float("inf")
    print(
        f"\nprecision@20 at 5 likes: paperatlas {ours5:.3f}, TF-IDF centroid {base5:.3f}, "
        f"ratio {ratio:.2f}x (target 2x); popularity {mean('popularity', 5, 0):.3f}, "
        f"random {mean('random', 5, 0):.3f}; {time.time() - started:.0f}s total"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "model": model,
                    "held_out": held_out,
                    "papers": len(ids),
                    "users": {u: len(m) for u, m in users.items()},
                    "seeds": args.seeds,
                    "summary": summary,
                    "ratio_p20_5": ratio,
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
