"""Follows: a saved search, an author, a map topic; and the papers each one matches that
were added to the atlas since a time (the follow's own, or the last feed's).

A saved search follows the papers its words match (the keyword side of search, among the
papers its filters let through, to FOLLOW_DEPTH); an author is matched as lists write the
name, ignoring case, accents and spacing; a topic is its papers on the newest map of its
list."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from paperatlas.errors import PaperatlasError
from paperatlas.filters import ALL_PAPERS, FIELDS, Filters
from paperatlas.printable import name_error
from paperatlas.search import search
from paperatlas.store import Store

FOLLOW_DEPTH = 100  # best keyword matches of a saved search looked at for new papers
ALL_SCOPE = "*"  # a map of every paper, as maps are stored


@dataclass(frozen=True)
class Follow:
    """Something a person follows: `kind` search | author | topic; `value` the query, the
    name or the topic's label; `filters` a search's filters; `list_name`, `level`,
    `topic_id` where a topic sat when followed (a map built again is searched for its label first); `created_at`/`fed_at` UTC times as the store writes them."""

    id: int
    kind: str
    value: str
    created_at: str
    fed_at: str | None = None
    filters: Filters = ALL_PAPERS
    list_name: str | None = None
    level: int = 0
    topic_id: int | None = None

    @property
    def title(self) -> str:
        """How the follow is named to a person."""
        if self.kind == "search":
            given = ", ".join(f"{k}={v}" for k, v in self.filters.given().items())
            return f"search: {self.value}" + (f" ({given})" if given else "")
        if self.kind == "author":
            return f"author: {self.value}"
        return f"topic: {self.value}" + (f" (list {self.list_name})" if self.list_name else "")


@dataclass(frozen=True)
class FollowedPaper:
    """A paper a follow matched: its stored row, when it was added, and the follows that matched it."""

    paper: dict[str, Any]
    added_at: str
    follows: tuple[Follow, ...]
    gist: str | None = None


def follow_of_row(row: dict[str, Any]) -> Follow:
    detail = row["detail"]
    return Follow(
        id=row["id"],
        kind=row["kind"],
        value=row["value"],
        created_at=row["created_at"],
        fed_at=row["fed_at"],
        filters=Filters(**{k: v for k, v in detail.get("filters", {}).items() if k in FIELDS}),
        list_name=detail.get("list"),
        level=int(detail.get("level", 0)),
        topic_id=detail.get("topic"),
    )


def add_search(store: Store, query: str, filters: Filters) -> tuple[Follow, bool]:
    query = " ".join(query.split())
    if not query:
        raise PaperatlasError("a saved search needs words to search for")
    if why := name_error(query, "a saved search"):
        raise PaperatlasError(why)
    return _add(store, "search", query, {"filters": filters.given()} if filters.narrows() else {})


def add_author(store: Store, name: str) -> tuple[Follow, bool]:
    name = " ".join(name.split())
    if not person_key(name):
        raise PaperatlasError("an author to follow needs a name")
    if why := name_error(name, "an author's name"):
        raise PaperatlasError(why)
    return _add(store, "author", name, {})


def add_topic(store: Store, list_name: str | None, level: int, topic_id: int) -> tuple[Follow, bool]:
    """Follow a topic of the newest map stored for a list (None: the map of all papers)."""
    label = store.follows.topic_label(list_name or ALL_SCOPE, level, topic_id)
    if label is None:
        where = f"list {list_name!r}" if list_name else "the map of all papers"
        raise PaperatlasError(f"no topic {level}:{topic_id} on {where} (see `paperatlas map`)")
    detail = (
        {"list": list_name, "level": level, "topic": topic_id}
        if list_name
        else {"level": level, "topic": topic_id}
    )
    return _add(store, "topic", label, detail)


def _add(store: Store, kind: str, value: str, detail: dict[str, Any]) -> tuple[Follow, bool]:
    store.require_writable("follow")
    with store.transaction(fill_keys=False):
        row, new = store.follows.add(kind, value, detail)
    return follow_of_row(row), new


def follows(store: Store) -> list[Follow]:
    return [follow_of_row(r) for r in store.follows.rows()]


def person_key(name: str) -> str:
    """A name as compared: accents dropped, case folded, space and punctuation as one space
    ("José  García-López" and "jose garcia lopez" are the same person)."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join("".join(c if c.isalnum() else " " for c in text).split())


def since_of(follow: Follow, after_last_feed: bool) -> tuple[str, bool]:
    """The time a follow's new papers are counted from, and whether a paper added in that
    very second counts (yes for the follow's own time: a list added with it is new to it;
    no after a feed, which held them already)."""
    if after_last_feed and follow.fed_at:
        return follow.fed_at, False
    return follow.created_at, True


def matched_ids(store: Store, follow: Follow, since: str, same_second: bool = True) -> list[str]:
    """The ids a follow matches among the papers added after `since` (or in its second)."""
    if follow.kind == "author":
        key = person_key(follow.value)
        return [
            pid
            for pid, authors, added in store.follows.papers_added_since(since)
            if (same_second or added > since) and _has_author(authors, key)
        ]
    if follow.kind == "topic":
        scope = follow.list_name or ALL_SCOPE
        # a map built again numbers its topics anew: the topic that still has the label is the one followed
        topic_id = store.follows.topic_by_label(scope, follow.level, follow.value)
        if topic_id is None:
            topic_id = follow.topic_id
        if topic_id is None:
            return []
        ids = store.follows.topic_paper_ids(scope, follow.level, int(topic_id))
    else:
        hits = search(store, follow.value, k=FOLLOW_DEPTH, filters=follow.filters, method="keyword").hits
        ids = [h.id for h in hits]
    added = store.follows.added_times(ids)
    return [pid for pid in ids if added.get(pid, "") > since or (same_second and added.get(pid) == since)]


def _has_author(authors: list[Any], key: str) -> bool:
    return any(isinstance(a, str) and person_key(a) == key for a in authors)


def followed_papers(
    store: Store, chosen: list[Follow], after_last_feed: bool = False, limit: int = 200
) -> list[FollowedPaper]:
    """The papers the chosen follows match, added since each follow was made (or since its
    last feed), newest first; each with every follow that matched it."""
    matched: dict[str, list[Follow]] = {}
    for follow in chosen:
        for pid in matched_ids(store, follow, *since_of(follow, after_last_feed)):
            matched.setdefault(pid, []).append(follow)
    added = store.follows.added_times(matched)
    order = sorted(matched, key=lambda pid: (added.get(pid, ""), pid), reverse=True)[:limit]
    rows = {row["id"]: row for row in store.papers.get_many(order)}
    return [
        FollowedPaper(rows[pid], added.get(pid, ""), tuple(matched[pid]), _gist(store, pid))
        for pid in order
        if pid in rows
    ]


def _gist(store: Store, paper_id: str) -> str | None:
    gist = (store.facts.get(paper_id) or {}).get("gist")
    return gist if isinstance(gist, str) and gist.strip() else None
