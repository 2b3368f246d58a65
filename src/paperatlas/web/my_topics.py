"""A person's own topics on the map a server holds (`/papers?topic=mine`, with any paper
filter: `&state=unread` is "unread in my topics"); which topics they are is decided by
the library (`Atlas.topics_named`, report/my_topics.py), on this map's reader."""

from __future__ import annotations

from typing import Any

from paperatlas.web.maps import member_rows

MINE = "mine"  # the `topic` value of /papers that asks for them


def my_topic_rows(atlas, stored: dict[str, Any], list_name: str | None) -> list[int]:
    """The `paper_topics` rows of the papers in a person's topics: followed topics and the
    broad topics of liked papers, read from the map's rows this server keeps in memory."""
    chosen = atlas.topics_named(MINE, list_name, reader=stored["reader"])
    rows: set[int] = set()
    for level, topic_id in chosen.topics:
        rows.update(member_rows(stored, level, topic_id))
    return sorted(rows)
