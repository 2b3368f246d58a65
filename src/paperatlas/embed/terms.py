"""The static model's terms of a text without importing scikit-learn.

The shipped term tables are keyed by the tokens of `paperatlas.text.tfidf_vectorizer` (lower
case, accents stripped, WORD_PATTERN, scikit-learn's English stopwords out, then word pairs of
what is left). Importing scikit-learn for that costs ~1.5 s of a fresh process (it pulls in
scipy.stats), ten times the rest of placing a short list, so the same steps are done here
with `re`; tests/test_static_terms.py checks the tokens equal scikit-learn's on real abstracts.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from paperatlas.text import WORD_PATTERN


@lru_cache(maxsize=1)
def english_stopwords() -> frozenset[str]:
    """scikit-learn's English stopword list, read (as data, not run) from its own module file
    without importing the scikit-learn package, whose __init__ is the slow part; the package
    import if that file has moved or changed shape."""
    spec = importlib.util.find_spec("sklearn")  # finds, does not import
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location) / "feature_extraction" / "_stop_words.py"
        if path.exists():
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                # ENGLISH_STOP_WORDS = frozenset([...])
                if (
                    isinstance(node, ast.Assign)
                    and [getattr(t, "id", None) for t in node.targets] == ["ENGLISH_STOP_WORDS"]
                    and isinstance(node.value, ast.Call)
                    and len(node.value.args) == 1
                ):
                    return frozenset(ast.literal_eval(node.value.args[0]))
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return ENGLISH_STOP_WORDS


def strip_accents(text: str) -> str:
    """Accented letters to their base letter (scikit-learn's strip_accents='unicode')."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def term_analyzer(ngram_max: int = 2, stop_words: frozenset[str] | None = None) -> Callable[[str], list[str]]:
    """text -> its words, then its runs of 2..ngram_max consecutive words (after stopwords
    are dropped, as scikit-learn does), in scikit-learn's order."""
    findall = re.compile(WORD_PATTERN).findall
    stop = english_stopwords() if stop_words is None else stop_words

    def analyze(text: str) -> list[str]:
        words = [w for w in findall(strip_accents(text.lower())) if w not in stop]
        terms = list(words)
        for n in range(2, min(ngram_max, len(words)) + 1):
            terms.extend(" ".join(words[i : i + n]) for i in range(len(words) - n + 1))
        return terms

    return analyze
