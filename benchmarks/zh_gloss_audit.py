"""What a Chinese reader sees: a fixed sample of the atlas's glosses, judged by hand.

    nice .venv/bin/python benchmarks/zh_gloss_audit.py            # shares of each judgement
    nice .venv/bin/python benchmarks/zh_gloss_audit.py --unjudged # the sample's glosses not judged yet

The pool: every topic label of the shipped reference atlas (broad and fine, through
`label_to_chinese`) and the 2,000 commonest keyphrases of the ICLR 2026 papers with a real
abstract (enrich's `extract_keyphrases`, as `benchmarks/zh_terms.py` draws them, compared in
lower case; through `to_chinese`). SIZE of them are drawn with random.Random(SEED) from the
pool in sorted order, so the sample is the same for every tree; run the script with another
tree's `src` first on PYTHONPATH to gloss the same sample with that code.

Each (English, gloss) pair is judged once, by hand, in queries/zh_gloss_audit.tsv, with this
rule (written before the first judgement):
- right: what a Chinese machine-learning author writes for the term, or the English as
  written where such authors keep it (names, acronyms, coined words);
- acceptable: a reader gets the meaning without being misled, but an author would write it
  otherwise (a near synonym, 的 missing or extra, a kept English word inside Chinese);
- english: the term shown in English although Chinese writing has a usual rendering of it;
- wrong: well-formed Chinese that says something else (a word's other sense: 归功 for
  "attribution", 音响设备 for "stereo");
- garbled: Chinese a reader cannot parse as the term: a character or word that is not a
  word in this sense (苒), characters glued from senses, a word-by-word rendering that
  reads as nonsense.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

from iclr_data import load_rows, real_abstract
from paperatlas.atlas.reference import shipped
from paperatlas.enrich.keyphrases import extract_keyphrases
from paperatlas.enrich.text import clean
from paperatlas.search.zh_terms import label_to_chinese, to_chinese

SEED = 3636
SIZE = 100
KEYPHRASES = 2000
JUDGED = Path(__file__).parent / "queries" / "zh_gloss_audit.tsv"
JUDGEMENTS = ("right", "acceptable", "english", "wrong", "garbled")


def pool() -> list[tuple[str, str]]:
    """(kind, English) of every topic label and of the commonest keyphrases, sorted."""
    reference = shipped()
    assert reference is not None, "no shipped reference atlas"
    labels = {("label", label) for label in reference.broad_labels + reference.fine_labels}
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}
    for row in load_rows():
        if not real_abstract(row):
            continue
        title = row.get("title")
        for phrase in extract_keyphrases(clean(row["abstract"]), clean(title) if title else None):
            counts[phrase.lower()] += 1
            first.setdefault(phrase.lower(), phrase)
    common = {("keyphrase", first[p]) for p, _ in counts.most_common(KEYPHRASES)}
    return sorted(labels | common)


def sample() -> list[tuple[str, str]]:
    return random.Random(SEED).sample(pool(), SIZE)


def gloss(kind: str, english: str) -> str:
    return label_to_chinese(english) if kind == "label" else to_chinese(english)


def load_judged() -> dict[tuple[str, str], str]:
    out = {}
    if JUDGED.exists():
        for line in JUDGED.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                english, chinese, judgement = line.split("\t")
                assert judgement in JUDGEMENTS, line
                out[english, chinese] = judgement
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--unjudged",
        action="store_true",
        help="print the sample's glosses not judged yet (English<TAB>gloss)",
    )
    parser.add_argument(
        "--show", action="store_true", help="print every gloss of the sample with its judgement"
    )
    args = parser.parse_args()
    judged = load_judged()
    glosses = [(english, gloss(kind, english)) for kind, english in sample()]
    missing = [pair for pair in glosses if pair not in judged]
    if args.unjudged:
        print("".join(f"{english}\t{chinese}\n" for english, chinese in missing), end="")
        return
    if args.show:
        for pair in glosses:
            print(f"{judged.get(pair, '?'):10s} {pair[0]!r:50s} {pair[1]}")
    counts = Counter(judged[pair] for pair in glosses if pair in judged)
    print(f"{len(glosses)} glosses, {len(missing)} not judged")
    for judgement in JUDGEMENTS:
        print(f"  {judgement:10s} {counts[judgement]:3d}")


if __name__ == "__main__":
    main()
