"""What a person follows (searches, authors, topics), as `Atlas` keeps it, and the papers
the follows matched: listed, or as an Atom feed (written to a file, the feed then
remembered so the next one starts after it)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from paperatlas.errors import PaperatlasError
from paperatlas.filters import Filters
from paperatlas.store import Store

if TYPE_CHECKING:
    from paperatlas.report.follows import Follow, FollowedPaper


def chosen_follows(store: Store, follow_id: int | None) -> list[Follow]:
    """Every follow, or the one `follow_id` names (PaperatlasError for an unknown id)."""
    from paperatlas.report.follows import follows

    every = follows(store)
    if follow_id is None:
        return every
    chosen = [f for f in every if f.id == follow_id]
    if not chosen:
        raise PaperatlasError(f"no follow {follow_id} (see `paperatlas follow ls`)")
    return chosen


def followed_papers(
    store: Store, follow_id: int | None, after_last_feed: bool, limit: int
) -> list[FollowedPaper]:
    from paperatlas.report.follows import followed_papers

    return followed_papers(store, chosen_follows(store, follow_id), after_last_feed, limit)


def feed(
    store: Store, follow_id: int | None, site_url: str | None, self_url: str | None, after_last_feed: bool
) -> tuple[str, int]:
    """The Atom feed's text and how many entries it holds."""
    return _feed(store, chosen_follows(store, follow_id), follow_id, site_url, self_url, after_last_feed)


def write_feed(store: Store, path: Path, follow_id: int | None, site_url: str | None) -> int:
    store.require_writable("write a feed")
    chosen = chosen_follows(store, follow_id)
    text, count = _feed(store, chosen, follow_id, site_url, None, after_last_feed=True)
    path.write_text(text, encoding="utf-8")
    with store.transaction(fill_keys=False):
        store.follows.set_fed(f.id for f in chosen)
    return count


def _feed(
    store: Store,
    chosen: list[Follow],
    follow_id: int | None,
    site_url: str | None,
    self_url: str | None,
    after_last_feed: bool,
) -> tuple[str, int]:
    from paperatlas.report.feed import feed_xml
    from paperatlas.report.follows import followed_papers

    entries = followed_papers(store, chosen, after_last_feed)
    title = chosen[0].title if follow_id is not None else "paperatlas: what I follow"
    feed_id = f"urn:paperatlas:feed:{follow_id}" if follow_id is not None else "urn:paperatlas:feed"
    updated = entries[0].added_at if entries else max((f.created_at for f in chosen), default="")
    text = feed_xml(entries, title, feed_id, updated, self_url=self_url, site_url=site_url)
    return text, len(entries)


def follow_search(store: Store, query: str, filters: Filters) -> tuple[Follow, bool]:
    from paperatlas.report.follows import add_search

    return add_search(store, query, filters)


def follow_author(store: Store, name: str) -> tuple[Follow, bool]:
    from paperatlas.report.follows import add_author

    return add_author(store, name)


def follow_topic(store: Store, topic_id: int, level: int, list_name: str | None) -> tuple[Follow, bool]:
    from paperatlas.report.follows import add_topic

    return add_topic(store, list_name, level, topic_id)


def follows(store: Store) -> list[Follow]:
    from paperatlas.report.follows import follows

    return follows(store)


def unfollow(store: Store, follow_id: int) -> bool:
    store.require_writable("unfollow")
    with store.transaction(fill_keys=False):
        return store.follows.remove(follow_id)
