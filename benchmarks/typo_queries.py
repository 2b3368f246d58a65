"""Typo queries (issue 34): does a misspelt query find its paper as often as the spelled one?

    python benchmarks/typo_queries.py --make          # (re)write queries/typo/generated.jsonl
    nice -n 10 python benchmarks/typo_queries.py [--db ...] [--models static]
        [--compare-src /work/base/src] [--compare-src /work/main/src] [--split test]

Queries, written before any search change (benchmarks/queries/typo/):
- generated.jsonl: 120 held-out papers (`enrich.areas.is_held_out`: no shipped model was
  fit on them) of ../shared/data, drawn in the order of a seeded shuffle (seed 34). For each,
  the query is a run of 3-6 content words of its title (words of paperatlas.text.STOPWORDS
  and LaTeX left out, lower case), then misspelt by the typo model below.
- hand.jsonl: queries written by hand for the first held-out papers in sha1("typo-hand:" +
  id) order, in the style of "difusion modle vidoe genration": the slips people make
  typing fast, their phonetic spellings (heirarchical, consistancy) and British spellings.

Typo model (what people do on a keyboard, after Damerau's four single-edit slips plus the
vowel confusions of spelling by ear): one or two edits per query (even odds), each in a
different word of 4+ letters that is not an acronym, each one of
- dropped letter (not the first: people rarely miss a word's first letter),
- doubled letter,
- swapped neighbours,
- a neighbouring key on a QWERTY keyboard in place of the letter,
- a vowel in place of another vowel.

Split: a query is in the tuning or the test half by sha1("typo-split:" + paper id), fixed
when the queries were written; settings are chosen on the tuning half, figures reported on
the test half (and on all queries).

The figure: for each query, is its paper in the top 10 of the default hybrid search over
the 15,602-paper atlas, misspelt and correctly spelt; the ratio of the two hit counts
(target >= 0.9). With --compare-src, the same queries through another source tree's
search() over the same store, in the same run (a child process).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

from search_common import CACHE, DEFAULT_DATA, REPO, build_store, ensure_names, load_rows
from store_parts_compat import SHIM

QUERIES = REPO / "benchmarks" / "queries" / "typo"
SEED = 34
GENERATED = 120
VOWELS = "aeiou"
QWERTY = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]


def split_of(paper_id: str) -> str:
    return (
        "tune"
        if int(hashlib.sha1(f"typo-split:{paper_id}".encode()).hexdigest()[:8], 16) % 2 == 0
        else "test"
    )


def neighbours(ch: str) -> str:
    """The keys next to `ch` in its QWERTY row and the rows above and below."""
    for r, row in enumerate(QWERTY):
        c = row.find(ch)
        if c < 0:
            continue
        near = [row[i] for i in (c - 1, c + 1) if 0 <= i < len(row)]
        for other in (r - 1, r + 1):
            if 0 <= other < len(QWERTY):
                near += [QWERTY[other][i] for i in (c - 1, c, c + 1) if 0 <= i < len(QWERTY[other])]
        return "".join(near)
    return ""


def misspell(word: str, rng: random.Random) -> tuple[str, str]:
    """`word` with one slip of the typo model, and the slip's name."""
    while True:
        kind = rng.choice(["drop", "double", "swap", "key", "vowel"])
        i = rng.randrange(1, len(word)) if kind == "drop" else rng.randrange(len(word))
        if kind == "drop":
            out = word[:i] + word[i + 1 :]
        elif kind == "double":
            out = word[: i + 1] + word[i:]
        elif kind == "swap":
            i = min(i, len(word) - 2)
            out = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        elif kind == "key":
            near = neighbours(word[i])
            if not near:
                continue
            out = word[:i] + rng.choice(near) + word[i + 1 :]
        else:
            spots = [j for j, ch in enumerate(word) if ch in VOWELS]
            if not spots:
                continue
            j = rng.choice(spots)
            out = word[:j] + rng.choice([v for v in VOWELS if v != word[j]]) + word[j + 1 :]
        if out != word:
            return out, kind


def title_words(title: str) -> list[str]:
    from paperatlas.text import STOPWORDS

    title = re.sub(r"\$[^$]*\$", " ", title)  # LaTeX: nobody types it into a search box
    return [
        w for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", title) if w.lower() not in STOPWORDS and len(w) > 1
    ]


def make(data: Path) -> None:
    from paperatlas.enrich.areas import is_held_out

    rows = [r for r in load_rows(data) if is_held_out(r["id"]) and r.get("title")]
    rows.sort(key=lambda r: r["id"])
    rng = random.Random(SEED)
    rng.shuffle(rows)
    out = []
    for r in rows:
        words = title_words(r["title"])
        if len(words) < 3:
            continue
        n = min(rng.randint(3, 6), len(words))
        start = rng.randrange(len(words) - n + 1)
        picked = words[start : start + n]
        # acronyms (LLM, ViT) and words with digits are copied, not typed letter by letter
        typable = [i for i, w in enumerate(picked) if len(w) >= 4 and w.isalpha() and not w[1:].isupper()]
        if not typable:
            continue
        edits = min(rng.choice([1, 2]), len(typable))
        typo = [w.lower() for w in picked]
        slips = []
        for i in rng.sample(typable, edits):
            typo[i], kind = misspell(typo[i], rng)
            slips.append(kind)
        out.append(
            {
                "paper": r["id"],
                "query": " ".join(typo),
                "correct": " ".join(w.lower() for w in picked),
                "edits": slips,
                "split": split_of(r["id"]),
            }
        )
        if len(out) == GENERATED:
            break
    QUERIES.mkdir(parents=True, exist_ok=True)
    path = QUERIES / "generated.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in out), encoding="utf-8")
    print(f"{path}: {len(out)} queries")


