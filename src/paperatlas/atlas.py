"""The atlas: a stored map of one list (or the whole store) with labelled topics at two levels.

`build_map` reads the list's vectors, lays the papers out in 2D, groups them into broad and
fine topics (atlas_cluster), names each topic (atlas_labels) and stores the result with
`store.save_map`. A map is recomputed only when its signature changes: the signature hashes
the sorted paper ids, the model, each vector's text hash and the algorithm version, so
re-running on an unchanged list is instant and the same input always gives the same map.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from typing import Any

import numpy as np

from paperatlas.errors import PaperatlasError

ALGORITHM = "atlas-v3"
# Abstracts shorter than this ("na", "This is a null submission.") cannot be placed with
# confidence: such papers are flagged as outliers.
MIN_WORDS = 15
ALL_PAPERS = "*"


def map_scope(list_name: str | None) -> str:
    return list_name if list_name else ALL_PAPERS


def map_signature(ids: list[str], model: str, vector_hashes: dict[str, str]) -> str:
    h = hashlib.sha1(f"{ALGORITHM}\n{model}\n".encode())
    for pid in sorted(ids):
        h.update(f"{pid}:{vector_hashes.get(pid, '')}\n".encode())
    return h.hexdigest()


def pick_model(store, ids: list[str], model: str | None = None) -> str:
    """The embedding model to map with: the one asked for, else the default model when the
    list has its vectors, else the stored model covering most of the list."""
    if model:
        return model
    models = store.vector_models()
    if not models:
        raise PaperatlasError("no paper vectors in the store: run `paperatlas embed` first")
    try:
        from paperatlas.embed import DEFAULT_MODEL
    except ImportError:  # embed stage not installed: any stored model will do
        DEFAULT_MODEL = None
    wanted = set(ids)

    def coverage(m: str) -> int:
        return sum(1 for pid in store.vector_state(m) if pid in wanted)

    ranked = sorted(models, key=lambda m: (-coverage(m), m != DEFAULT_MODEL, m))
    return ranked[0]


def build_map(store, list_name: str | None = None, model: str | None = None,
              force: bool = False, progress: bool = False) -> dict[str, Any]:
    """Build (or reuse) the map of a list; returns the stored map (see Store.get_map) with
    `built` set to True when it was computed now."""
    scope = map_scope(list_name)
    if list_name is not None and list_name not in store.list_names():
        raise PaperatlasError(f"no list named {list_name!r} (lists: "
                              f"{', '.join(store.list_names()) or 'none'})")
    ids = store.all_ids(list_name)
    if not ids:
        raise PaperatlasError("no papers to map: run `paperatlas add FILE` first")
    model = pick_model(store, ids, model)
    hashes = store.vector_state(model)
    missing = [pid for pid in ids if pid not in hashes]
    if missing:
        raise PaperatlasError(
            f"{len(missing)} of {len(ids)} papers have no {model} vectors: "
            f"run `paperatlas embed --model {model}` first")
    signature = map_signature(ids, model, hashes)
    if not force:
        stored = store.get_map(scope, model)
        if stored is not None and stored["signature"] == signature:
            stored["built"] = False
            return stored

    with _Steps(progress, f"mapping {len(ids):,} papers") as steps:
        started = time.perf_counter()
        ids, vectors = store.get_vectors(model, ids)
        steps.advance("layout and topics")
        from paperatlas.atlas_cluster import OUTLIER_Z, cluster_papers
        words = {p["id"]: len((p.get("abstract") or "").split()) for p in store.get_papers(ids)}
        result = cluster_papers(vectors, too_short=[words.get(pid, 0) < MIN_WORDS for pid in ids])
        steps.advance("labels")
        labelled = time.perf_counter()
        topics, assignments = _describe(store, ids, result)
        stage_seconds = {**result.seconds, "labels": round(time.perf_counter() - labelled, 2)}
        steps.advance("saving")
        n = len(ids)
        meta = {
            "algorithm": ALGORITHM, "list": list_name, "model": model, "papers": n,
            "broad_topics": int(result.broad.max()) + 1, "fine_topics": int(result.fine.max()) + 1,
            "outliers": int(result.outlier.sum()),
            "outlier_share": round(float(result.outlier.mean()), 4),
            "outlier_reasons": dict(Counter(r for r in result.outlier_reason if r)),
            "outlier_rule": f"core distance (to the 15th nearest paper) above median + "
                            f"{OUTLIER_Z} robust sigmas, or under {MIN_WORDS} words of text, or "
                            "no usable text; each outlier keeps its nearest topic",
            "seconds": round(time.perf_counter() - started, 2), "stage_seconds": stage_seconds,
        }
        store.save_map(scope, model, signature, meta, topics, assignments)
        steps.advance("done")
    stored = store.get_map(scope, model)
    stored["built"] = True
    return stored


def _describe(store, ids: list[str], result) -> tuple[list[dict], list[dict]]:
    """Topic rows (labels, sizes, centres, top names and terms) and per-paper assignments."""
    from paperatlas.atlas_labels import PaperText, label_clusters, paper_phrases

    papers = {p["id"]: p for p in store.get_papers(ids)}
    facts = store.facts_for(ids)
    texts = []
    for pid in ids:
        p, f = papers.get(pid, {}), facts.get(pid, {})
        texts.append(PaperText(
            title=p.get("title") or "", abstract=p.get("abstract") or "",
            keywords=[k for k in p.get("keywords") or [] if isinstance(k, str)],
            keyphrases=[k for k in f.get("keyphrases") or [] if isinstance(k, str)],
            name=f.get("name")))

    n_broad, n_fine = int(result.broad.max()) + 1, int(result.fine.max()) + 1
    phrases = paper_phrases(texts)
    broad_terms = label_clusters(texts, result.broad, n_broad, phrases=phrases)
    fine_terms = label_clusters(texts, result.fine, n_fine, phrases=phrases)

    topics: list[dict] = []
    for level, labels, terms, count in ((0, result.broad, broad_terms, n_broad),
                                         (1, result.fine, fine_terms, n_fine)):
        for t in range(count):
            members = np.flatnonzero(labels == t)
            centre = _label_point(result.xy[members])
            # representative papers: closest to the topic's centroid in the cluster space
            c = result.space[members].mean(axis=0)
            order = members[np.argsort(np.linalg.norm(result.space[members] - c, axis=1),
                                       kind="stable")]
            names = [texts[i].name for i in order if texts[i].name]
            areas = Counter(papers.get(ids[i], {}).get("area") or
                            (facts.get(ids[i], {}).get("predicted_area") or {}).get("label")
                            for i in members)
            areas.pop(None, None)
            topics.append({
                "level": level, "topic_id": t,
                "parent_id": int(result.fine_parent[t]) if level == 1 else None,
                "label": terms[t].label, "size": int(len(members)),
                "x": float(centre[0]), "y": float(centre[1]),
                "data": {
                    "terms": terms[t].terms, "coverage": terms[t].coverage,
                    "names": list(dict.fromkeys(names))[:10],
                    "representative": [ids[i] for i in order[:5]],
                    "outliers": int(result.outlier[members].sum()),
                    "areas": areas.most_common(3),
                },
            })
    assignments = [{"paper_id": pid, "x": float(result.xy[i, 0]), "y": float(result.xy[i, 1]),
                    "broad": int(result.broad[i]), "fine": int(result.fine[i]),
                    "outlier": bool(result.outlier[i])} for i, pid in enumerate(ids)]
    return topics, assignments


def _label_point(xy: np.ndarray, sample: int = 800) -> np.ndarray:
    """Where a topic's label goes: its medoid on the map (the member with the smallest total
    distance to the others), which always lies on the topic's papers, also when a topic
    is split in two places where its mean would fall in the empty space between."""
    if len(xy) <= 2:
        return xy.mean(axis=0)
    pts = xy[np.linspace(0, len(xy) - 1, min(sample, len(xy))).astype(int)]
    dist = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2)).sum(axis=1)
    return pts[int(dist.argmin())]


class _Steps:
    """A small rich progress bar over the build's stages (silent when progress=False)."""

    def __init__(self, enabled: bool, title: str, total: int = 4):
        self.enabled, self.title, self.total = enabled, title, total
        self._progress = None

    def __enter__(self):
        if self.enabled:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
            self._progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                      TimeElapsedColumn(), transient=True)
            self._progress.start()
            self._task = self._progress.add_task(f"{self.title}: vectors", total=self.total)
        return self

    def advance(self, what: str) -> None:
        if self._progress is not None:
            self._progress.update(self._task, advance=1, description=f"{self.title}: {what}")

    def __exit__(self, *exc):
        if self._progress is not None:
            self._progress.stop()
        return False


