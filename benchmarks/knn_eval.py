"""kNN accuracy of a vector space on a label (k = 10, 10-fold stratified, cosine)."""

from __future__ import annotations

import numpy as np


def knn_accuracy(vectors, labels, k: int = 10, folds: int = 10, seed: int = 0) -> float:
    """Mean accuracy of a k-nearest-neighbour majority vote (cosine) over stratified folds.

    `vectors` may be dense or scipy-sparse; rows are L2-normalised here, so the dot
    product is the cosine. Ties between labels go to the label of the nearer neighbours.
    """
    from scipy import sparse
    from sklearn.model_selection import StratifiedKFold
    from sklearn.preprocessing import normalize

    X = normalize(vectors) if sparse.issparse(vectors) else normalize(np.asarray(vectors, np.float32))
    y = np.asarray(labels)
    classes, y_idx = np.unique(y, return_inverse=True)
    correct = 0
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(X, y_idx):
        sims = X[test] @ X[train].T
        sims = sims.toarray() if sparse.issparse(sims) else np.asarray(sims)
        top = np.argpartition(-sims, k, axis=1)[:, :k]
        votes = np.zeros((len(test), len(classes)))
        top_sims = np.take_along_axis(sims, top, axis=1)
        rows = np.repeat(np.arange(len(test)), k)
        # one vote per neighbour, plus a tiny similarity term that only breaks ties
        np.add.at(votes, (rows, y_idx[train][top].ravel()), 1.0 + 1e-3 * top_sims.ravel())
        correct += int((votes.argmax(1) == y_idx[test]).sum())
    return correct / len(y)


def tfidf_vectors(texts):
    """The TF-IDF baseline: unigrams, sublinear tf, English stop words, fit on `texts`."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2, max_df=0.5).fit_transform(texts)
