"""Two lists side by side: what share of each goes to each area and topic, which topics
grew or shrank, and which names and terms appear only in the second.

Topics must be the same for both lists, so they come from the stored map of the whole
store when it covers both; otherwise the union of the two lists is clustered here
(k-means over the stored vectors, or over TF-IDF when there are none) and labelled by the
atlas's labeller. `compare_lists` returns a `Comparison` and `draw_chart` turns it into a
PNG (the CLI renders it as tables: cli/curate.py).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from paperatlas.errors import PaperatlasError
from paperatlas.text import english_stopwords, paper_text, tfidf_matrix

MIN_NEW_TERM_PAPERS = 2  # a term "new in B" appears in at least this many of B's papers


@dataclass
class ShareRow:
    label: str
    count_a: int
    count_b: int
    share_a: float  # percent of list A
    share_b: float

    @property
    def delta(self) -> float:
        """Change in share, percentage points."""
        return round(self.share_b - self.share_a, 2)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "delta": self.delta}


@dataclass
class Comparison:
    list_a: str
    list_b: str
    n_a: int
    n_b: int
    shared: int  # papers in both lists
    areas: list[ShareRow]
    topics: list[ShareRow]
    topic_source: str  # how topics were made
    new_names: list[tuple[str, str]] = field(default_factory=list)  # (name, paper id) in B only
    new_terms: list[tuple[str, int]] = field(default_factory=list)  # (term, papers of B)
    topic_of: dict[str, str] = field(default_factory=dict)  # paper id -> topic label

    def risers(self, n: int = 5, by: str = "topics") -> list[ShareRow]:
        rows = [r for r in getattr(self, by) if r.delta > 0]
        return sorted(rows, key=lambda r: -r.delta)[:n]

    def fallers(self, n: int = 5, by: str = "topics") -> list[ShareRow]:
        rows = [r for r in getattr(self, by) if r.delta < 0]
        return sorted(rows, key=lambda r: r.delta)[:n]

    def to_dict(self) -> dict[str, Any]:
        return {
            "list_a": self.list_a,
            "list_b": self.list_b,
            "n_a": self.n_a,
            "n_b": self.n_b,
            "shared": self.shared,
            "topic_source": self.topic_source,
            "areas": [r.to_dict() for r in self.areas],
            "topics": [r.to_dict() for r in self.topics],
            "risers": [r.to_dict() for r in self.risers()],
            "fallers": [r.to_dict() for r in self.fallers()],
            "new_names": [{"name": n, "id": i} for n, i in self.new_names],
            "new_terms": [{"term": t, "papers": c} for t, c in self.new_terms],
        }


def share_rows(labels_a: list[str], labels_b: list[str]) -> list[ShareRow]:
    """Counts and percentage shares of each label in A and B, largest in B first."""
    count_a, count_b = Counter(labels_a), Counter(labels_b)
    n_a, n_b = max(1, len(labels_a)), max(1, len(labels_b))
    rows = [
        ShareRow(
            label,
            count_a[label],
            count_b[label],
            round(100 * count_a[label] / n_a, 2),
            round(100 * count_b[label] / n_b, 2),
        )
        for label in set(count_a) | set(count_b)
    ]
    return sorted(rows, key=lambda r: (-r.share_b, -r.share_a, r.label))


def compare_lists(
    store, list_a: str, list_b: str, png: str | Path | None = None, n_terms: int = 25, n_names: int = 25
) -> Comparison:
    for name in (list_a, list_b):
        if name not in store.lists.names():
            raise PaperatlasError(
                f"no list named {name!r} (lists: {', '.join(store.lists.names()) or 'none yet'})"
            )
    ids_a, ids_b = store.papers.ids(list_a), store.papers.ids(list_b)
    if not ids_a or not ids_b:
        raise PaperatlasError(f"list {list_a if not ids_a else list_b!r} is empty")
    union = list(dict.fromkeys(ids_a + ids_b))
    rows = {r["id"]: r for r in store.papers.iter(ids=union)}
    facts = store.facts.get_many(union)

    def area(pid: str) -> str:
        row = rows[pid]
        return row.get("area") or row.get("predicted_area") or "(area unknown)"

    topic_of, source = topics_for(store, union, rows, facts)
    comparison = Comparison(
        list_a=list_a,
        list_b=list_b,
        n_a=len(ids_a),
        n_b=len(ids_b),
        shared=len(set(ids_a) & set(ids_b)),
        areas=share_rows([area(p) for p in ids_a], [area(p) for p in ids_b]),
        topics=share_rows([topic_of[p] for p in ids_a], [topic_of[p] for p in ids_b]),
        topic_source=source,
        topic_of=topic_of,
    )
    comparison.new_names = new_names(ids_a, ids_b, facts)[:n_names]
    comparison.new_terms = new_terms(
        [_text(rows[p]) for p in ids_a], [_text(rows[p]) for p in ids_b], limit=n_terms
    )
    if png is not None:
        draw_chart(comparison, png)
    return comparison


def _text(row: dict[str, Any]) -> str:
    return " ".join([row.get("title") or "", row.get("abstract") or "", " ".join(row.get("keywords") or [])])


# -- topics common to both lists -------------------------------------------------------------


def topics_for(store, ids: list[str], rows, facts) -> tuple[dict[str, str], str]:
    """paper id -> topic label for every id, and a note on where topics came from."""
    wanted = set(ids)
    # the map of all papers first, then the map of any list holding both lists
    for scope in ["*"] + [name for name in store.lists.names() if wanted <= set(store.papers.ids(name))]:
        stored = store.maps.get(scope)
        if stored is None:
            continue
        broad = {a["paper_id"]: a["broad"] for a in stored["assignments"]}
        if all(pid in broad for pid in ids):
            labels = {t["topic_id"]: t["label"] for t in stored["topics"] if t["level"] == 0}
            where = "all papers" if scope == "*" else f"list '{scope}'"
            return {pid: labels[broad[pid]] for pid in ids}, f"stored map of {where}"
    return _cluster_topics(store, ids, rows, facts)


def _cluster_topics(store, ids, rows, facts) -> tuple[dict[str, str], str]:
    from paperatlas.atlas.cluster import kmeans
    from paperatlas.atlas.labels import label_clusters, paper_texts
    from paperatlas.embed import pick_model
    from paperatlas.embed.normalise import normalise_rows

    model = pick_model(store, ids)
    vectors = None
    if model is not None:
        got, matrix = store.vectors.get(model, ids)
        if len(got) == len(ids):
            vectors, source = normalise_rows(matrix), f"k-means over {model} vectors of both lists"
    if vectors is None:
        from sklearn.decomposition import TruncatedSVD

        tfidf, _ = tfidf_matrix([paper_text(rows[p]) for p in ids])
        dims = max(1, min(64, tfidf.shape[1] - 1, len(ids) - 1))
        vectors = normalise_rows(TruncatedSVD(dims, random_state=0).fit_transform(tfidf))
        source = "k-means over TF-IDF of both lists (no vectors stored)"
    k = int(np.clip(round(np.sqrt(len(ids) / 2)), 2, 15))
    k = min(k, len(ids))
    labels = kmeans(vectors, k, seed=0, restarts=4)
    # label_clusters expects ids ordered by size, largest first
    order = [c for c, _ in Counter(labels).most_common()]
    rank = {c: i for i, c in enumerate(order)}
    ranked = np.array([rank[c] for c in labels])
    names = label_clusters(paper_texts(rows, facts, ids), ranked, len(order))
    return {pid: names[ranked[i]].label for i, pid in enumerate(ids)}, source


# -- what is new in B -------------------------------------------------------------------------


def new_names(ids_a: list[str], ids_b: list[str], facts) -> list[tuple[str, str]]:
    """Named contributions of B whose name no paper of A carries (case-insensitive)."""
    seen_a = {
        n.lower()
        for pid in ids_a
        for n in (facts.get(pid, {}).get("names") or [facts.get(pid, {}).get("name")])
        if n
    }
    out, seen = [], set()
    for pid in ids_b:
        name = facts.get(pid, {}).get("name")
        if name and name.lower() not in seen_a and name.lower() not in seen:
            seen.add(name.lower())
            out.append((name, pid))
    return out


def new_terms(texts_a: list[str], texts_b: list[str], limit: int = 25) -> list[tuple[str, int]]:
    """Words and two-word phrases used by at least MIN_NEW_TERM_PAPERS papers of B and by
    none of A, most used first (a phrase is dropped when a longer one covers it as often)."""
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(binary=True, analyzer=_words_and_pairs)
    try:
        matrix = vectorizer.fit_transform(texts_a + texts_b)
    except ValueError:
        return []
    terms = vectorizer.get_feature_names_out()
    df_a = np.asarray(matrix[: len(texts_a)].sum(axis=0)).ravel()
    df_b = np.asarray(matrix[len(texts_a) :].sum(axis=0)).ravel()
    new = np.flatnonzero((df_a == 0) & (df_b >= MIN_NEW_TERM_PAPERS))
    ranked = sorted(new, key=lambda j: (-df_b[j], -len(terms[j].split()), terms[j]))
    chosen: list[tuple[str, int]] = []
    for j in ranked:  # longer phrases come first among equal counts, so they win
        term, count = str(terms[j]), int(df_b[j])
        if any(_within(term, other) and count == c for other, c in chosen):
            continue
        chosen.append((term, count))
        if len(chosen) == limit:
            break
    return chosen


_TOKEN = re.compile(r"[a-z][a-z0-9\-]+")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")  # \widetilde, \mathcal: markup, not terms


def _words_and_pairs(text: str) -> list[str]:
    """Content words and adjacent pairs of them ("draft length", never "latency large"
    across a dropped "of")."""
    stop = english_stopwords()
    tokens = _TOKEN.findall(_LATEX_COMMAND.sub(" ", text).lower())
    keep = [t not in stop for t in tokens]
    out = [t for t, k in zip(tokens, keep) if k]
    out += [f"{a} {b}" for a, b, ka, kb in zip(tokens, tokens[1:], keep, keep[1:]) if ka and kb]
    return out


def _within(short: str, long: str) -> bool:
    return f" {short} " in f" {long} "


# -- output -----------------------------------------------------------------------------------


def draw_chart(comparison: Comparison, path: str | Path, top: int = 12) -> Path:
    """Two panels: share by area in A and B (paired bars), and topic risers/fallers."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    areas = sorted(comparison.areas, key=lambda r: -(r.share_a + r.share_b))[:top][::-1]
    moves = comparison.risers(top // 2) + comparison.fallers(top // 2)
    moves = sorted(moves, key=lambda r: r.delta)
    fig, (left, right) = plt.subplots(1, 2, figsize=(15, 0.45 * max(len(areas), len(moves), 4) + 2), dpi=100)
    try:
        y = np.arange(len(areas))
        left.barh(
            y + 0.2, [r.share_a for r in areas], height=0.4, label=_plain(comparison.list_a), color="#9fb3c8"
        )
        left.barh(
            y - 0.2, [r.share_b for r in areas], height=0.4, label=_plain(comparison.list_b), color="#2b6cb0"
        )
        left.set_yticks(y, [_plain(r.label, 45) for r in areas], fontsize=8)
        left.set_xlabel("share of list (%)")
        left.set_title("share by area")
        left.legend(fontsize=8, loc="lower right")
        y = np.arange(len(moves))
        right.barh(
            y, [r.delta for r in moves], color=["#c53030" if r.delta < 0 else "#2f855a" for r in moves]
        )
        right.set_yticks(y, [_plain(r.label, 45) for r in moves], fontsize=8)
        right.axvline(0, color="black", linewidth=0.8)
        right.set_xlabel(
            f"change in share, {_plain(comparison.list_a)} → {_plain(comparison.list_b)} (percentage points)"
        )
        right.set_title("topics: biggest risers and fallers")
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)
    return path


def _plain(text: str, limit: int = 60) -> str:
    """Chart-safe text: shortened, and `$` kept from starting matplotlib mathtext."""
    text = " ".join(str(text).split())
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return text.replace("$", r"\$")
