"""Material for a blind judgement of topic labels: does this label fit this abstract?

    .venv/bin/python benchmarks/label_pairs_blind.py [--base /work/base] [--papers 60] [--seed 41]
        [--out /tmp/label_pairs_blind.jsonl] [--key /tmp/label_pairs_key.json]
    .venv/bin/python benchmarks/label_pairs_blind.py --score JUDGEMENTS.jsonl [--key ...]

The same `--papers` held-out papers (`enrich.areas.is_held_out`, drawn with a fixed seed) are
given as bare lists of 20 abstracts (like examples/iclr2026_sample_list.txt), added, mapped
on the shipped reference by the baseline tree and by this tree (benchmarks/label_support.py's
child, one process per tree). Each (abstract, broad label, fine label) of each tree becomes
one line of --out under an anonymous id, all lines shuffled together; which tree and paper a
line came from is written to --key only. A reader sees only --out and writes one line per
id: {"id": ..., "broad": "yes" | "partly" | "no", "fine": "yes" | "partly" | "no"}.

--score reads those judgements and the key and prints, per tree and level, the shares of
yes / partly / no and the mean score (yes 1, partly 0.5, no 0).
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

LIST_SIZE = 20
POINTS = {"yes": 1.0, "partly": 0.5, "no": 0.0}


def make(args) -> None:
    from iclr_data import is_held_out, load_rows, real_abstract
    from label_support import run_tree, write_bare_list

    held = [r for r in load_rows(args.data) if is_held_out(str(r["id"])) and real_abstract(r)]
    drawn = random.Random(args.seed).sample(held, args.papers)
    work = Path(tempfile.mkdtemp(prefix="label-pairs-"))
    paths = []
    for i in range(0, len(drawn), LIST_SIZE):
        path = work / f"list{i // LIST_SIZE}.txt"
        write_bare_list(drawn[i : i + LIST_SIZE], path)
        paths.append(str(path))
    trees = {"old": args.base / "src", "new": REPO / "src"}
    lines, key = [], {}
    rng = random.Random(args.seed + 1)
    for name, src in trees.items():
        out = run_tree(src, {"lists": paths}, work, name)
        for lst in out["lists"]:
            for row in lst:
                anon = secrets.token_hex(4)
                while anon in key:
                    anon = secrets.token_hex(4)
                key[anon] = {"tree": name, "abstract_start": row["abstract"][:80]}
                lines.append(
                    {
                        "id": anon,
                        "abstract": row["abstract"],
                        "broad_label": row["broad"],
                        "fine_label": row["fine"],
                    }
                )
    rng.shuffle(lines)
    Path(args.out).write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    Path(args.key).write_text(json.dumps(key, indent=1, ensure_ascii=False))
    counts = Counter(v["tree"] for v in key.values())
    print(f"{len(lines)} pairs ({dict(counts)}) from {len(drawn)} papers: {args.out}; key: {args.key}")


def score(args) -> None:
    key = json.loads(Path(args.key).read_text())
    marks: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for line in Path(args.score).read_text().splitlines():
        if not line.strip():
            continue
        judged = json.loads(line)
        tree = key[judged["id"]]["tree"]
        for level in ("broad", "fine"):
            marks[(tree, level)][str(judged.get(level, "")).strip().lower()] += 1
    for level in ("broad", "fine"):
        print(f"{level} label fits the abstract:")
        for tree in ("old", "new"):
            c = marks[(tree, level)]
            n = sum(c[v] for v in POINTS)
            mean = sum(POINTS[v] * c[v] for v in POINTS) / max(n, 1)
            shares = "  ".join(f"{v} {c[v] / max(n, 1):.0%}" for v in POINTS)
            print(f"  {tree} ({n} judged): {shares}  mean score {mean:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, default=Path("/work/base"), help="baseline checkout")
    ap.add_argument("--papers", type=int, default=60)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--data", default=None)
    ap.add_argument("--out", default="/tmp/label_pairs_blind.jsonl")
    ap.add_argument("--key", default="/tmp/label_pairs_key.json")
    ap.add_argument("--score", help="judgements (JSON Lines: id, broad, fine) to score with the key")
    args = ap.parse_args()
    if args.score:
        score(args)
    else:
        make(args)


if __name__ == "__main__":
    main()
