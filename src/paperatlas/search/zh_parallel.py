"""The Chinese words that translations of the field's documentation put beside an English
word (`models/zh-parallel-v1.tsv`, built by scripts/build_zh_parallel.py from the Hugging
Face courses and the diffusers and smolagents documentation, TensorFlow's guides and the
Prompt Engineering Guide, each in English and in simplified Chinese): a word's field sense
that no dictionary gives it ("global" -> 全局, "heterogeneous" -> 异构), and the words the
translators leave in English ("tokenizer").
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from paperatlas.search.zh_terminology import plural_key

PARALLEL_FILE = "zh-parallel-v1.tsv"
MIN_DICE = 0.3  # a weaker association is a neighbour in the text, not a translation
KEPT_SHARE = 0.8  # the translators kept the word in English at least this often


@dataclass(frozen=True)
class Found:
    """What the parallel documents say of one English word."""

    pairs: int  # aligned block pairs whose English holds the word
    kept_share: float  # share of those writing it in lower case whose Chinese keeps it in English
    kept_spelling: str | None  # how the Chinese spells it then
    candidates: tuple[tuple[str, float, float, float], ...]  # (Chinese, Dice, model cosine, field cosine)


@functools.cache
def _table() -> dict[str, Found]:
    from importlib import resources

    out: dict[str, Found] = {}
    path = resources.files("paperatlas") / "models" / PARALLEL_FILE
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, pairs, share, spelling, *cells = line.split("\t")
            out[word] = Found(
                int(pairs),
                float(share),
                None if spelling == "-" else spelling,
                tuple(
                    (zh, float(dice), float(cos), float(near))
                    for zh, dice, cos, near in (cell.split(" ") for cell in cells)
                ),
            )
    return out


def lookup(word: str) -> Found | None:
    """The parallel documents' evidence for an English word, as written or in the singular
    ("embeddings" as "embedding"; "modeling" is not "model"), or None."""
    word = word.lower()
    return _table().get(word) or _table().get(plural_key([word]))


def candidates(word: str) -> list[tuple[str, float, float, float]]:
    """(Chinese, Dice, model cosine, field cosine) the translations give the word, strongest first."""
    found = lookup(word)
    return [c for c in found.candidates if c[1] >= MIN_DICE] if found else []


def kept_spelling(word: str) -> str | None:
    """How the translations spell a word they keep in English ("tokenizer"), or None; a
    plural is kept when it or its singular is ("tokenizers")."""
    word = word.lower()
    for form in dict.fromkeys((word, plural_key([word]))):
        found = _table().get(form)
        if found and found.kept_spelling and found.kept_share >= KEPT_SHARE:
            return found.kept_spelling
    return None
