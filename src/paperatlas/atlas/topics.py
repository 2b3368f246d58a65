"""A map's topic rows: what the stored map says about each topic (label, size, where its label
goes, representative papers, names, areas) and each paper's place, from a clustering."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from paperatlas.atlas.labels import label_clusters, paper_phrases, paper_support, paper_texts
from paperatlas.atlas.split import split_catch_alls

# Papers read from the store at a time when a map looks at every paper (their text length
# and area): memory stays bounded whatever the list's size.
PAGE = 5000
# A topic's card lists the names of its papers nearest its centre: they are looked up
# this many papers at a time until enough are found.
NAME_WINDOW = 200


@dataclass
class PaperPages:
    """What a map keeps of every paper, read a page at a time: its text length (words, or
    characters for Chinese; -1 for a paper not in the store) and its area (given, else
    predicted) as an index into `area_names` (-1: none)."""

    words: np.ndarray
    area: np.ndarray
    area_names: list[str]

    def area_counts(self, rows: np.ndarray) -> Counter:
        """The areas of these papers (rows ascending), counted; ties keep the order in which
        the areas first appear among them."""
        codes = self.area[rows]
        codes = codes[codes >= 0]
        found, first, counts = np.unique(codes, return_index=True, return_counts=True)
        return Counter({self.area_names[found[i]]: int(counts[i]) for i in np.argsort(first)})


def read_pages(store, ids: list[str], text_length, page: int | None = None) -> PaperPages:
    """Each paper's text length (`text_length(paper)`, paper a dict of its id, title and
    abstract) and area, reading `page` (PAGE) papers at a time."""
    page = page or PAGE
    words = np.full(len(ids), -1, np.int64)
    area = np.full(len(ids), -1, np.int64)
    names: dict[str, int] = {}
    for start in range(0, len(ids), page):
        chunk = ids[start : start + page]
        # the four columns a map needs, not each paper's whole row and facts record (JSON
        # decoded): at 1M papers that read was a fifth of the map's time
        found = store.maps.paper_texts(chunk)
        for offset, pid in enumerate(chunk):
            row = found.get(pid)
            if row is None:
                continue
            title, abstract, given, predicted = row
            words[start + offset] = text_length({"id": pid, "title": title, "abstract": abstract})
            label = given or predicted
            if label:
                area[start + offset] = names.setdefault(label, len(names))
    return PaperPages(words=words, area=area, area_names=list(names))


def topic_names(store, ids: list[str], ordered: list[np.ndarray], limit: int = 10) -> list[list[str]]:
    """Per topic, the distinct names (facts) of its papers in the order given (nearest its
    centre first), at most `limit`, read NAME_WINDOW papers at a time."""
    out = []
    for order in ordered:
        names: dict[str, None] = {}
        for start in range(0, len(order), NAME_WINDOW):
            window = [ids[i] for i in order[start : start + NAME_WINDOW]]
            facts = store.facts.get_many(window)
            names.update((n, None) for pid in window if (n := facts.get(pid, {}).get("name")))
            if len(names) >= limit:
                break
        out.append(list(names)[:limit])
    return out


def describe_topics(
    store,
    ids: list[str],
    result,
    pages: PaperPages,
    ref=None,
    placed=None,
    generic_words=None,
    split=True,
    common_stems=(),
) -> tuple[list[dict], AssignmentRows]:
    """Topic rows (labels, sizes, centres, top names and terms) and per-paper assignments.
    With a reference, labels never use the field's generic words, and a topic with no
    good label of its own is named after the field's topic most of its papers are in.

    Labels read the text of the papers the topics were fit on: every paper, or above the
    map's sample size (cluster.MAP_SAMPLE) that uniform sample, where every topic has
    members, so a label's cost does not grow with the list (a term's share of a topic
    and of the list are estimated on the sample)."""
    rows = np.arange(len(ids)) if result.fitted is None else np.asarray(result.fitted)
    broad_terms, fine_terms = _label_topics(
        store, ids, rows, result, ref, placed, generic_words, split, common_stems
    )
    n_broad, n_fine = int(result.fine_parent.max()) + 1, int(result.fine.max()) + 1
    labelled_sizes = {
        level: np.bincount(labels[rows], minlength=count)
        for level, labels, count in ((0, result.broad, n_broad), (1, result.fine, n_fine))
    }

    topics: list[dict] = []
    for level, labels, terms, count in (
        (0, result.broad, broad_terms, n_broad),
        (1, result.fine, fine_terms, n_fine),
    ):
        groups = _members(labels, count)
        # representative papers: closest to the topic's centroid in the cluster space
        ordered = []
        for members in groups:
            c = result.space[members].mean(axis=0)
            ordered.append(
                members[np.argsort(np.linalg.norm(result.space[members] - c, axis=1), kind="stable")]
            )
        names = topic_names(store, ids, ordered)
        for t, (members, order) in enumerate(zip(groups, ordered)):
            centre = label_point(result.xy[members])
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
                        "names": names[t],
                        "representative": [ids[i] for i in order[:5]],
                        "outliers": int(result.outlier[members].sum()),
                        # papers whose text does not support the label (on a sampled map,
                        # the share among the sampled members, scaled to the topic)
                        "other": round(terms[t].other * len(members) / max(1, int(labelled_sizes[level][t]))),
                        "areas": pages.area_counts(members).most_common(3),
                    },
                }
            )
    assignments = assignment_rows(ids, result.xy, result.broad, result.fine, result.outlier)
    return topics, assignments


def _label_topics(
    store, ids: list[str], rows: np.ndarray, result, ref, placed, generic_words, split: bool, common_stems
) -> tuple[list, list]:
    """(broad, fine) TopicTerms from the labelled papers' (`rows`) texts. With `split`, a
    broad topic no short label fits (a catch-all) is cut along its fine topics
    (`split.split_catch_alls`): `result.broad` and `result.fine_parent` say the new cut."""
    label_ids = [ids[i] for i in rows]
    papers = {p["id"]: p for p in store.papers.get_many(label_ids)}
    texts = paper_texts(papers, store.facts.get_many(label_ids), label_ids)
    del papers
    n_fine = int(result.fine.max()) + 1
    phrases = paper_phrases(texts)
    generic = set(generic_words) if generic_words else None
    support = paper_support(texts, generic, common_stems)

    def field_names(own: np.ndarray, field: np.ndarray, names_of: list[str], n: int) -> list[str | None]:
        """Per own topic, the name of the field's topic most of its papers are in."""
        return [
            names_of[Counter(field[own == t].tolist()).most_common(1)[0][0]] if (own == t).any() else None
            for t in range(n)
        ]

    def label_broad(broad: np.ndarray, n: int) -> list:
        """Names of broad topics 0..n-1 of the labelled papers (`broad` of each)."""
        fallback = field_names(broad, placed.broad[rows], ref.broad_labels, n) if placed is not None else None
        return label_clusters(
            texts, broad, n, phrases=phrases, generic=generic, fallback=fallback, support=support
        )

    if split:
        result.fine_parent, broad_terms = split_catch_alls(
            label_broad, result.space[rows], result.fine[rows], result.fine_parent
        )
        result.broad = result.fine_parent[result.fine]
    else:
        broad_terms = label_broad(result.broad[rows], int(result.fine_parent.max()) + 1)
    fine_fallback = (
        field_names(result.fine[rows], placed.fine[rows], ref.fine_labels, n_fine)
        if placed is not None
        else None
    )
    fine_terms = label_clusters(
        texts,
        result.fine[rows],
        n_fine,
        phrases=phrases,
        generic=generic,
        fallback=fine_fallback,
        support=support,
    )
    return broad_terms, fine_terms


