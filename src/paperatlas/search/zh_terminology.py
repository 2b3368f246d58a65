"""The field's own English -> Chinese terms: the shipped glossary (`models/glossary_zh_en.tsv`)
reversed and the published term tables in `models/zh-terminology-v1.tsv` (Google's Machine
Learning Glossary in Chinese, CC BY 4.0; d2l-zh's term table and the terms its chapters
introduce, Apache-2.0; the Chinese Stanford CS 229/230 cheatsheets' terms, MIT; the AI System
book's term table, Apache-2.0; built by scripts/build_zh_terminology.py), with the words that Chinese
ML writing keeps in English (`kept_spelling`: Transformer, Adam) and how often a Chinese
textbook of the field writes each Chinese word (`field_frequency`, models/zh-field-frequency-v1.tsv).

A term is found as written or by a plural-blind key ("graph neural networks" finds "graph
neural network"; "modeling" does not find "model": they are different terms in Chinese).
A single English word also gets the Chinese run that the terms holding it share
(`aligned`: "inference" in 推理时, 推理加速, 成员推理 -> 推理).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from paperatlas.search.glossary import terms as glossary_terms
from paperatlas.text import STOPWORDS

TERMINOLOGY_FILE = "zh-terminology-v1.tsv"
MIN_TERMS = 2  # terms that must hold a word before its Chinese run is trusted
MIN_DICE = 0.5  # how strictly a Chinese run and an English word must go together
MAX_RUN = 4  # characters of an aligned run
_WORD = re.compile(r"[a-z]+")


def plural_key(words: Sequence[str]) -> str:
    """Words compared without case or a plural ending ("networks" as "network")."""
    return " ".join(_singular(w.lower()) for w in words)


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("xes", "ches", "shes", "sses")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ics")):
        return word[:-1]
    return word


KEPT_SOURCE = "d2l-kept"  # a word the field's Chinese prose writes in English


@functools.cache
def _rows() -> list[tuple[str, str, str]]:
    """(English, Chinese, source) of the shipped term tables, in file order."""
    from importlib import resources

    path = resources.files("paperatlas") / "models" / TERMINOLOGY_FILE
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            english, chinese, source = line.split("\t")
            out.append((english, chinese, source))
    return out


@functools.cache
def _table() -> list[tuple[str, str]]:
    return [(en, zh) for en, zh, source in _rows() if source != KEPT_SOURCE]


@functools.cache
def _kept() -> dict[str, str]:
    return {_singular(en): written for en, written, source in _rows() if source == KEPT_SOURCE}


def kept_spelling(word: str) -> str | None:
    """How Chinese writing spells a word it keeps in English ("transformers" -> Transformer,
    "adam" -> Adam), or None: such a word is not translated, whatever a glossary says."""
    return _kept().get(_singular(word.lower()))


def table() -> list[tuple[str, str]]:
    """The published term tables' (English, Chinese) pairs, in file order (kept words aside)."""
    return _table()


@functools.cache
def _by_key() -> dict[str, str]:
    """Plural-blind key -> Chinese: the glossary first (it overrides), then the tables."""
    out: dict[str, str] = {}
    for zh, en in glossary_terms().items():
        out.setdefault(plural_key(en.split()), zh)
    for en, zh in _table():
        out.setdefault(plural_key(en.split()), zh)
    return out


def lookup(words: Sequence[str]) -> str | None:
    """The field's Chinese for an English term (its words), or None."""
    return _by_key().get(plural_key(words))


@functools.cache
def _aligned() -> dict[str, str]:
    """English word -> its Chinese run in the glossary's terms, else in the tables' (the
    glossary is this field's current usage: "inference" is 推理 there, 推断 in a textbook)."""
    glossary = [(en, zh) for zh, en in glossary_terms().items()]
    return {**_align(_distinct(glossary + _table())), **_align(glossary)}


def _distinct(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The first pair of each English term: a term two tables give is one piece of evidence
    for its words, not two ("artificial intelligence" in the glossary and a table would
    otherwise align "intelligence" with 人工智能)."""
    seen: set[str] = set()
    out = []
    for en, zh in pairs:
        key = plural_key(en.split())
        if key not in seen:
            seen.add(key)
            out.append((en, zh))
    return out


def _align(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """English word -> the Chinese run (one to MAX_RUN characters) that goes with it across
    the terms: the best Dice coefficient between the terms whose English holds the word and
    those whose Chinese holds the run (a run every term shares, such as 模型 in "large
    language model" and "language model", scores low for "large")."""
    holding: dict[str, set[int]] = {}
    runs_in: dict[str, set[int]] = {}
    for i, (en, zh) in enumerate(pairs):
        for word in {_singular(w) for w in _WORD.findall(en.lower())} - STOPWORDS:
            holding.setdefault(word, set()).add(i)
        for run in _runs(zh):
            runs_in.setdefault(run, set()).add(i)
    out = {}
    for word, found in holding.items():
        if len(found) < MIN_TERMS:
            continue
        candidates = {run for i in found for run in _runs(pairs[i][1])}
        dice, _, run = max(
            (2 * len(found & runs_in[r]) / (len(found) + len(runs_in[r])), len(r), r) for r in candidates
        )
        if dice >= MIN_DICE:
            out[word] = run
    return out


def _runs(chinese: str) -> set[str]:
    return {
        chinese[i : i + n]
        for n in range(1, MAX_RUN + 1)
        for i in range(len(chinese) - n + 1)
        if all("\u3400" <= c <= "\u9fff" for c in chinese[i : i + n])
    }


def aligned(word: str) -> str | None:
    """The Chinese run the field's terms holding `word` share, or None."""
    return _aligned().get(_singular(word.lower()))


FIELD_FREQUENCY_FILE = "zh-field-frequency-v1.tsv"


@functools.cache
def _field_frequency() -> dict[str, int]:
    from importlib import resources

    path = resources.files("paperatlas") / "models" / FIELD_FREQUENCY_FILE
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, count = line.split("\t")
            out[word] = int(count)
    return out


def field_frequency(chinese: str) -> int:
    """How often a Chinese word occurs in a Chinese textbook of the field (0: never, or
    not counted): which of a word's senses the field writes (全局, not 全球)."""
    return _field_frequency().get(chinese, 0)