def load_queries() -> list[dict]:
    out = []
    for name in ("generated.jsonl", "hand.jsonl"):
        for line in (QUERIES / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append({**json.loads(line), "source": name.split(".")[0]})
    return out


# another source tree's search() over the same store: one JSON query per line in, the ids
# of its top 10 out
CHILD = """
import json, sys
from paperatlas import search as S
from paperatlas.store import Store
store = Store(sys.argv[1], read_only=True)
for line in sys.stdin:
    hits = S.search(store, json.loads(line), k=10).hits
    print(json.dumps([h.id for h in hits]), flush=True)
"""


# the same atlas for another source tree, built by that tree's own Store (its schema may
# be older): the papers inserted, the vectors and name facts copied from this tree's atlas
BUILD = """
import gzip, json, sys
import numpy as np
from paperatlas.paper import embedding_text, text_hash
from paperatlas.store import Store
#STORE_PARTS_SHIM#
data, db, vectors, names = sys.argv[1:5]
store = Store(db)
if store.papers.count() == 0:
    rows = [json.loads(line) for line in gzip.open(data, "rt", encoding="utf-8")]
    got = np.load(vectors)
    by_id = {r["id"]: r for r in rows}
    with store.transaction():
        for r in rows:
            store.papers.insert({"id": r["id"], "title": r.get("title"), "abstract": r["abstract"] or "",
                "keywords": r.get("keywords") or [], "year": r.get("year"), "area": r.get("primary_area"),
                "decision": r.get("decision"), "venue": "ICLR 2026"})
        for model in json.loads(str(got["models"])):
            ids = list(got[model + ".ids"])
            hashes = [text_hash(embedding_text(by_id[i].get("title"), by_id[i]["abstract"])) for i in ids]
            store.vectors.put(model, ids, got[model], hashes)
        for pid, n in json.load(open(names)).items():
            store.facts.set(pid, {"name": n[0], "names": n}, "", "bench-names")
"""
BUILD = BUILD.replace("#STORE_PARTS_SHIM#", SHIM)


def atlas_for(src: Path, db: Path, data: Path) -> Path:
    """A copy of the atlas at `db` as the tree at `src` stores it (built once, kept)."""
    import numpy as np

    from paperatlas.store import Store

    tag = hashlib.sha1(str(src.resolve()).encode()).hexdigest()[:8]
    out = db.with_name(f"{db.stem}-{tag}.db")
    if out.exists():
        return out
    store = Store(db, read_only=True)
    models = store.vectors.models()
    arrays = {}
    for model in models:
        ids, matrix = store.vectors.get(model)
        arrays[model], arrays[model + ".ids"] = matrix, np.array(ids)
    vectors = db.with_name(f"{db.stem}-vectors.npz")
    np.savez(vectors, models=np.array(json.dumps(models)), **arrays)
    env = {**os.environ, "PYTHONPATH": str(src)}
    args = [str(data), str(out), str(vectors), str(CACHE / "search" / "names.json")]
    subprocess.run([sys.executable, "-c", BUILD, *args], check=True, env=env)
    return out


class Tree:
    def __init__(self, src: Path | None, db: Path):
        self.name = str(src) if src else "this tree"
        env = {**os.environ, "PYTHONPATH": str(src or REPO / "src")}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def top10(self, query: str) -> list[str]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(query) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--db", type=Path, default=CACHE / "search" / "iclr2026.db")
    ap.add_argument("--models", default="static", help="vector models of the atlas (comma-separated)")
    ap.add_argument("--compare-src", type=Path, action="append", default=[])
    ap.add_argument("--split", choices=["tune", "test", "all"], default="all")
    ap.add_argument("--make", action="store_true", help="write the generated queries and stop")
    ap.add_argument("--show-misses", action="store_true")
    args = ap.parse_args()
    if args.make:
        make(args.data)
        return
    store = build_store(args.data, args.db, args.models.split(","))
    ensure_names(store, load_rows(args.data))
    store.close()
    queries = [q for q in load_queries() if args.split == "all" or q["split"] == args.split]
    trees = [Tree(None, args.db)] + [
        Tree(src, atlas_for(src, args.db, args.data)) for src in args.compare_src
    ]
    print(f"{len(queries)} queries ({args.split}), atlas {args.db} with vectors {args.models}")
    for tree in trees:
        found: dict[tuple[str, str], list[bool]] = {}
        for q in queries:
            for spelling in ("query", "correct"):
                hit = q["paper"] in tree.top10(q[spelling])
                for group in (q["split"], q["source"], "all"):
                    found.setdefault((group, spelling), []).append(hit)
                if args.show_misses and spelling == "query" and not hit:
                    print(f"  miss: {q['query']!r} (spelled: {q['correct']!r})")
        tree.close()
        print(f"[{tree.name}]")
        for group in ("tune", "test", "generated", "hand", "all"):
            typo, right = found.get((group, "query"), []), found.get((group, "correct"), [])
            if not typo:
                continue
            ratio = sum(typo) / max(1, sum(right))
            print(
                f"  {group:<10} n={len(typo):4d}  misspelt in top 10: {sum(typo):4d}  "
                f"spelled: {sum(right):4d}  ratio {ratio:.3f}  (target >= 0.9)"
            )


if __name__ == "__main__":
    main()
