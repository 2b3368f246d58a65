"""Research-area classifier on held-out ICLR 2026 papers, against TF-IDF + LinearSVC.

    .venv/bin/python benchmarks/area_classifier.py [DATA] [--model src/paperatlas/models/areas-v1.npz]
        [--abstract-only] [--old /tmp/paperatlas-base/src/paperatlas/models/areas-v1.npz]

--abstract-only: every test paper is given as its abstract alone (a bare list), and the
baseline is trained on abstracts alone too (the same input); the classifier (lexical LR + NB
blend and the LR over static-embedding vectors) is trained with `areas.calibrated_fit`
(abstracts alone + with titles, calibrated temperature and isotonic map) unless --model. Also prints the expected calibration error (15 equal-width bins of the top-1
probability) with a reliability table, the near-tie rate, and (--old) the same figures for
an older model file on the same papers.

Split: `paperatlas.enrich.areas.is_held_out` (a hash of the paper id, ~20%) is the test
set; both models train on the rest in this run (placeholder abstracts < 100 chars dropped
everywhere), so no test paper is seen in training. With --model, a saved model is
evaluated instead (`paperatlas train-areas` leaves the held-out papers out too, unless
--all). Prints top-1/top-3 accuracy, per-area F1, the most confused pairs, and speed.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter

import numpy as np

from iclr_data import DEFAULT_DATA, is_held_out, load_rows, real_abstract, texts_of


def knn_probs(train_vecs, train_y, test_vecs, n_classes, k=30, temperature=0.1):
    """Class probabilities from the k nearest training papers, votes weighted by
    exp(cosine / temperature)."""
    sims = test_vecs @ train_vecs.T
    nearest = np.argpartition(-sims, k, axis=1)[:, :k]
    votes = np.exp(np.take_along_axis(sims, nearest, axis=1) / temperature)
    probs = np.zeros((len(test_vecs), n_classes))
    for j in range(k):
        np.add.at(probs, (np.arange(len(test_vecs)), train_y[nearest[:, j]]), votes[:, j])
    return probs / probs.sum(axis=1, keepdims=True)


def references(train, test, model, probs) -> None:
    """How far other evidence moves the figure (not shipped): a late fusion with kNN over
    the static embedding, and the same recipe given the authors' keywords."""
    from paperatlas.embed import get_backend

    classes = {c: i for i, c in enumerate(model.classes)}
    y_train = np.array([classes[r["primary_area"]] for r in train])
    y_test = np.array([classes[r["primary_area"]] for r in test])

    def accuracy(p):
        order = np.argsort(-p, axis=1)
        return (order[:, 0] == y_test).mean(), (order[:, :3] == y_test[:, None]).any(1).mean()

    static = get_backend("static")
    knn = knn_probs(static.embed(texts_of(train)), y_train, static.embed(texts_of(test)), len(classes))
    fused = np.exp(0.3 * np.log(knn + 1e-4) + 0.7 * np.log(probs))
    print("\nreferences (not shipped)")
    print("  kNN over static vectors (k 30) top-1 {:.1%} top-3 {:.1%}".format(*accuracy(knn)))
    print(
        "  classifier x kNN, log-linear 0.7/0.3 top-1 {:.1%} top-3 {:.1%}  (k, weights "
        "picked on this test split: optimistic)".format(*accuracy(fused))
    )

    def with_keywords(rows):
        return [f"{text} . {'; '.join(r.get('keywords') or [])}" for text, r in zip(texts_of(rows), rows)]

    from paperatlas.enrich.areas import AreaClassifier

    kw_model = AreaClassifier.fit(with_keywords(train), [r["primary_area"] for r in train])
    kw_probs = kw_model.predict_proba(with_keywords(test))
    kw_y = np.array([kw_model.classes.index(r["primary_area"]) for r in test])
    order = np.argsort(-kw_probs, axis=1)
    print(
        f"  same recipe given the authors' keywords too: top-1 {(order[:, 0] == kw_y).mean():.1%}"
        f" top-3 {(order[:, :3] == kw_y[:, None]).any(1).mean():.1%}"
    )


