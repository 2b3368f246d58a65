"""Write N synthetic papers built from the 15,602 real ICLR 2026 ones, for scale tests.

    python benchmarks/make_corpus.py 1000000 --out /tmp/corpus-1m.jsonl.gz [--seed 0]

SYNTHETIC: each paper is a recombination, within one primary area, of real sentences:

- its area is drawn with the real areas' frequencies; a real paper of that area is its
  template (sentence count, keywords);
- its first sentence is the first sentence of some paper of the area, its last sentence
  the last sentence of another, the middle ones drawn from the middle sentences of the
  area's papers (so it reads like an abstract of the area, with the usual opening and
  closing moves, but is no real paper);
- its title joins the head of one real title of the area (up to a colon, or its first
  words) to the tail of another; titles and ids carry the paper's number, so both are
  unique (`syn<seed>-<number>`).

Rows are the project's ICLR row format (id, year, number, title, abstract, primary_area,
keywords), so `paperatlas add` reads the file. Output is streamed: memory is the source
sentences (~50 MB) whatever N is. Same N and seed give the same rows.

What this leaves untested (docs/bench/scale.md): real topic structure beyond areas, real
duplicates and near-duplicates, long tails of length and odd text, other sources' formats.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "iclr2026.jsonl.gz"
MIN_ABSTRACT = 100  # shorter abstracts are placeholders ("na", ".")
MIN_SENTENCES = 4  # fewer would make near-duplicates likely at 1M papers

# A sentence ends at . ! or ? followed by a space and a capital (or an opening bracket / digit);
# "e.g. the", "et al. show" and decimals ("0.5") do not end one.
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bal)(?<!\bvs)(?<=[.!?])\s+(?=[A-Z(\[0-9])")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(" ".join(text.split())) if s.strip()]


class Pool:
    """The real papers' parts, grouped by primary area."""

    def __init__(self, path: Path):
        self.first: dict[str, list[str]] = defaultdict(list)
        self.middle: dict[str, list[str]] = defaultdict(list)
        self.last: dict[str, list[str]] = defaultdict(list)
        self.templates: dict[str, list[tuple[int, list[str]]]] = defaultdict(list)
        self.heads: dict[str, list[str]] = defaultdict(list)
        self.tails: dict[str, list[str]] = defaultdict(list)
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                row = json.loads(line)
                abstract = (row.get("abstract") or "").strip()
                area = row.get("primary_area") or "unknown"
                parts = sentences(abstract)
                if len(abstract) < MIN_ABSTRACT or len(parts) < 3:
                    continue
                self.first[area].append(parts[0])
                self.last[area].append(parts[-1])
                self.middle[area].extend(parts[1:-1])
                self.templates[area].append((len(parts), list(row.get("keywords") or [])))
                head, tail = split_title(" ".join((row.get("title") or "").split()))
                if head and tail:
                    self.heads[area].append(head)
                    self.tails[area].append(tail)
        self.areas = sorted(self.templates)
        self.weights = [len(self.templates[a]) for a in self.areas]

    def paper(self, rng: random.Random, number: int, seed: int) -> dict:
        area = rng.choices(self.areas, weights=self.weights)[0]
        count, keywords = rng.choice(self.templates[area])
        count = max(count, MIN_SENTENCES)
        body = [rng.choice(self.first[area])]
        body += [rng.choice(self.middle[area]) for _ in range(count - 2)]
        body.append(rng.choice(self.last[area]))
        heads, tails = self.heads[area], self.tails[area]
        title = f"{rng.choice(heads)} {rng.choice(tails)} ({number})"
        return {
            "id": f"syn{seed}-{number}",
            "year": 2026,
            "number": number,
            "title": title,
            "abstract": " ".join(body),
            "primary_area": area,
            "keywords": keywords,
        }


def split_title(title: str) -> tuple[str, str]:
    """'Name: what it does' -> ('Name:', 'what it does'); otherwise the first words and the rest."""
    if ":" in title:
        head, _, tail = title.partition(":")
        return head.strip() + ":", tail.strip()
    words = title.split()
    cut = max(1, len(words) // 2)
    return " ".join(words[:cut]), " ".join(words[cut:])


def write(n: int, out, seed: int, pool: Pool, progress: bool) -> None:
    rng = random.Random(seed)
    started = time.perf_counter()
    for number in range(1, n + 1):
        out.write(json.dumps(pool.paper(rng, number, seed), ensure_ascii=False))
        out.write("\n")
        if progress and number % 50_000 == 0:
            rate = number / (time.perf_counter() - started)
            print(f"  {number:,}/{n:,} papers ({rate:,.0f}/s)", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, help="how many papers")
    ap.add_argument("--out", type=Path, help="file to write (.jsonl or .jsonl.gz; default stdout)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the real ICLR 2026 rows")
    args = ap.parse_args(argv)
    if args.n < 1:
        ap.error("N must be at least 1")
    pool = Pool(args.data)
    if args.out is None:
        write(args.n, sys.stdout, args.seed, pool, progress=False)
        return 0
    tmp = args.out.with_name(args.out.name + ".part")
    opener = gzip.open if args.out.suffix == ".gz" else open
    # compresslevel 1: the corpus is written once per run and read once; level 9 is 5x slower
    kwargs = {"compresslevel": 1} if opener is gzip.open else {}
    with opener(tmp, "wt", encoding="utf-8", **kwargs) as fh:
        write(args.n, fh, args.seed, pool, progress=True)
    tmp.replace(args.out)  # a killed run leaves no half file under the real name
    print(f"wrote {args.n:,} synthetic papers to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
