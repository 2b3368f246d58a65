"""Display titles (made with the real title hidden) against the real titles: ROUGE-L F1.

    .venv/bin/python benchmarks/title_eval.py [DATA] [--n 3000] [--base /tmp/base15/src]

Papers: the held-out split (`paperatlas.enrich.areas.is_held_out`; the title models in
models/titles-v3.json were fit on the other papers only), abstracts >= 100 characters, the
first N in file order. Three titles per paper, in the same run:
- new: `extract_facts(None, abstract)["display_title"]` of this checkout;
- today's: the same call in the code at --base (run in a subprocess), when given;
- first sentence: the abstract's first sentence cut to 12 words.
Prints mean ROUGE-L (LCS over lower-cased words, F1) for each, ratios, the share of titles
that end on a function word or on a word that needs a complement ("based", "designed": the
model's learned list) -- both a cut mid-clause --, how many hold a broken piece (half a bracket,
a cut-off "e.g.", a leftover macro, a word pair said twice in a row, a reporting verb at the end:
`titles.readable`; or a dash right after "Name:"), the time per title, and 20 random examples.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

from iclr_data import DEFAULT_DATA, is_held_out, load_rows, real_abstract
from paperatlas.enrich.pipeline import extract_facts
from paperatlas.enrich.text import clean
from paperatlas.enrich.titles import load_model, readable, rouge_l

_DANGLING = frozenset(
    "a an the of to for in on with and or by our its their this that is are be we from as at into via".split()
)

_PREFIX = re.compile(r"^[^:]{1,40}:\s")  # "DiSTAR: Diffusion over ..."

_OLD = """
import json, sys, time
from paperatlas.enrich.pipeline import extract_facts
abstracts = [json.loads(line) for line in sys.stdin]
t0 = time.process_time()
titles = [extract_facts(None, a)["display_title"] for a in abstracts]
print(json.dumps((time.process_time() - t0) / len(abstracts) * 1000))
for t in titles:
    print(json.dumps(t))
"""


def first_sentence(abstract: str) -> str:
    first = re.split(r"(?<=[.!?])\s", clean(abstract), maxsplit=1)[0]
    return " ".join(first.split()[:12])


def old_titles(base: str, abstracts: list[str]) -> tuple[list[str], float]:
    """The titles the code at `base` makes, and its CPU ms per paper."""
    env = dict(os.environ, PYTHONPATH=base)
    out = subprocess.run(
        [sys.executable, "-c", _OLD],
        input="\n".join(json.dumps(a) for a in abstracts),
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    return lines[1:], lines[0]


def dangling(title: str) -> bool:
    words = title.lower().split()  # "virtual try-on" ends on a noun, not on "on"
    return bool(words) and words[-1].strip(".,;:!?\"'") in _DANGLING


def incomplete(title: str, needs: frozenset[str]) -> bool:
    words = title.lower().split()
    return bool(words) and words[-1].strip(".,;:") in needs


def paired_interval(a: list[float], b: list[float], rounds: int = 1000) -> tuple[float, float]:
    """95% bootstrap interval of mean(a - b) over papers (resampled with a fixed seed)."""
    diffs = [x - y for x, y in zip(a, b)]
    rng = random.Random(0)
    means = sorted(sum(rng.choices(diffs, k=len(diffs))) / len(diffs) for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument(
        "--base", default="/tmp/base15/src", help="src/ of the code to compare with ('' to skip)"
    )
    parser.add_argument("--examples", type=int, default=20)
    args = parser.parse_args()
    rows = [r for r in load_rows(args.data) if is_held_out(r["id"]) and real_abstract(r) and r.get("title")][
        : args.n
    ]
    t0 = time.process_time()
    facts = [extract_facts(None, r["abstract"]) for r in rows]
    new = [f["display_title"] for f in facts]
    per_paper_ms = (time.process_time() - t0) / len(rows) * 1000
    systems = {"new": new, "first sentence (12 words)": [first_sentence(r["abstract"]) for r in rows]}
    cost = f"extract_facts {per_paper_ms:.2f} CPU ms/paper"
    if args.base and os.path.isdir(args.base):
        systems["today's (--base)"], base_ms = old_titles(args.base, [r["abstract"] for r in rows])
        cost += f" (today's {base_ms:.2f})"
    print(f"{len(rows)} held-out papers (title hidden); {cost}")
    model = load_model()
    needs = model.needs_complement if model else frozenset()
    scores, per_paper = {}, {}
    for label, titles in systems.items():
        s = [rouge_l(t, r["title"]) for t, r in zip(titles, rows)]
        per_paper[label] = s
        scores[label] = sum(s) / len(s)
        cut = sum(dangling(t) for t in titles) / len(titles)
        hanging = sum(incomplete(t, needs) for t in titles) / len(titles)
        words = sum(len(t.split()) for t in titles) / len(titles)
        broken = sum(not readable(t) or ": —" in t or ": –" in t for t in titles)
        print(
            f"  {label:28s} ROUGE-L {scores[label]:.4f}   ends on a function word {cut:5.1%}"
            f"   on a word needing a complement {hanging:5.1%}   {words:.1f} words"
            f"   broken pieces {broken}"
        )
    for label in systems:
        if label != "new":
            low, high = paired_interval(per_paper["new"], per_paper[label])
            print(
                f"  new / {label}: {scores['new'] / scores[label]:.3f}x; new - {label}: "
                f"{scores['new'] - scores[label]:+.4f} (95% bootstrap interval {low:+.4f} .. {high:+.4f}); "
                f"titles differ on {sum(a != b for a, b in zip(new, systems[label])) / len(new):.0%} of papers"
            )
    print(f"  real titles: {sum(len(r['title'].split()) for r in rows) / len(rows):.1f} words")
    # where the gap is: titles that open with "Name:" against the rest, and papers the name
    # extractor names (shown as "Name: ...") against the rest
    named = [bool(f["name"]) for f in facts]
    subsets = {
        "real title opens 'X: '": [bool(_PREFIX.match(r["title"])) for r in rows],
        "real title without 'X: '": [not _PREFIX.match(r["title"]) for r in rows],
        "a name found": named,
        "no name found": [not n for n in named],
    }
    for sub, mask in subsets.items():
        k = sum(mask)
        line = "   ".join(
            f"{label} {sum(x for x, m in zip(per_paper[label], mask) if m) / max(1, k):.4f}"
            for label in systems
        )
        print(f"  {sub:26s} {k / len(rows):5.1%} of papers: {line}")
    old = systems.get("today's (--base)")
    print(f"\n{args.examples} random examples (real | new" + (" | today's)" if old else ")"))
    for i in random.Random(15).sample(range(len(rows)), min(args.examples, len(rows))):
        print(f"- real: {rows[i]['title']}\n  new:  {new[i]}" + (f"\n  old:  {old[i]}" if old else ""))


if __name__ == "__main__":
    main()
