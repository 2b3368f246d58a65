"""ICLR 2026 primary-area classifier (placeholder: split helper only; model lands next)."""

from __future__ import annotations

import hashlib


def is_held_out(paper_id: str) -> bool:
    """The fixed evaluation split: ~20% of papers, by a hash of their id. Nothing shipped in
    paperatlas/models/ is fit on these papers, so every benchmark figure is measured on them."""
    return int(hashlib.sha1(paper_id.encode("utf-8")).hexdigest()[:8], 16) % 5 == 0
