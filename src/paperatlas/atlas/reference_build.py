"""Making a reference from a big list of the store: its own map (built if needed), its
vectors reduced for placing, its topic names chosen again without the field's generic words
and checked against their papers. `paperatlas reference build --list NAME` and
scripts/build_reference.py call `build_reference`; `relabel_reference` names the topics of a
reference again from its papers' texts, leaving its map as it is."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from paperatlas.atlas.build import build_map
from paperatlas.atlas.labels import label_clusters, paper_phrases, paper_support, paper_texts
from paperatlas.atlas.reference import (
    DIMS,
    GENERIC_MIN_SHARE,
    GENERIC_SPREAD,
    KEYWORD_SHARE,
    SHORT_LIST,
    K,
    Reference,
    learn_generic_words,
)
from paperatlas.embed import BACKENDS, backend_class
from paperatlas.embed.normalise import normalise_rows
from paperatlas.errors import PaperatlasError


def build_reference(
    store,
    list_name: str | None,
    name: str,
    model: str | None = None,
    progress: bool = False,
    title: str | None = None,
) -> Reference:
    """A reference from a list of the store (200+ papers): its own map (built if needed),
    its vectors and its texts."""
    ids = store.papers.ids(list_name)
    if len(ids) < SHORT_LIST:
        raise PaperatlasError(
            f"a reference needs a big list ({SHORT_LIST}+ papers); {list_name or 'the atlas'} has {len(ids)}"
        )
    stored = build_map(store, list_name=list_name, model=model, progress=progress, own_map=True)
    model = stored["model"]
    by_paper = {a["paper_id"]: a for a in stored["assignments"]}
    ids = [pid for pid in ids if pid in by_paper]
    ids, vectors = store.vectors.get(model, ids)
    v = normalise_rows(vectors)
    broad = np.array([by_paper[p]["broad"] for p in ids], dtype=np.int64)
    fine = np.array([by_paper[p]["fine"] for p in ids], dtype=np.int64)
    xy = np.array([[by_paper[p]["x"], by_paper[p]["y"]] for p in ids], dtype=np.float32)
    topics = {(t["level"], t["topic_id"]): t for t in stored["topics"]}
    n_broad, n_fine = int(broad.max()) + 1, int(fine.max()) + 1
    papers = {p["id"]: p for p in store.papers.get_many(ids)}
    generic = learn_generic_words(
        [f"{papers.get(p, {}).get('title') or ''} {papers.get(p, {}).get('abstract') or ''}" for p in ids],
        fine,
        keywords=[papers.get(p, {}).get("keywords") or [] for p in ids],
    )
    mean = v.mean(axis=0)
    centred = v - mean
    values, vecs = np.linalg.eigh((centred.T @ centred).astype(np.float64))
    r = min(DIMS, v.shape[1])
    basis = vecs[:, np.argsort(-values)[:r]].astype(np.float32)
    z = normalise_rows(centred @ basis)
    codes = np.clip(np.round(z * 127), -127, 127).astype(np.int8)
    broad_names, fine_names, common = _relabel(store, papers, ids, broad, fine, set(generic))
    fine_parent = np.zeros(n_fine, dtype=np.int64)
    fine_parent[fine] = broad

    def centroids(labels, k):
        out = np.zeros((k, v.shape[1]), dtype=np.float32)
        np.add.at(out, labels, v)
        return normalise_rows(out)

    meta = {
        "model": model,
        "list": list_name,
        "papers": len(ids),
        "title": title or name,
        "map_signature": stored["signature"],
        "k": K,
        "dims": r,
        "labels": LABELS,
        "common_stems": common,
        "generic_rule": f"used by >= {GENERIC_MIN_SHARE:.1%} of papers, normalised "
        f"entropy over fine topics >= {GENERIC_SPREAD}, a whole author "
        f"keyword of < {KEYWORD_SHARE:.1%} of papers",
    }
    model_meta = backend_class(model).info() if model in BACKENDS else {}
    if model_meta:
        meta["model_meta"] = model_meta
    return Reference(
        name=name,
        meta=meta,
        broad_labels=broad_names,
        fine_labels=fine_names,
        fine_parent=fine_parent,
        broad_xy=np.array(
            [[topics[(0, t)]["x"], topics[(0, t)]["y"]] for t in range(n_broad)], dtype=np.float32
        ),
        fine_xy=np.array(
            [[topics[(1, t)]["x"], topics[(1, t)]["y"]] for t in range(n_fine)], dtype=np.float32
        ),
        broad_size=np.bincount(broad, minlength=n_broad),
        fine_size=np.bincount(fine, minlength=n_fine),
        broad_centroids=centroids(broad, n_broad),
        fine_centroids=centroids(fine, n_fine),
        xy=xy,
        point_broad=broad,
        point_fine=fine,
        mean=mean.astype(np.float32),
        basis=basis,
        codes=codes,
        generic_words=generic,
        ids=list(ids),
    )


LABELS = "relabelled without the generic words, checked against their papers"


def relabel_reference(store, ref: Reference) -> Reference:
    """The same reference with its topics named again from its papers (`ref.ids`, read from
    the store with their facts), as `build_reference` names them; its map, vectors and
    generic words stay as they are."""
    papers = {p["id"]: p for p in store.papers.get_many(ref.ids)}
    if len(papers) < len(ref.ids):
        raise PaperatlasError(
            f"{len(ref.ids) - len(papers)} of the reference's {len(ref.ids)} papers are not in the store"
        )
    broad_names, fine_names, common = _relabel(
        store, papers, ref.ids, ref.point_broad, ref.point_fine, set(ref.generic_words)
    )
    meta = {**ref.meta, "labels": LABELS, "common_stems": common}
    return replace(ref, broad_labels=broad_names, fine_labels=fine_names, meta=meta)


def _relabel(
    store, papers: dict, ids: list[str], broad: np.ndarray, fine: np.ndarray, generic: set[str]
) -> tuple[list[str], list[str], list[str]]:
    """The reference's topic names, chosen again with the field's generic words set aside
    (the map's own labeller could not know them yet) and checked against their papers; a
    fine topic with no usable phrase takes its broad topic's name. Also the stems too
    common in the field to support a label (kept to check the labels of papers placed on
    it). The broad cut stays the map's: a short list placed on it puts each paper under a
    label its text supports (`reference.SupportedChoice`), and cutting the field's broad
    topics finer groups short lists worse (benchmarks/label_support.py, AMI)."""
    texts = paper_texts(papers, store.facts.get_many(ids), ids)
    phrases = paper_phrases(texts)
    support = paper_support(texts, generic)
    n_broad, n_fine = int(broad.max()) + 1, int(fine.max()) + 1
    broad_names = [
        t.label
        for t in label_clusters(texts, broad, n_broad, phrases=phrases, generic=generic, support=support)
    ]
    parent = np.zeros(n_fine, dtype=np.int64)
    parent[fine] = broad
    fine_names = [
        t.label
        for t in label_clusters(
            texts,
            fine,
            n_fine,
            phrases=phrases,
            generic=generic,
            fallback=[broad_names[parent[t]] for t in range(n_fine)],
            support=support,
        )
    ]
    return broad_names, fine_names, sorted(support.words.common)
