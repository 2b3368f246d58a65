"""What a digest shows, gathered from the store with no formatting: the papers as lines,
grouped by the topics of the list's stored map (built when missing), else by research
area; the overview counts; the map picture. `digest.py` hands it to a writer."""

from __future__ import annotations

import datetime as _dt
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from paperatlas.errors import PaperatlasError
from paperatlas.filters import ALL_PAPERS, Filters
from paperatlas.paper import shown_title
from paperatlas.report.links import paper_url
from paperatlas.report.mapplot import field_of, groups_png, topic_colour

MAX_NAMED = 15  # named contributions listed in the overview
MAX_CODE = 20  # papers with code listed in the overview
MAX_AREAS = 12
MAX_GROUPS = 15  # sections before small topics are folded into "other topics"
MIN_GROUP = 3


@dataclass
class PaperLine:
    id: str
    title: str
    name: str | None
    kind: str | None
    number: str | None  # the headline result with what it measures ("12.5% higher accuracy")
    url: str | None  # the paper's page (OpenReview forum where known)
    code_url: str | None
    area: str | None
    rating: float | None = None
    keyphrases: list[str] = field(default_factory=list)
    headline: dict[str, Any] | None = None  # the number shown, as enrich stored it
    has_title: bool = True  # the list gave a title (not one written from the abstract)

    @property
    def name_apart(self) -> str | None:
        """The name to show before the title, None when the title already holds it in any
        case ("FreqCa" in "FREQCA: ACCELERATING DIFFUSION ...")."""
        if not self.name or self.name.casefold() in self.title.casefold():
            return None
        return self.name


@dataclass
class Group:
    label: str
    papers: list[PaperLine]
    terms: list[str] = field(default_factory=list)
    also: list[str] = field(default_factory=list)  # fine topics inside, for context
    other: int | None = None  # papers whose own text does not support the label
    colour: str | None = None

    @property
    def size(self) -> int:
        return len(self.papers)


@dataclass
class DigestData:
    heading: str  # list / collection name shown in the title
    scope: str  # "list" | "collection" | "all" | "selection" (filtered, or a search's hits)
    papers: list[PaperLine]
    groups: list[Group]
    grouping: str  # "topics" | "areas"
    fallback_reason: str | None
    by_area: list[tuple[str | None, int]]
    by_kind: list[tuple[str | None, int]]
    named: list[PaperLine]
    with_code: list[PaperLine]
    map_png: bytes | None
    map_scope: str | None
    date: str
    map_field: str | None = None  # the reference drawn in grey under a short list
    # what narrowed the papers, as (what, value) pairs: a search, each filter, topics, new
    narrowed_by: list[tuple[str, str]] = field(default_factory=list)


def selected_ids(store, list_name: str | None, collection: str | None) -> list[str]:
    if list_name is not None and list_name not in store.lists.names():
        raise PaperatlasError(
            f"no list named {list_name!r} (lists: {', '.join(store.lists.names()) or 'none yet'})"
        )
    if collection is not None:
        from paperatlas.likes import liked_ids

        liked = liked_ids(store, collection)
        if not liked:
            known = ", ".join(sorted(store.marks.collections())) or "none yet"
            raise PaperatlasError(f"collection {collection!r} has no liked papers (collections: {known})")
        if list_name is None:
            return liked
        in_list = set(store.papers.ids(list_name))
        return [pid for pid in liked if pid in in_list]
    return store.papers.ids(list_name)


def paper_line(row: dict[str, Any], facts: dict[str, Any]) -> PaperLine:
    title = shown_title(row, facts)
    # the headline result with what it measures ("35% fewer steps than X"), never bare
    from paperatlas.enrich.numbers import describe, headline

    top = headline(facts.get("numbers") or [])
    number = describe(top) if top else None
    code = next(
        (
            link.get("url")
            for link in facts.get("links") or []
            if isinstance(link, dict) and link.get("type") == "code"
        ),
        None,
    )
    predicted = facts.get("predicted_area")
    if isinstance(predicted, dict):
        predicted = predicted.get("label")
    return PaperLine(
        id=row["id"],
        title=" ".join(str(title).split()),
        name=facts.get("name") or row.get("name"),
        kind=facts.get("kind") or row.get("kind"),
        number=number,
        url=paper_url(row),
        code_url=code,
        area=row.get("area") or predicted or row.get("predicted_area"),
        rating=row.get("rating"),
        keyphrases=list(facts.get("keyphrases") or []),
        headline=top,
        has_title=bool((row.get("title") or "").strip()),
    )


