"""Likes and dislikes of papers in named collections ("likes" is the default one): the
marks a person sets, read back as each collection's liked and disliked ids. Recommendations,
digests and exports read collections through here."""

from __future__ import annotations

from collections.abc import Iterable

from paperatlas.errors import PaperatlasError
from paperatlas.filters import LIKES
from paperatlas.printable import name_error

DEFAULT_COLLECTION = LIKES


def resolve_ids(store, ids: Iterable[str]) -> list[str]:
    """Full ids for what a user typed (ids or unique prefixes); all-or-nothing."""
    wanted = [str(i).strip() for i in ids if str(i).strip()]
    if not wanted:
        raise PaperatlasError("no paper ids given")
    resolved, unknown = [], []
    for typed in wanted:
        full = store.papers.resolve_id(typed)
        if full is None:
            unknown.append(typed)
        elif full not in resolved:
            resolved.append(full)
    if unknown:
        raise PaperatlasError(
            f"unknown or ambiguous paper id{'s' if len(unknown) > 1 else ''}: "
            f"{', '.join(unknown)} (see `paperatlas ls` or `paperatlas search`)"
        )
    return resolved


def check_collection(collection: str) -> str:
    name = (collection or "").strip()
    if not name:
        raise PaperatlasError("a collection needs a name")
    if why := name_error(name, "a collection name"):
        raise PaperatlasError(why)
    return name


def mark(store, ids: Iterable[str], collection: str = DEFAULT_COLLECTION, value: int = 1) -> list[str]:
    """Like (value 1) or dislike (value -1) papers in a collection; returns their full ids.

    Marking again replaces the earlier mark (a dislike can become a like). Unknown ids
    raise PaperatlasError and nothing is written.
    """
    if value not in (1, -1):
        raise PaperatlasError(f"a mark is 1 (like) or -1 (dislike), not {value!r}")
    collection = check_collection(collection)
    full_ids = resolve_ids(store, ids)
    with store.transaction():
        for pid in full_ids:
            store.marks.set(collection, pid, value)
    return full_ids


def unmark(store, ids: Iterable[str], collection: str = DEFAULT_COLLECTION) -> list[str]:
    """Remove marks from a collection; returns the full ids that had one there."""
    collection = check_collection(collection)
    full_ids = resolve_ids(store, ids)
    removed = []
    with store.transaction():
        for pid in full_ids:
            if store.marks.remove(collection, pid):
                removed.append(pid)
    return removed


def liked_ids(store, collection: str = DEFAULT_COLLECTION) -> list[str]:
    """The papers liked (not disliked) in a collection, oldest mark first."""
    return collection_ids(store, collection)[0]


def collection_ids(store, collection: str = DEFAULT_COLLECTION) -> tuple[list[str], list[str]]:
    """(liked ids, disliked ids) of a collection, oldest mark first."""
    liked: list[str] = []
    disliked: list[str] = []
    for _, pid, value in store.marks.rows(collection):
        (liked if value > 0 else disliked).append(pid)
    return liked, disliked
