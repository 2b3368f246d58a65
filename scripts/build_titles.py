"""Build `src/paperatlas/models/titles-v3.json`: the display-title ranker, word-chance and word-deletion models.

    .venv/bin/python scripts/build_titles.py [DATA] [--out PATH]

Only ICLR 2026 papers outside the held-out split (`areas.is_held_out`) are read. From them:
1. word title rates: for each word, of the papers whose abstract has it, the share whose
   title has it too (smoothed towards the overall rate; words in >= 3 abstracts); and the
   words nearly always followed by a preposition ("based", "designed", "capable"), on which
   no candidate may end;
2. for every word of every abstract, whether the title has it: a logistic regression on the
   word's facts in its abstract (`enrich.title_words`), the word's rate left-one-out (a paper's
   own title must not tell its features what it kept);
3. every paper's candidate titles (`enrich.titles.candidates`, title hidden), each with its
   ROUGE-L against the real title; a ridge regression of that ROUGE-L (minus the paper's
   mean) on the candidates' features (rates again left-one-out);
4. the second stage (`enrich.title_join`): each paper's best candidate and its short spans
   joined with a "for/in/on ..." phrase, with their ROUGE-L; a ridge regression again, kept
   only when it beats the best candidate alone on validation;
5. on each paper's chosen title, the droppable words (`enrich.title_trim.deletable`),
   labelled by whether the real title has them; a logistic regression of that label.
The ridge strength and the deletion threshold are picked on a validation fifth of the
training papers (a second hash), with everything fit on the other four fifths; then all is
refit on all training papers and written out.
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
from itertools import pairwise
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paperatlas.enrich.areas import is_held_out  # noqa: E402
from paperatlas.enrich.names import extract_names  # noqa: E402
from paperatlas.enrich.text import clean, sentences  # noqa: E402
from paperatlas.enrich.title_join import JOIN_FEATURES  # noqa: E402
from paperatlas.enrich.title_trim import TRIM_FEATURES, abstract_counts, deletable  # noqa: E402
from paperatlas.enrich.title_trim import features as trim_features  # noqa: E402
from paperatlas.enrich.title_words import WORD_FEATURES, word_chances, word_features  # noqa: E402
from paperatlas.enrich.titles import (  # noqa: E402
    _INTRO,
    DEFAULT_RATE,
    FEATURES,
    MODEL_FILE,
    TitleModel,
    best_title,
    candidates,
    join_options,
    ranked,
    rouge_l,
)

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "iclr2026.jsonl.gz"
MIN_PAPERS = 3  # a word's rate is kept when it is in this many training abstracts
SMOOTHING = 5.0  # pseudo-papers at the overall rate
_WORD = re.compile(r"\w+")
_TOKEN = re.compile(r"\w[\w-]*")
_PREPOSITIONS = frozenset("of to on for with in from by as at upon into onto".split())
ALPHAS = (1.0, 10.0, 100.0, 1000.0)
COMPLEMENT_MIN, COMPLEMENT_SHARE = 30, 0.8  # a word seen this often, followed this often


def validation(paper_id: str) -> bool:
    return int(hashlib.sha1(("v" + paper_id).encode()).hexdigest()[:8], 16) % 5 == 0


def titled_training_rows(path: Path) -> list[dict]:
    """The training split's papers with a title and a real abstract (>= 100 characters)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    return [
        r
        for r in rows
        if len((r.get("abstract") or "").strip()) >= 100 and r.get("title") and not is_held_out(r["id"])
    ]


def load(path: Path) -> list[dict]:
    rows = titled_training_rows(path)
    for r in rows:
        plain = clean(r["abstract"])
        names = extract_names(r["abstract"], plain)
        r["_sents"], r["_name"] = sentences(plain), names[0] if names else None
        r["_words"] = set(_WORD.findall(plain.lower()))
        r["_title_words"] = set(_WORD.findall(r["title"].lower()))
    return rows


class Rates:
    """Word title rates of a set of papers: for each word, of the papers whose abstract has it,
    the share whose title has it too (smoothed towards the overall rate; words in >= 3
    abstracts); `of(row)` gives one paper's words their rate without that paper."""

    def __init__(self, rows: list[dict]) -> None:
        self.seen, self.kept = Counter(), Counter()
        for r in rows:
            self.seen.update(r["_words"])
            self.kept.update(r["_words"] & r["_title_words"])
        self.overall = sum(self.kept.values()) / max(1, sum(self.seen.values()))
        self.rates = {w: self._rate(self.kept[w], n) for w, n in self.seen.items() if n >= MIN_PAPERS}

    def _rate(self, kept: int, n: int) -> float:
        return round((kept + SMOOTHING * self.overall) / (n + SMOOTHING), 4)

    def of(self, r: dict) -> dict[str, float]:
        out = {}
        for w in r["_words"]:
            n = self.seen[w] - 1
            if n >= MIN_PAPERS:
                out[w] = self._rate(self.kept[w] - (w in r["_title_words"]), n)
        return out