def _map_for(store, list_name: str | None, collection: str | None, ids: list[str], progress: bool = False):
    """(stored map covering `ids`, None) or (None, why not)."""
    from paperatlas.atlas import build_map, map_is_current

    scope_list: str | None
    if list_name is not None:
        scope_list = list_name
    elif collection is not None:
        # the smallest list holding every paper of the collection, else the whole store
        wanted = set(ids)
        covering = [
            (store.papers.count(name), name)
            for name in store.lists.names()
            if wanted <= set(store.papers.ids(name))
        ]
        scope_list = min(covering)[1] if covering else None
    else:
        scope_list = None
    # a list holding every paper has the map of all papers (`map`, `open`): reuse that
    # one when it is current instead of building the same papers' map again (minutes at
    # 15k papers), unless the list's own is the one stored
    if (
        scope_list is not None
        and store.papers.count(scope_list) == store.papers.count()
        and (map_is_current(store, None) or not map_is_current(store, scope_list))
    ):
        scope_list = None
    try:
        return build_map(store, list_name=scope_list, progress=progress), None
    except (PaperatlasError, ImportError) as exc:
        return None, str(exc).split("\n")[0]


def narrowed_ids(
    store, ids: list[str], filters: Filters, query: str | None, query_k: int, exact: bool = False
) -> list[str]:
    """`ids` narrowed to the papers `filters` let through, or to a search's `query_k` best
    hits among them (in rank order; `exact`: the query's words as typed, not corrected)."""
    if query is not None:
        from paperatlas.search import SearchConfig, search

        keep = set(ids)
        hits = search(store, query, k=query_k, filters=filters, config=SearchConfig(spelling=not exact)).hits
        return [h.id for h in hits if h.id in keep]
    if not filters.narrows():
        return ids
    keep = {p["id"] for p in store.papers.iter(filters, ids=ids, id_only=True)}
    return [pid for pid in ids if pid in keep]


def _in_section(store, ids: list[str], section: str, list_name: str | None) -> list[str]:
    """`ids` narrowed to the papers the list put under a heading holding `section` (case
    ignored); a PaperatlasError naming the headings when none of the list's papers is."""
    kept = {p["id"] for p in store.papers.iter(ids=ids, section=section, id_only=True)}
    if not kept and not store.papers.count_matching(Filters(list_name=list_name), section=section):
        headings = store.papers.sections(list_name)
        where = f"list {list_name!r}" if list_name else "any list"
        known = "; ".join(headings[:20]) + (" ..." if len(headings) > 20 else "") if headings else "none"
        raise PaperatlasError(
            f"no paper of {where} is under a section holding {section!r} (sections: {known})"
        )
    return [pid for pid in ids if pid in kept]


def _in_topics(store, ids: list[str], topic: str, list_name: str | None) -> list[str]:
    """`ids` narrowed to the papers of the map topics `topic` names (report/my_topics.py)."""
    from paperatlas.report.my_topics import choose_topics

    keep = set(choose_topics(store, topic, list_name, papers=True).paper_ids or ())
    return [pid for pid in ids if pid in keep]


def collect(
    store,
    list_name: str | None = None,
    collection: str | None = None,
    progress: bool = False,
    filters: Filters = ALL_PAPERS,
    query: str | None = None,
    query_k: int = 100,
    topic: str | None = None,
    new: bool = False,
    section: str | None = None,
    only: Iterable[str] | None = None,
    exact: bool = False,
) -> DigestData:
    list_name = list_name or filters.list_name
    section = " ".join(section.split()) if section else None
    ids = selected_ids(store, list_name, collection)
    selection = (
        query is not None
        or filters.but(list_name=None).narrows()
        or topic is not None
        or new
        or bool(section)
        or only is not None
    )
    if selection:
        ids = narrowed_ids(store, ids, filters.but(list_name=list_name), query, query_k, exact)
    if only is not None:  # the papers of a topic as the web's map holds them: `topic` only names it
        keep = set(only)
        ids = [pid for pid in ids if pid in keep]
    elif topic is not None:
        ids = _in_topics(store, ids, topic, list_name)
    if section:
        ids = _in_section(store, ids, section, list_name)
    if new:
        if list_name is None:
            raise PaperatlasError(
                "a digest of new papers needs a list: they are new to it since it was last seen"
            )
        fresh = set(store.follows.list_new_ids(list_name, store.follows.list_seen().get(list_name)))
        ids = [pid for pid in ids if pid in fresh]
    rows = {row["id"]: row for row in store.papers.iter(ids=ids)}
    facts = store.facts.get_many(ids)
    papers = [paper_line(rows[pid], facts.get(pid, {})) for pid in ids if pid in rows]
    described = [
        query or "",
        *(str(v) for k, v in filters.given().items() if k != "list_name"),
        section or "",
    ]
    heading = " · ".join(p for p in (collection or list_name or "", *described) if p)
    scope = "selection" if selection else "collection" if collection else ("list" if list_name else "all")

    groups: list[Group] = []
    map_png = map_scope = map_field = reason = None
    stored = None
    if papers:
        stored, reason = _map_for(store, list_name, collection, ids, progress)
    if stored is not None:
        groups = _groups_from_map(stored, papers)
        field = field_of(stored, store)
        map_png = groups_png(stored, groups, field=field)
        if field is not None:
            map_field = field["title"]
        # name the map's scope when the digest shows only part of it (grey dots are the rest)
        if len(stored["assignments"]) > len(papers):
            map_scope = stored["scope"]
    elif papers:
        groups = _groups_by_area(papers)
    by_area = Counter(p.area for p in papers)
    by_kind = Counter(p.kind for p in papers)
    named = sorted((p for p in papers if p.name), key=lambda p: -(p.rating or 0))[:MAX_NAMED]
    given = {k: ("yes" if v else "no") if isinstance(v, bool) else str(v) for k, v in filters.given().items()}
    narrowed_by = [(k, v) for k, v in given.items() if k != "list_name"]
    narrowed_by = [*([("query", query)] if query else []), *narrowed_by]
    narrowed_by += [*([("topic", topic)] if topic is not None else []), *([("new", "")] if new else [])]
    narrowed_by += [("section", section)] if section else []
    return DigestData(
        narrowed_by=narrowed_by,
        heading=heading,
        scope=scope,
        papers=papers,
        groups=groups,
        grouping="topics" if stored is not None else "areas",
        fallback_reason=reason,
        by_area=by_area.most_common(MAX_AREAS),
        by_kind=by_kind.most_common(),
        named=named,
        with_code=[p for p in papers if p.code_url],
        map_png=map_png,
        map_scope=map_scope,
        map_field=map_field,
        date=_dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d"),
    )


