"""Reading stored maps: the compact view the web page and the HTML export draw
(`map_view`), and each paper's topic for exports and `show` (`TopicLookup`)."""

from __future__ import annotations

import re
from typing import Any

import paperatlas.atlas.reference as reference
from paperatlas.atlas import sample
from paperatlas.atlas.build import ALL_PAPERS, reference_layer, reference_scope
from paperatlas.paper import shown_title

MATCH_WORDS = 8  # words of a map filter's text looked up in the titles' index


def map_view(stored: dict[str, Any], store=None) -> dict[str, Any]:
    """A compact JSON-ready view of a stored map for the web page and the HTML export:
    topics per level and one row per paper [x, y, broad, fine, outlier, id, title, name]."""
    ids = [a["paper_id"] for a in stored["assignments"]]
    titles: dict[str, tuple[str, str]] = {}
    if store is not None:
        for row in store.papers.title_rows(ids):
            titles[row["id"]] = (shown_title(row), row.get("name") or "")
    meta = {k: v for k, v in stored["meta"].items() if k != "confidence"}
    layer = field = None
    if store is not None and meta.get("reference"):
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
        view["layer"] = _layer_view(layer)
    return view


def _layer_view(layer: dict[str, Any]) -> dict[str, Any]:
    """The field layer's part of a map view: its name, title and topics."""
    return {
        "name": layer["meta"].get("reference"),
        "title": layer["meta"].get("reference_title"),
        "topics": _topic_rows(layer["topics"]),
    }


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
                "other": t["data"].get("other"),
                # a short list's fine topic that is not the field's (build.shown_topics):
                # its papers shown at the broad level under `shown_broad`
                "within": (t["data"].get("within") or {}).get("label"),
                "other_of": (t["data"].get("other_of") or {}).get("label"),
                "shown_broad": t["data"].get("shown_broad"),
                "shown_fine": t["data"].get("shown_fine"),
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
        scopes += [ALL_PAPERS] + [n for n in reversed(store.lists.names()) if n != list_name]
        self.scopes = list(dict.fromkeys(scopes))
        self._maps: dict[str, tuple | None] = {}

    def _load(self, scope: str, layer: bool):
        key = ("R" if layer else "M") + scope
        if key not in self._maps:
            stored = self.store.maps.get(reference_scope(scope) if layer else scope)
            if stored is None:
                self._maps[key] = None
            else:
                topics = {(t["level"], t["topic_id"]): t["label"] for t in stored["topics"]}
                # a short list's paper shown under its fine topic's label, or as its
                # topic's "other" part, at the broad level (build.shown_topics): by fine topic
                shown = {t["topic_id"]: t["data"] for t in stored["topics"] if "shown_broad" in t["data"]}
                checked = bool(stored["meta"].get("papers_checked"))
                self._maps[key] = (
                    stored,
                    {a["paper_id"]: a for a in stored["assignments"]},
                    topics,
                    shown,
                    checked,
                )
        return self._maps[key]

    def __call__(self, paper_id: str) -> dict[str, Any]:
        out: dict[str, Any] = {"topic": None, "reference_topic": None}
        for scope in self.scopes:
            own = self._load(scope, layer=False)
            if own is None or paper_id not in own[1]:
                continue
            _stored, by_paper, labels, shown, checked = own
            a = by_paper[paper_id]
            out["topic"] = _shown(a, labels, shown, checked) | {"map": scope}
            layer = self._load(scope, layer=True)
            if layer is not None and paper_id in layer[1]:
                lstored, lby, llabels, lshown, lchecked = layer
                b = lby[paper_id]
                conf = (lstored["meta"].get("confidence") or {}).get(paper_id) or [None, None]
                out["reference_topic"] = {
                    "reference": lstored["meta"].get("reference"),
                    **_shown(b, llabels, lshown, lchecked),
                    "confidence": conf[0],
                }
            break
        return out


def _shown(a: dict, labels: dict, shown: dict, checked: bool) -> dict[str, Any]:
    """A paper's topics under the labels it is shown with; `other`: whether it is shown as
    its topic's "other" part (None where the map does not mark papers one by one: a
    list's own map counts them per topic)."""
    data = shown.get(a["fine"]) or {}
    return {
        "id": a["broad"],
        "label": data.get("shown_broad") or labels.get((0, a["broad"])),
        "fine_id": a["fine"],
        "fine_label": labels.get((1, a["fine"])),
        "other": "other_of" in data if checked else None,
    }