def map_view(stored: dict[str, Any], store=None) -> dict[str, Any]:
    """A compact JSON-ready view of a stored map for the web page and the HTML export:
    topics per level and one row per paper [x, y, broad, fine, outlier, id, title, name]."""
    ids = [a["paper_id"] for a in stored["assignments"]]
    titles: dict[str, tuple[str, str]] = {}
    if store is not None:
        for row in store.iter_papers(ids=ids):
            title = row.get("title") or row.get("display_title") or (row["abstract"] or "")[:90]
            titles[row["id"]] = (title, row.get("name") or "")
    points = [[round(a["x"], 5), round(a["y"], 5), a["broad"], a["fine"], int(a["outlier"]),
               a["paper_id"], *titles.get(a["paper_id"], ("", ""))] for a in stored["assignments"]]
    topics = {"broad": [], "fine": []}
    for t in stored["topics"]:
        topics["broad" if t["level"] == 0 else "fine"].append({
            "id": t["topic_id"], "parent": t["parent_id"], "label": t["label"], "size": t["size"],
            "x": t["x"], "y": t["y"], "terms": t["data"].get("terms", [])[:5],
            "names": t["data"].get("names", [])[:5]})
    return {"scope": stored["scope"], "model": stored["model"], "meta": stored["meta"],
            "topics": topics, "points": points}
