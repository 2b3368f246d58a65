"""The shipped Chinese-English glossary (models/glossary_zh_en.tsv): a Chinese query
translated term by term, in the cut that covers most of it."""

from __future__ import annotations

import functools
import re
import unicodedata

from paperatlas.search.query import CJK_RUN, TERM


@functools.cache
def _glossary() -> dict[str, str]:
    from importlib import resources

    glossary: dict[str, str] = {}
    path = resources.files("paperatlas") / "models" / "glossary_zh_en.tsv"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#") and "\t" in line:
            zh, en = line.split("\t", 1)
            glossary[zh.strip()] = en.strip()
    return glossary


def terms() -> dict[str, str]:
    """The glossary: Chinese term -> its English, in file order."""
    return _glossary()


def _glossary_spans(piece: str) -> list[tuple[int, int, str]]:
    """(start, end, English) of the glossary's terms in a CJK run: the cut that covers the
    most characters, then the one with the fewest terms, then longest first from the left.
    (Longest match from the left alone cut 三维高斯泼溅 as 三维高斯 + 泼溅, losing "splatting"
    where 三维 + 高斯泼溅 covers it all.)"""
    glossary = _glossary()
    longest = max(map(len, glossary), default=0)
    n = len(piece)
    # best[i]: (characters covered, -terms) of the best cut of piece[i:], and its first step
    best: list[tuple[int, int]] = [(0, 0)] * (n + 1)
    step: list[int] = [0] * (n + 1)  # length of the term at i (0: skip a character)
    for i in range(n - 1, -1, -1):
        best[i], step[i] = (best[i + 1], 0)
        for size in range(min(longest, n - i), 1, -1):
            if piece[i : i + size] in glossary:
                covered, terms = best[i + size]
                candidate = (covered + size, terms - 1)
                if candidate > best[i]:
                    best[i], step[i] = candidate, size
    spans = []
    i = 0
    while i < n:
        if step[i]:
            spans.append((i, i + step[i], glossary[piece[i : i + step[i]]]))
            i += step[i]
        else:
            i += 1  # an unknown character: skip it
    return spans


def glossary_rest(text: str) -> str:
    """`text` with the Chinese terms the glossary knows cut out (a space in their place):
    the words left for the learned translation."""
    text = unicodedata.normalize("NFKC", text)
    out = []
    for piece in re.split(f"({CJK_RUN.pattern})", text):
        if not CJK_RUN.fullmatch(piece or "-"):
            out.append(piece)
            continue
        pos = 0
        for start, end, _ in _glossary_spans(piece):
            out.append(piece[pos:start] + " ")
            pos = end
        out.append(piece[pos:])
    return "".join(out)


def translate_query(text: str) -> str | None:
    """The query's CJK text translated term by term (longest glossary match first), with
    its Latin-script words kept; None when no term is known."""
    words: list[str] = []
    known = False
    for piece in re.split(f"({CJK_RUN.pattern})", unicodedata.normalize("NFKC", text)):
        if not piece:
            continue
        if not CJK_RUN.fullmatch(piece):
            words += TERM.findall(piece)
            continue
        for _, _, en in _glossary_spans(piece):
            words.append(en)
            known = True
    return " ".join(dict.fromkeys(words)) if known else None
