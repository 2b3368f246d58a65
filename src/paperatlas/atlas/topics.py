"""A map's topic rows: what the stored map says about each topic (label, size, where its label
goes, representative papers, names, areas) and each paper's place, from a clustering."""

from __future__ import annotations

from collections import Counter

import numpy as np

from paperatlas.atlas.labels import label_clusters, paper_phrases, paper_texts


def describe_topics(
    store, ids: list[str], result, ref=None, placed=None, generic_words=None
) -> tuple[list[dict], list[dict]]:
    """Topic rows (labels, sizes, centres, top names and terms) and per-paper assignments.
    With a reference, labels never use the field's generic words, and a topic with no
    good label of its own is named after the field's topic most of its papers are in."""
    papers = {p["id"]: p for p in store.get_papers(ids)}
    facts = store.facts_for(ids)
    texts = paper_texts(papers, facts, ids)

    n_broad, n_fine = int(result.broad.max()) + 1, int(result.fine.max()) + 1
    phrases = paper_phrases(texts)
    generic = set(generic_words) if generic_words else None
    fallback: dict[int, list[str | None] | None] = {0: None, 1: None}
    if placed is not None:
        for level, own, field, names_of in (
            (0, result.broad, placed.broad, ref.broad_labels),
            (1, result.fine, placed.fine, ref.fine_labels),
        ):
            fallback[level] = [
                names_of[Counter(field[own == t].tolist()).most_common(1)[0][0]]
                for t in range(int(own.max()) + 1)
            ]
    broad_terms = label_clusters(
        texts, result.broad, n_broad, phrases=phrases, generic=generic, fallback=fallback[0]
    )
    fine_terms = label_clusters(
        texts, result.fine, n_fine, phrases=phrases, generic=generic, fallback=fallback[1]
    )

    topics: list[dict] = []
    for level, labels, terms, count in (
        (0, result.broad, broad_terms, n_broad),
        (1, result.fine, fine_terms, n_fine),
    ):
        for t in range(count):
            members = np.flatnonzero(labels == t)
            centre = label_point(result.xy[members])
            # representative papers: closest to the topic's centroid in the cluster space
            c = result.space[members].mean(axis=0)
            order = members[np.argsort(np.linalg.norm(result.space[members] - c, axis=1), kind="stable")]
            names = [texts[i].name for i in order if texts[i].name]
            areas = area_counts(papers, facts, [ids[i] for i in members])
            topics.append(
                {
                    "level": level,
                    "topic_id": t,
                    "parent_id": int(result.fine_parent[t]) if level == 1 else None,
                    "label": terms[t].label,
                    "size": len(members),
                    "x": float(centre[0]),
                    "y": float(centre[1]),
                    "data": {
                        "terms": terms[t].terms,
                        "coverage": terms[t].coverage,
                        "names": list(dict.fromkeys(names))[:10],
                        "representative": [ids[i] for i in order[:5]],
                        "outliers": int(result.outlier[members].sum()),
                        "areas": areas.most_common(3),
                    },
                }
            )
    assignments = assignment_rows(ids, result.xy, result.broad, result.fine, result.outlier)
    return topics, assignments


def assignment_rows(ids: list[str], xy, broad, fine, outlier) -> list[dict]:
    """Each paper's stored place on a map: position, broad and fine topic, outlier flag."""
    return [
        {
            "paper_id": pid,
            "x": float(xy[i, 0]),
            "y": float(xy[i, 1]),
            "broad": int(broad[i]),
            "fine": int(fine[i]),
            "outlier": bool(outlier[i]),
        }
        for i, pid in enumerate(ids)
    ]


def area_counts(papers: dict, facts: dict, ids: list[str]) -> Counter:
    """Each paper's given area, else its predicted one; papers with neither are left out."""
    areas = Counter(
        papers.get(pid, {}).get("area") or (facts.get(pid, {}).get("predicted_area") or {}).get("label")
        for pid in ids
    )
    areas.pop(None, None)
    return areas


def label_point(xy: np.ndarray, sample: int = 800) -> np.ndarray:
    """Where a topic's label goes: its medoid on the map (the member with the smallest total
    distance to the others), which always lies on the topic's papers, also when a topic
    is split in two places where its mean would fall in the empty space between."""
    if len(xy) <= 2:
        return xy.mean(axis=0)
    pts = xy[np.linspace(0, len(xy) - 1, min(sample, len(xy))).astype(int)]
    dist = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2)).sum(axis=1)
    return pts[int(dist.argmin())]
