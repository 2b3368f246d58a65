"""The `topic` of a page's query string as the rows of the map a server holds: one broad
(`12`) or fine (`f40`) topic, or a person's own (`mine`: followed topics and those of liked
papers, as the library decides them: `Atlas.topics_named`, report/my_topics.py). What
`/papers` shows and what its downloads hold (with any paper filter: `&state=unread` is
"unread in my topics")."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException

from paperatlas.web.maps import member_rows
from paperatlas.web.params import parse_topic

MINE = "mine"  # the `topic` value of /papers that asks for them


def topic_rows(
    atlas, stored: dict[str, Any] | None, topic: str | None, list_name: str | None
) -> list[int] | None:
    """The `paper_topics` rows of the papers `topic` names on the map `stored` (None: no
    topic asked for; [] when there is no map). A value that names no topic is a 400."""
    if not topic:
        return None
    if topic == MINE:
        return my_topic_rows(atlas, stored, list_name) if stored is not None else []
    level_topic = parse_topic(topic)
    if level_topic is None:
        raise HTTPException(400, "topic must be a number, f and a number, or mine")
    return member_rows(stored, *level_topic) if stored is not None else None


def topic_label(stored: dict[str, Any] | None, topic: str | None) -> str | None:
    """How a digest names the page's topic: `mine`, or the topic's label on the map."""
    if not topic or topic == MINE:
        return topic or None
    level_topic = parse_topic(topic)
    shown = (stored or {}).get("by_topic", {}).get(level_topic) if level_topic else None
    return shown["label"] if shown else topic


def my_topic_rows(atlas, stored: dict[str, Any], list_name: str | None) -> list[int]:
    """The `paper_topics` rows of the papers in a person's topics: followed topics and the
    broad topics of liked papers, read from the map's rows this server keeps in memory."""
    chosen = atlas.topics_named(MINE, list_name, reader=stored["reader"])
    rows: set[int] = set()
    for level, topic_id in chosen.topics:
        rows.update(member_rows(stored, level, topic_id))
    return sorted(rows)
