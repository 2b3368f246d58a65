"""`SearchConfig`: how a search ranks, passed explicitly. The default is what the product
ships; benchmarks and tuning scripts pass another one to measure a variant (the settings
before a change, a signal left out) instead of overwriting a module's constants."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SearchConfig:
    # overrides of fusion.FUSION's settings (weights, rrf_k, "learned", ...);
    # a setting FUSION does not have is a ValueError
    fusion: Mapping[str, Any] | None = None
    # a Chinese query: the shipped glossary's translation of the words it knows
    glossary: bool = True
    # a Chinese query: the atlas's own English terms nearest its words (translate.py)
    learned: bool = True
    # the glossary's words are not looked up among the learned terms too
    glossary_overrides: bool = True
    # the words asking for papers ("有哪些关于…的论文", "papers about …") left out first
    topic_framing: bool = True
    # traditional Chinese characters searched as simplified
    simplify: bool = True
    # misspelt English words searched as the atlas's nearest title words (spelling.py);
    # off: the query exactly as typed
    spelling: bool = True

    def fusion_overrides(self) -> dict[str, Any] | None:
        """The fusion overrides as the fusion functions take them (None: the shipped ones)."""
        return dict(self.fusion) if self.fusion is not None else None


SHIPPED = SearchConfig()
