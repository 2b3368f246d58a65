"""What the web app's pages and server read of an atlas that a library user has no call
for: the commit counter its caches key on, a stored map read a piece at a time, the facts
a card shows, a paper page's similar papers, what a server loads before its first query,
and the Chinese glosses of the zh pages. Functions of an `Atlas`: web/ reaches the
library only through api and results."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from paperatlas.errors import PaperatlasError

if TYPE_CHECKING:
    from paperatlas.api.front import Atlas
    from paperatlas.atlas.view import MapReader
    from paperatlas.filters import Filters
    from paperatlas.recommend import Recommendations
    from paperatlas.store import StoreGeneration


def generation(atlas: Atlas) -> StoreGeneration:
    """A commit counter every thread shares (`.current()`), to key caches of derived pages on."""
    return atlas.store.generation()


def map_reader(atlas: Atlas, scope: str) -> MapReader | None:
    """The map stored for a list ('*': all papers) read a piece at a time (header and
    topics, points by page, a few points' cards): what a server of a 1M-paper map reads."""
    from paperatlas.atlas.view import map_reader

    return map_reader(atlas.store, scope)


def card_facts(atlas: Atlas, ids: list[str]) -> dict[str, dict[str, Any]]:
    """Per id, the facts a paper's card shows (name, kind, has_code, display_title, gist)."""
    return atlas.store.facts.for_cards(ids)


def collection_members(atlas: Atlas, collection: str = "likes") -> list[str]:
    """The ids of the papers liked in a collection, most recently liked first."""
    from paperatlas.likes import liked_ids

    return list(reversed(liked_ids(atlas.store, collection)))


def paper_ids(atlas: Atlas, filters: Filters, map_rows: Iterable[int]) -> list[str]:
    """The ids of the papers of these map rows (a topic as a server's map holds it) that
    `filters` let through, in list order (the list's, else the atlas's)."""
    return [p["id"] for p in atlas.store.papers.iter(filters, map_rows=map_rows, id_only=True)]


def schedule(atlas: Atlas, collection: str = "likes") -> tuple[bytes, int, int]:
    """`Atlas.write_schedule`'s iCalendar file as bytes (a download): (the file, events in
    it, papers saved or liked)."""
    from paperatlas.api import personal

    return personal.schedule(atlas.store, collection)


def llm_summaries(atlas: Atlas, ids: list[str]) -> dict[str, str]:
    """Per paper, the Chinese summary a model wrote and the checks accepted (none: absent)."""
    return {pid: a["output"] for pid, a in atlas.store.llm.accepted(ids, "summarize").items()}


def similar_papers(atlas: Atlas, paper: Mapping[str, Any], k: int = 10) -> list[dict[str, Any]]:
    """The k papers most like a stored paper (as `similar` ranks them), as rows."""
    from paperatlas.embed import embedding_text
    from paperatlas.search import similar_to_paper

    text = embedding_text(paper.get("title"), paper.get("abstract"))
    ranked = similar_to_paper(atlas.store, paper["id"], text, k)
    rows = {r["id"]: r for r in atlas.store.papers.iter(ids=[pid for pid, _ in ranked])}
    return [rows[pid] for pid, _ in ranked if pid in rows]


def similar_models_missing(atlas: Atlas) -> list[str]:
    """The models `similar` weighs that this atlas has no vectors of: what `paperatlas
    embed` would add to its likeness (empty when it holds them all)."""
    from paperatlas.search.similar_signals import missing_models

    return missing_models(atlas.store)


def preload(atlas: Atlas, similar: int | None = None) -> float:
    """Read now what a server's first queries would wait for (postings, Chinese terms),
    and with `similar`, every paper's `similar` most similar papers (what
    `similar_papers(atlas, paper, k=similar)` then looks up, while the vectors are unchanged).
    Returns the CPU seconds the postings took (`ready_postings`'s price)."""
    from contextlib import suppress

    from paperatlas.search import precompute_similar, search

    postings = ready_postings(atlas)
    with suppress(PaperatlasError):  # no vectors yet: no cross-lingual terms to load
        search(atlas.store, "预热", k=1)  # what a first Chinese query would load (seconds)
    if similar:
        precompute_similar(atlas.store, similar)
    return postings


def ready_postings(atlas: Atlas) -> float:
    """The keyword index's postings readied for the indexed text as it is now (the file
    beside the store for its current version, or in memory where none may be written):
    what `preload` does at the start, again after another process changed the text.
    Returns the CPU seconds it took this thread."""
    import time

    from paperatlas.search import keyword

    started = time.thread_time()
    keyword.preload(atlas.store)
    return time.thread_time() - started


def postings_read_seconds(atlas: Atlas) -> float:
    """CPU this process's searches have spent reading postings out of FTS5 since the
    indexed text last changed: what `ready_postings` would have saved them."""
    from paperatlas.search import keyword

    return keyword.fts_seconds(atlas.store)


def zh_map_labels(view: dict[str, Any]) -> dict[str, Any]:
    """A map view (`map_view`) with its topic labels as Chinese terms (`label_en`: the
    English), changed in place and returned."""
    from paperatlas.report.zh_card import localise_map_view

    return localise_map_view(view)


def zh_gloss(what: str, value: str | None) -> str | None:
    """`value` in Chinese: what is 'kind', 'area', 'decision', 'label' (a topic's) or
    'term' (any English term); None for no value."""
    from paperatlas.report import zh_card

    if not value:
        return None
    if what == "kind":
        return zh_card.KINDS.get(value, value)
    if what == "area":
        return zh_card.area_zh(value)
    if what == "decision":
        return zh_card.decision_zh(value)
    if what == "label":
        return zh_card.label_to_chinese(value)
    if what == "term":
        return zh_card.to_chinese(value)
    raise ValueError(f"unknown gloss {what!r}")


def kind_counts(atlas: Atlas, list_name: str | None = None) -> tuple[dict[str, int], int]:
    """Papers by kind of contribution ('(unknown)' without facts) and how many link their code."""
    return atlas.store.lists.kind_counts(list_name)


def new_counts(atlas: Atlas) -> dict[str, int]:
    """list -> how many of its papers are new since it was last seen (lists with none left out)."""
    seen = atlas.store.follows.list_seen()
    counts = {name: len(atlas.store.follows.list_new_ids(name, seen.get(name))) for name in atlas.lists()}
    return {name: n for name, n in counts.items() if n}


def has_llm_answers(atlas: Atlas) -> bool:
    """Whether a model's answer was accepted for any paper (`llm_answers` is empty for all when not)."""
    return atlas.store.llm.any_accepted()


def llm_answers(atlas: Atlas, paper_id: str) -> dict[str, dict[str, Any]]:
    """A paper's accepted answers by task ({"summarize": {"output", "model", "prompt"}})."""
    from paperatlas.llm import TASKS

    store = atlas.store
    return {
        task: found[paper_id] for task in TASKS if paper_id in (found := store.llm.accepted([paper_id], task))
    }


def liked_ids(atlas: Atlas, collection: str = "likes") -> set[str]:
    """The ids of the papers liked (not disliked) in a collection."""
    from paperatlas.likes import liked_ids

    return set(liked_ids(atlas.store, collection))


def zh_recommendations(picks: Recommendations) -> dict[str, Any]:
    """`recommend()`'s words in Chinese: {"reasons": {paper id: sentences}, "method": how
    they were ranked, "hints": what would make them better}; titles stay as they are."""
    from paperatlas.report import zh_reasons

    return {
        "reasons": {p.paper_id: zh_reasons.reasons_zh(p) for p in picks},
        "method": zh_reasons.method_zh(picks.method),
        "hints": zh_reasons.hints_zh(picks),
    }
