"""Build the learned parts of enrich/: the term spread table, the name scorer, the kind model.

    .venv/bin/python scripts/build_enrich_models.py [--data ../shared/data/iclr2026.jsonl.gz]
        [--only df|names|kinds]

Everything is fit on the papers `paperatlas.enrich.areas.is_held_out` keeps out of training
(benchmarks/enrich_eval.py reports on the held-out fifth). Labels are silver labels from the
real titles (benchmarks/silver.py); the models only ever see abstracts. Writes, into
src/paperatlas/models/:

  term-df-v1.tsv   token<TAB>papers, for tokens with a capital or a digit used by >= 2 papers
  names-v1.json    logistic regression over names_model.features, with its threshold
  kinds-v1.json    kinds_model: logistic regression over words and kinds' cue scores
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import silver  # noqa: E402
from paperatlas.enrich import name_cues, name_shapes, names, names_model  # noqa: E402
from paperatlas.enrich.areas import is_held_out  # noqa: E402
from paperatlas.enrich.text import clean  # noqa: E402

MODELS = ROOT / "src/paperatlas/models"
_HAS_CAP_OR_DIGIT = re.compile(r"[A-Z0-9]")


def own_tokens(abstract_plain: str) -> set[str]:
    return {t for t in name_shapes.TOKEN_RE.findall(abstract_plain) if _HAS_CAP_OR_DIGIT.search(t)}


def build_df(fit: list[dict]) -> Counter:
    df: Counter = Counter()
    for p in fit:
        df.update(own_tokens(clean(p["abstract"])))
    path = MODELS / names_model.DF_FILE
    rows = sorted(((t, n) for t, n in df.items() if n >= names_model.DF_MIN), key=lambda r: (-r[1], r[0]))
    path.write_text("".join(f"{t}\t{n}\n" for t, n in rows), encoding="utf-8")
    print(
        f"{path.name}: {len(rows)} tokens used by >= {names_model.DF_MIN} of {len(fit)} "
        f"training papers, {path.stat().st_size / 1024:.0f} KB"
    )
    return df


def is_match(pred: str, name: str, plain: str) -> bool:
    """Same name (case, plural s, size suffix aside) or the acronym the abstract defines for it."""
    if names._key(pred) == names._key(name) or names._key(names._SIZE_SUFFIX.sub("", pred)) == names._key(
        name
    ):
        return True
    return bool(
        re.search(re.escape(name) + r"\s*\(\s*" + re.escape(pred) + r"\s*\)", plain)
        or re.search(re.escape(pred) + r"\s*\(\s*" + re.escape(name) + r"\s*\)", plain)
    )


def name_rows(rows: list[tuple[dict, str | None]], df: Counter):
    """Per paper: [(candidate, features, label)]."""
    papers = []
    for p, name in rows:
        raw = p["abstract"]
        plain = clean(raw)
        own = own_tokens(plain)

        def lookup(t: str, own: set[str] = own) -> int:  # `own` bound now: one paper's tokens
            return max(
                0,
                (df.get(t, 0) if df.get(t, 0) >= names_model.DF_MIN else 0)
                - (1 if t in own and df.get(t, 0) >= names_model.DF_MIN else 0),
            )

        merged = names.merge(name_cues.candidates(raw, plain), plain, df=lookup)
        papers.append([(c, f, bool(name) and is_match(c.name, name, plain)) for c, f in merged])
    return papers


def paper_f1(papers, labels_pos, probs_per_paper, threshold):
    tp = fp = fn = 0
    for cands, pos, probs in zip(papers, labels_pos, probs_per_paper):
        if cands:
            i = int(np.argmax(probs))
            if probs[i] >= threshold:
                if cands[i][2]:
                    tp += 1
                else:
                    fp += 1
                    fn += pos
                continue
        fn += pos
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return 2 * p * r / (p + r) if p + r else 0.0, p, r


def build_names(fit_rows, df: Counter) -> None:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    t = time.time()
    papers = name_rows(fit_rows, df)
    pos = [bool(name) for _, name in fit_rows]
    print(f"names: {len(papers)} silver papers ({sum(pos)} named), candidates in {time.time() - t:.0f} s")
    vec = DictVectorizer()
    flat = [f for cands in papers for _, f, _ in cands]
    X = vec.fit_transform(flat)
    y = np.array([lab for cands in papers for _, _, lab in cands])
    owner = np.array([i for i, cands in enumerate(papers) for _ in cands])
    fold = np.array([i % 5 for i in range(len(papers))])[owner] if len(owner) else owner
    best = None
    for C in (0.1, 0.3, 1.0, 3.0):
        oof = np.zeros(len(y))
        for k in range(5):
            tr, te = fold != k, fold == k
            lr = LogisticRegression(C=C, max_iter=2000).fit(X[tr], y[tr])
            oof[te] = lr.predict_proba(X[te])[:, 1]
        per_paper, at = [], 0
        for cands in papers:
            per_paper.append(oof[at : at + len(cands)])
            at += len(cands)
        for th in np.arange(0.2, 0.8, 0.025):
            f1, p, r = paper_f1(papers, pos, per_paper, th)
            if best is None or f1 > best[0]:
                best = (f1, p, r, C, float(th))
    f1, p, r, C, th = best
    print(
        f"names: 5-fold CV on the training papers: F1 {f1:.3f} (P {p:.3f} R {r:.3f}) "
        f"with C={C}, threshold {th:.3f}"
    )
    lr = LogisticRegression(C=C, max_iter=2000).fit(X, y)
    weights = {name: round(float(w), 5) for name, w in zip(vec.get_feature_names_out(), lr.coef_[0])}
    model = {
        "bias": round(float(lr.intercept_[0]), 5),
        "threshold": round(th, 4),
        "weights": weights,
        "C": C,
        "cv_f1": round(f1, 4),
        "trained_on": len(papers),
    }
    path = MODELS / names_model.MODEL_FILE
    path.write_text(json.dumps(model, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(
        f"{path.name}: {len(weights)} weights; largest: "
        + ", ".join(f"{k} {v:+.2f}" for k, v in sorted(weights.items(), key=lambda kv: -abs(kv[1]))[:8])
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=silver.DATA)
    ap.add_argument("--only", choices=("df", "names", "kinds"))
    args = ap.parse_args()
    papers = silver.load_papers(args.data)
    fit = [p for p in papers if not is_held_out(p["id"])]
    print(f"{len(fit)} training papers of {len(papers)} (held-out fifth left out)")
    if args.only in (None, "df", "names"):
        df = build_df(fit)
    if args.only in (None, "names"):
        corpus_df = silver.doc_freq(fit)
        build_names(silver.silver_names(fit, corpus_df), df)
    if args.only in (None, "kinds"):
        sys.path.insert(0, str(ROOT / "scripts"))
        from build_kinds import build_kinds

        build_kinds(fit)


if __name__ == "__main__":
    main()
