"""A person's own topics on a loaded map: the topics they follow and those of the papers
they liked (`/papers?topic=mine`, with any paper filter: `&state=unread` is "unread in my
topics")."""

from __future__ import annotations

from typing import Any

from paperatlas.api import web_reads
from paperatlas.web.maps import member_rows

MINE = "mine"  # the `topic` value of /papers that asks for them


def my_topics(atlas, stored: dict[str, Any], list_name: str | None) -> set[tuple[int, int]]:
    """(level, topic id) of each followed topic of this list's map (found by its label
    first: a map built again numbers its topics anew) and the broad topic of each liked paper."""
    by_label = {(t["level"], t["label"]): t["topic_id"] for t in stored["topics"]}
    chosen = set()
    for follow in atlas.follows():
        if follow.kind != "topic" or (follow.list_name or None) != list_name:
            continue
        topic_id = by_label.get((follow.level, follow.value), follow.topic_id)
        if topic_id is not None and (follow.level, topic_id) in stored["by_topic"]:
            chosen.add((follow.level, int(topic_id)))
    places = stored["reader"].places(sorted(web_reads.liked_ids(atlas)))
    chosen |= {(0, broad) for broad, _, _ in places.values() if (0, broad) in stored["by_topic"]}
    return chosen


def my_topic_rows(atlas, stored: dict[str, Any], list_name: str | None) -> list[int]:
    """The `paper_topics` rows of the papers in a person's topics (`my_topics`)."""
    rows: set[int] = set()
    for level, topic_id in my_topics(atlas, stored, list_name):
        rows.update(member_rows(stored, level, topic_id))
    return sorted(rows)
