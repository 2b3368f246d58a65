"""The caller's `Filters` as the set of ids they allow, and the paging every search checks."""

from __future__ import annotations

from paperatlas.cache import StoreCache
from paperatlas.errors import SearchError
from paperatlas.filters import Filters

MAX_K = 1000

# Filtering scans the papers table (~20 ms at 15k), and users repeat their filters.
_ALLOWED = StoreCache(max_entries=32)


def allowed_ids(store, filters: Filters) -> frozenset[str] | None:
    """The ids that pass `filters` (None: no filter, every paper), kept per filter set
    until the store changes (a new tag, state or like is a change)."""
    if not filters.narrows():
        return None
    return _ALLOWED.get(
        store,
        filters,
        lambda: frozenset(p["id"] for p in store.papers.iter(filters, id_only=True)),
    )


def check_paging(k: int, offset: int) -> None:
    if not isinstance(k, int) or k < 1 or k > MAX_K:
        raise SearchError(f"k must be between 1 and {MAX_K} (got {k})")
    if not isinstance(offset, int) or offset < 0:
        raise SearchError(f"offset must be 0 or more (got {offset})")
