"""Chinese eponyms (高斯噪声, 黎曼流形, 马尔可夫决策过程) translated by the learned lookup.

    nice .venv/bin/python benchmarks/zh_names.py [--db ATLAS]

Chinese writes a term named after a person with the bare name (高斯 "Gauss" for
"Gaussian"). benchmarks/queries/zh_eponyms.tsv lists 50 such phrases with the English
word that carries the name, written as a test list (search never reads it). Each phrase
whose word the atlas's vocabulary holds is translated with the glossary off
(search/translate.py `translate`, as a Chinese query is), and counts as right when that
word, by its light stem, is among the translation's words. Baseline in the same run: the
same lookup without the names' words (`translate(..., names=False)`: CC-CEDICT's senses and the multilingual model's nearest
terms only). Also printed: each phrase's terms in both runs.
"""

from __future__ import annotations

from pathlib import Path

from paperatlas.search import translate as X
from paperatlas.search import translate_vocabulary as V
from paperatlas.search.vectors import MULTILINGUAL_MODEL, query_backend
from search_common import vocabulary_atlas

EPONYMS = Path(__file__).parent / "queries" / "zh_eponyms.tsv"


def read_eponyms(path: Path = EPONYMS) -> list[tuple[str, str]]:
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    return [
        (zh.strip(), en.strip()) for zh, en in (r for r in rows if len(r) == 2 and not r[0].startswith("#"))
    ]


def translated_words(store, phrases: list[str], embed, names: bool = True) -> list[list[str]]:
    """Each phrase's English terms as a Chinese query gets them (glossary off; `names=False`:
    without the words made from names)."""
    out = []
    for phrase in phrases:
        found = X.translate(store, phrase, embed, names=names)
        out.append(list(found.terms) if found else [])
    return out


def names_word(terms: list[str], english: str) -> bool:
    want = V.term_key(english)
    return any(want in V.term_key(t).split() for t in terms)


def main() -> None:
    db, store, vocab = vocabulary_atlas(__doc__.splitlines()[0])
    words = {V.term_key(t) for t in vocab.terms if " " not in t}
    pairs = [(zh, en) for zh, en in read_eponyms() if V.term_key(en) in words]
    phrases = [zh for zh, _ in pairs]
    embed = query_backend(store, MULTILINGUAL_MODEL).embed
    with_names = translated_words(store, phrases, embed)
    without = translated_words(store, phrases, embed, names=False)
    right = sum(names_word(t, en) for t, (_, en) in zip(with_names, pairs))
    base = sum(names_word(t, en) for t, (_, en) in zip(without, pairs))
    print(f"{len(pairs)} of {len(read_eponyms())} eponymous phrases whose word the vocabulary of {db} holds")
    print(
        f"the name's word among the terms: {right} of {len(pairs)} with the names' words; baseline without: {base}"
    )
    for (zh, en), a, b in zip(pairs, with_names, without):
        mark = {(True, False): "+", (False, True): "-"}.get((names_word(a, en), names_word(b, en)), " ")
        print(f" {mark} {zh} [{en}]: {' '.join(b)} -> {' '.join(a)}")


if __name__ == "__main__":
    main()
