"""Build `src/paperatlas/models/titles-v1.json`: the display-title ranker (weights + word rates).

    .venv/bin/python scripts/build_titles.py [DATA] [--out PATH]

Only ICLR 2026 papers outside the held-out split (`areas.is_held_out`) are read. From them:
1. word title rates: for each word, of the papers whose abstract has it, the share whose
   title has it too (smoothed towards the overall rate; words in >= 3 abstracts);
2. every paper's candidate titles (`enrich.titles.candidates`, title hidden), each with its
   ROUGE-L against the real title; a ridge regression of that ROUGE-L (minus the paper's
   mean) on the candidates' features.
The ridge strength is picked on a validation fifth of the training papers (a second hash),
with rates and weights fit on the other four fifths; then both are refit on all training
papers and written out.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paperatlas.enrich.areas import is_held_out  # noqa: E402
from paperatlas.enrich.names import extract_names  # noqa: E402
from paperatlas.enrich.text import clean, sentences  # noqa: E402
from paperatlas.enrich.titles import FEATURES, MODEL_FILE, candidates, rouge_l  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "iclr2026.jsonl.gz"
MIN_PAPERS = 3  # a word's rate is kept when it is in this many training abstracts
SMOOTHING = 5.0  # pseudo-papers at the overall rate
_WORD = re.compile(r"\w+")


def validation(paper_id: str) -> bool:
    return int(hashlib.sha1(("v" + paper_id).encode()).hexdigest()[:8], 16) % 5 == 0


def load(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    rows = [
        r
        for r in rows
        if len((r.get("abstract") or "").strip()) >= 100 and r.get("title") and not is_held_out(r["id"])
    ]
    for r in rows:
        plain = clean(r["abstract"])
        names = extract_names(r["abstract"], plain)
        r["_sents"], r["_name"] = sentences(plain), names[0] if names else None
        r["_words"] = set(_WORD.findall(plain.lower()))
    return rows


def title_rates(rows: list[dict]) -> dict[str, float]:
    seen, kept = Counter(), Counter()
    for r in rows:
        title = set(_WORD.findall(r["title"].lower()))
        seen.update(r["_words"])
        kept.update(r["_words"] & title)
    overall = sum(kept.values()) / max(1, sum(seen.values()))
    return {
        w: round((kept[w] + SMOOTHING * overall) / (n + SMOOTHING), 4)
        for w, n in seen.items()
        if n >= MIN_PAPERS
    }


def groups_of(rows: list[dict], rates: dict[str, float]) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    for r in rows:
        cands = candidates(r["_sents"], r["_name"], rates)
        X = np.array([f for _, f in cands], dtype=np.float64).reshape(len(cands), len(FEATURES))
        out.append((X, np.array([rouge_l(t, r["title"]) for t, _ in cands])))
    return out


def fit(groups, alpha: float) -> np.ndarray:
    groups = [g for g in groups if len(g[1])]
    X = np.vstack([g[0] for g in groups])
    y = np.concatenate([g[1] - g[1].mean() for g in groups])
    A = X.T @ X + alpha * np.eye(X.shape[1])
    A[0, 0] -= alpha  # the bias is not shrunk
    return np.linalg.solve(A, X.T @ y)


def chosen_rouge(groups, weights) -> float:
    return float(np.mean([y[int(np.argmax(X @ weights))] if len(y) else 0.0 for X, y in groups]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--out", default=str(ROOT / "src" / "paperatlas" / "models" / MODEL_FILE))
    parser.add_argument("--limit", type=int, default=0, help="only this many papers (a quick try)")
    args = parser.parse_args()
    t0 = time.time()
    rows = load(Path(args.data))
    if args.limit:
        rows = rows[: args.limit]
    fit_rows = [r for r in rows if not validation(r["id"])]
    val_rows = [r for r in rows if validation(r["id"])]
    rates = title_rates(fit_rows)
    fit_groups, val_groups = groups_of(fit_rows, rates), groups_of(val_rows, rates)
    print(
        f"{len(rows)} training papers ({len(val_rows)} for validation), "
        f"{np.mean([len(y) for _, y in fit_groups]):.1f} candidates each, {len(rates)} word "
        f"rates; best-candidate ROUGE-L (oracle) on validation "
        f"{np.mean([y.max() if len(y) else 0 for _, y in val_groups]):.3f}  [{time.time() - t0:.0f}s]"
    )
    best = None
    for alpha in (1.0, 10.0, 100.0, 1000.0, 10000.0):
        score = chosen_rouge(val_groups, fit(fit_groups, alpha))
        print(f"  ridge alpha {alpha:g}: validation ROUGE-L of the chosen titles {score:.4f}")
        if best is None or score > best[0]:
            best = (score, alpha)
    rates = title_rates(rows)
    weights = fit(groups_of(rows, rates), best[1])
    Path(args.out).write_text(
        json.dumps(
            {
                "features": list(FEATURES),
                "weights": [round(float(x), 6) for x in weights],
                "alpha": best[1],
                "papers": len(rows),
                "validation_rouge_l": round(best[0], 4),
                "rates": dict(sorted(rates.items())),
            },
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"alpha {best[1]:g} (validation ROUGE-L {best[0]:.4f}); wrote {args.out} [{time.time() - t0:.0f}s]")


if __name__ == "__main__":
    main()
