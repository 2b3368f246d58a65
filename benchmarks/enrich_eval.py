"""Score the enrich/ extractors.

    .venv/bin/python benchmarks/enrich_eval.py [--data ../shared/data/iclr2026.jsonl.gz]
        [--gold ../shared/gold/sample_list_annotations.jsonl] [--skip-speed | --speed-only]

1. Gold (19 hand-annotated abstracts of examples/iclr2026_sample_list.txt): primary name exact
   match (case-insensitive, plural s tolerated), kind accuracy, link precision/recall, number
   recall — next to a naive baseline measured in the same run.
2. Silver (ICLR 2026 papers whose real title starts with `Name:` and whose abstract contains
   Name): extracted primary name == Name, on the held-out fifth of papers (ids hashed; the
   rules were tuned on the other four fifths). Display titles (built with the title hidden)
   against the real titles: ROUGE-L F1, and 10 side-by-side examples.
3. Speed: extract_facts over all papers (papers/s) against just normalising the text, and
   enrich_store into a temporary database.
"""

from __future__ import annotations

import argparse
import gzip
import os
import hashlib
import json
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paperatlas.enrich.names import extract_names  # noqa: E402
from paperatlas.enrich.pipeline import extract_facts  # noqa: E402
from paperatlas.enrich.text import clean  # noqa: E402
from paperatlas.paper import normalise_text  # noqa: E402


# -- helpers ---------------------------------------------------------------------------------

def name_key(name: str | None) -> str | None:
    if not name:
        return None
    k = name.strip().lower()
    return k[:-1] if len(k) > 3 and k.endswith("s") else k


def url_key(url: str) -> str:
    u = re.sub(r"^(?:https?|ftp)://", "", url.strip().lower())
    return u.removeprefix("www.").rstrip("/")


_WORD_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20}


def number_values(text: str) -> list[float]:
    low = text.lower()
    if low in _WORD_NUMBERS:
        return [float(_WORD_NUMBERS[low])]
    return [float(x.replace(",", "")) for x in re.findall(r"\d[\d,]*(?:\.\d+)?", text)]


def number_found(gold: str, extracted: list[dict]) -> bool:
    """A gold quantity is found when an extracted one has the same value(s) (and unit, if any)."""
    g_vals = number_values(gold)
    g_unit = "%" if "%" in gold else "×" if re.search(r"\d\s*(?:x|×|times)", gold) else None
    for item in extracted:
        vals = [item["value"]] + ([item["value_to"]] if item.get("value_to") is not None else [])
        if g_vals and all(any(abs(g - v) < 1e-9 for v in vals) for g in g_vals):
            if g_unit is None or item.get("unit") == g_unit:
                return True
    return False


def rouge_l(candidate: str, reference: str) -> float:
    """ROUGE-L F1 over lower-cased word tokens (longest common subsequence)."""
    a = re.findall(r"\w+", candidate.lower())
    b = re.findall(r"\w+", reference.lower())
    if not a or not b:
        return 0.0
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    lcs = prev[-1]
    if lcs == 0:
        return 0.0
    p, r = lcs / len(a), lcs / len(b)
    return 2 * p * r / (p + r)


def held_out(paper_id: str) -> bool:
    """The evaluation fifth: the name rules were tuned only on papers where this is False."""
    return int(hashlib.sha1(paper_id.encode()).hexdigest(), 16) % 5 == 0


# -- baselines (naive rules, measured in the same run) ---------------------------------------

def baseline_name(abstract: str) -> str | None:
    m = re.search(r"\bwe\s+(?:propose|present|introduce)\s+(?:a\s+|an\s+|the\s+)?([A-Z][\w-]+)",
                  clean(abstract))
    return m.group(1) if m else None


def baseline_links(abstract: str) -> list[str]:
    return re.findall(r"https?://\S+", abstract)


def baseline_numbers(abstract: str) -> list[dict]:
    return [{"value": float(x.replace(",", "")), "unit": None}
            for x in re.findall(r"\d[\d,]*(?:\.\d+)?", abstract)]


def baseline_title(abstract: str) -> str:
    first = re.split(r"(?<=[.!?])\s", clean(abstract), maxsplit=1)[0]
    return " ".join(first.split()[:12])


# -- 1. gold ---------------------------------------------------------------------------------

def read_sample_list(path: Path) -> list[str]:
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))]
    paragraphs = [p for p in paragraphs if p]
    return paragraphs[1:]  # the first paragraph is the list's header line


