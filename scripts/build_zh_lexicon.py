"""Build models/zh-lexicon-v1.tsv: each English word of the field, its Chinese candidates
and how close the multilingual model puts them.

    .venv/bin/python scripts/build_zh_lexicon.py [--data ../shared/data/iclr2026.jsonl.gz]

The English words are the words (lower case, letters only, stopwords left out) of the
titles and abstracts of at least MIN_PAPERS papers of the ICLR 2026 training split
(`is_held_out` keeps the other fifth out), and every word of the shipped glossary's English. A word's candidates are the
CC-CEDICT headwords whose senses give it (read in reverse, `search/zh_senses.senses`) and
the Chinese words the multilingual model (use-multilingual) puts nearest to it among
jieba's most frequent words; each is written with that model's cosine, whether the
dictionary gives it, and how close the model puts it to the field (the cosine with the mean
vector of the glossary's Chinese terms: 噪声 over 噪音, 最优 over 最佳). Nothing here reads a Chinese rendering written by hand: which
candidate a term uses is decided at run time (`zh_terms`), from these numbers.

A third source is the field's own terms (the glossary and the term tables of
`search/zh_terminology.py`), aligned word by word: the Chinese run that most of the terms
holding an English word share ("inference": 推理时, 推理加速, 成员推理 -> 推理), when two or
more terms hold the word.

Line format: word<TAB>chinese cosine flags field<TAB>..., flags the sources that give the
candidate (d: the dictionary, m: the model's nearest words, g: the field's terms aligned),
best cosine first.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from iclr_data import DEFAULT_DATA, load_rows, real_abstract  # noqa: E402
from paperatlas.embed import get_backend  # noqa: E402
from paperatlas.enrich.areas import is_held_out  # noqa: E402
from paperatlas.search import zh_senses, zh_terminology, zh_terms  # noqa: E402
from paperatlas.search.glossary import terms as glossary_terms  # noqa: E402
from paperatlas.text import STOPWORDS  # noqa: E402

OUT = ROOT / "src/paperatlas/models" / zh_terms.LEXICON_FILE
MIN_PAPERS = 5
MAX_CANDIDATES = 8  # a word's candidates written, closest first
CHINESE_WORDS = 60_000  # jieba's most frequent words of two characters or more
CHINESE_CHARACTERS = 3_000  # and its most frequent single characters (图, 流, 层)
NEIGHBOURS = 6  # the model's nearest Chinese words kept per English word
MIN_COSINE = 0.5  # a neighbour less close than this is noise
_WORD = re.compile(r"[a-z]+")


def english_words(data: Path) -> list[str]:
    papers: Counter[str] = Counter()
    for row in load_rows(data):
        if not real_abstract(row) or is_held_out(row.get("id", "")):
            continue
        papers.update(set(_WORD.findall(f"{row.get('title') or ''} {row['abstract']}".lower())))
    words = {w for w, n in papers.items() if n >= MIN_PAPERS and len(w) > 2 and w not in STOPWORDS}
    words |= {w for en in glossary_terms().values() for w in _WORD.findall(en.lower())}
    words |= {w for en, _ in zh_terminology.table() for w in _WORD.findall(en)}
    return sorted(words)


def chinese_words() -> list[str]:
    frequency = zh_senses.jieba_frequency()
    chinese = [w for w in frequency if zh_terms.is_chinese(w) and all(zh_terms.is_chinese(c) for c in w)]
    chinese.sort(key=lambda w: -frequency[w])
    long = [w for w in chinese if len(w) > 1][:CHINESE_WORDS]
    single = [w for w in chinese if len(w) == 1][:CHINESE_CHARACTERS]
    return long + single


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    started = time.time()
    model = get_backend("use-multilingual")
    english = english_words(args.data)
    chinese = chinese_words()
    print(f"{len(english)} English words, {len(chinese)} Chinese words ({time.time() - started:.0f}s)")
    zh_vectors = np.asarray(model.encode(chinese), dtype=np.float32)
    en_vectors = np.asarray(model.encode(english), dtype=np.float32)
    senses = {w: [s.chinese for s in zh_senses.senses([w])] for w in english}
    aligned = {w: run for w in english if (run := zh_terminology.aligned(w))}
    print(f"{len(aligned)} words aligned in the field's terms")
    extra = sorted(({zh for found in senses.values() for zh in found} | set(aligned.values())) - set(chinese))
    index = {zh: i for i, zh in enumerate(chinese + extra)}
    all_vectors = np.vstack(
        [zh_vectors, np.asarray(model.encode(extra), dtype=np.float32).reshape(-1, zh_vectors.shape[1])]
    )
    field = np.asarray(model.encode(list(glossary_terms())), dtype=np.float32).mean(axis=0)
    field /= np.linalg.norm(field)
    print(f"embedded ({time.time() - started:.0f}s)")
    lines = []
    for start in range(0, len(english), 512):
        block = en_vectors[start : start + 512] @ zh_vectors.T
        for row, word, vector in zip(block, english[start : start + 512], en_vectors[start : start + 512]):
            flags: dict[str, str] = {}
            for i in np.argsort(-row)[:NEIGHBOURS]:
                if row[i] >= MIN_COSINE:
                    flags[chinese[i]] = "m"
            for zh in senses[word]:
                flags[zh] = flags.get(zh, "") + "d"
            if word in aligned:
                flags[aligned[word]] = flags.get(aligned[word], "") + "g"
            found = {
                zh: (float(all_vectors[index[zh]] @ vector), flag, float(all_vectors[index[zh]] @ field))
                for zh, flag in flags.items()
            }
            ranked = sorted(found.items(), key=lambda kv: ("g" not in kv[1][1], -kv[1][0]))[:MAX_CANDIDATES]
            if ranked:
                lines.append(
                    word + "".join(f"\t{zh} {cos:.2f} {flag} {near:.2f}" for zh, (cos, flag, near) in ranked)
                )
    OUT.write_text(
        "# English word<TAB>Chinese candidate, use-multilingual cosine, sources (d CC-CEDICT, m the model's"
        " neighbours, g the field's terms aligned),"
        " cosine with the field\n"
        "# built by scripts/build_zh_lexicon.py\n" + "\n".join(lines) + "\n",
        encoding="utf-8",
    )
    print(f"{len(lines)} words -> {OUT} ({time.time() - started:.0f}s)")


if __name__ == "__main__":
    main()
