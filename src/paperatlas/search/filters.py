"""The caller's `Filters` as the set of ids they allow, and the paging every search checks."""

from __future__ import annotations

from collections.abc import Hashable

from paperatlas.cache import StoreCache
from paperatlas.errors import SearchError
from paperatlas.filters import Filters
from paperatlas.store.generation import filtered_changes

MAX_K = 1000

# Filtering scans the papers table (~20 ms at 15k), and users repeat their filters. Kept
# by the counts of what a filter reads, so that a server's threads share each set: a
# thread's own change counter would make every other thread's first ask a rebuild.
_ALLOWED = StoreCache(max_entries=32)


def _version(store) -> Hashable:
    """Equal while every filter allows the same ids; on an older store (no counts) a new
    object each time: kept only while the asking thread's own counter is unchanged."""
    counts = filtered_changes(store)
    return object() if counts is None else counts


def allowed_ids(store, filters: Filters) -> frozenset[str] | None:
    """The ids that pass `filters` (None: no filter, every paper), kept per filter set
    until what a filter reads changes (a new paper, member, tag, state or like is a change)."""
    if not filters.narrows():
        return None
    return _ALLOWED.get(
        store,
        filters,
        lambda: frozenset(p["id"] for p in store.papers.iter(filters, id_only=True)),
        version=lambda: _version(store),
    )


def check_paging(k: int, offset: int) -> None:
    if not isinstance(k, int) or k < 1 or k > MAX_K:
        raise SearchError(f"k must be between 1 and {MAX_K} (got {k})")
    if not isinstance(offset, int) or offset < 0:
        raise SearchError(f"offset must be 0 or more (got {offset})")
