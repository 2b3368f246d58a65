"""What every page of one app shares: the atlas, the loaded map, the renderer and a few
counts kept between pages. One `WebContext` per app, on `app.state.web`; a handler
gets it with `context(request)`."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from fastapi import HTTPException, Request

from paperatlas.api import Atlas, web_reads
from paperatlas.filters import KINDS, STATES, Filters
from paperatlas.web.maps import MAP_CACHE_SECONDS, MapCache, map_identity, topics_of
from paperatlas.web.render import PageRenderer

T = TypeVar("T")
BIBTEX_ENTRIES = 4096  # papers' entries kept (~1 KB each)


@dataclass(frozen=True)
class FilterChoices:
    """What each select of the filter form offers. Hashable: the form is a kept piece
    (web/fragments.py) whose key holds this value as it is, where a dict of lists had to
    be copied into tuples on every page."""

    lists: tuple[str, ...]
    areas: tuple[str, ...]
    kinds: tuple[str, ...]
    decisions: tuple[str, ...]
    states: tuple[str, ...]


@dataclass
class WebContext:
    atlas: Atlas
    generation: Callable[[], object]  # changes whenever anyone commits to the store
    maps: MapCache
    render: PageRenderer = field(default_factory=PageRenderer)
    warm: threading.Event = field(default_factory=threading.Event)  # background preload done
    postings_seconds: float = 0.0  # CPU the last readying of the keyword postings took (refresh.py)
    _vocabulary: tuple[object, dict[str, set[str]]] | None = None
    _overviews: dict[str | None, tuple[float, object, dict[str, Any]]] = field(default_factory=dict)
    _map_views: dict[tuple[object, bool], tuple[object, bytes]] = field(default_factory=dict)
    _map_view_lock: threading.Lock = field(default_factory=threading.Lock)
    _lists: tuple[object, list[str]] | None = None
    _bibtex: dict[str, tuple[object, str]] = field(default_factory=dict)
    # list name -> (the counts and list names it was made from, the filter form's choices)
    _choices: dict[str | None, tuple[object, object, FilterChoices]] = field(default_factory=dict)
    _per_commit: dict[str, tuple[object, Any]] = field(default_factory=dict)

    def map_view_body(self, stored: dict[str, Any], chinese: bool, build: Callable[[], bytes]) -> bytes:
        """The whole map's JSON as /api/map sends it (`build()`), kept while the store and
        the map are unchanged: ~2 MB and a second or more to build at 15k papers, asked
        for on every visit of the map page. One builder at a time (the preload and the
        first visitor would otherwise both build it)."""
        key = (map_identity(stored), chinese)
        with self._map_view_lock:
            generation = self.generation()  # before building: a body is never older than its key
            hit = self._map_views.get(key)
            if hit is not None and hit[0] == generation:
                return hit[1]
            body = build()
            self._map_views = {k: v for k, v in self._map_views.items() if k[0] == key[0]}
            self._map_views[key] = (generation, body)
            return body

    def __post_init__(self) -> None:
        self.render.lists = self.list_names

    def list_names(self) -> list[str]:
        """The atlas's lists (the header's switcher), read again only after a commit."""
        version = self.generation()
        if self._lists is None or self._lists[0] != version:
            self._lists = (version, self.atlas.lists())
        return self._lists[1]

    def bibtex(self, paper_id: str) -> str:
        """A paper's BibTeX entry (`Atlas.bibtex`), kept until the next commit: writing it
        reads the paper, its note and tags again and escapes every field, on each view of
        its page."""
        version = self.generation()
        hit = self._bibtex.get(paper_id)
        if hit is not None and hit[0] == version:
            return hit[1]
        entry = self.atlas.bibtex(paper_id)
        if len(self._bibtex) >= BIBTEX_ENTRIES:  # the oldest goes (dicts keep insertion order)
            del self._bibtex[next(iter(self._bibtex))]
        self._bibtex[paper_id] = (version, entry)
        return entry

    def per_commit(self, name: str, read: Callable[[], T]) -> T:
        """`read()`, kept until the next commit: what a page asks of the whole atlas, not of
        one paper (the models `similar` misses, whether any model answer is stored)."""
        version = self.generation()
        hit = self._per_commit.get(name)
        if hit is not None and hit[0] == version:
            return cast(T, hit[1])
        value = read()
        self._per_commit[name] = (version, value)
        return value

    def has_model_answers(self) -> bool:
        """Whether any paper has a model's accepted answer (a page looks for none when not)."""
        return self.per_commit("has_llm_answers", lambda: web_reads.has_llm_answers(self.atlas))

    def vocabulary(self) -> dict[str, set[str]]:
        """The areas and decisions the store's papers have: what a filter may name."""
        version = self.generation()
        hit = self._vocabulary
        if hit and hit[0] == version:
            return hit[1]
        stats = self.atlas.stats(None)
        words = {
            "area": set(stats["by_area"]) - {"(unknown)"},
            "decision": set(stats["by_decision"]) - {"(unknown)"},
        }
        self._vocabulary = (version, words)
        return words

    def check_filters(self, filters: Filters) -> None:
        """400 for an area or decision no paper of the atlas has; 404 for a list that does
        not exist (the kind and state were checked as the filters were made)."""
        if filters.area and filters.area not in self.vocabulary()["area"]:
            raise HTTPException(400, "unknown area")
        decision = filters.decision
        if decision and not any(
            d.lower().startswith(decision.lower())  # a prefix filter:
            for d in self.vocabulary()["decision"]
        ):  # "Accept" (Oral, Poster)
            raise HTTPException(400, "unknown decision")
        if filters.list_name and filters.list_name not in self.list_names():
            raise HTTPException(404)

    def overview_counts(self, list_name: str | None) -> dict[str, Any]:
        """Counts by area, decision and kind: aggregate queries over every paper (no
        paper's row read into Python), seconds at 1M papers. Kept until the store has
        changed and they are MAP_CACHE_SECONDS old (a like is a change, too)."""
        hit = self._overviews.get(list_name)
        now = time.monotonic()
        if hit and (now - hit[0] < MAP_CACHE_SECONDS or hit[1] == self.generation()):
            return hit[2]
        generation = self.generation()
        kinds, with_code = web_reads.kind_counts(self.atlas, list_name)
        counts = {"stats": self.atlas.stats(list_name), "kinds": kinds, "with_code": with_code}
        self._overviews[list_name] = (now, generation, counts)
        return counts

    def filter_choices(self, list_name: str | None) -> FilterChoices:
        """What the filter form offers: the lists, and the areas and decisions of the
        list's papers (from the kept counts), every kind and state; the same value while
        the counts and the list names are the ones it was made from."""
        stats = self.overview_counts(list_name)["stats"]
        lists = self.list_names()
        hit = self._choices.get(list_name)
        if hit is not None and hit[0] is stats and hit[1] is lists:
            return hit[2]
        choices = FilterChoices(
            lists=tuple(lists),
            areas=tuple(a for a in stats["by_area"] if a != "(unknown)"),
            kinds=tuple(KINDS),
            decisions=tuple(d for d in stats["by_decision"] if d != "(unknown)"),
            states=tuple(STATES),
        )
        self._choices[list_name] = (stats, lists, choices)
        return choices

    def cards(self, rows: list[dict], stored: dict | None) -> list[dict]:
        """Paper rows as web/cards.py wants them (title or display title, topic, star,
        triage state and tags)."""
        liked = web_reads.liked_ids(self.atlas)
        kept = self.atlas.kept([r["id"] for r in rows])  # three queries for the page
        missing = [r["id"] for r in rows if r.get("facts") is None]
        fetched = web_reads.card_facts(self.atlas, missing) if missing else {}  # one query, not one each
        # a model's, where one was run
        summaries = (
            web_reads.llm_summaries(self.atlas, [r["id"] for r in rows]) if self.has_model_answers() else {}
        )
        topics = topics_of(stored, [r["id"] for r in rows])  # one query for the page
        out = []
        for r in rows:
            facts = r.get("facts")
            if facts is None:
                facts = fetched.get(r["id"], {})
            out.append(
                {
                    "id": r["id"],
                    "title": r.get("title"),
                    "display_title": r.get("display_title") or facts.get("display_title"),
                    "name": r.get("name") or facts.get("name"),
                    "kind": r.get("kind") or facts.get("kind"),
                    "area": r.get("area") or r.get("predicted_area"),
                    "decision": r.get("decision"),
                    "gist": facts.get("gist"),
                    "summary_zh": summaries.get(r["id"]),
                    "has_code": bool(r.get("has_code") or facts.get("has_code")),
                    "topic": topics.get(r["id"]),
                    "liked": r["id"] in liked,
                    "state": kept[r["id"]].state if r["id"] in kept else None,
                    "tags": kept[r["id"]].tags if r["id"] in kept else (),
                    "why": r.get("why"),
                    "in_note": r.get("in_note"),  # a search hit: the query's words in the person's note
                    "tagged": r.get("tagged"),
                    "snippet": r.get("snippet"),
                    "abstract": r.get("abstract"),  # the gist's stand-in where there is none
                    "title_only": title_only(r),
                }
            )
        return out

    def with_card_facts(self, rows: list[dict]) -> list[dict]:
        """The rows, each with its card's facts attached (one query for all)."""
        facts = web_reads.card_facts(self.atlas, [r["id"] for r in rows])
        for r in rows:
            r["facts"] = facts.get(r["id"], {})
        return rows


def title_only(row: dict[str, Any]) -> bool:
    """Whether a row's paper has no abstract: a search hit says so itself; a paper row
    holds its abstract."""
    if "title_only" in row:
        return bool(row["title_only"])
    return "abstract" in row and not (row["abstract"] or "").strip()


def context(request: Request) -> WebContext:
    """The shared state of the app that is answering this request."""
    return request.app.state.web
