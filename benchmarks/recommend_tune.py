"""Recommendations on every signal: the fusion's weights learned on one half of the users, the
other half read once.

    .venv/bin/python benchmarks/recommend_tune.py --db HELDOUT_ATLAS --csfcube DIR --csf-db CSF_ATLAS
        [--data ../shared/data/iclr2026.jsonl.gz] [--seeds 3] [--report] [--compare-src /work/base/src]

Two kinds of simulated user, written down before any weight was chosen:

- ICLR interests (recommend_eval.py's 8 primary areas and 12 title/keyword phrases) over the
  held-out ICLR atlas (HELDOUT_ATLAS: the papers no shipped model was fit on, with static and
  MiniLM vectors): n likes drawn at random from the interest, every other paper of the atlas
  ranked; figure: precision@20 over the interest's other papers (recall@100 printed beside it).
- CSFCube query-facet pairs (DIR: a checkout of iesl/CSFCube; CSF_ATLAS: its papers with the
  same models, `benchmarks/csfcube.py` builds it): the likes are the query paper and its n-1
  most relevant candidates (grade 3 before 2, ties in the draw's order); the rest of the pair's
  pool is ranked; figure: average precision, grades >= 2 relevant.

Like counts 1, 2, 3 (`recommend`'s centroid mode) and 5, 10, 20 (its classifier mode); a user is
measured at a count only when MIN_REST relevant papers remain beyond the likes (CSFCube pools
hold 1-35 relevant papers, so its users reach 5 or 10 likes only where the pool is rich).

Split: the ICLR users by recommend_eval.user_half (a fixed hash of the name); the CSFCube pairs
by the benchmark's own folds, fold1_dev tunes and fold1_test is read once (`--report`). Without
--report the test users are never ranked.

Signals, each standardised over every paper of its atlas for the user (as recommend fuses):
`first`, the starting code's ranking (a linear SVM over TF-IDF + static from 5 likes, the
TF-IDF + static centroid below; with --compare-src, that tree's functions); `keyword`, BM25 over
the atlas of the liked papers' key terms (search.keyword, as `similar` reads a text); `static`
and `minilm-int8`, cosine to the likes' centroid. A weighting is scored per mode (centroid,
classifier) by the mean over the three user groups (ICLR areas, ICLR phrases, CSFCube) of its
figure over `first` alone's, among the weightings under which neither ICLR group ranks worse
than `first` alone (recommend_eval.py's users must not lose: the issue's target); the best
such weighting of each mode is the one shipped (recommend.FUSION_WEIGHTS). The best with
`first` at 0 (no TF-IDF, no classifier) is printed beside it, and not chosen by it.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import csfcube  # noqa: E402
import recommend_eval as ev  # noqa: E402
from paperatlas import recommend as rec  # noqa: E402
from paperatlas.search.keyword import key_terms, weighted_ranking  # noqa: E402
from paperatlas.store import Store  # noqa: E402
from paperatlas.text import paper_text, tfidf_matrix  # noqa: E402

SIZES = (1, 2, 3, 5, 10, 20)
MIN_REST = 3
SIGNALS = ("first", "keyword", "static", "minilm-int8")
GRID = {
    "first": (0.0, 0.5, 1.0),
    "keyword": (0.0, 0.1, 0.25, 0.5),
    "static": (0.0, 0.25, 0.5, 1.0),
    "minilm-int8": (0.0, 0.1, 0.25, 0.5, 1.0, 2.0),
}
GUARDED = ("iclr area", "iclr phrase")  # groups a chosen weighting may not rank worse
GROUPS = ("iclr area", "iclr phrase", "csfcube")


# the tuning half's best weightings by other rules, read on the test half beside the shipped
# one and never chosen from there (printed by the tuning run of 2026-12-07 08:13)
BEST_ANY = {
    "centroid": {"first": 0.5, "keyword": 0.1, "minilm-int8": 0.25},
    "classifier": {"first": 1.0, "keyword": 0.25, "minilm-int8": 2.0},
}
BEST_WITHOUT_FIRST = {
    "centroid": {"keyword": 0.25, "static": 0.5, "minilm-int8": 0.5},
    "classifier": {"keyword": 0.1, "static": 0.25, "minilm-int8": 0.5},
}


def shipped(method: str) -> dict[str, float]:
    """recommend's weights for a mode as this script's signals: its first ranking (on
    static) at 1, each other model's cosine at its weight over static's."""
    weights = rec.RECOMMEND_WEIGHTS[method]
    return {
        "first": 1.0,
        **{m: w / weights["static"] for m, w in weights.items() if m in SIGNALS and m != "static"},
    }


def fmt(figures: dict[str, float]) -> str:
    return ", ".join(f"{g} {v:.3f}" for g, v in figures.items())


def mode_of(n: int) -> str:
    return "classifier" if n >= rec.MIN_LIKES_FOR_CLASSIFIER else "centroid"


def z(scores: np.ndarray) -> np.ndarray:
    scores = np.asarray(scores, dtype=np.float64).ravel()
    std = scores.std()
    return ((scores - scores.mean()) / (std if std > 0 else 1.0)).astype(np.float32)


class Atlas:
    """One atlas's features and signals (rows in the store's order)."""

    def __init__(self, db: Path, base) -> None:
        self.store = Store(db)
        papers = list(self.store.papers.iter())
        self.ids = [p["id"] for p in papers]
        self.texts = [paper_text(p) for p in papers]
        tfidf, terms = tfidf_matrix(self.texts)
        self.blocks = {}
        for model in ("static", "minilm-int8"):
            got, matrix = self.store.vectors.get(model)
            where = {pid: i for i, pid in enumerate(got)}
            self.blocks[model] = rec.normalise_rows(
                np.asarray(matrix[[where[p] for p in self.ids]], np.float32)
            )
        self.base = base
        self.first = base.Features(
            ids=self.ids, emb=self.blocks["static"], tfidf=tfidf, terms=terms, model="static"
        )
        self.design = base.design_matrix(self.first)

    def signals(self, liked: list[int]) -> dict[str, np.ndarray]:
        if len(liked) >= self.base.MIN_LIKES_FOR_CLASSIFIER:
            first, _ = self.base.rank_linear(self.first, liked, design=self.design)
        else:
            first = self.base.rank_centroid(self.first, liked)
        out = {"first": z(first)}
        terms = key_terms(self.store, " ".join(self.texts[i] for i in liked))
        ranked, mean, std = weighted_ranking(self.store, terms, len(self.ids))
        bm25 = dict(ranked)
        values = np.array([bm25.get(pid, 0.0) for pid in self.ids])
        out["keyword"] = ((values - mean) / (std or 1.0)).astype(np.float32)
        for model, matrix in self.blocks.items():
            out[model] = z(matrix @ rec._centroid(matrix, liked))
        return out


def iclr_cases(atlas: Atlas, data: Path, half: str, seeds: int):
    """(group, user, n, seed, liked rows, relevant rows, None) for the ICLR users of a half."""
    rows = {r["id"]: r for r in ev.load_rows(data)}
    kept = [rows[pid] for pid in atlas.ids]
    users = {
        f"area: {a}": ("iclr area", {i for i, r in enumerate(kept) if r["primary_area"] == a})
        for a in ev.AREA_USERS
    }
    for name, rule in ev.KEYWORD_USERS.items():
        users[f"kw: {name}"] = ("iclr phrase", {i for i, r in enumerate(kept) if rule(r)})
    for user, (group, members) in users.items():
        if ev.user_half(user) != half:
            continue
        members_list = sorted(members)
        for n in SIZES:
            if len(members_list) < n + max(MIN_REST, ev.MIN_REST):
                continue
            for seed in range(seeds):
                rng = np.random.default_rng(1000 * seed + n)
                liked = [int(i) for i in rng.choice(members_list, size=n, replace=False)]
                yield group, user, n, seed, liked, members - set(liked), None


def csf_cases(atlas: Atlas, folder: Path, fold: str, seeds: int):
    """The CSFCube query-facet pairs of a fold, as users: likes = query + best candidates."""
    pools = csfcube.read_pools(folder)
    where = {pid: i for i, pid in enumerate(atlas.ids)}
    for qid, facet in csfcube.read_folds(folder)[fold]:
        pool = pools[facet][qid]
        for n in SIZES:
            for seed in range(seeds):
                rng = np.random.default_rng(1000 * seed + n)
                cands = list(pool)
                order = rng.permutation(len(cands))
                best = sorted((cands[i] for i in order), key=lambda c: -pool[c])[: n - 1]
                if any(pool[c] < 2 for c in best):
                    break  # likes are relevant papers only
                rest = {c: g for c, g in pool.items() if c not in best}
                if sum(g >= 2 for g in rest.values()) < MIN_REST:
                    break
                liked = [where[qid]] + [where[c] for c in best]
                yield "csfcube", f"{qid} {facet}", n, seed, liked, rest, [where[c] for c in rest]


def figure(scores: np.ndarray, case) -> float:
    _, _, _, _, liked, relevant, pool = case
    if pool is None:
        ranked = rec.top_unseen(scores, liked, 20)
        return sum(1 for r in ranked if int(r) in relevant) / 20
    order = np.argsort(-scores[pool], kind="stable")
    grades = list(relevant.values())
    return csfcube.average_precision([grades[i] for i in order])


def collect(atlases, args, half: str):
    cases = []
    started = time.time()
    fold = "fold1_dev" if half == "tune" else "fold1_test"
    for atlas, source in (
        (atlases[0], iclr_cases(atlases[0], args.data, half, args.seeds)),
        (atlases[1], csf_cases(atlases[1], args.csfcube, fold, args.seeds)),
    ):
        for case in source:
            cases.append((case, atlas.signals(case[4])))
    print(f"{half}: {len(cases)} cases ({time.time() - started:.0f}s)", flush=True)
    return cases


def score(cases, weights: dict[str, float], mode: str) -> dict[str, float]:
    """group -> mean figure over its users (each user's mean over counts and draws) in a mode."""
    per_user: dict[tuple[str, str], list[float]] = {}
    for case, signals in cases:
        group, user, n = case[0], case[1], case[2]
        if mode_of(n) != mode:
            continue
        fused = sum(w * signals[s] for s, w in weights.items() if w)
        per_user.setdefault((group, user), []).append(figure(np.asarray(fused), case))
    return {
        g: float(np.mean([np.mean(v) for (gg, _), v in per_user.items() if gg == g]))
        for g in GROUPS
        if any(gg == g for gg, _ in per_user)
    }


def objective(figures: dict[str, float], baseline: dict[str, float]) -> float:
    return float(np.mean([figures[g] / baseline[g] for g in figures if baseline.get(g)]))


def by_count(cases, weights) -> dict[tuple[str, int], float]:
    out: dict[tuple[str, int], list[float]] = {}
    for case, signals in cases:
        fused = sum(w * signals[s] for s, w in weights.items() if w)
        out.setdefault((case[0], case[2]), []).append(figure(np.asarray(fused), case))
    return {k: float(np.mean(v)) for k, v in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the held-out ICLR atlas")
    parser.add_argument("--csfcube", type=Path, required=True, help="a checkout of iesl/CSFCube")
    parser.add_argument("--csf-db", type=Path, required=True, help="an atlas of the CSFCube papers")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/iclr2026.jsonl.gz")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--compare-src", type=Path, default=None, help="the starting code's src/ for `first`")
    parser.add_argument(
        "--report", action="store_true", help="read the test half once with the shipped weights"
    )
    args = parser.parse_args()
    base = ev.other_recommend(args.compare_src) if args.compare_src else rec
    atlases = (Atlas(args.db, base), Atlas(args.csf_db, base))
    alone = {s: {s: 1.0} for s in SIGNALS}
    if args.report:
        cases = collect(atlases, args, "test")
        rows = {f"{s} alone": w for s, w in alone.items()}
        for mode, method in (("centroid", rec.CENTROID), ("classifier", rec.CLASSIFIER)):
            rows[f"shipped ({mode})"] = shipped(method)
            rows[f"best any ({mode}; not shipped)"] = BEST_ANY[mode]
            rows[f"best no first ({mode}; not shipped)"] = BEST_WITHOUT_FIRST[mode]
        table = {name: by_count(cases, w) for name, w in rows.items()}
        keys = sorted({k for t in table.values() for k in t}, key=lambda k: (GROUPS.index(k[0]), k[1]))
        print(f"{'':36s}" + "".join(f"{g[-7:]:>8s}{n:<3d}" for g, n in keys))
        for name, t in table.items():
            print(f"{name:36s}" + "".join(f"{t.get(k, float('nan')):11.3f}" for k in keys))
        for mode, method in (("centroid", rec.CENTROID), ("classifier", rec.CLASSIFIER)):
            b = score(cases, alone["first"], mode)
            print(f"\ntest, {mode}: first alone {fmt(b)}")
            for label, w in (
                ("shipped", shipped(method)),
                ("best any, not shipped", BEST_ANY[mode]),
                ("best without first, not shipped", BEST_WITHOUT_FIRST[mode]),
            ):
                f = score(cases, w, mode)
                print(f"  {label} {w}: {fmt(f)}, objective {objective(f, b):.4f}")
        return
    cases = collect(atlases, args, "tune")
    for mode in ("centroid", "classifier"):
        baseline = score(cases, alone["first"], mode)
        print(f"\n{mode}: first alone {baseline}")
        for s in SIGNALS[1:]:
            got = score(cases, alone[s], mode)
            print(f"  {s} alone {got} objective {objective(got, baseline):.4f}")
        results = []
        for values in itertools.product(*GRID.values()):
            weights = dict(zip(GRID, values))
            if not any(values):
                continue
            got = score(cases, weights, mode)
            results.append((objective(got, baseline), weights, got))
        results.sort(key=lambda r: -r[0])
        allowed = [r for r in results if all(r[2][g] >= baseline[g] for g in GUARDED)]
        for label, chosen in (
            ("best, any", results),
            ("best, neither ICLR group worse", allowed),
            ("best without first", [r for r in results if not r[1]["first"]]),
        ):
            print(f"  {label}:")
            for obj, weights, got in chosen[:5]:
                print(f"    {obj:.4f} {weights} {got}")
        print(f"{mode} chosen: {allowed[0][1] if allowed else alone['first']}", flush=True)


if __name__ == "__main__":
    main()
