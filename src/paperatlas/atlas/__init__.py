"""The atlas: a stored map of one list (or the whole store) with labelled topics at two levels.

`build_map` reads the list's vectors, lays the papers out in 2D, groups them into broad and
fine topics (atlas_cluster), names each topic (atlas_labels) and stores the result with
`store.save_map`. A map is recomputed only when its signature changes: the signature hashes
the sorted paper ids, the model, each vector's text hash and the algorithm version, so
re-running on an unchanged list is instant and the same input always gives the same map.

Every list is also placed on the reference atlas in use (`paperatlas.atlas.reference`: the field,
ICLR 2026 unless the user chose another): each paper gets the field's broad and fine topic
with a confidence and a position on the field's layout. That placement is stored as a map
of its own (scope `reference_scope(scope)`). A short list (under `reference.SHORT_LIST`
papers) has too little text for topics of its own, so its map IS that placement: its topics
are the field's topics, drawn over the field in grey. A long list keeps its own map, and the
field's topics are a second layer (and a fallback name for a topic with no good label).
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from typing import Any

import numpy as np

from paperatlas.errors import PaperatlasError
from paperatlas.progress import progress_bar

ALGORITHM = "atlas-v4"
# Abstracts shorter than this ("na", "This is a null submission.") cannot be placed with
# confidence: such papers are flagged as outliers (a title-only paper, no abstract at all,
# is placed by its title and is not).
MIN_WORDS = 15
ALL_PAPERS = "*"


def map_scope(list_name: str | None) -> str:
    return list_name if list_name else ALL_PAPERS


def reference_scope(scope: str) -> str:
    """Where a list's placement on the reference is stored."""
    return f"reference:{scope}"


def map_signature(ids: list[str], model: str, vector_hashes: dict[str, str], reference_id: str = "") -> str:
    h = hashlib.sha1(f"{ALGORITHM}\n{model}\n{reference_id}\n".encode())
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


def build_map(
    store,
    list_name: str | None = None,
    model: str | None = None,
    force: bool = False,
    progress: bool = False,
    own_map: bool = False,
) -> dict[str, Any]:
    """Build (or reuse) the map of a list; returns the stored map (see Store.get_map) with
    `built` set to True when it was computed now. `own_map`: never use a reference (the
    map a reference is made from)."""
    scope = map_scope(list_name)
    if list_name is not None and list_name not in store.list_names():
        raise PaperatlasError(
            f"no list named {list_name!r} (lists: {', '.join(store.list_names()) or 'none'})"
        )
    ids = store.all_ids(list_name)
    if not ids:
        raise PaperatlasError("no papers to map: run `paperatlas add FILE` first")
    model = pick_model(store, ids, model)
    hashes = store.vector_state(model)
    missing = [pid for pid in ids if pid not in hashes]
    if missing:
        raise PaperatlasError(
            f"{len(missing)} of {len(ids)} papers have no {model} vectors: "
            f"run `paperatlas embed --model {model}` first"
        )
    signature, ref, words_from = _signature(store, ids, model, hashes, own_map)
    if not force:
        stored = store.get_map(scope, model)
        if stored is not None and stored["signature"] == signature:
            stored["built"] = False
            return stored

    with _Steps(progress, f"mapping {len(ids):,} papers") as steps:
        started = time.perf_counter()
        ids, vectors = store.get_vectors(model, ids)
        steps.advance("layout and topics")
        from paperatlas.atlas.cluster import OUTLIER_Z, cluster_papers
        from paperatlas.enrich.text import text_length  # characters for Chinese, words otherwise

        # a title-only paper (no abstract: mapped by its title) is not a junk abstract; where
        # it lies among the others decides, as for every paper (core distance)
        words = {
            p["id"]: text_length(p.get("abstract") or "")
            or (MIN_WORDS if (p.get("title") or "").strip() else 0)
            for p in store.get_papers(ids)
        }
        too_short = [words.get(pid, 0) < MIN_WORDS for pid in ids]
        placed = None
        if ref is not None:
            from paperatlas.atlas.reference import SHORT_LIST

            placed = ref.place(vectors)
            layer_topics, layer_assignments, layer_meta = _placement_map(store, ids, ref, placed, too_short)
            layer_meta.update({"list": list_name, "model": model})
            if len(ids) < SHORT_LIST:  # the field's topics are this list's topics
                steps.advance("placed on the field")
                meta = {**layer_meta, "seconds": round(time.perf_counter() - started, 2)}
                store.save_map(
                    reference_scope(scope), model, signature, meta, layer_topics, layer_assignments
                )
                store.save_map(scope, model, signature, meta, layer_topics, layer_assignments)
                steps.advance("done")
                stored = store.get_map(scope, model)
                stored["built"] = True
                return stored
        result = cluster_papers(vectors, too_short=too_short)
        steps.advance("labels")
        labelled = time.perf_counter()
        topics, assignments = _describe(
            store,
            ids,
            result,
            ref,
            placed,
            generic_words=words_from.generic_words if words_from is not None else None,
        )
        stage_seconds = {**result.seconds, "labels": round(time.perf_counter() - labelled, 2)}
        steps.advance("saving")
        n = len(ids)
        meta = {
            "algorithm": ALGORITHM,
            "grouping": "own",
            "list": list_name,
            "model": model,
            "papers": n,
            "reference": ref.name if ref is not None else None,
            "broad_topics": int(result.broad.max()) + 1,
            "fine_topics": int(result.fine.max()) + 1,
            "outliers": int(result.outlier.sum()),
            "outlier_share": round(float(result.outlier.mean()), 4),
            "outlier_reasons": dict(Counter(r for r in result.outlier_reason if r)),
            "outlier_rule": f"core distance (to the 15th nearest paper) above median + "
            f"{OUTLIER_Z} robust sigmas, or an abstract under {MIN_WORDS} words, or "
            "no usable text; each outlier keeps its nearest topic",
            "seconds": round(time.perf_counter() - started, 2),
            "stage_seconds": stage_seconds,
        }
        store.save_map(scope, model, signature, meta, topics, assignments)
        if ref is not None:
            store.save_map(
                reference_scope(scope),
                model,
                signature,
                {**layer_meta, "seconds": meta["seconds"]},
                layer_topics,
                layer_assignments,
            )
        steps.advance("done")
    stored = store.get_map(scope, model)
    stored["built"] = True
    return stored


