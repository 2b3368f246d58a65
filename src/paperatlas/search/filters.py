"""The caller's filters (list, area, kind, decision, code) as the set of ids they allow,
and the paging every search checks."""

from __future__ import annotations

from typing import Any

from paperatlas.cache import StoreCache
from paperatlas.errors import SearchError

MAX_K = 1000

# Filtering scans the papers table (~20 ms at 15k), and users repeat their filters.
_ALLOWED = StoreCache(max_entries=32)


def filters_of(list_name, area, kind, decision, has_code) -> dict[str, Any]:
    """The filters a caller gave (None: not given)."""
    given = {"list_name": list_name, "area": area, "kind": kind, "decision": decision, "has_code": has_code}
    return {k: v for k, v in given.items() if v is not None}


def allowed_ids(store, filters: dict[str, Any]) -> frozenset[str] | None:
    """The ids that pass `filters` (None: no filter, every paper), kept per filter set
    until the store changes."""
    if not filters:
        return None
    return _ALLOWED.get(
        store,
        tuple(sorted(filters.items())),
        lambda: frozenset(p["id"] for p in store.iter_papers(id_only=True, **filters)),
    )


def check_paging(k: int, offset: int) -> None:
    if not isinstance(k, int) or k < 1 or k > MAX_K:
        raise SearchError(f"k must be between 1 and {MAX_K} (got {k})")
    if not isinstance(offset, int) or offset < 0:
        raise SearchError(f"offset must be 0 or more (got {offset})")
