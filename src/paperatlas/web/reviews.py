"""What a list says about a paper's reviews, for its page: each reviewer's score and their
spread (`extra.ratings`, and `extra.ratings_final` after the discussion where a list has
them, as the ICLR reader keeps them)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ReviewScores:
    scores: list[float]  # in the list's order (one per reviewer)
    low: float
    high: float
    mean: float

    @property
    def shown(self) -> list[str]:
        return [score_text(s) for s in self.scores]

    @property
    def range_text(self) -> str:
        return f"{score_text(self.low)}–{score_text(self.high)}"


def review_scores(extra: dict[str, Any], key: str = "ratings") -> ReviewScores | None:
    """The scores under `key`, or None when the list has none (a score that is not a finite
    number, e.g. "n/a" or a lone string, is left out)."""
    raw = extra.get(key)
    if not isinstance(raw, list):
        return None
    scores = [float(s) for s in raw if _number(s)]
    if not scores:
        return None
    return ReviewScores(scores, min(scores), max(scores), sum(scores) / len(scores))


def score_text(score: float) -> str:
    """6.0 -> "6", 5.5 -> "5.5": reviewers' scores are mostly whole numbers."""
    return str(int(score)) if score.is_integer() else f"{score:g}"


def _number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False