def calibration(probs: np.ndarray, y: np.ndarray, bins: int = 15) -> tuple[float, list[tuple]]:
    """Expected calibration error of the top-1 probability (equal-width bins) and the
    reliability rows (bin, papers, mean confidence, accuracy)."""
    conf = probs.max(axis=1)
    right = probs.argmax(axis=1) == y
    edges = np.linspace(0, 1, bins + 1)
    ece, rows = 0.0, []
    for lo, hi in itertools.pairwise(edges):
        inside = (conf > lo) & (conf <= hi)
        if inside.any():
            ece += inside.mean() * abs(conf[inside].mean() - right[inside].mean())
            rows.append(
                (
                    f"{lo:.2f}-{hi:.2f}",
                    int(inside.sum()),
                    float(conf[inside].mean()),
                    float(right[inside].mean()),
                )
            )
    return float(ece), rows


def abstract_only(path: str, model_path: str | None, old_path: str | None) -> None:
    """Every figure on abstracts alone (the title hidden), classifier vs the baseline."""
    from sklearn.svm import LinearSVC

    from paperatlas.embed.static import term_vectorizer
    from paperatlas.enrich.areas import TIE_MARGIN, AreaClassifier, calibrated_fit

    rows = [r for r in load_rows(path) if real_abstract(r)]
    train = [r for r in rows if not is_held_out(r["id"])]
    test = [r for r in rows if is_held_out(r["id"])]
    test_text = [r["abstract"].strip() for r in test]
    print(f"abstracts alone: train {len(train)} papers, held-out test {len(test)} papers")
    t0 = time.time()
    if model_path:
        model, how = AreaClassifier.load(model_path), f"loaded {model_path}"
    else:
        model, temperature = calibrated_fit(train)
        how = f"trained here in {time.time() - t0:.0f}s, temperature {temperature:.3f}"
    classes = {c: i for i, c in enumerate(model.classes)}
    y = np.array([classes[r["primary_area"]] for r in test])

    def report(label: str, probs: np.ndarray) -> tuple[float, float]:
        order = np.argsort(-probs, axis=1)
        top1, top3 = (order[:, 0] == y).mean(), (order[:, :3] == y[:, None]).any(1).mean()
        ece, table = calibration(probs, y)
        ranked = np.sort(probs, axis=1)
        tie = ranked[:, -1] - ranked[:, -2] < TIE_MARGIN
        in_two = (order[:, :2] == y[:, None]).any(1)
        print(
            f"\n{label}\n  top-1 {top1:.1%}   top-3 {top3:.1%}   ECE (15 bins) {ece:.3f}   "
            f"log-loss {-np.log(probs[np.arange(len(y)), y] + 1e-12).mean():.3f}"
        )
        print(
            f"  near-ties (top-1 - top-2 < {TIE_MARGIN}): {tie.mean():.1%} of papers; right "
            f"among them: top-1 {(order[tie, 0] == y[tie]).mean():.1%}, one of the two "
            f"{in_two[tie].mean():.1%}"
        )
        print("  reliability: bin | papers | mean confidence | accuracy")
        for b, n, c, a in table:
            print(f"    {b} | {n:5d} | {c:.3f} | {a:.3f}")
        return top1, top3

    new1, new3 = report(f"classifier ({how})", model.predict_proba(test_text))
    if old_path:
        old = AreaClassifier.load(old_path)
        old_y = np.array([old.classes.index(model.classes[i]) for i in y])
        assert (np.array(old.classes)[old_y] == np.array(model.classes)[y]).all()
        perm = [old.classes.index(c) for c in model.classes]
        report(f"older model ({old_path})", old.predict_proba(test_text)[:, perm])
    vec = term_vectorizer(None, min_df=2, max_df=0.5)
    svc = LinearSVC(C=0.5).fit(
        vec.fit_transform([r["abstract"].strip() for r in train]), [r["primary_area"] for r in train]
    )
    scores = svc.decision_function(vec.transform(test_text))
    order = np.argsort(-scores, axis=1)
    truth = np.array([r["primary_area"] for r in test])
    base1 = float((svc.classes_[order[:, 0]] == truth).mean())
    base3 = float(np.mean([t in svc.classes_[o[:3]] for o, t in zip(order, truth)]))
    print(
        f"\nbaseline TF-IDF (words + word pairs) + LinearSVC trained on abstracts alone\n"
        f"  top-1 {base1:.1%}   top-3 {base3:.1%}"
    )
    print(f"ratio top-1 {new1 / base1:.3f}x   top-3 {new3 / base3:.3f}x")


