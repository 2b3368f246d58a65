"""Building the map of a list (or of the whole store): labelled topics at two levels.

`build_map` reads the list's vectors, lays the papers out in 2D, groups them into broad and
fine topics (cluster.py), names each topic (labels.py, topics.py) and stores the result with
`store.maps.save`. A map is recomputed only when its signature changes: the signature hashes
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

import paperatlas.atlas.reference as reference
from paperatlas.atlas.support import other_count
from paperatlas.atlas.topics import (
    AssignmentRows,
    PaperPages,
    assignment_rows,
    describe_topics,
    label_point,
    read_pages,
    topic_names,
)
from paperatlas.errors import PaperatlasError
from paperatlas.progress import progress_bar

ALGORITHM = "atlas-v6"
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
    """The embedding model to map the papers `ids` with (`embed.pick_model`'s rule)."""
    from paperatlas.embed import pick_model as choose_model

    chosen = choose_model(store, ids, model)
    if chosen is None:
        raise PaperatlasError("no paper vectors in the store: run `paperatlas embed` first")
    return chosen


def build_map(
    store,
    list_name: str | None = None,
    model: str | None = None,
    force: bool = False,
    progress: bool = False,
    own_map: bool = False,
) -> dict[str, Any]:
    """Build (or reuse) the map of a list; returns the stored map (see Store.maps.get) with
    `built` set to True when it was computed now. `own_map`: never use a reference (the
    map a reference is made from)."""
    scope = map_scope(list_name)
    ids, model, hashes = _mapped_papers(store, list_name, model)
    signature, ref, words_from = _signature(store, ids, model, hashes, own_map)
    if not force:
        stored = store.maps.get(scope, model)
        if stored is not None and stored["signature"] == signature:
            stored["built"] = False
            return stored

    with _Steps(progress, f"mapping {len(ids):,} papers") as steps:
        from paperatlas.atlas.cluster import StageClock, cluster_papers

        started = time.perf_counter()
        clock = StageClock()  # the first lap reads the vectors and the papers
        ids, vectors = store.vectors.get(model, ids)
        steps.advance("layout and topics")
        from paperatlas.enrich.text import text_length  # characters for Chinese, words otherwise

        # a title-only paper (no abstract: mapped by its title) is not a junk abstract; where
        # it lies among the others decides, as for every paper (core distance)
        pages = read_pages(
            store,
            ids,
            lambda p: (
                text_length(p.get("abstract") or "") or (MIN_WORDS if (p.get("title") or "").strip() else 0)
            ),
        )
        too_short = pages.words < MIN_WORDS
        placed = None
        clock.lap("papers read")
        if ref is not None:
            # a short list's map is its placement: each paper goes under a label its text
            # supports where a near topic has one
            texts = _texts(store, ids) if len(ids) < reference.SHORT_LIST else None
            placed = ref.place(vectors, texts=texts)
            layer_topics, layer_assignments, layer_meta = _placement_map(
                store, ids, ref, placed, pages, texts
            )
            clock.lap("placed on the field")
            layer_meta.update({"list": list_name, "model": model})
            if len(ids) < reference.SHORT_LIST:  # the field's topics are this list's topics
                steps.advance("placed on the field")
                meta = {**layer_meta, "seconds": round(time.perf_counter() - started, 2)}
                store.maps.save(
                    reference_scope(scope), model, signature, meta, layer_topics, layer_assignments
                )
                store.maps.save(scope, model, signature, meta, layer_topics, layer_assignments)
                steps.advance("done")
                stored = store.maps.get(scope, model)
                stored["built"] = True
                return stored
        result = cluster_papers(vectors, too_short=too_short)
        steps.advance("labels")
        clock.restart()
        topics, assignments = describe_topics(
            store,
            ids,
            result,
            pages,
            ref,
            placed,
            generic_words=words_from.generic_words if words_from is not None else None,
            common_stems=words_from.common_stems if words_from is not None else (),
            # a reference keeps its broad cut: the short lists placed on it group better so
            split=not own_map,
        )
        clock.lap("labels")
        steps.advance("saving")
        meta = _own_map_meta(list_name, model, len(ids), ref, result, clock, started)
        store.maps.save(scope, model, signature, meta, topics, assignments)
        if ref is not None:
            store.maps.save(
                reference_scope(scope),
                model,
                signature,
                {**layer_meta, "seconds": meta["seconds"]},
                layer_topics,
                layer_assignments,
            )
        steps.advance("done")
        # the map read back below holds every paper's row: the build's arrays go first
        del vectors, result, placed, pages, assignments
    stored = store.maps.get(scope, model)
    stored["built"] = True
    return stored


def signature_for(store, ids: list[str], model: str, own_map: bool = False) -> str:
    """The signature `build_map` gives the map of these papers now (the reference in use
    is part of it): a stored map with it is reused as it is."""
    return _signature(store, ids, model, store.vectors.state(model), own_map)[0]


def map_is_current(store, list_name: str | None = None) -> bool:
    """Whether `build_map(store, list_name)` would reuse the stored map (its papers,
    vectors and reference unchanged): its header and signature only, no map is read."""
    ids = store.papers.ids(list_name)
    if not ids or not store.vectors.models():
        return False
    model = pick_model(store, ids, None)
    header = store.maps.header(map_scope(list_name), model)
    return header is not None and header["signature"] == signature_for(store, ids, model)


def _signature(store, ids, model, hashes, own_map):
    """(signature, reference to place on or None, reference whose generic words to use)."""
    ref = _reference_for(store, model, own_map)
    words_from = ref
    if ref is None and not own_map:
        # the field's generic words do not depend on the embedding: a map in another
        # model's space (lsa) still sets them aside, only without the field's topics
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
    ref = reference.load(store)
    if ref is None or ref.model != model:
        return None
    return ref


def _texts(store, ids: list[str]) -> list[str]:
    """Each paper's title and abstract, in `ids` order."""
    found = {p["id"]: p for p in store.papers.get_many(ids)}
    return [
        f"{found.get(pid, {}).get('title') or ''} {found.get(pid, {}).get('abstract') or ''}" for pid in ids
    ]


# The label of the part of a field topic whose papers' text supports neither its label nor
# that of their fine topic: it says what they are (the rest), not what the topic is.
OTHER_LABEL = "Other (near {label})"


def shown_topics(ref, placed, stems: list[frozenset[str]], words) -> tuple[np.ndarray, dict]:
    """Each placed paper's fine topic as a short list's map shows it, and the fine topics
    that are not the field's. A paper stays in its field broad topic (its colour, its group)
    and is shown under a label its text (`stems`) supports: the broad topic's; when it
    supports only its fine topic's label, that label at the broad level too (a fine topic of
    its own, `within` the field topic); when it supports neither, as the broad topic's
    "other" part (`other_of`). `shown_broad` is the label such a fine topic's papers are
    shown under at the broad level. Papers with no words to read keep the field's topics.
    Returns (fine, {fine id: {"label", "parent", "data"}} of the new fine topics)."""
    n_f = len(ref.fine_labels)
    fine = placed.fine.copy()
    derived: dict[int, dict] = {}
    label_stems: dict[tuple[int, int], frozenset[str]] = {}

    def supports(paper: frozenset[str], level: int, t: int) -> bool:
        key = (level, t)
        if key not in label_stems:
            label_stems[key] = words.stems((ref.broad_labels if level == 0 else ref.fine_labels)[t])
        return bool(paper & label_stems[key])

    for i, paper in enumerate(stems):
        t, f = int(placed.broad[i]), int(placed.fine[i])
        if not paper or supports(paper, 0, t):
            continue
        field_topic = {"id": t, "label": ref.broad_labels[t]}
        if supports(paper, 1, f):
            fine[i] = n_f + f
            derived[n_f + f] = {
                "label": ref.fine_labels[f],
                "parent": t,
                "data": {"shown_broad": ref.fine_labels[f], "within": field_topic},
            }
        else:
            fine[i] = 2 * n_f + f
            derived[2 * n_f + f] = {
                "label": OTHER_LABEL.format(label=ref.fine_labels[f]),
                "parent": t,
                "data": {
                    "shown_broad": OTHER_LABEL.format(label=ref.broad_labels[t]),
                    "other_of": field_topic,
                },
            }
    return fine, derived


def _mapped_papers(store, list_name: str | None, model: str | None) -> tuple[list[str], str, dict]:
    """The ids of the papers a map of the list (all papers when None) places, the model
    whose vectors it uses and those vectors' hashes; PaperatlasError for an unknown list,
    no papers, or papers without vectors of that model."""
    if list_name is not None and list_name not in store.lists.names():
        raise PaperatlasError(
            f"no list named {list_name!r} (lists: {', '.join(store.lists.names()) or 'none'})"
        )
    ids = store.papers.ids(list_name)
    if not ids:
        raise PaperatlasError("no papers to map: run `paperatlas add FILE` first")
    model = pick_model(store, ids, model)
    hashes = store.vectors.state(model)
    missing = [pid for pid in ids if pid not in hashes]
    if missing:
        raise PaperatlasError(
            f"{len(missing)} of {len(ids)} papers have no {model} vectors: "
            f"run `paperatlas embed --model {model}` first"
        )
    return ids, model, hashes


def _own_map_meta(
    list_name: str | None, model: str, papers: int, ref, result, clock, started: float
) -> dict[str, Any]:
    """The meta of a map clustered from the list's own papers: its counts, the outlier
    rule, and the time each stage took."""
    from paperatlas.atlas.cluster import OUTLIER_Z

    return {
        "algorithm": ALGORITHM,
        "grouping": "own",
        "list": list_name,
        "model": model,
        "papers": papers,
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
        "stage_seconds": {**clock.laps, **result.seconds},
        "stage_cpu_seconds": {**clock.cpu_laps, **result.cpu_seconds},
    }


def _placement_map(
    store, ids: list[str], ref, placed, pages: PaperPages, texts: list[str] | None = None
) -> tuple[list, AssignmentRows, dict]:
    """A list's placement on the reference as a stored map: the field's topics that hold
    some of the list's papers (the field's labels, the list's counts), the papers at their
    places on the field's layout, confidences in the meta. With the papers' `texts` (a
    short list), a paper is shown under a label its text supports (`shown_topics`: its
    broad topic's, else its fine topic's, else it is shown as the topic's "other" part); a
    broad topic counts its "other" part (`other`) and its papers shown under their fine
    topic's label (`shown_fine`), a fine topic its papers not supporting its label."""
    conf = placed.broad_conf
    words = ref.label_support() if texts is not None else None
    stems = [words.stems(t) for t in texts] if words is not None and texts is not None else []
    shown_fine, derived = shown_topics(ref, placed, stems, words) if words is not None else (placed.fine, {})
    low = (conf < reference.MIN_CONFIDENCE) | (pages.words < MIN_WORDS)
    topics: list[dict] = []
    for level, labels, names_of, sizes, parents in (
        (0, placed.broad, ref.broad_labels, ref.broad_size, None),
        (1, shown_fine, ref.fine_labels, ref.fine_size, ref.fine_parent),
    ):
        held = sorted({int(x) for x in np.unique(labels)})
        groups = [np.flatnonzero(labels == t) for t in held]
        ordered = [members[np.argsort(-conf[members], kind="stable")] for members in groups]
        names = topic_names(store, ids, ordered)
        for t, members, order, topic_names_ in zip(held, groups, ordered, names):
            centre = label_point(placed.xy[members])
            new = derived.get(t) if level == 1 else None
            label = new["label"] if new is not None else names_of[t]
            shown_as: Counter = Counter()  # a broad topic's papers shown under another label
            if level == 0 and derived:
                shown_as.update(
                    "other_of" if "other_of" in derived[int(f)]["data"] else "within"
                    for f in shown_fine[members]
                    if int(f) in derived
                )
            if new is not None and "other_of" in new["data"]:
                other = None  # the label says these papers are the rest
            elif level == 0 and words is not None:
                # the papers shown as its "other" part: supporting neither its label nor
                # their fine topic's (those supporting only the fine one are shown under it)
                other = shown_as["other_of"]
            elif words is not None:
                other = other_count(stems, words.stems(label), members)
            else:
                other = None
            data = {
                "terms": [],
                "coverage": [],
                "names": topic_names_,
                "representative": [ids[i] for i in order[:5]],
                "outliers": int(low[members].sum()),
                "other": other,
                "areas": pages.area_counts(members).most_common(3),
            }
            if new is None:
                data["reference"] = {
                    "name": ref.name,
                    "topic_id": t,
                    "size": int(sizes[t]),
                    "share": round(float(sizes[t]) / len(ref.xy), 4),
                }
            else:
                data.update(new["data"])
            if shown_as["within"]:
                data["shown_fine"] = shown_as["within"]
            topics.append(
                {
                    "level": level,
                    "topic_id": t,
                    "parent_id": new["parent"]
                    if new is not None
                    else int(parents[t])
                    if parents is not None
                    else None,
                    "label": label,
                    "size": len(members),
                    "x": float(centre[0]),
                    "y": float(centre[1]),
                    "data": data,
                }
            )
    assignments = assignment_rows(ids, placed.xy, placed.broad, shown_fine, low)
    return topics, assignments, _placement_meta(ids, ref, placed, shown_fine, low, checked=words is not None)


def _placement_meta(ids: list[str], ref, placed, shown_fine, low, checked: bool) -> dict[str, Any]:
    """The meta of a list's placement on the reference: its counts, the outlier rule, each
    paper's confidence in its broad and fine topic; `checked`: each paper's text was read
    against its labels (a short list: shown_topics)."""
    return {
        "algorithm": ALGORITHM,
        "grouping": "reference",
        "reference": ref.name,
        "reference_title": ref.meta.get("title", ref.name),
        "reference_papers": len(ref.xy),
        "papers": len(ids),
        "broad_topics": len({int(b) for b in placed.broad}),
        "fine_topics": len({int(f) for f in shown_fine}),
        "outliers": int(low.sum()),
        "outlier_share": round(float(low.mean()), 4) if len(ids) else 0.0,
        # each paper's text read against its labels (a short list): shown_topics
        "papers_checked": checked,
        "outlier_rule": f"field topic vote share under {reference.MIN_CONFIDENCE:.0%} among the "
        f"{ref.meta.get('k', 15)} nearest papers of the field, or under "
        f"{MIN_WORDS} words of text; each is kept in its nearest topic",
        "confidence": {
            pid: [round(float(placed.broad_conf[i]), 3), round(float(placed.fine_conf[i]), 3)]
            for i, pid in enumerate(ids)
        },
    }


def reference_layer(store, scope: str, model: str | None = None) -> dict[str, Any] | None:
    """The stored placement of a list (scope) on the reference, or None."""
    return store.maps.get(reference_scope(scope), model)


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