def signature_for(store, ids: list[str], model: str, own_map: bool = False) -> str:
    """The signature `build_map` gives the map of these papers now (the reference in use
    is part of it): a stored map with it is reused as it is."""
    return _signature(store, ids, model, store.vector_state(model), own_map)[0]


def _signature(store, ids, model, hashes, own_map):
    """(signature, reference to place on or None, reference whose generic words to use)."""
    ref = _reference_for(store, model, own_map)
    words_from = ref
    if ref is None and not own_map:
        # the field's generic words do not depend on the embedding: a map in another
        # model's space (lsa) still sets them aside, only without the field's topics
        from paperatlas.atlas import reference

        words_from = reference.load(store)
    ref_id = (
        (
            f"{words_from.name}:{words_from.meta.get('map_signature', '')}:"
            f"{'placed' if ref is not None else 'words'}"
        )
        if words_from is not None
        else ""
    )
    return map_signature(ids, model, hashes, ref_id), ref, words_from


def _reference_for(store, model: str, own_map: bool):
    """The reference in use when it is in this model's space (else None: no placement)."""
    if own_map:
        return None
    from paperatlas.atlas import reference

    ref = reference.load(store)
    if ref is None or ref.model != model:
        return None
    return ref


def _placement_map(store, ids: list[str], ref, placed, too_short) -> tuple[list, list, dict]:
    """A list's placement on the reference as a stored map: the field's topics that hold
    some of the list's papers (the field's labels, the list's counts), the papers at their
    places on the field's layout, confidences in the meta."""
    from paperatlas.atlas.reference import MIN_CONFIDENCE

    papers = {p["id"]: p for p in store.get_papers(ids)}
    facts = store.facts_for(ids)
    conf = placed.broad_conf
    low = (conf < MIN_CONFIDENCE) | np.asarray(too_short, dtype=bool)
    topics: list[dict] = []
    for level, labels, names_of, sizes, parents in (
        (0, placed.broad, ref.broad_labels, ref.broad_size, None),
        (1, placed.fine, ref.fine_labels, ref.fine_size, ref.fine_parent),
    ):
        for t in sorted({int(x) for x in labels}):
            members = np.flatnonzero(labels == t)
            order = members[np.argsort(-conf[members], kind="stable")]
            centre = _label_point(placed.xy[members])
            names = [facts.get(ids[i], {}).get("name") for i in order]
            areas = _area_counts(papers, facts, [ids[i] for i in members])
            topics.append(
                {
                    "level": level,
                    "topic_id": t,
                    "parent_id": int(parents[t]) if parents is not None else None,
                    "label": names_of[t],
                    "size": len(members),
                    "x": float(centre[0]),
                    "y": float(centre[1]),
                    "data": {
                        "terms": [],
                        "coverage": [],
                        "names": [n for n in dict.fromkeys(names) if n][:10],
                        "representative": [ids[i] for i in order[:5]],
                        "outliers": int(low[members].sum()),
                        "areas": areas.most_common(3),
                        "reference": {
                            "name": ref.name,
                            "topic_id": t,
                            "size": int(sizes[t]),
                            "share": round(float(sizes[t]) / len(ref.xy), 4),
                        },
                    },
                }
            )
    assignments = [
        {
            "paper_id": pid,
            "x": float(placed.xy[i, 0]),
            "y": float(placed.xy[i, 1]),
            "broad": int(placed.broad[i]),
            "fine": int(placed.fine[i]),
            "outlier": bool(low[i]),
        }
        for i, pid in enumerate(ids)
    ]
    meta = {
        "algorithm": ALGORITHM,
        "grouping": "reference",
        "reference": ref.name,
        "reference_title": ref.meta.get("title", ref.name),
        "reference_papers": len(ref.xy),
        "papers": len(ids),
        "broad_topics": len({int(b) for b in placed.broad}),
        "fine_topics": len({int(f) for f in placed.fine}),
        "outliers": int(low.sum()),
        "outlier_share": round(float(low.mean()), 4) if len(ids) else 0.0,
        "outlier_rule": f"field topic vote share under {MIN_CONFIDENCE:.0%} among the "
        f"{ref.meta.get('k', 15)} nearest papers of the field, or under "
        f"{MIN_WORDS} words of text; each is kept in its nearest topic",
        "confidence": {
            pid: [round(float(placed.broad_conf[i]), 3), round(float(placed.fine_conf[i]), 3)]
            for i, pid in enumerate(ids)
        },
    }
    return topics, assignments, meta