def eval_gold(gold_path: Path, sample_path: Path) -> dict:
    gold = [json.loads(line) for line in gold_path.read_text(encoding="utf-8").splitlines() if line]
    abstracts = read_sample_list(sample_path)
    by_start = {normalise_text(a)[:60]: a for a in abstracts}
    rows = []
    for g in gold:
        key = normalise_text(g["abstract_start"])[:60]
        abstract = by_start.get(key) or next(
            (a for a in abstracts if normalise_text(a).startswith(key[:40])), None)
        if abstract is None:
            raise SystemExit(f"{gold_path}: no paragraph starts like {g['abstract_start']!r}")
        rows.append((g, abstract))

    n = len(rows)
    name_ok = kind_ok = base_name_ok = base_kind_ok = 0
    link_tp = link_pred = link_gold = base_tp = base_pred = 0
    num_found = num_gold = base_num_found = 0
    print(f"\n== gold: {n} abstracts ({gold_path})")
    for g, abstract in rows:
        facts = extract_facts(None, abstract)
        ok = name_key(facts["name"]) == name_key(g["primary_name"])
        name_ok += ok
        base_name_ok += name_key(baseline_name(abstract)) == name_key(g["primary_name"])
        kind_ok += facts["kind"] == g["contribution_type"]
        base_kind_ok += g["contribution_type"] == "method"
        gold_links = {url_key(u) for u in g["links"]}
        pred_links = {url_key(link["url"]) for link in facts["links"]}
        link_tp += len(gold_links & pred_links)
        link_pred += len(pred_links)
        link_gold += len(gold_links)
        base = {url_key(u) for u in baseline_links(abstract)}
        base_tp += len(gold_links & base)
        base_pred += len(base)
        num_gold += len(g["numbers"])
        num_found += sum(number_found(x, facts["numbers"]) for x in g["numbers"])
        base_num_found += sum(number_found(x, baseline_numbers(abstract)) for x in g["numbers"])
        if not ok or facts["kind"] != g["contribution_type"]:
            print(f"  #{g['index']:2d} name {facts['name']!r} (gold {g['primary_name']!r}), "
                  f"kind {facts['kind']} (gold {g['contribution_type']})")
    precision = link_tp / link_pred if link_pred else 1.0
    recall = link_tp / link_gold if link_gold else 1.0
    result = {
        "name": name_ok / n, "kind": kind_ok / n, "link_precision": precision,
        "link_recall": recall, "number_recall": num_found / num_gold if num_gold else 1.0,
        "baseline_name": base_name_ok / n, "baseline_kind": base_kind_ok / n,
        "baseline_link_precision": base_tp / base_pred if base_pred else 1.0,
        "baseline_link_recall": base_tp / link_gold if link_gold else 1.0,
        "baseline_number_recall": base_num_found / num_gold if num_gold else 1.0,
    }
    print(f"  primary name exact match: {result['name']:.1%} ({name_ok}/{n})   "
          f"baseline {result['baseline_name']:.1%}   target >= 95%")
    print(f"  kind accuracy:            {result['kind']:.1%} ({kind_ok}/{n})   "
          f"baseline (always method) {result['baseline_kind']:.1%}   target >= 85%")
    print(f"  links precision/recall:   {precision:.1%} / {recall:.1%} ({link_tp} of {link_gold} gold, "
          f"{link_pred} extracted)   baseline {result['baseline_link_precision']:.1%} / "
          f"{result['baseline_link_recall']:.1%}   target 100% / 100%")
    print(f"  number recall:            {result['number_recall']:.1%} ({num_found}/{num_gold})   "
          f"baseline (every digit string) {result['baseline_number_recall']:.1%}   target >= 80%")
    return result


# -- 2. silver -------------------------------------------------------------------------------

