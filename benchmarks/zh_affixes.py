"""Prefixed Chinese technical words (过拟合, 自回归, 元学习) translated by the learned lookup.

    nice .venv/bin/python benchmarks/zh_affixes.py [--db ATLAS]

The shipped glossary (models/glossary_zh_en.tsv) pairs Chinese machine-learning words
with their English; the learned lookup (search/translate.py) never reads it. Its words of
three characters or more whose first character is one of AFFIXES' prefixes (超参数,
自监督, 多任务, ...) and whose English the atlas's vocabulary holds are looked up with
the glossary off, and the first learned term is compared with the glossary's English by
light stems ("hyperparameters" = "hyperparameter"; a term holding the glossary's words is
right too). Baseline in the same run: the same lookup with AFFIXES emptied (the
multilingual model's neighbours and CC-CEDICT's senses only). Also printed: each word
whose terms differ between the two.
"""

from __future__ import annotations

import numpy as np

from paperatlas.search import glossary
from paperatlas.search import translate as X
from paperatlas.search import translate_vocabulary as V
from paperatlas.search.vectors import MULTILINGUAL_MODEL, query_backend
from search_common import vocabulary_atlas


def first_terms(vocab: V.Vocabulary, words: list[str], embed) -> list[list[str]]:
    """Each word's chosen English terms, best first, as `translate` chooses them."""
    vectors = np.asarray(embed(words), dtype=np.float32)
    out = []
    for word, vector, (best, cos) in zip(words, vectors, X.nearest_terms(vocab, vectors, X.MODEL_CANDIDATES)):
        found = X.candidates(vocab, word, vector, best, cos, X.MIN_SIMILARITY)
        out.append([X.term_text(vocab, i) for i, _ in X.choose_terms(vocab, found)])
    return out


def is_right(terms: list[str], english: str) -> bool:
    want = V.term_key(english)
    return bool(terms) and (V.term_key(terms[0]) == want or want in V.term_key(terms[0]))


def main() -> None:
    db, store, vocab = vocabulary_atlas(__doc__.splitlines()[0])
    keys = set(vocab.by_key)
    pairs = [
        (zh, en)
        for zh, en in glossary._glossary().items()
        if len(zh) >= X.AFFIX_MIN_CHARS and zh[0] in V.AFFIXES and V.term_key(en) in keys
    ]
    words = [zh for zh, _ in pairs]
    embed = query_backend(store, MULTILINGUAL_MODEL).embed
    with_affixes = first_terms(vocab, words, embed)
    kept = dict(V.AFFIXES)
    V.AFFIXES.clear()
    try:
        without = first_terms(vocab, words, embed)
    finally:
        V.AFFIXES.update(kept)
    right = sum(is_right(t, en) for t, (_, en) in zip(with_affixes, pairs))
    base = sum(is_right(t, en) for t, (_, en) in zip(without, pairs))
    print(f"{len(pairs)} glossary words with a prefix first character, English in the vocabulary of {db}")
    print(f"first learned term right: {right} of {len(pairs)} with AFFIXES; baseline without: {base}")
    for (zh, en), a, b in zip(pairs, with_affixes, without):
        if a != b:
            print(f"  {zh} [{en}]: {b} -> {a}")


if __name__ == "__main__":
    main()