def reference_layer(store, scope: str, model: str | None = None) -> dict[str, Any] | None:
    """The stored placement of a list (scope) on the reference, or None."""
    return store.get_map(reference_scope(scope), model)


def paper_texts(papers: dict, facts: dict, ids: list[str]) -> list:
    """What the labeller reads of each paper (atlas_labels.PaperText), in `ids` order."""
    from paperatlas.atlas.labels import PaperText

    texts = []
    for pid in ids:
        p, f = papers.get(pid, {}), facts.get(pid, {})
        texts.append(
            PaperText(
                title=p.get("title") or "",
                abstract=p.get("abstract") or "",
                keywords=[k for k in p.get("keywords") or [] if isinstance(k, str)],
                keyphrases=[k for k in f.get("keyphrases") or [] if isinstance(k, str)],
                name=f.get("name"),
            )
        )
    return texts


def _describe(
    store, ids: list[str], result, ref=None, placed=None, generic_words=None
) -> tuple[list[dict], list[dict]]:
    """Topic rows (labels, sizes, centres, top names and terms) and per-paper assignments.
    With a reference, labels never use the field's generic words, and a topic with no
    good label of its own is named after the field's topic most of its papers are in."""
    from paperatlas.atlas.labels import label_clusters, paper_phrases

    papers = {p["id"]: p for p in store.get_papers(ids)}
    facts = store.facts_for(ids)
    texts = paper_texts(papers, facts, ids)

    n_broad, n_fine = int(result.broad.max()) + 1, int(result.fine.max()) + 1
    phrases = paper_phrases(texts)
    generic = set(generic_words) if generic_words else None
    fallback = {0: None, 1: None}
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
            centre = _label_point(result.xy[members])
            # representative papers: closest to the topic's centroid in the cluster space
            c = result.space[members].mean(axis=0)
            order = members[np.argsort(np.linalg.norm(result.space[members] - c, axis=1), kind="stable")]
            names = [texts[i].name for i in order if texts[i].name]
            areas = _area_counts(papers, facts, [ids[i] for i in members])
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
    assignments = [
        {
            "paper_id": pid,
            "x": float(result.xy[i, 0]),
            "y": float(result.xy[i, 1]),
            "broad": int(result.broad[i]),
            "fine": int(result.fine[i]),
            "outlier": bool(result.outlier[i]),
        }
        for i, pid in enumerate(ids)
    ]
    return topics, assignments


