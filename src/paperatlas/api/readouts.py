"""What `Atlas` reads and writes for a person to look at: pages of stored papers, one paper
with its lists, facts and topics, its facts one line each, its Chinese card, the topic map (built or reused, written as a picture or as HTML in a
language), and the references lists are placed on."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperatlas.cache import StoreCache
from paperatlas.errors import PaperatlasError
from paperatlas.filters import Filters
from paperatlas.results import FactRow, Map, PaperDetail, ReferenceInfo
from paperatlas.store import Store

if TYPE_CHECKING:
    from paperatlas.atlas import TopicLookup
    from paperatlas.report.my_topics import ChosenTopics
    from paperatlas.report.zh_card import ZhCard


def fact_rows(facts: dict[str, Any]) -> list[FactRow]:
    from paperatlas.enrich.areas import area_label, top3_text
    from paperatlas.enrich.numbers import describe

    rows: list[FactRow] = []

    def row(label: str, value: str | None) -> None:
        if value:
            rows.append(FactRow(label, value))

    names = facts.get("names") or []
    row("name", facts.get("name"))
    if len(names) > 1:
        row("also names", ", ".join(names[1:]))
    kind = facts.get("kind")
    if kind:
        secondary = facts.get("kinds") or []
        row("kind", kind + (f" (also: {', '.join(secondary)})" if secondary else ""))
    area = facts.get("predicted_area")
    if isinstance(area, dict) and area.get("label"):
        shown = area_label(area)  # "A or B" when the top two are a near-tie
        row("area (predicted)", shown if area.get("tie") else f"{shown} ({area.get('prob', 0):.0%})")
        row("area top 3", top3_text(area))
    row("gist", facts.get("gist"))
    numbers = [
        describe(n) + (" (setup)" if n.get("role") == "setup" else "") for n in facts.get("numbers") or []
    ]
    row("numbers", " · ".join(numbers))
    for link in facts.get("links") or []:
        row(link.get("type", "link"), link.get("url"))
    row("keyphrases", ", ".join(facts.get("keyphrases") or []))
    return rows


def references(store: Store) -> list[ReferenceInfo]:
    from paperatlas.atlas import reference

    current = reference.in_use_name(store)
    found = []
    for name in reference.names(store):
        ref = reference.load(store, name)
        if ref is not None:
            found.append(reference_info(ref, name == current))
    return found


def build_reference(store: Store, list_name: str, name: str | None, progress: bool) -> ReferenceInfo:
    from paperatlas.atlas import reference
    from paperatlas.atlas.reference_build import build_reference

    ref = build_reference(store, list_name, name=name or list_name, progress=progress)
    reference.save(store, ref)
    return reference_info(ref, True)


def reference_info(ref: Any, in_use: bool) -> ReferenceInfo:
    return ReferenceInfo(
        name=ref.name,
        title=ref.meta.get("title", ref.name),
        papers=len(ref.xy),
        broad_topics=len(ref.broad_labels),
        fine_topics=len(ref.fine_labels),
        model=ref.model,
        in_use=in_use,
    )


def write_map_html(store: Store, map_: Map, path: Path, lang: str) -> Path:
    from paperatlas.report.mapplot import write_html
    from paperatlas.report.zh_card import localise_map_view

    relabel: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    if lang == "zh":
        relabel = localise_map_view
    elif lang != "en":
        raise PaperatlasError(f"unknown map language {lang!r} (en or zh)")
    return Path(write_html(dict(map_), store, path, relabel=relabel))


def zh_card(paper: Mapping[str, Any], topic: str | None) -> ZhCard:
    from paperatlas.report.zh_card import card

    return card(dict(paper), dict(paper.get("facts") or {}), topic=topic)


def build_map(store: Store, list_name: str | None, model: str | None, force: bool, progress: bool) -> Map:
    from paperatlas.atlas import build_map

    return Map(**build_map(store, list_name=list_name, model=model, force=force, progress=progress))


def map_is_current(store: Store, list_name: str | None) -> bool:
    from paperatlas.atlas import map_is_current

    return bool(map_is_current(store, list_name))


def write_map_png(store: Store, map_: Map, path: Path) -> Path:
    from paperatlas.report.mapplot import write_png

    return Path(write_png(dict(map_), store, path))


def use_reference(store: Store, name: str) -> None:
    from paperatlas.atlas import reference

    reference.use(store, name)


def papers(
    store: Store,
    filters: Filters,
    text: str | None,
    section: str | None,
    sort: str | None,
    limit: int | None,
    offset: int,
    ids: Iterable[str] | None,
    map_rows: Iterable[int] | None,
) -> list[dict[str, Any]]:
    rows = store.papers.iter(
        filters, text=text, section=section, sort=sort, limit=limit, offset=offset, ids=ids, map_rows=map_rows
    )
    return list(rows)


def paper_detail(
    store: Store, paper_id: str, topic_lookup: Callable[[], TopicLookup] | None
) -> PaperDetail | None:
    """One paper with its lists and facts (and its topics from `topic_lookup`'s lookup)."""
    full = store.papers.resolve_id(paper_id)
    if full is None:
        return None
    record = store.papers.get(full)
    if record is None:  # deleted since resolve_id
        return None
    return PaperDetail(
        record,
        lists=store.lists.containing(full),
        facts=store.facts.get(full) or {},
        topics=topic_lookup()(full) if topic_lookup is not None else None,
    )


def topic_lookup(store: Store, cache: StoreCache) -> TopicLookup:
    from paperatlas.atlas import TopicLookup

    return cache.get(store, "topics", lambda: TopicLookup(store))


def topics_named(store: Store, topic: str, list_name: str | None, reader: Any, papers: bool) -> ChosenTopics:
    from paperatlas.report.my_topics import choose_topics

    return choose_topics(store, topic, list_name, reader, papers)
