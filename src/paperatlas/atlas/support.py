"""Whether a paper's own text supports a topic label: the label holds one of its content words.

Words are compared by stem (`search.snippets.stem`), hyphenated words also by their parts,
and an abbreviation also by the words it stands for ("GNNs" = graph neural network). A word
supports nothing when it says nothing about a topic: the `ignore` words the labeller gives
(function words, words of phrases too general to name a topic, the field's generic words)
and the words used by more than COMMON_SHARE of the papers the labels are for ("LLM" in
ICLR 2026), which every topic holds alike.

A topic's members whose text holds no content word of its label are the label's "other"
part: the map counts them, and the labeller extends a label that most members do not support.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from paperatlas.search.snippets import stem

# A word used by more than this share of the papers is in every topic: it supports none.
COMMON_SHARE = 0.25
# Words in Latin script: a paper in another script (Chinese) has none, and is not checked.
_WORD = re.compile(r"[a-z0-9][a-z0-9\-']*")


class LabelSupport:
    """Content-word stems of labels and papers: words are set aside as written (a plural
    by its singular), never by stem, so that ignoring "general" keeps "generation"."""

    def __init__(self, ignore: Iterable[str], expansions: dict[str, set[str]] | None = None):
        self.expansions = expansions or {}
        self.ignore = set(ignore)
        self.common: set[str] = set()  # stems every topic holds alike (PaperSupport.of)
        self._word_stems: dict[str, tuple[str, ...]] = {}  # abstracts repeat their words

    def _ignored(self, w: str) -> bool:
        if len(w) < 2 or w.isdigit() or w in self.ignore:
            return True
        return w.endswith("s") and (
            w[:-1] in self.ignore or (w.endswith("ies") and w[:-3] + "y" in self.ignore)
        )

    def stems(self, text: str) -> frozenset[str]:
        """The stems of a text's content words (a label, or a paper's title and abstract)."""
        out: set[str] = set()
        for raw in _WORD.findall((text or "").lower()):
            found = self._word_stems.get(raw)
            if found is None:
                found = self._word_stems[raw] = self._stems_of_word(raw)
            out.update(found)
        return frozenset(out - self.common) if self.common else frozenset(out)

    def _stems_of_word(self, raw: str) -> tuple[str, ...]:
        word = raw.strip("-'")
        pieces = [word, *word.split("-")] if "-" in word else [word]
        return tuple(
            stem(w)
            for piece in pieces
            for w in (piece, *self.expansions.get(piece, ()))
            if not self._ignored(w)
        )


@dataclass
class PaperSupport:
    """The content-word stems of each paper a map's labels are for, and the rule that made
    them (`LabelSupport`, also used on the labels)."""

    words: LabelSupport
    papers: list[frozenset[str]]
    _index: dict[str, list[int]] | None = field(default=None, init=False, repr=False)  # stem -> papers

    @classmethod
    def of(
        cls, texts: list[str], words: LabelSupport, common: Iterable[str] = (), share: float = COMMON_SHARE
    ) -> PaperSupport:
        """Stems of each text, less those more than `share` of the texts use (when there are
        enough texts, 50, to tell) and the `common` stems of their field: such a word is in
        every topic alike."""
        papers = [words.stems(t) for t in texts]
        words.common = set(common)
        if len(papers) >= 50:
            df: Counter[str] = Counter()
            for p in papers:
                df.update(p)
            words.common |= {w for w, c in df.items() if c > share * len(papers)}
        papers = [p - words.common for p in papers]
        return cls(words, papers)

    def label(self, text: str) -> frozenset[str]:
        return self.words.stems(text)

    def holding(self, stems: frozenset[str]) -> set[int]:
        """The papers (indices) whose text holds one of these stems."""
        if self._index is None:
            self._index = {}
            for i, p in enumerate(self.papers):
                for w in p:
                    self._index.setdefault(w, []).append(i)
        index = self._index
        return set().union(*(index.get(w, ()) for w in stems))

    def other(self, label: frozenset[str], members: Iterable[int]) -> int:
        return other_count(self.papers, label, members)


def other_count(papers: list[frozenset[str]], label: frozenset[str], members: Iterable[int]) -> int:
    """How many of a topic's members (those with words to check) do not support its label."""
    return sum(1 for i in members if papers[i] and not papers[i] & label)