class MapReader:
    """One stored map read a piece at a time, for a server that must not hold every
    paper's row of a 1M-paper map as a dict: its header and topics (no papers), its
    points a page at a time (with the reference layer's topics beside them), and what a
    few points or papers show, by query."""

    # papers a big map shows first, and the order it draws them in (atlas/sample.py): what
    # a server's level of detail reads from the reader it holds
    OVERVIEW = sample.OVERVIEW
    priority_order = staticmethod(sample.priority_order)

    def __init__(self, store, header: dict[str, Any]):
        self.store = store
        self.header = header
        self.scope: str = header["scope"]
        self.model: str = header["model"]
        self.layer_scope = reference_scope(self.scope) if header["meta"].get("reference") else None

    def layer_header(self) -> dict[str, Any] | None:
        """The list's placement on the reference (topics, no papers), when it has one."""
        if self.layer_scope is None or self.header["meta"].get("grouping") == "reference":
            return None
        return self.store.maps.header(self.layer_scope, self.model)

    def full_view(self) -> dict[str, Any] | None:
        """`map_view` of the whole stored map, one row per paper (for a map small enough to
        send whole); None when it is no longer stored."""
        stored = self.store.maps.get(self.scope)
        return None if stored is None else map_view(stored, self.store)

    def view_head(self) -> dict[str, Any]:
        """map_view's answer without its points: scope, model, meta, topics per level, and
        the reference layer's topics (`layer`) or the field drawn under a short list (`field`)."""
        meta = self.header["meta"]
        view: dict[str, Any] = {
            "scope": self.scope,
            "model": self.model,
            "meta": meta,
            "topics": _topic_rows(self.header["topics"]),
        }
        ref = reference.load(self.store, meta["reference"]) if meta.get("reference") else None
        if ref is not None and meta.get("grouping") == "reference":
            view["field"] = ref.field()
        elif ref is not None:
            layer = self.layer_header()
            if layer is not None:
                view["layer"] = _layer_view(layer)
        return view

    def point_pages(self, page: int = 50_000):
        """(rowid, paper id, x, y, broad, fine, outlier, layer broad, layer fine) rows, a page at a time."""
        layer = None if self.header["meta"].get("grouping") == "reference" else self.layer_scope
        return self.store.maps.point_pages(self.scope, self.model, layer, page)

    def cards(self, rowids: list[int]) -> dict[int, tuple[str, str, str]]:
        """rowid -> (paper id, shown title, name) for points of this map."""
        out = {}
        for rowid, (pid, title, display_title, name, abstract) in self.store.maps.point_rows(
            self.scope, self.model, rowids
        ).items():
            row = {"title": title, "display_title": display_title, "abstract": abstract}
            out[rowid] = (pid, shown_title(row), name or "")
        return out

    def places(self, ids: list[str]) -> dict[str, tuple[int, int, int]]:
        """paper id -> (broad, fine, outlier) for the given papers on this map."""
        return self.store.maps.places(self.scope, self.model, ids)

    def paper_ids(self, rowids: list[int]) -> list[str]:
        return self.store.maps.paper_ids(rowids)

    def title_matches(self, text: str, limit: int) -> list[int]:
        """The rows (`paper_topics` rowids) of this map's papers whose titles hold every
        word of `text` (a word's prefix, as search's index stems it), at most `limit`."""
        match = title_match_expression(text)
        return self.store.maps.title_matches(self.scope, self.model, match, limit) if match else []


def title_match_expression(text: str) -> str:
    """An FTS5 expression for the title column: every word of `text` as a quoted prefix
    (the user's text never reaches FTS5 as syntax); "" when it has no word."""
    words = re.findall(r"\w+", text.lower())[:MATCH_WORDS]
    return " AND ".join(f'title : "{w}"*' for w in words)


def map_reader(store, scope: str) -> MapReader | None:
    """A reader of the map stored for `scope` (its newest model); None if there is none."""
    header = store.maps.header(scope)
    return MapReader(store, header) if header is not None else None