def _members(labels: np.ndarray, count: int) -> list[np.ndarray]:
    """Each topic's paper indices (ascending), by one sort instead of a scan per topic."""
    order = np.argsort(labels, kind="stable")
    bounds = np.searchsorted(labels[order], np.arange(count + 1))
    return [order[bounds[t] : bounds[t + 1]] for t in range(count)]


def assignment_rows(ids: list[str], xy, broad, fine, outlier) -> AssignmentRows:
    """Each paper's stored place on a map: position, broad and fine topic, outlier flag."""
    return AssignmentRows(ids, xy, broad, fine, outlier)


class AssignmentRows:
    """The assignment dicts of a map, made one at a time as they are read (a list of a
    million dicts would take ~0.5 GB); can be read more than once."""

    def __init__(self, ids: list[str], xy, broad, fine, outlier):
        self.ids, self.xy, self.broad, self.fine, self.outlier = ids, xy, broad, fine, outlier

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self) -> Iterator[dict]:
        for i, pid in enumerate(self.ids):
            yield {
                "paper_id": pid,
                "x": float(self.xy[i, 0]),
                "y": float(self.xy[i, 1]),
                "broad": int(self.broad[i]),
                "fine": int(self.fine[i]),
                "outlier": bool(self.outlier[i]),
            }


def label_point(xy: np.ndarray, sample: int = 800) -> np.ndarray:
    """Where a topic's label goes: its medoid on the map (the member with the smallest total
    distance to the others), which always lies on the topic's papers, also when a topic
    is split in two places where its mean would fall in the empty space between."""
    if len(xy) <= 2:
        return xy.mean(axis=0)
    pts = xy[np.linspace(0, len(xy) - 1, min(sample, len(xy))).astype(int)]
    dist = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2)).sum(axis=1)
    return pts[int(dist.argmin())]
