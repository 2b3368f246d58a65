"""The Chinese headwords CC-CEDICT offers for an English word or phrase (its senses read in
reverse), and jieba's dictionary of words in use: the dictionary side of `zh_terms`."""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from paperatlas.search import dictionary
from paperatlas.search.glossary import terms as glossary_terms
from paperatlas.search.snippets import stem
from paperatlas.text import STOPWORDS

ADJECTIVE_TAGS = {"a", "an", "ad"}  # jieba's part-of-speech tags of adjectives
MAX_PHRASE_WORDS = 4
CJK = re.compile("[\u3400-\u9fff]")
_WORD = re.compile(r"[a-z]+")


def key(words: Sequence[str]) -> str:
    return " ".join(stem(w) for w in words)


@functools.cache
def jieba_dictionary() -> dict[str, tuple[int, str]]:
    """jieba's dictionary: word -> (frequency, part-of-speech tag); empty without jieba."""
    from importlib import resources

    out: dict[str, tuple[int, str]] = {}
    try:
        text = (resources.files("jieba") / "dict.txt").read_text(encoding="utf-8")
    except ModuleNotFoundError:
        return out
    for line in text.splitlines():
        parts = line.split(" ", 2)
        if len(parts) >= 2 and parts[1].isdigit():
            out[parts[0]] = (int(parts[1]), parts[2].strip() if len(parts) == 3 else "")
    return out


@functools.cache
def jieba_frequency() -> dict[str, int]:
    return {word: frequency for word, (frequency, _) in jieba_dictionary().items()}


@functools.cache
def jieba_adjectives() -> frozenset[str]:
    """The Chinese words jieba's dictionary tags as adjectives (大, 丰富, 安全)."""
    return frozenset(word for word, (_, tag) in jieba_dictionary().items() if tag in ADJECTIVE_TAGS)


@dataclass(frozen=True)
class Sense:
    """A Chinese headword offered for an English phrase."""

    chinese: str
    rank: int  # the sense's place among its entry's senses (0: first)
    exact: bool  # the sense is the phrase as written (not only the same stems)


@functools.cache
def reverse_dictionary() -> dict[str, list[tuple[str, str, int]]]:
    """Stem key of each English sense -> [(sense, simplified headword, place in entry)]."""
    out: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    for head in simplified_heads():
        for rank, sense in enumerate(dictionary.senses(head)):
            words = _WORD.findall(sense)
            if words and len(words) <= MAX_PHRASE_WORDS and not STOPWORDS.issuperset(words):
                out[key(words)].append((sense, head, rank))
    return dict(out)


def simplified_heads() -> list[str]:
    """The CC-CEDICT headwords jieba's dictionary also holds: words in use in simplified
    Chinese (the table holds both scripts; jieba's frequencies then rank them)."""
    frequency = jieba_frequency()
    return [h for h in dictionary.entries() if h in frequency]


@functools.cache
def glossary_exact() -> dict[str, str]:
    """Each English glossary term as written -> its first Chinese term (before stems:
    "robust" is 鲁棒, "robustness" 鲁棒性)."""
    out: dict[str, str] = {}
    for zh, en in glossary_terms().items():
        out.setdefault(en.lower(), zh)
    return out


def senses(words: Sequence[str]) -> list[Sense]:
    """The Chinese headwords CC-CEDICT gives for an English word or phrase."""
    written = " ".join(w.lower() for w in words)
    found: dict[str, Sense] = {}
    for sense, head, rank in reverse_dictionary().get(key([w.lower() for w in words]), ()):
        if not CJK.search(head):
            continue
        old = found.get(head)
        new = Sense(head, rank, sense == written)
        if old is None or (new.exact, -new.rank) > (old.exact, -old.rank):
            found[head] = new
    return list(found.values())