def _area_counts(papers: dict, facts: dict, ids: list[str]) -> Counter:
    """Each paper's given area, else its predicted one; papers with neither are left out."""
    areas = Counter(
        papers.get(pid, {}).get("area") or (facts.get(pid, {}).get("predicted_area") or {}).get("label")
        for pid in ids
    )
    areas.pop(None, None)
    return areas


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
        self.title = title
        self._bar = progress_bar(enabled, done=None, eta=False, elapsed=True)
        self._task = self._bar.add_task(f"{title}: vectors", total=total)

    def __enter__(self):
        self._bar.start()
        return self

    def advance(self, what: str) -> None:
        self._bar.update(self._task, advance=1, description=f"{self.title}: {what}")

    def __exit__(self, *exc):
        self._bar.stop()
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
    meta = {k: v for k, v in stored["meta"].items() if k != "confidence"}
    layer = field = None
    if store is not None and meta.get("reference"):
        from paperatlas.atlas import reference

        ref = reference.load(store, meta["reference"])
        if meta.get("grouping") == "reference" and ref is not None:
            field = ref.field()  # this list's places are on the field's layout: draw it
        elif ref is not None:
            layer = reference_layer(store, stored["scope"], stored["model"])
    # each point: [x, y, broad, fine, outlier, id, title, name, field broad, field fine]
    placed = (
        {a["paper_id"]: a for a in (layer or stored)["assignments"]}
        if layer is not None or field is not None
        else {}
    )
    points = [
        [
            round(a["x"], 5),
            round(a["y"], 5),
            a["broad"],
            a["fine"],
            int(a["outlier"]),
            a["paper_id"],
            *titles.get(a["paper_id"], ("", "")),
            *(
                (placed[a["paper_id"]]["broad"], placed[a["paper_id"]]["fine"])
                if a["paper_id"] in placed
                else (-1, -1)
            ),
        ]
        for a in stored["assignments"]
    ]
    view = {
        "scope": stored["scope"],
        "model": stored["model"],
        "meta": meta,
        "topics": _topic_rows(stored["topics"]),
        "points": points,
    }
    if field is not None:
        view["field"] = field
    if layer is not None:
        view["layer"] = {
            "name": layer["meta"].get("reference"),
            "title": layer["meta"].get("reference_title"),
            "topics": _topic_rows(layer["topics"]),
        }
    return view


def _topic_rows(rows: list[dict]) -> dict[str, list[dict]]:
    topics: dict[str, list[dict]] = {"broad": [], "fine": []}
    for t in rows:
        topics["broad" if t["level"] == 0 else "fine"].append(
            {
                "id": t["topic_id"],
                "parent": t["parent_id"],
                "label": t["label"],
                "size": t["size"],
                "x": t["x"],
                "y": t["y"],
                "terms": t["data"].get("terms", [])[:5],
                "names": t["data"].get("names", [])[:5],
                "field_size": (t["data"].get("reference") or {}).get("size"),
            }
        )
    return topics


class TopicLookup:
    """Each paper's topic in the stored maps, for exports and `show`: the topic of the map
    of `list_name` (else the whole atlas's map, else the map of any list holding it), and
    its place on the reference (the field's topic, with the vote share as confidence)."""

    def __init__(self, store, list_name: str | None = None):
        self.store = store
        scopes = [list_name] if list_name else []
        scopes += [ALL_PAPERS] + [n for n in reversed(store.list_names()) if n != list_name]
        self.scopes = list(dict.fromkeys(scopes))
        self._maps: dict[str, tuple | None] = {}

    def _load(self, scope: str, layer: bool):
        key = ("R" if layer else "M") + scope
        if key not in self._maps:
            stored = self.store.get_map(reference_scope(scope) if layer else scope)
            if stored is None:
                self._maps[key] = None
            else:
                topics = {(t["level"], t["topic_id"]): t["label"] for t in stored["topics"]}
                self._maps[key] = (stored, {a["paper_id"]: a for a in stored["assignments"]}, topics)
        return self._maps[key]

    def __call__(self, paper_id: str) -> dict[str, Any]:
        out: dict[str, Any] = {"topic": None, "reference_topic": None}
        for scope in self.scopes:
            own = self._load(scope, layer=False)
            if own is None or paper_id not in own[1]:
                continue
            _stored, by_paper, labels = own
            a = by_paper[paper_id]
            out["topic"] = {
                "map": scope,
                "id": a["broad"],
                "label": labels.get((0, a["broad"])),
                "fine_id": a["fine"],
                "fine_label": labels.get((1, a["fine"])),
            }
            layer = self._load(scope, layer=True)
            if layer is not None and paper_id in layer[1]:
                lstored, lby, llabels = layer
                b = lby[paper_id]
                conf = (lstored["meta"].get("confidence") or {}).get(paper_id) or [None, None]
                out["reference_topic"] = {
                    "reference": lstored["meta"].get("reference"),
                    "id": b["broad"],
                    "label": llabels.get((0, b["broad"])),
                    "fine_id": b["fine"],
                    "fine_label": llabels.get((1, b["fine"])),
                    "confidence": conf[0],
                }
            break
        return out
