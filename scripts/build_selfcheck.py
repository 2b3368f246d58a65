"""Fit the readers' self-check (sources/selfcheck.py -> models/selfcheck-v1.json) on lists
whose true papers are known, and measure it by cross-validation by repository.

    PYTHONPATH=src .venv/bin/python benchmarks/realworld.py --realworld DIR --no-base --dump DIR.jsonl
    PYTHONPATH=src .venv/bin/python scripts/build_selfcheck.py DIR.jsonl ... [--write]

Each dump line is one list (benchmarks/realworld.py --dump): whether `add` read it whole
(count within 2% or 2 papers, >= 7 of 8 sampled papers whole), the warnings and error `add`
gave, and the self-check's features of the reading. A list's repository comes from the
`manifest.tsv` beside its folder (column `repo`; a list without one is its own group).

The model: a logistic regression on standardised features (scikit-learn), its classes
weighted by their size; label 1 = not read whole. It warns beside the readers' rules (any
warning or error from `add` other than the self-check's own), so its threshold is the chance
at which the rules and the model together cost least — a silent failure counted as
`SILENT_COST` false warnings — on the out-of-fold chances of the lists it is fit on
(5 folds by repository; the highest such chance on a tie). Measured by
leave-one-repository-out: each repository's lists are judged by a model and a threshold fit
on the others only. Printed beside it, on the same lists: the rules alone, and the model
alone.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupKFold, LeaveOneGroupOut
from sklearn.preprocessing import StandardScaler

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paperatlas.sources.selfcheck import FEATURES, MODEL_FILE  # noqa: E402

SELF = "this reading looks incomplete"  # how the self-check's own warning begins
C = 0.1  # inverse strength of the L2 penalty (0.05-1 all gave an AUC of 0.78-0.80)
# a silent failure costs this many false warnings (the target is 0 silent; a warning
# on a list read whole teaches users to ignore warnings)
SILENT_COST = 1.5


def load(paths: list[Path], refused: list[dict] | None = None) -> list[dict]:
    """The judged lists of the dumps; those not judged (refused, or an error) go to `refused`."""
    rows = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("features") is None:
                if refused is not None:
                    refused.append(row)
                continue
            rows.append(row)
    repos: dict[tuple[str, str], str] = {}
    for folder in {r["folder"] for r in rows}:
        manifest = Path(folder).parent / "manifest.tsv"
        if manifest.exists():
            with manifest.open(encoding="utf-8") as fh:
                for rec in csv.DictReader(fh, delimiter="\t"):
                    repos[(folder, rec["file"])] = rec["repo"]
    for row in rows:
        row["repo"] = repos.get((row["folder"], row["file"]), row["folder"] + "/" + row["file"])
    return rows


def fit(x: np.ndarray, y: np.ndarray) -> tuple[StandardScaler, LogisticRegression]:
    scaler = StandardScaler().fit(x)
    model = LogisticRegression(C=C, class_weight="balanced", max_iter=2000).fit(scaler.transform(x), y)
    return scaler, model


def chances(x_fit, y_fit, x_new) -> np.ndarray:
    scaler, model = fit(x_fit, y_fit)
    return model.predict_proba(scaler.transform(x_new))[:, 1]


def threshold(x: np.ndarray, y: np.ndarray, groups: np.ndarray, rules: np.ndarray) -> float:
    """The chance at which rules-or-model leave the fewest lists wrong, out of fold."""
    oof = np.zeros(len(y))
    for fit_idx, new_idx in GroupKFold(n_splits=5).split(x, y, groups):
        oof[new_idx] = chances(x[fit_idx], y[fit_idx], x[new_idx])
    best, cut = SILENT_COST * len(y) + 1, 1.0
    for candidate in sorted(set(oof) | {1.0}, reverse=True):
        warned = rules | (oof >= candidate)
        wrong = int(SILENT_COST * np.sum((y == 1) & ~warned) + np.sum((y == 0) & warned))
        if wrong < best:
            best, cut = wrong, float(candidate)
    return cut


def cross_validate(x, y, groups, rules) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-repository-out: each list's chance and threshold from the other repositories."""
    chance, thresholds = np.zeros(len(y)), np.zeros(len(y))
    for fit_idx, new_idx in LeaveOneGroupOut().split(x, y, groups):
        chance[new_idx] = chances(x[fit_idx], y[fit_idx], x[new_idx])
        thresholds[new_idx] = threshold(x[fit_idx], y[fit_idx], groups[fit_idx], rules[fit_idx])
    return chance, thresholds


