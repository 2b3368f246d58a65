"""Do topic labels say what is inside them? This tree against a baseline tree, same run.

    .venv/bin/python benchmarks/label_support.py [--base /work/base] [--lists 20] [--size 19]
        [--seed 40] [--no-full] [--data PATH]

A paper *supports* a label when the label holds a content word of the paper's own title or
abstract: words lower-cased, split at hyphens, stemmed (`search.snippets.stem`), a few
acronyms read as their words ("VLM" = vision language), and the words of GENERIC (written
before any label code changed) never counted. Figures, for each tree:

- lists of 19: `--lists` lists of `--size` held-out papers (`enrich.areas.is_held_out`: never
  in the shipped reference), drawn with a fixed seed and given as bare abstracts (no
  titles, like examples/iclr2026_sample_list.txt), each added, enriched, embedded (static)
  and mapped in a fresh store, as `make demo` does: the share of papers whose broad and
  whose fine label they support (the broad label a paper is shown under: a short list's
  paper may be shown under its fine topic's label, that fine topic's `shown_broad`), and
  the AMI of the broad topics (the map's groups) against the papers' true primary areas
  (mean over lists);
- full held-out map: every held-out paper with a real abstract, as one list (titles,
  abstracts and keywords as the data file has them), mapped: its own map (200+ papers);
- the reference map: the shipped reference's own papers (not held out) under its labels.

Also printed: mean content words per label and distinct labels, so that a gain cannot come
from longer labels unnoticed. Each tree runs in its own process with its own PYTHONPATH; the
held-out list's store is added and embedded once (by the baseline) and copied for each tree.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
from store_parts_compat import SHIM  # noqa: E402

# Words that name no topic in an ML conference: a label or a paper sharing only these
# shares nothing. Fixed before any label code changed (issue 40).
GENERIC = set(
    """
    a an the of for and or in on to with via by from at as is are be its into under over
    model models modeling modelling learn learning learned llm llms lm lms large language
    neural network networks net nets method methods data task tasks deep machine ai
    approach approaches framework frameworks system systems based using use new novel
    training train trained performance result results analysis benchmark benchmarks
    benchmarking dataset datasets evaluation evaluating evaluate study studies problem
    problems algorithm algorithms application applications general efficient effective
    towards toward beyond other others topic
    """.split()
)
# Acronyms read as their words, in labels and papers alike.
ACRONYMS = {
    "vlm": "vision language",
    "vlms": "vision language",
    "mllm": "multimodal",
    "mllms": "multimodal",
    "rl": "reinforcement",
    "rlhf": "reinforcement human feedback",
    "rlvr": "reinforcement verifiable reward",
    "gnn": "graph",
    "gnns": "graph",
    "moe": "mixture experts",
    "cot": "chain thought",
    "rag": "retrieval augmented generation",
    "lora": "low rank adaptation",
    "peft": "parameter fine tuning",
    "ood": "distribution",
    "dpo": "preference optimization",
    "kv": "cache",
    "vla": "vision language action",
    "sae": "sparse autoencoder",
    "saes": "sparse autoencoder",
    "eeg": "brain",
    "fmri": "brain",
    "pde": "differential equation",
    "pdes": "differential equation",
    "3dgs": "gaussian splatting",
    "xai": "explainable",
    "ai-generated": "generated",
}
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-']*")


def content_stems(text: str) -> set[str]:
    """The stems of the content words of a text (a label, or a paper's title + abstract)."""
    from paperatlas.search.snippets import stem

    out: set[str] = set()
    for raw in _WORD.findall(text or ""):
        word = raw.lower().strip("-'")
        pieces = [word, *word.split("-")] if "-" in word else [word]
        for piece in pieces:
            expanded = ACRONYMS.get(piece)
            for w in ([piece, *expanded.split()]) if expanded else [piece]:
                if len(w) < 2 or w.isdigit() or w in GENERIC:
                    continue
                s = stem(w)
                if s not in GENERIC and len(s) >= 2:
                    out.add(s)
    return out


def supports(paper_text: str, label: str) -> bool:
    return bool(content_stems(label) & content_stems(paper_text))


# -- the child: one tree maps the lists -------------------------------------------------------------

CHILD = r"""
import json, os, sys, tempfile, shutil
from pathlib import Path
from paperatlas.api import Atlas
from paperatlas.atlas.reference import shipped
#STORE_PARTS_SHIM#

job = json.load(open(sys.argv[1]))
out = {"lists": [], "full": None, "reference": None}

def labelled(m):
    label = {(t["level"], t["topic_id"]): t["label"] for t in m.topics}
    # the label a paper is shown under at the broad level, where its fine topic says
    # (a short list's paper supporting only its fine topic's label); older trees: none
    shown = {t["topic_id"]: t["data"]["shown_broad"] for t in m.topics
             if t["level"] == 1 and t["data"].get("shown_broad")}
    rows = []
    with Atlas(db) as a:
        texts = {p["id"]: p for p in a.store.papers.get_many([x["paper_id"] for x in m.assignments])}
    for x in m.assignments:
        p = texts.get(x["paper_id"], {})
        rows.append({"abstract": p.get("abstract") or "", "title": p.get("title") or "",
                     "broad": shown.get(x["fine"]) or label[(0, x["broad"])], "fine": label[(1, x["fine"])],
                     "broad_id": x["broad"], "fine_id": x["fine"], "paper_id": x["paper_id"]})
    return rows

for path in job["lists"]:
    work = Path(tempfile.mkdtemp(prefix="label-support-"))
    db = work / "a.db"
    with Atlas(db) as a:
        a.add([path], list_name="l")
        a.embed(model="static", vocabulary=False)
        m = a.build_map("l")
    out["lists"].append(labelled(m))
    shutil.rmtree(work)
if job.get("full_db"):
    db = Path(job["full_db"])
    with Atlas(db) as a:
        if "held" not in a.lists():
            a.add([job["full_file"]], list_name="held")
            a.embed(model="static", vocabulary=False)
        m = a.build_map("held", force=True)
    out["full"] = labelled(m)
ref = shipped()
out["reference"] = {"ids": ref.ids, "broad": [ref.broad_labels[b] for b in ref.point_broad],
                    "fine": [ref.fine_labels[f] for f in ref.point_fine]}
json.dump(out, open(sys.argv[2], "w"))
"""
CHILD = CHILD.replace("#STORE_PARTS_SHIM#", SHIM)


def run_tree(src: Path, job: dict, work: Path, name: str) -> dict:
    job_file, out_file = work / f"{name}-job.json", work / f"{name}-out.json"
    job_file.write_text(json.dumps(job))
    env = {**os.environ, "PYTHONPATH": str(src), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    env.setdefault("PAPERATLAS_WORKERS", "1")
    subprocess.run([sys.executable, "-c", CHILD, str(job_file), str(out_file)], env=env, cwd="/", check=True)
    return json.loads(out_file.read_text())


# -- the parent: draws the lists, scores both trees -------------------------------------------------


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", (text or "").lower()))


def _source_row(abstract: str, drawn: list[dict]) -> dict:
    """The drawn row a stored paper came from (readers tidy abstracts: "Abstract:" goes)."""
    words = _words(abstract)
    return max(
        drawn, key=lambda r: len(words & _words(r["abstract"])) / max(1, len(words | _words(r["abstract"])))
    )


def score(rows: list[dict], text_of) -> dict:
    """Share of rows whose broad / fine label the paper's own text supports; label sizes."""
    n = len(rows)
    broad = sum(supports(text_of(r), r["broad"]) for r in rows)
    fine = sum(supports(text_of(r), r["fine"]) for r in rows)
    labels = {r["broad"] for r in rows} | {r["fine"] for r in rows}
    words = [len(content_stems(lab)) for lab in labels]
    return {
        "papers": n,
        "broad": broad / max(n, 1),
        "fine": fine / max(n, 1),
        "labels": len(labels),
        "words_per_label": sum(words) / max(len(words), 1),
    }


def draw_lists(held: list[dict], n_lists: int, size: int, seed: int) -> list[list[dict]]:
    rng = random.Random(seed)
    return [rng.sample(held, size) for _ in range(n_lists)]


def write_bare_list(rows: list[dict], path: Path) -> None:
    """A list as people paste it: a header line, then one abstract per paragraph."""
    body = "\n\n".join(" ".join(r["abstract"].split()) for r in rows)
    path.write_text(f"ICLR 2026 papers\n\n{body}\n", encoding="utf-8")


def main() -> None:
    from sklearn.metrics import adjusted_mutual_info_score

    from iclr_data import is_held_out, load_rows, real_abstract

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, default=Path("/work/base"), help="baseline checkout")
    ap.add_argument("--lists", type=int, default=20)
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--no-full", action="store_true", help="skip the full held-out map")
    ap.add_argument("--data", default=None)
    args = ap.parse_args()

    rows = load_rows(args.data)
    held = [r for r in rows if is_held_out(str(r["id"])) and real_abstract(r)]
    by_id = {str(r["id"]): r for r in rows}
    lists = draw_lists(held, args.lists, args.size, args.seed)
    work = Path(tempfile.mkdtemp(prefix="label-support-"))
    paths = []
    for i, lst in enumerate(lists):
        write_bare_list(lst, work / f"list{i}.txt")
        paths.append(str(work / f"list{i}.txt"))
    full_file = work / "held.jsonl"
    with full_file.open("w", encoding="utf-8") as fh:
        for r in held:
            fh.write(json.dumps({k: r[k] for k in ("id", "title", "abstract", "keywords") if k in r}) + "\n")
    trees = {"baseline": args.base / "src", "this tree": REPO / "src"}
    results = {}
    seed_db = work / "held-seed.db"
    for name, src in trees.items():
        job: dict = {"lists": paths}
        if not args.no_full:
            db = work / f"held-{name.replace(' ', '-')}.db"
            if seed_db.exists():
                for suffix in ("", "-wal", "-shm"):
                    if Path(f"{seed_db}{suffix}").exists():
                        shutil.copy(f"{seed_db}{suffix}", f"{db}{suffix}")
            job.update(full_db=str(db), full_file=str(full_file))
        results[name] = run_tree(src, job, work, name.replace(" ", "-"))
        if not args.no_full and not seed_db.exists():
            for suffix in ("", "-wal", "-shm"):
                if Path(f"{job['full_db']}{suffix}").exists():
                    shutil.copy(f"{job['full_db']}{suffix}", f"{seed_db}{suffix}")

    def abstract_only(r: dict) -> str:
        return r["abstract"]

    def title_and_abstract(r: dict) -> str:
        return f"{r.get('title') or ''} {r['abstract']}"

    print(
        f"{args.lists} bare lists of {args.size} held-out papers (seed {args.seed}); "
        f"{len(held):,} held-out papers with an abstract"
    )
    figures: dict = {}
    for name, out in results.items():
        list_rows = [r for lst in out["lists"] for r in lst]
        s = score(list_rows, abstract_only)
        amis = []
        for drawn, lst in zip(lists, out["lists"]):
            truth = [_source_row(r["abstract"], drawn)["primary_area"] for r in lst]
            amis.append(adjusted_mutual_info_score(truth, [r["broad_id"] for r in lst]))
        s["ami"] = sum(amis) / len(amis)
        s["read"] = [len(lst) for lst in out["lists"]]  # papers the tool read of each list
        figures[name] = {"lists": s}
        if out["full"] is not None:
            full = figures[name]["full"] = score(out["full"], title_and_abstract)
            known = [r for r in out["full"] if str(r["paper_id"]) in by_id]
            truth = [by_id[str(r["paper_id"])]["primary_area"] for r in known]
            full["broad_topics"] = len({r["broad_id"] for r in out["full"]})
            full["ami"] = adjusted_mutual_info_score(truth, [r["broad_id"] for r in known])
            full["ami_fine"] = adjusted_mutual_info_score(truth, [r["fine_id"] for r in known])
        ref_rows = [
            {
                "abstract": by_id[pid].get("abstract") or "",
                "title": by_id[pid].get("title") or "",
                "broad": b,
                "fine": f,
            }
            for pid, b, f in zip(out["reference"]["ids"], out["reference"]["broad"], out["reference"]["fine"])
            if pid in by_id
        ]
        figures[name]["reference"] = score(ref_rows, title_and_abstract)
    for part, what in (
        ("lists", f"lists of {args.size} (abstract only)"),
        ("full", "full held-out map (title + abstract)"),
        ("reference", "reference map, its own papers (title + abstract)"),
    ):
        if part not in figures["baseline"]:
            continue
        print(f"\n{what}")
        for name in trees:
            f = figures[name][part]
            extra = f"  AMI broad vs areas {f['ami']:.3f}" if "ami" in f else ""
            if "read" in f:
                extra += f"; papers read per list {f['read']}"
            if "broad_topics" in f:
                extra += f" (fine {f['ami_fine']:.3f}); {f['broad_topics']} broad topics"
            print(
                f"  {name:9s}: broad {f['broad']:.1%}  fine {f['fine']:.1%}  ({f['papers']} papers, "
                f"{f['labels']} labels, {f['words_per_label']:.2f} content words per label){extra}"
            )
        b, t = figures["baseline"][part], figures["this tree"][part]
        ratios = "  ".join(f"{k} {t[k] / b[k]:.2f}" for k in ("broad", "fine", "ami") if b.get(k))
        print(f"  this tree / baseline: {ratios}")
    (work / "figures.json").write_text(json.dumps(figures, indent=1))
    print(f"\nfigures: {work / 'figures.json'}")


if __name__ == "__main__":
    main()