def load_papers(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def silver_names(papers: list[dict]) -> dict:
    examples = []
    for p in papers:
        m = re.match(r"^([^:]{1,60}):\s", p["title"])
        if not m:
            continue
        name = clean(m.group(1)).strip()
        if name and name in clean(p["abstract"]):
            examples.append((p, name))
    result = {}
    print(f"\n== silver names: {len(examples)} papers whose title is `Name: ...` with Name in the abstract")
    for split in ("held-out", "tuning"):
        part = [(p, n) for p, n in examples if held_out(p["id"]) == (split == "held-out")]
        hits = alias_hits = base_hits = 0
        misses = []
        for p, name in part:
            got = extract_names(p["abstract"])
            top = got[0] if got else None
            if name_key(top) == name_key(name):
                hits += 1
            else:
                misses.append((p, name, got))
                # "Guided Query Refinement (GQR)": the acronym the abstract defines for Name
                if top and re.search(re.escape(name) + r"\s*\(\s*" + re.escape(top) + r"\s*\)",
                                     clean(p["abstract"])):
                    alias_hits += 1
            base_hits += name_key(baseline_name(p["abstract"])) == name_key(name)
        rate = hits / len(part)
        result[split] = {"count": len(part), "rate": rate,
                         "rate_with_acronyms": (hits + alias_hits) / len(part),
                         "baseline": base_hits / len(part)}
        print(f"  {split:8s}: {len(part)} papers, primary name == Name: {rate:.1%}"
              f"  (counting the abstract's own acronym for Name as a match: "
              f"{(hits + alias_hits) / len(part):.1%})   baseline {base_hits / len(part):.1%}"
              f"   target >= 85%")
        if split == "held-out":
            print("  20 random held-out misses (Name | extracted names):")
            for p, name, got in random.Random(7).sample(misses, min(20, len(misses))):
                print(f"    {name!r:40s} | {got[:3]}")
    return result


def silver_titles(papers: list[dict], limit: int = 2000) -> dict:
    part = [p for p in papers if held_out(p["id"]) and len(p["abstract"]) > 200][:limit]
    scores, base_scores, rows = [], [], []
    for p in part:
        shown = extract_facts(None, p["abstract"])["display_title"]
        scores.append(rouge_l(shown, p["title"]))
        base_scores.append(rouge_l(baseline_title(p["abstract"]), p["title"]))
        rows.append((p["title"], shown))
    mean = sum(scores) / len(scores)
    base = sum(base_scores) / len(base_scores)
    lengths = [len(r[1]) for r in rows]
    print(f"\n== display titles (title hidden) vs real titles, {len(part)} held-out papers")
    print(f"  ROUGE-L F1: {mean:.3f}   baseline (first 12 words of the abstract) {base:.3f}   "
          f"ratio {mean / base:.2f}")
    print(f"  longest display title: {max(lengths)} chars (limit 110)")
    for real, shown in random.Random(3).sample(rows, 10):
        print(f"    real: {real}\n    ours: {shown}\n")
    return {"rouge_l": mean, "baseline": base, "max_len": max(lengths)}


# -- 3. speed --------------------------------------------------------------------------------

def speed(papers: list[dict]) -> dict:
    print(f"\n== speed over {len(papers)} papers")
    t = time.perf_counter()
    for p in papers:
        normalise_text(p["abstract"])
    base = len(papers) / (time.perf_counter() - t)
    t, cpu = time.perf_counter(), time.process_time()
    for p in papers:
        extract_facts(p.get("title"), p["abstract"])
    rate = len(papers) / (time.perf_counter() - t)
    cpu_rate = len(papers) / (time.process_time() - cpu)
    print(f"  extract_facts, one process: {rate:,.0f} papers/s wall ({cpu_rate:,.0f} per CPU-second)   "
          f"baseline (normalise_text only) {base:,.0f} papers/s   ratio {rate / base:.3f}")

    from paperatlas.enrich import pipeline
    from paperatlas.store import Store
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "atlas.db")
        with store.transaction():
            for p in papers:
                store.insert_paper({"id": p["id"], "title": p["title"], "abstract": p["abstract"]})
        predictor = pipeline._area_predictor
        pipeline._area_predictor = lambda: None  # the area classifier is timed by its own benchmark
        try:
            t = time.perf_counter()
            counts = pipeline.enrich_store(store)
            store_rate = counts["enriched"] / (time.perf_counter() - t)
            workers = pipeline._worker_count(counts["enriched"])
            t = time.perf_counter()
            again = pipeline.enrich_store(store)
            rerun = time.perf_counter() - t
        finally:
            pipeline._area_predictor = predictor
        store.close()
    print(f"  enrich_store, all papers into SQLite ({workers} worker processes, areas off): "
          f"{store_rate:,.0f} papers/s   target >= 300 papers/s; a second run skips "
          f"{again['skipped']} unchanged papers in {rerun:.2f} s")
    return {"extract_facts": rate, "cpu_rate": cpu_rate, "baseline": base,
            "enrich_store": store_rate}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT / "../shared/data/iclr2026.jsonl.gz")
    ap.add_argument("--gold", type=Path, default=ROOT / "../shared/gold/sample_list_annotations.jsonl")
    ap.add_argument("--sample", type=Path, default=ROOT / "examples/iclr2026_sample_list.txt")
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--speed-only", action="store_true")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    papers = load_papers(args.data)
    if not args.speed_only:
        eval_gold(args.gold, args.sample)
        silver_names(papers)
        silver_titles(papers)
    if not args.skip_speed:
        speed(papers)


if __name__ == "__main__":
    main()