def needs_complement(rows: list[dict]) -> list[str]:
    """Words that in the training abstracts are nearly always followed by a preposition
    ("based on", "designed to", "capable of"): a title may not end on them."""
    seen, followed = Counter(), Counter()
    for r in rows:
        toks = _TOKEN.findall(" ".join(r["_sents"]).lower())  # "llm-based" is not "based"
        seen.update(toks)
        followed.update(a for a, b in pairwise(toks) if b in _PREPOSITIONS)
    return sorted(w for w, n in seen.items() if n >= COMPLEMENT_MIN and followed[w] >= COMPLEMENT_SHARE * n)


def intro_flags(sents: list[str]) -> list[bool]:
    return [bool(_INTRO.search(x)) for x in sents]


def fit_words(rows: list[dict], rates: Rates) -> tuple[float, ...]:
    """The word-chance model: is each abstract word in the title (rates left-one-out)."""
    from sklearn.linear_model import LogisticRegression

    X, y = [], []
    for r in rows:
        words, feats = word_features(
            r["_sents"], intro_flags(r["_sents"]), r["_name"], rates.of(r), DEFAULT_RATE
        )
        X.extend(feats)
        y.extend(float(w in r["_title_words"]) for w in words)
    m = LogisticRegression(C=1.0, max_iter=3000, fit_intercept=False).fit(np.array(X), np.array(y))
    return tuple(float(x) for x in m.coef_[0])


