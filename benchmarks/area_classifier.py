"""Research-area classifier on held-out ICLR 2026 papers, against TF-IDF + LinearSVC.

    .venv/bin/python benchmarks/area_classifier.py [DATA] [--model src/paperatlas/models/areas-v1.npz]

Split: `paperatlas.enrich.areas.is_held_out` (a hash of the paper id, ~20%) is the test
set; both models train on the rest in this run (placeholder abstracts < 100 chars dropped
everywhere), so no test paper is seen in training. With --model, a saved model is
evaluated instead (`paperatlas train-areas` leaves the held-out papers out too, unless
--all). Prints top-1/top-3 accuracy, per-area F1, the most confused pairs, and speed.
"""

from __future__ import annotations

import sys
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
    knn = knn_probs(static.embed(texts_of(train)), y_train, static.embed(texts_of(test)),
                    len(classes))
    fused = np.exp(0.3 * np.log(knn + 1e-4) + 0.7 * np.log(probs))
    print("\nreferences (not shipped)")
    print("  kNN over static vectors (k 30) top-1 {:.1%} top-3 {:.1%}".format(*accuracy(knn)))
    print("  classifier x kNN, log-linear 0.7/0.3 top-1 {:.1%} top-3 {:.1%}  (k, weights "
          "picked on this test split: optimistic)".format(*accuracy(fused)))

    def with_keywords(rows):
        return [f"{text} . {'; '.join(r.get('keywords') or [])}"
                for text, r in zip(texts_of(rows), rows)]

    from paperatlas.enrich.areas import AreaClassifier

    kw_model = AreaClassifier.fit(with_keywords(train), [r["primary_area"] for r in train])
    kw_probs = kw_model.predict_proba(with_keywords(test))
    kw_y = np.array([kw_model.classes.index(r["primary_area"]) for r in test])
    order = np.argsort(-kw_probs, axis=1)
    print(f"  same recipe given the authors' keywords too: top-1 {(order[:, 0] == kw_y).mean():.1%}"
          f" top-3 {(order[:, :3] == kw_y[:, None]).any(1).mean():.1%}")


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
    print(f"\nclassifier (TF-IDF words + word pairs; logistic regression blended with "
          f"complement naive Bayes; {how})")
    print(f"  top-1 {acc1:.1%}   top-3 {acc3:.1%}   predict {rate:,.0f} texts/s")
    print(f"baseline TF-IDF + LinearSVC (same split)\n  top-1 {base1:.1%}   top-3 {base3:.1%}")
    print(f"ratio top-1 {acc1 / base1:.3f}x   top-3 {acc3 / base3:.3f}x")

    labels = sorted(set(y_test))
    f1 = f1_score(y_test, top1, labels=labels, average=None)
    f1_base = f1_score(y_test, svc.classes_[scores.argmax(1)], labels=labels, average=None)
    print(f"\nper-area F1 (classifier / baseline, test support)")
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
    parser.add_argument("--model", help="evaluate this saved model instead of training one "
                        "(it must have been trained without the held-out papers)")
    parser.add_argument("--references", action="store_true",
                        help="also print reference figures: kNN over static vectors, its "
                        "fusion with the classifier, and the recipe given author keywords")
    args = parser.parse_args()
    main(args.data, args.model, args.references)