def main(path: str, model_path: str | None = None, with_references: bool = False) -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics import f1_score
    from sklearn.svm import LinearSVC

    from paperatlas.enrich.areas import AreaClassifier, predict_areas

    rows = [r for r in load_rows(path) if real_abstract(r)]
    train = [r for r in rows if not is_held_out(r["id"])]
    test = [r for r in rows if is_held_out(r["id"])]
    y_train = np.array([r["primary_area"] for r in train])
    y_test = np.array([r["primary_area"] for r in test])
    print(f"train {len(train)} papers, held-out test {len(test)} papers")

    t0 = time.time()
    if model_path:  # a saved model (e.g. the shipped one, trained on this same split)
        model = AreaClassifier.load(model_path)
    else:
        model = AreaClassifier.fit(texts_of(train), y_train)
    fit_s = time.time() - t0
    t0 = time.time()
    preds = predict_areas(texts_of(test), model=model)
    rate = len(test) / (time.time() - t0)
    top1 = np.array([p["label"] for p in preds])
    acc1 = float((top1 == y_test).mean())
    acc3 = float(np.mean([y in [lab for lab, _ in p["top3"]] for p, y in zip(preds, y_test)]))

    vec = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2, max_df=0.5)
    svc = LinearSVC(C=0.5).fit(vec.fit_transform(texts_of(train)), y_train)
    scores = svc.decision_function(vec.transform(texts_of(test)))
    base1 = float((svc.classes_[scores.argmax(1)] == y_test).mean())
    base3 = float(np.mean([y in svc.classes_[np.argsort(-s)[:3]] for s, y in zip(scores, y_test)]))

    how = f"loaded {model_path}" if model_path else f"trained here in {fit_s:.0f}s"
    print(
        f"\nclassifier (TF-IDF words + word pairs; logistic regression blended with "
        f"complement naive Bayes; {how})"
    )
    print(f"  top-1 {acc1:.1%}   top-3 {acc3:.1%}   predict {rate:,.0f} texts/s")
    print(f"baseline TF-IDF + LinearSVC (same split)\n  top-1 {base1:.1%}   top-3 {base3:.1%}")
    print(f"ratio top-1 {acc1 / base1:.3f}x   top-3 {acc3 / base3:.3f}x")

    labels = sorted(set(y_test))
    f1 = f1_score(y_test, top1, labels=labels, average=None)
    f1_base = f1_score(y_test, svc.classes_[scores.argmax(1)], labels=labels, average=None)
    print("\nper-area F1 (classifier / baseline, test support)")
    support = Counter(y_test)
    for label, a, b in sorted(zip(labels, f1, f1_base), key=lambda t: -t[1]):
        print(f"  {a:.2f} / {b:.2f}  {support[label]:4d}  {label}")
    print(f"  macro F1 {f1.mean():.3f} / {f1_base.mean():.3f}")
    confused = Counter((t, p) for t, p in zip(y_test, top1) if t != p)
    print("\nmost confused (true -> predicted: count)")
    for (t, p), n in confused.most_common(8):
        print(f"  {n:3d}  {t[:45]} -> {p[:45]}")
    if with_references:
        references(train, test, model, model.predict_proba(texts_of(test)))


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument(
        "--model",
        help="evaluate this saved model instead of training one "
        "(it must have been trained without the held-out papers)",
    )
    parser.add_argument(
        "--references",
        action="store_true",
        help="also print reference figures: kNN over static vectors, its "
        "fusion with the classifier, and the recipe given author keywords",
    )
    parser.add_argument(
        "--abstract-only",
        action="store_true",
        help="test on abstracts alone (titles hidden), baseline trained so too; ECE and reliability table",
    )
    parser.add_argument("--old", help="with --abstract-only: also score this older model file")
    args = parser.parse_args()
    if args.abstract_only:
        abstract_only(args.data, args.model, args.old)
    else:
        main(args.data, args.model, args.references)
