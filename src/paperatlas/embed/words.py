"""The papers' own words as TF-IDF vectors, kept beside the atlas for recommendations.

`recommend` ranks by a TF-IDF vector of each paper's title, abstract and keywords
(`text.tfidf_matrix`: words and word pairs, fit on the atlas's own papers). Fitting it reads
every paper and tokenises every text (about 3 s of CPU on a conference of 15,602 papers), so
the first `recommend` that needs it saves it beside the database as ATLAS.db.tfidf.npz, keyed
by TFIDF_VERSION and `Store.papers.signature()` (the papers' count, last rowid and newest
edit) and holding the ids of its rows; `word_matrix` reads it back while the papers are those
it was fit on, and refits (and saves, unless the atlas is open read-only) otherwise. (`embed` does not fit it: that would double
the CPU of `embed --model static` for a command many atlases never run.)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from paperatlas.text import paper_text, tfidf_matrix

TFIDF_VERSION = "tfidf-v1"  # part of the cache key: change when tfidf_matrix changes


def cache_path(store) -> Path:
    return store.path.with_name(store.path.name + ".tfidf.npz")


def _key(store) -> str:
    return repr((TFIDF_VERSION, store.papers.signature()))


def _blob(strings) -> np.ndarray:
    # ids and terms as one UTF-8 blob each: fixed-width string arrays would be 10x larger
    return np.frombuffer("\n".join(strings).encode("utf-8"), dtype=np.uint8)


def _read(store, ids: list[str]):
    """The saved matrix, if it was fit on these papers (None when absent, stale or damaged)."""
    path = cache_path(store)
    if not path.exists():
        return None
    try:
        from scipy import sparse

        with np.load(path, allow_pickle=False) as z:
            if str(z["key"]) != _key(store) or z["ids"].tobytes().decode("utf-8") != "\n".join(ids):
                return None
            matrix = sparse.csr_matrix((z["data"], z["indices"], z["indptr"]), shape=tuple(z["shape"]))
            terms = z["terms"].tobytes().decode("utf-8").split("\n") if matrix.shape[1] else []
            return matrix, np.array(terms, dtype=object)
    except Exception:  # a damaged or foreign file: refit
        return None


def _write(store, ids: list[str], matrix, terms) -> None:
    path = cache_path(store)
    tmp = path.with_name(path.name + ".tmp.npz")
    try:
        np.savez(
            tmp,
            key=np.array(_key(store)),
            ids=_blob(ids),
            data=matrix.data,
            indices=matrix.indices,
            indptr=matrix.indptr,
            shape=np.array(matrix.shape),
            terms=_blob([str(t) for t in terms]),
        )
        os.replace(tmp, path)
    except OSError:  # read-only folder: work without the cache
        tmp.unlink(missing_ok=True)


def word_matrix(store) -> tuple[list[str], Any, np.ndarray]:
    """(paper ids in the store's order, their L2-normalised TF-IDF rows, the vocabulary): the
    saved matrix while the papers are unchanged, else fit now and saved for the next run."""
    ids = store.papers.ids()
    cached = _read(store, ids)
    if cached is not None:
        return ids, *cached
    papers = {p["id"]: p for p in store.papers.iter()}
    matrix, terms = tfidf_matrix([paper_text(papers[pid]) for pid in ids])
    if not store.read_only:  # an atlas opened read-only has nothing written beside it either
        _write(store, ids, matrix, terms)
    return ids, matrix, terms