def tally(name: str, warned: np.ndarray, y: np.ndarray) -> str:
    silent = int(np.sum((y == 1) & ~warned))
    false = int(np.sum((y == 0) & warned))
    return (
        f"{name:28} silent {silent:3}/{int(np.sum(y == 1))} not whole | "
        f"false warnings {false:3}/{int(np.sum(y == 0))} whole"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dumps", nargs="+", type=Path)
    parser.add_argument("--write", action="store_true", help=f"write models/{MODEL_FILE}")
    parser.add_argument("--check", nargs="*", type=Path, default=[], help="dumps only judged, never fit on")
    args = parser.parse_args()
    refused: list[dict] = []
    rows = load(args.dumps, refused)
    for row in refused:
        whole = "whole" if row["whole"] else "not whole"
        print(f"not judged: {row['file']} ({whole}; add's error: {str(row['error'])[:90]})")
    x = np.array([[r["features"][f] for f in FEATURES] for r in rows])
    y = np.array([0 if r["whole"] else 1 for r in rows])
    groups = np.array([r["repo"] for r in rows])
    rules = np.array([bool(r["error"]) or any(not w.startswith(SELF) for w in r["warnings"]) for r in rows])
    print(f"{len(rows)} lists from {len(set(groups))} repositories; {int(y.sum())} not read whole")
    chance, thresholds = cross_validate(x, y, groups, rules)
    model = chance >= thresholds
    print("leave-one-repository-out:")
    print(tally("readers' rules (today)", rules, y))
    print(tally("self-check model", model, y))
    print(tally("rules or model", rules | model, y))
    print(
        f"area under the ROC curve: model {roc_auc_score(y, chance):.3f}, rules {roc_auc_score(y, rules):.3f}; "
        f"model among the {int(np.sum(~rules))} lists the rules leave silent "
        f"{roc_auc_score(y[~rules], chance[~rules]):.3f}"
    )
    print("wrong by rules or model (the rules fired: r):")
    for row, c, t, w, r in zip(rows, chance, thresholds, model, rules, strict=True):
        mark = ("not whole" if not row["whole"] else "whole") + (" WARNED" if w else "")
        if (not row["whole"]) != bool(w or r):
            print(f"  {row['file']:45} {mark:18} chance {c:.2f} (threshold {t:.2f}){' r' if r else ''}")
    scaler, fitted = fit(x, y)
    cut = threshold(x, y, groups, rules)
    print(f"thresholds across the folds: {thresholds.min():.3f}-{thresholds.max():.3f}")
    print(f"shipped threshold (5 folds by repository over all): {cut:.3f}")
    order = np.argsort(-np.abs(fitted.coef_[0]))
    print("weights (standardised):", ", ".join(f"{FEATURES[i]} {fitted.coef_[0][i]:+.2f}" for i in order))
    if args.check:
        checked = load(args.check)
        cx = np.array([[r["features"][f] for f in FEATURES] for r in checked])
        cc = fitted.predict_proba(scaler.transform(cx))[:, 1]
        for row, c in zip(checked, cc, strict=True):
            print(f"  check {row['file']:40} {'whole' if row['whole'] else 'NOT whole'} chance {c:.2f}")
    if args.write:
        data = {
            "about": "sources/selfcheck.py: chance a reading is not whole; scripts/build_selfcheck.py",
            "lists": len(rows),
            "features": list(FEATURES),
            "mean": [round(v, 6) for v in scaler.mean_],
            "scale": [round(v, 6) for v in scaler.scale_],
            "weights": [round(v, 6) for v in fitted.coef_[0]],
            "bias": round(float(fitted.intercept_[0]), 6),
            "threshold": round(cut, 4),
        }
        out = ROOT / "src/paperatlas/models" / MODEL_FILE
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