def _groups_from_map(stored: dict[str, Any], papers: list[PaperLine]) -> list[Group]:
    broad_of = {a["paper_id"]: a["broad"] for a in stored["assignments"]}
    fine_of = {a["paper_id"]: a["fine"] for a in stored["assignments"]}
    broad = {t["topic_id"]: t for t in stored["topics"] if t["level"] == 0}
    fine = {t["topic_id"]: t for t in stored["topics"] if t["level"] == 1}
    # a short list's paper whose text supports only its fine topic's label (or none) is
    # grouped under that label (or its topic's "other" part), not its broad topic's
    members: dict[tuple[int, str | None], list[PaperLine]] = {}
    unmapped: list[PaperLine] = []
    for p in papers:
        if p.id in broad_of:
            shown = (fine.get(fine_of[p.id]) or {}).get("data", {}).get("shown_broad")
            members.setdefault((broad_of[p.id], shown), []).append(p)
        else:
            unmapped.append(p)
    groups = []
    for (topic_id, shown), lines in sorted(
        members.items(), key=lambda kv: (-len(kv[1]), kv[0][0], kv[0][1] or "")
    ):
        topic = broad[topic_id]
        label = shown or topic["label"]
        fine_counts = Counter(fine_of[p.id] for p in lines)
        also = [
            fine[f]["label"] for f, _ in fine_counts.most_common(4) if f in fine and fine[f]["label"] != label
        ][:3]
        groups.append(
            Group(
                label=label,
                papers=lines,
                terms=list(topic["data"].get("terms", []))[:6] if shown is None else [],
                also=also,
                # the map's count is of the topic's papers: shown when the digest has them all
                other=topic["data"].get("other") if shown is None and len(lines) == topic["size"] else None,
            )
        )
    groups = _fold_small(groups)
    if unmapped:
        groups.append(Group(label="(not on the map)", papers=unmapped))
    for i, g in enumerate(groups):
        g.colour = topic_colour(i)  # the web map's colours
    return groups


def _fold_small(groups: list[Group]) -> list[Group]:
    """Past MAX_GROUPS sections, topics of fewer than MIN_GROUP papers share one section
    (a digest of 500 papers with ten one-paper sections reads badly)."""
    if len(groups) <= MAX_GROUPS:
        return groups
    kept = [g for i, g in enumerate(groups) if i < MAX_GROUPS and g.size >= MIN_GROUP]
    rest = [g for g in groups if g not in kept]
    if len(rest) < 2:
        return groups
    other = Group(
        label="(other topics)", papers=[p for g in rest for p in g.papers], also=[g.label for g in rest]
    )
    return [*kept, other]


def _groups_by_area(papers: list[PaperLine]) -> list[Group]:
    by_area: dict[str | None, list[PaperLine]] = {}
    for p in papers:
        by_area.setdefault(p.area, []).append(p)
    ordered = sorted(by_area.items(), key=lambda kv: (-len(kv[1]), kv[0] or "~"))
    groups = [Group(label=area or "(area unknown)", papers=lines) for area, lines in ordered]
    for i, g in enumerate(groups):
        g.colour = topic_colour(i)  # the web map's colours
    return groups
