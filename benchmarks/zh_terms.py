"""Chinese renderings of the atlas's English keyphrases, against a hand-written test set.

    nice .venv/bin/python benchmarks/zh_terms.py            # accuracy, tuning half / test half / all
    nice .venv/bin/python benchmarks/zh_terms.py --draw     # print the drawn terms (how the set was made)

The test set (queries/zh_terms.tsv) was drawn before the translator was written:
enrich's keyphrases (`extract_keyphrases`, with the title, as `enrich` runs it) of every
paper of the ICLR 2026 file with a real abstract; every (paper, keyphrase) occurrence put in
one list in file order and shuffled with random.Random(SEED); the first 320 distinct
phrases (compared in lower case) kept, so a phrase is drawn as often as papers carry it.
Each was then given by hand its usual rendering in Chinese machine-learning writing
(several acceptable ones between '|'), or KEEP where Chinese writing keeps the English
(acronyms, model and method names, coined words), without running any translator.
"""

from __future__ import annotations

import argparse
import random
import sys

from iclr_data import load_rows, real_abstract
from paperatlas.enrich.keyphrases import extract_keyphrases
from paperatlas.enrich.text import clean

SEED = 36
SET_SIZE = 320


def draw(size: int = SET_SIZE, seed: int = SEED) -> list[str]:
    """The test set's English terms, as they were drawn."""
    occurrences = []
    for row in load_rows():
        if not real_abstract(row):
            continue
        title = row.get("title")
        occurrences += extract_keyphrases(clean(row["abstract"]), clean(title) if title else None)
    random.Random(seed).shuffle(occurrences)
    out: dict[str, str] = {}
    for phrase in occurrences:
        out.setdefault(phrase.lower(), phrase)
        if len(out) == size:
            break
    return list(out.values())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--draw", action="store_true", help="print the drawn terms, one a line")
    args = parser.parse_args()
    if args.draw:
        sys.stdout.write("".join(f"{t}\n" for t in draw()))


if __name__ == "__main__":
    main()