def groups_of(
    rows: list[dict], rates: Rates, needs: frozenset[str], word_weights: tuple[float, ...], loo: bool
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each paper's candidates' features and ROUGE-L; `loo`: the papers are those `rates`
    was counted on, so each sees the rates without itself."""
    out = []
    for r in rows:
        paper_rates = rates.of(r) if loo else rates.rates
        chances = word_chances(
            r["_sents"], intro_flags(r["_sents"]), r["_name"], paper_rates, word_weights, DEFAULT_RATE
        )
        cands = candidates(r["_sents"], r["_name"], paper_rates, needs, chances)
        X = np.array([f for _, f in cands], dtype=np.float64).reshape(len(cands), len(FEATURES))
        out.append((X, np.array([rouge_l(t, r["title"]) for t, _ in cands])))
    return out


def join_groups(
    rows: list[dict], model: TitleModel, rates: Rates, loo: bool
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each paper's second-stage options (`titles.join_options`: the best candidate first)
    with their ROUGE-L; rates left-one-out when `loo`."""
    model = model._replace(join_weights=(0.0,) * len(JOIN_FEATURES))  # ask for the options
    out = []
    for r in rows:
        opts = join_options(r["_sents"], r["_name"], model, rates.of(r) if loo else rates.rates)
        X = np.array([f for _, f in opts], dtype=np.float64).reshape(len(opts), len(JOIN_FEATURES))
        out.append((X, np.array([rouge_l(t, r["title"]) for t, _ in opts])))
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


def trim_data(rows: list[dict], model: TitleModel) -> tuple[np.ndarray, np.ndarray]:
    """Droppable words of each paper's chosen title, labelled 1 when the real title has them."""
    X, y = [], []
    for r in rows:
        best = ranked(r["_sents"], r["_name"], model)
        if best is None:
            continue
        body = best[len(r["_name"]) + 2 :] if r["_name"] else best
        tokens, counts = body.split(), abstract_counts(r["_sents"])
        title = set(_WORD.findall(r["title"].lower()))
        for i in range(len(tokens)):
            if deletable(tokens, i):
                X.append(trim_features(tokens, i, model.rates, counts, DEFAULT_RATE))
                y.append(float(all(w in title for w in _WORD.findall(tokens[i].lower()))))
    return np.array(X).reshape(len(X), len(TRIM_FEATURES)), np.array(y)


def fit_trim(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression

    m = LogisticRegression(C=1.0, max_iter=2000, fit_intercept=False).fit(X, y)
    return m.coef_[0]


def titles_rouge(rows: list[dict], model: TitleModel) -> float:
    return float(
        np.mean([rouge_l(best_title(r["_sents"], r["_name"], model) or "", r["title"]) for r in rows])
    )


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
    rates, needs = Rates(fit_rows), frozenset(needs_complement(fit_rows))
    word_weights = fit_words(fit_rows, rates)
    print(
        f"word-chance model: {dict(zip(WORD_FEATURES, np.round(word_weights, 2)))}  [{time.time() - t0:.0f}s]"
    )
    fit_groups = groups_of(fit_rows, rates, needs, word_weights, loo=True)
    val_groups = groups_of(val_rows, rates, needs, word_weights, loo=False)
    print(
        f"{len(rows)} training papers ({len(val_rows)} for validation), "
        f"{np.mean([len(y) for _, y in fit_groups]):.1f} candidates each, {len(rates.rates)} word "
        f"rates, {len(needs)} words that need a complement; best-candidate ROUGE-L (oracle) on validation "
        f"{np.mean([y.max() if len(y) else 0 for _, y in val_groups]):.3f}  [{time.time() - t0:.0f}s]"
    )
    best = None
    for alpha in ALPHAS:
        weights = fit(fit_groups, alpha)
        score = chosen_rouge(val_groups, weights)
        print(f"  ridge alpha {alpha:g}: validation ROUGE-L of the chosen spans {score:.4f}")
        if best is None or score > best[0]:
            best = (score, alpha, weights)
    model = TitleModel(tuple(best[2]), rates.rates, needs, (), 0.0, word_weights)
    fit_joins, val_joins = (
        join_groups(fit_rows, model, rates, loo=True),
        join_groups(val_rows, model, rates, loo=False),
    )
    unjoined = float(np.mean([y[0] if len(y) else 0.0 for _, y in val_joins]))
    print(
        f"  second stage: validation ROUGE-L without joins {unjoined:.4f}, "
        f"{np.mean([len(y) for _, y in val_joins]):.1f} options each"
    )
    join = (unjoined, None, ())
    for alpha in ALPHAS:
        weights = fit([g for g in fit_joins if len(g[1])], alpha)
        score = chosen_rouge(val_joins, weights)
        print(f"  second stage alpha {alpha:g}: validation ROUGE-L {score:.4f}")
        if score > join[0]:
            join = (score, alpha, tuple(weights))
    model = model._replace(join_weights=join[2])
    print(f"  no word deletion: validation ROUGE-L {titles_rouge(val_rows, model):.4f} (min. words shown)")
    trim_weights = tuple(fit_trim(*trim_data(fit_rows, model)))
    threshold = (0.0, titles_rouge(val_rows, model))
    for th in (0.1, 0.2, 0.3, 0.4, 0.5):
        score = titles_rouge(val_rows, model._replace(trim_weights=trim_weights, trim_threshold=th))
        print(f"  word deletion below {th:g}: validation ROUGE-L {score:.4f}")
        if score > threshold[1]:
            threshold = (th, score)
    rates, needs = Rates(rows), frozenset(needs_complement(rows))
    word_weights = fit_words(rows, rates)
    weights = fit(groups_of(rows, rates, needs, word_weights, loo=True), best[1])
    model = TitleModel(tuple(weights), rates.rates, needs, (), 0.0, word_weights)
    if join[1] is not None:
        groups = [g for g in join_groups(rows, model, rates, loo=True) if len(g[1])]
        model = model._replace(join_weights=tuple(fit(groups, join[1])))
    trim_weights = tuple(fit_trim(*trim_data(rows, model)))
    Path(args.out).write_text(
        json.dumps(
            {
                "features": list(FEATURES),
                "weights": [round(float(x), 6) for x in weights],
                "alpha": best[1],
                "papers": len(rows),
                "validation_rouge_l": round(threshold[1], 4),
                "trim": {
                    "features": list(TRIM_FEATURES),
                    "weights": [round(float(x), 6) for x in trim_weights],
                    "threshold": threshold[0],
                },
                "join": {
                    "features": list(JOIN_FEATURES),
                    "weights": [round(float(x), 6) for x in model.join_weights],
                    "alpha": join[1],
                },
                "words": {
                    "features": list(WORD_FEATURES),
                    "weights": [round(float(x), 6) for x in word_weights],
                },
                "needs_complement": sorted(needs),
                "rates": dict(sorted(rates.rates.items())),
            },
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    print(
        f"alpha {best[1]:g}, deletion threshold {threshold[0]:g} (validation ROUGE-L {threshold[1]:.4f}); "
        f"wrote {args.out} [{time.time() - t0:.0f}s]"
    )


if __name__ == "__main__":
    main()
