"""The topics of a map a person asks for by one word: `mine` (the topics they follow and the
broad topics of the papers they liked) or a topic's label; and the papers in them.

What `paperatlas ls --topic`, `paperatlas digest --topic` and the web's `/papers?topic=mine`
share: the web passes the map reader it holds (so the topics are those of the map it shows),
the CLI lets this module read the newest map of the list (else of all papers)."""

from __future__ import annotations

from dataclasses import dataclass

from paperatlas.atlas.view import MapReader, map_reader
from paperatlas.errors import PaperatlasError
from paperatlas.likes import liked_ids
from paperatlas.report.follows import ALL_SCOPE, follows
from paperatlas.store import Store

MINE = "mine"  # the word that asks for a person's own topics


@dataclass(frozen=True)
class ChosenTopics:
    """The topics `topic` named on one map: `scope` the map's ('*': all papers), `topics`
    (level, topic id) pairs (level 0 broad, 1 fine), `paper_ids` the papers in them (in no
    order; None unless asked for)."""

    topic: str
    scope: str
    topics: frozenset[tuple[int, int]]
    paper_ids: tuple[str, ...] | None = None


def choose_topics(
    store: Store,
    topic: str,
    list_name: str | None = None,
    reader: MapReader | None = None,
    papers: bool = False,
) -> ChosenTopics:
    """The topics `topic` names (`mine`, or a broad or fine topic's label, case ignored) on
    `reader`'s map, else on the newest map of `list_name`, else of all papers. An unknown
    label, or no map, is a PaperatlasError (an unknown label's names the map's broad topics)."""
    topic = " ".join(str(topic).split())
    if reader is None and list_name:
        reader = map_reader(store, list_name)
    if reader is None:  # a list holding every paper has the map of all papers (`open`, `map`)
        reader = map_reader(store, ALL_SCOPE)
    if reader is None:
        where = f"list {list_name!r}" if list_name else "all papers"
        raise PaperatlasError(f"no map of {where} to find topic {topic!r} on: run `paperatlas map` first")
    rows = reader.header["topics"]
    if topic.casefold() == MINE:
        chosen = _mine(store, reader)
    else:
        chosen = {(t["level"], t["topic_id"]) for t in rows if t["label"].casefold() == topic.casefold()}
        if not chosen:
            broad = sorted(t["label"] for t in rows if t["level"] == 0)
            raise PaperatlasError(f"no topic {topic!r} on the map (broad topics: {'; '.join(broad)})")
    ids = None
    if papers:
        found: set[str] = set()
        for level, topic_id in chosen:
            found.update(store.follows.topic_paper_ids(reader.scope, level, topic_id))
        ids = tuple(found)
    return ChosenTopics(topic, reader.scope, frozenset(chosen), ids)


def _mine(store: Store, reader: MapReader) -> set[tuple[int, int]]:
    """The followed topics of this map's list (found by their label first: a map built
    again numbers its topics anew) and the broad topic of each liked paper on it."""
    known = {(t["level"], t["topic_id"]) for t in reader.header["topics"]}
    by_label = {(t["level"], t["label"]): t["topic_id"] for t in reader.header["topics"]}
    chosen = set()
    for follow in follows(store):
        if follow.kind != "topic" or (follow.list_name or ALL_SCOPE) != reader.scope:
            continue
        topic_id = by_label.get((follow.level, follow.value), follow.topic_id)
        if topic_id is not None and (follow.level, int(topic_id)) in known:
            chosen.add((follow.level, int(topic_id)))
    places = reader.places(sorted(liked_ids(store)))
    chosen |= {(0, broad) for broad, _, _ in places.values() if (0, broad) in known}
    return chosen
