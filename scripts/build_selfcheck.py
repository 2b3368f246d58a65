"""Rebuild the readers' self-check (sources/selfcheck.py -> models/selfcheck-v1.json) from
lists whose true papers are known, and measure it by cross-validation by repository. One
command, after any change to the readers:

    PYTHONPATH=src .venv/bin/python scripts/build_selfcheck.py --write

reads every list of `FOLDERS` (each a folder with `truth.jsonl` and `manifest.tsv`) with
`add` as `benchmarks/realworld.py --no-base --dump` does, in a process per list (some
minutes), and fits on all of them. `--dumps FILE ...` fits on dumps already made instead;
`--keep DIR` keeps the dumps it made. Each dump line is one list: whether `add` read it whole
(count within 2% or 2 papers, >= 7 of 8 sampled papers whole), the warnings and error `add`
gave, and the self-check's features of the reading. A list's repository comes from the
`manifest.tsv` beside it (column `repo`; a list without one is its own group).

The model: a logistic regression on standardised features (scikit-learn), its classes
weighted by their size; label 1 = not read whole. It warns beside the readers' rules (any
warning or error from `add` other than the self-check's own). Its threshold, a rule fixed
before its cross-validated figure was read: on the lists it is fit on, each list's chance
out of fold (5 folds by repository), the lowest chance at which the model's own false
warnings (lists read whole that the rules leave silent) are at most `FALSE_SHARE` of the
lists read whole. Measured by leave-one-repository-out: each repository's lists are judged by
a model and a threshold fit on the others only, printed per folder beside the rules alone.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
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
C = 0.1  # inverse strength of the L2 penalty
# the model's own false warnings allowed, as a share of the lists read whole (the issue's
# target is 0 silent; a warning on a list read whole teaches users to ignore warnings)
FALSE_SHARE = 0.08
FOLDERS = tuple(
    Path(p)
    for p in (
        "/work/corpus33/tune",
        "/work/corpus33/test",
        "/work/corpus41/tune",
        "/work/corpus41/test",
        "/work/corpus42/test",
    )
)


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
    """The lowest out-of-fold chance at which the model's own false warnings stay within
    `FALSE_SHARE` of the lists read whole."""
    oof = np.zeros(len(y))
    for fit_idx, new_idx in GroupKFold(n_splits=5).split(x, y, groups):
        oof[new_idx] = chances(x[fit_idx], y[fit_idx], x[new_idx])
    allowed = FALSE_SHARE * np.sum(y == 0)
    cut = 1.0
    for candidate in sorted(set(oof), reverse=True):
        if np.sum((y == 0) & ~rules & (oof >= candidate)) > allowed:
            break
        cut = float(candidate)
    return cut


def cross_validate(x, y, groups, rules) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-repository-out: each list's chance and threshold from the other repositories."""
    chance, thresholds = np.zeros(len(y)), np.zeros(len(y))
    for fit_idx, new_idx in LeaveOneGroupOut().split(x, y, groups):
        chance[new_idx] = chances(x[fit_idx], y[fit_idx], x[new_idx])
        thresholds[new_idx] = threshold(x[fit_idx], y[fit_idx], groups[fit_idx], rules[fit_idx])
    return chance, thresholds


def tally(warned: np.ndarray, y: np.ndarray) -> str:
    silent = int(np.sum((y == 1) & ~warned))
    false = int(np.sum((y == 0) & warned))
    return f"silent {silent:3}/{int(np.sum(y == 1))} not whole | false warnings {false:3}/{int(np.sum(y == 0))} whole"


def measure(folders: list[Path], keep: Path) -> list[Path]:
    """Each folder's lists read by `add` (benchmarks/realworld.py --no-base --dump)."""
    keep.mkdir(parents=True, exist_ok=True)
    dumps = []
    for folder in folders:
        dump = keep / ("_".join(folder.parts[-2:]) + ".jsonl")
        print(f"reading the lists of {folder} ...", flush=True)
        command = [sys.executable, str(ROOT / "benchmarks/realworld.py"), "--realworld", str(folder)]
        subprocess.run(
            [*command, "--no-base", "--dump", str(dump)],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        )
        dumps.append(dump)
    return dumps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--folders", nargs="+", type=Path, default=list(FOLDERS), help="lists with truth.jsonl"
    )
    parser.add_argument(
        "--dumps", nargs="+", type=Path, help="fit on these dumps instead of reading the lists"
    )
    parser.add_argument("--keep", type=Path, help="keep the dumps made here (default: a temporary folder)")
    parser.add_argument("--write", action="store_true", help=f"write models/{MODEL_FILE}")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        dumps = args.dumps or measure(args.folders, args.keep or Path(tmp))
        fit_and_report(dumps, args.write)


def fit_and_report(dumps: list[Path], write: bool) -> None:
    refused: list[dict] = []
    rows = load(dumps, refused)
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
    print("the readers' rules".ljust(28), tally(rules, y))
    print(f"{'self-check model':28} {tally(model, y)}")
    print(f"{'rules or model':28} {tally(rules | model, y)}")
    folders = np.array([r["folder"] for r in rows])
    for folder in sorted(set(folders)):
        here = folders == folder
        print(
            f"  {folder}: rules {tally(rules[here], y[here])}; rules or model {tally((rules | model)[here], y[here])}"
        )
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
    if write:
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
