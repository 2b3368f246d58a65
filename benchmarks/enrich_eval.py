"""Score the enrich/ extractors, beside today's code (the starting commit) in the same run.

    .venv/bin/python benchmarks/enrich_eval.py [--data ../shared/data/iclr2026.jsonl.gz]
        [--gold ../shared/gold/sample_list_annotations.jsonl] [--base /tmp/paperatlas-base/src]
        [--skip-speed | --speed-only]
    .venv/bin/python benchmarks/enrich_eval.py --hand {tuning,test,both,all} [--misses tuning]
        [--base /tmp/base18/src]
    .venv/bin/python benchmarks/enrich_eval.py --realworld [../shared/realworld] [--base ...]

1. Gold (19 hand-annotated abstracts of examples/iclr2026_sample_list.txt): primary name exact
   match, kind accuracy, link precision/recall, number recall, and of the gold numbers found:
   how many are labelled "result" vs "setup" and carry a context — next to a naive baseline.
2. Silver names (benchmarks/silver.py), held-out fifth (`areas.is_held_out`): papers whose
   title is `Name: ...` with Name in the abstract, and papers that name nothing. Precision,
   recall and F1 of the primary name (a name on a paper that names nothing is a false
   positive; the acronym the abstract defines for Name counts as Name). Extraction sees the
   abstract only.
3. Silver kinds, held-out fifth: accuracy and per-kind precision/recall, beside today's code and
   "always method". The hand check of 100 of them is benchmarks/hand/kinds_100.jsonl.
4. Numbers: the hand-checked 100 quantities of benchmarks/hand/numbers_100.jsonl (random,
   held-out papers): precision of "result", how many carry a context that says what they
   measure.
5. Display titles (title hidden) against real titles: ROUGE-L F1, and 10 side-by-side examples.
7. --hand: only the 120 bare held-out abstracts labelled by hand from the abstract alone
   (benchmarks/hand/names_kinds_bare_120.jsonl, stop 18), split by sha1(id) mod 2 into a tuning
   and a test half: name exact match (null == null counts), name precision/recall/F1, kind
   accuracy and the per-kind confusion, beside --base in the same run; --misses lists a half's
   misses (only ever read the tuning half's while tuning).
8. --realworld [DIR]: only the real-world lists (../shared/realworld), titled papers with an
   abstract: names (silver from the titles that lead with one, as in 2) and kinds (silver from
   the titles, as in 3) beside --base, display titles (title hidden) against the real ones.
6. Speed: extract_facts over all papers (papers/s) against just normalising the text, and
   enrich_store into a temporary database.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import silver  # noqa: E402
from paperatlas.enrich.names import extract_names  # noqa: E402
from paperatlas.enrich.numbers import extract_numbers  # noqa: E402
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


_WORD_NUMBERS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "twenty": 20,
}


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
        matched = g_vals and all(any(abs(g - v) < 1e-9 for v in vals) for g in g_vals)
        if matched and (g_unit is None or item.get("unit") == g_unit):
            return True
    return False


from paperatlas.enrich.titles import rouge_l  # noqa: E402  (one ROUGE-L for every benchmark)


def held_out(paper_id: str) -> bool:
    """The evaluation fifth (the project's rule, `areas.is_held_out`): nothing shipped was fit
    or tuned on these papers."""
    return silver.is_held_out(paper_id)


# -- baselines (naive rules, measured in the same run) ---------------------------------------


def baseline_name(abstract: str) -> str | None:
    m = re.search(
        r"\bwe\s+(?:propose|present|introduce)\s+(?:a\s+|an\s+|the\s+)?([A-Z][\w-]+)", clean(abstract)
    )
    return m.group(1) if m else None


def baseline_links(abstract: str) -> list[str]:
    return re.findall(r"https?://\S+", abstract)


def baseline_numbers(abstract: str) -> list[dict]:
    return [
        {"value": float(x.replace(",", "")), "unit": None}
        for x in re.findall(r"\d[\d,]*(?:\.\d+)?", abstract)
    ]


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
            (a for a in abstracts if normalise_text(a).startswith(key[:40])), None
        )
        if abstract is None:
            raise SystemExit(f"{gold_path}: no paragraph starts like {g['abstract_start']!r}")
        rows.append((g, abstract))

    n = len(rows)
    name_ok = kind_ok = base_name_ok = base_kind_ok = 0
    link_tp = link_pred = link_gold = base_tp = base_pred = 0
    num_found = num_gold = base_num_found = 0
    roles_path = ROOT / "benchmarks/hand/gold_number_roles.json"
    roles = json.loads(roles_path.read_text(encoding="utf-8")) if roles_path.exists() else {}
    role_n = role_ok = said_result = right_result = with_context = 0
    shown: list[str] = []
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
        for x in g["numbers"]:
            item = next((i for i in facts["numbers"] if number_found(x, [i])), None)
            truth = roles.get(str(g["index"]), {}).get(x)
            if item is not None and truth is not None:
                role_n += 1
                role_ok += item.get("role") == truth
                said_result += item.get("role") == "result"
                right_result += item.get("role") == "result" and truth == "result"
                with_context += len(item.get("context", "").split()) > len(item["text"].split())
                shown.append(f"{item['text']!r} [{item.get('role')}] {item.get('context', '')}")
        base_num_found += sum(number_found(x, baseline_numbers(abstract)) for x in g["numbers"])
        if not ok or facts["kind"] != g["contribution_type"]:
            print(
                f"  #{g['index']:2d} name {facts['name']!r} (gold {g['primary_name']!r}), "
                f"kind {facts['kind']} (gold {g['contribution_type']})"
            )
    precision = link_tp / link_pred if link_pred else 1.0
    recall = link_tp / link_gold if link_gold else 1.0
    result = {
        "name": name_ok / n,
        "kind": kind_ok / n,
        "link_precision": precision,
        "link_recall": recall,
        "number_recall": num_found / num_gold if num_gold else 1.0,
        "baseline_name": base_name_ok / n,
        "baseline_kind": base_kind_ok / n,
        "baseline_link_precision": base_tp / base_pred if base_pred else 1.0,
        "baseline_link_recall": base_tp / link_gold if link_gold else 1.0,
        "baseline_number_recall": base_num_found / num_gold if num_gold else 1.0,
    }
    print(
        f"  primary name exact match: {result['name']:.1%} ({name_ok}/{n})   "
        f"baseline {result['baseline_name']:.1%}   target >= 95%"
    )
    print(
        f"  kind accuracy:            {result['kind']:.1%} ({kind_ok}/{n})   "
        f"baseline (always method) {result['baseline_kind']:.1%}   target >= 85%"
    )
    print(
        f"  links precision/recall:   {precision:.1%} / {recall:.1%} ({link_tp} of {link_gold} gold, "
        f"{link_pred} extracted)   baseline {result['baseline_link_precision']:.1%} / "
        f"{result['baseline_link_recall']:.1%}   target 100% / 100%"
    )
    print(
        f"  number recall:            {result['number_recall']:.1%} ({num_found}/{num_gold})   "
        f"baseline (every digit string) {result['baseline_number_recall']:.1%}   target >= 80%"
    )
    if role_n:
        print(
            f"  gold numbers found: role right {role_ok}/{role_n}, precision of 'result' "
            f"{right_result}/{said_result}, with a context beyond the number {with_context}/{role_n}"
            f"   today's code: no role, no context"
        )
        for line in shown[:8]:
            print(f"    {line}")
        result.update(
            number_role_accuracy=role_ok / role_n,
            number_result_precision=right_result / max(1, said_result),
            number_with_context=with_context / role_n,
        )
    return result


# -- 2. silver -------------------------------------------------------------------------------


def load_papers(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


_BASE_SCRIPT = r"""
import json, sys
from paperatlas.enrich.pipeline import extract_facts
out = {}
for line in sys.stdin:
    p = json.loads(line)
    f = extract_facts(None, p["abstract"])
    out[p["id"]] = {"name": f["name"], "kind": f["kind"]}
json.dump(out, sys.stdout)
"""


def base_predictions(papers: list[dict], base_src: Path) -> dict[str, dict] | None:
    """{id: {name, kind}} from today's code (the starting commit), run in a subprocess."""
    import subprocess

    if not (base_src / "paperatlas").exists():
        print(f"  (no baseline: {base_src} not found)")
        return None
    env = dict(os.environ, PYTHONPATH=str(base_src))
    feed = "".join(json.dumps({"id": p["id"], "abstract": p["abstract"]}) + "\n" for p in papers)
    run = subprocess.run(
        [sys.executable, "-c", _BASE_SCRIPT],
        input=feed,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd="/",
    )
    return json.loads(run.stdout)


def name_matches(pred: str | None, name: str, plain: str) -> bool:
    """Same name (case and plural s aside) or the acronym the abstract defines for it."""
    if not pred:
        return False
    if name_key(pred) == name_key(name):
        return True
    return bool(
        re.search(re.escape(name) + r"\s*\(\s*" + re.escape(pred) + r"\s*\)", plain)
        or re.search(re.escape(pred) + r"\s*\(\s*" + re.escape(name) + r"\s*\)", plain)
    )


def prf(rows: list[tuple[dict, str | None]], predicted: dict[str, str | None]) -> dict:
    tp = fp = fn = 0
    for p, name in rows:
        pred = predicted.get(p["id"])
        if name and name_matches(pred, name, clean(p["abstract"])):
            tp += 1
            continue
        fp += bool(pred)
        fn += bool(name)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fp": fp, "fn": fn}


def silver_names(papers: list[dict], base: dict | None) -> dict:
    df = silver.doc_freq(papers)
    rows = silver.split(silver.silver_names(papers, df), True)
    named = sum(1 for _, n in rows if n)
    print(
        f"\n== silver names, held-out: {len(rows)} papers ({named} `Name: ...` titles with Name "
        f"in the abstract, {len(rows) - named} that name nothing)"
    )
    ours = {}
    for p, _ in rows:
        got = extract_names(p["abstract"])
        ours[p["id"]] = got[0] if got else None
    result = {"count": len(rows), "named": named, "ours": prf(rows, ours)}
    lines = [("ours", result["ours"])]
    if base is not None:
        result["base"] = prf(rows, {i: b["name"] for i, b in base.items()})
        lines.append(("today's code", result["base"]))
    for label, r in lines:
        print(
            f"  {label:13s} precision {r['precision']:.3f}  recall {r['recall']:.3f}  "
            f"F1 {r['f1']:.3f}   (tp {r['tp']}, fp {r['fp']}, fn {r['fn']})"
        )
    neg = [(p, n) for p, n in rows if not n]
    false_names = sum(1 for p, _ in neg if ours[p["id"]])
    print(
        f"  papers that name nothing given a name: {false_names} of {len(neg)}"
        + (f" (today's code {sum(1 for p, _ in neg if base[p['id']]['name'])})" if base else "")
    )
    hand = ROOT / "benchmarks/hand/names_nothing_50.jsonl"
    if hand.exists():
        checked = [json.loads(x) for x in hand.read_text(encoding="utf-8").splitlines() if x.strip()]
        real = [c for c in checked if c["names"]]
        print(
            f"  hand check of the 'names nothing' label ({hand.name}): {len(real)} of "
            f"{len(checked)} random held-out ones do introduce a name "
            f"({', '.join(c['names'] for c in real)}); the silver negatives are that noisy"
        )
        result["negatives_really_named"] = len(real) / len(checked)
    print("  target: F1 >= 0.92")
    misses = [
        (p, n, ours[p["id"]])
        for p, n in rows
        if not (n and name_matches(ours[p["id"]], n, clean(p["abstract"]))) and (n or ours[p["id"]])
    ]
    print("  15 random held-out errors (silver Name | ours):")
    for _, n, got in random.Random(7).sample(misses, min(15, len(misses))):
        print(f"    {n!r:36s} | {got!r}")
    return result


def per_kind(rows, predicted) -> dict:
    out = {}
    for k in silver_kinds_order():
        tp = sum(1 for p, g in rows if g == k and predicted[p["id"]] == k)
        pred = sum(1 for p, _ in rows if predicted[p["id"]] == k)
        gold = sum(1 for _, g in rows if g == k)
        out[k] = (tp / pred if pred else 0.0, tp / gold if gold else 0.0, gold)
    return out


def silver_kinds_order():
    return ("method", "benchmark", "dataset", "analysis", "theory")


def silver_kinds(papers: list[dict], base: dict | None) -> dict:
    rows = silver.split(silver.silver_kinds(papers), True)
    ours = {p["id"]: extract_facts(None, p["abstract"])["kind"] for p, _ in rows}
    acc = sum(ours[p["id"]] == k for p, k in rows) / len(rows)
    always = sum(k == "method" for _, k in rows) / len(rows)
    result = {"count": len(rows), "accuracy": acc, "always_method": always}
    counts = {k: sum(1 for _, g in rows if g == k) for k in silver_kinds_order()}
    print(f"\n== silver kinds, held-out: {len(rows)} papers {counts}")
    print(
        f"  accuracy: ours {acc:.3f}"
        + (
            "   today's code " + f"{sum(base[p['id']]['kind'] == k for p, k in rows) / len(rows):.3f}"
            if base
            else ""
        )
        + f"   always 'method' {always:.3f}   target >= 0.85"
    )
    ours_pk = per_kind(rows, ours)
    base_pk = per_kind(rows, {i: b["kind"] for i, b in base.items()}) if base else None
    macro = sum(r for _, r, _ in ours_pk.values()) / len(ours_pk)
    result["macro_recall"] = macro
    if base:
        result["base_accuracy"] = sum(base[p["id"]]["kind"] == k for p, k in rows) / len(rows)
        result["base_macro_recall"] = sum(r for _, r, _ in base_pk.values()) / len(base_pk)
    print(
        f"  macro recall (mean over kinds): ours {macro:.3f}"
        + (f"   today's code {result['base_macro_recall']:.3f}" if base else "")
    )
    for k in silver_kinds_order():
        p_, r_, n_ = ours_pk[k]
        line = f"    {k:9s} (n={n_:4d})  precision {p_:.2f}  recall {r_:.2f}"
        if base_pk:
            line += f"   | today's code {base_pk[k][0]:.2f} / {base_pk[k][1]:.2f}"
        print(line)
    hand = ROOT / "benchmarks/hand/kinds_100.jsonl"
    if hand.exists():
        checked = [json.loads(x) for x in hand.read_text(encoding="utf-8").splitlines() if x.strip()]
        agree = sum(c["mine"] == c["silver"] for c in checked)
        ok = sum(
            c["mine"] == ours.get(c["id"], extract_facts(None, c.get("abstract", ""))["kind"])
            for c in checked
            if c["id"] in ours
        )
        print(
            f"  hand check ({hand.name}): {len(checked)} random held-out silver labels read by hand; "
            f"{len(checked) - agree} disagreed with; ours matches the hand label on {ok} of "
            f"{len(checked)}"
        )
        result["hand_disagree"] = len(checked) - agree
        result["hand_ours_ok"] = ok
    return result


HAND_BARE = ROOT / "benchmarks/hand/names_kinds_bare_120.jsonl"


def hand_half(paper_id: str) -> str:
    """The tuning/test split of the bare hand set, fixed before any tuning: sha1(id) mod 2."""
    return "tuning" if int(hashlib.sha1(paper_id.encode("utf-8")).hexdigest(), 16) % 2 == 0 else "test"


def hand_name_ok(pred: str | None, gold: dict, plain: str) -> bool:
    """Null for null; else the gold name or its own acronym/expansion (`alt`), as name_matches."""
    if not gold["name"]:
        return not pred
    return any(name_matches(pred, n, plain) for n in [gold["name"], *gold["alt"]])


def hand_scores(rows: list[tuple[dict, dict]], pred: dict[str, dict]) -> dict:
    """Name exact match (null==null counts), name P/R/F1, kind accuracy and confusion."""
    exact = tp = fp = fn = also = kind_ok = 0
    confusion: dict[tuple[str, str], int] = {}
    for p, g in rows:
        got = pred[p["id"]]
        plain = clean(p["abstract"])
        ok = hand_name_ok(got["name"], g, plain)
        exact += ok
        if g["name"] and ok:
            tp += 1
        else:
            fp += bool(got["name"])
            fn += bool(g["name"])
        also += not ok and any(name_matches(got["name"], n, plain) for n in g.get("also", []))
        kind_ok += got["kind"] == g["kind"]
        key = (g["kind"], got["kind"])
        confusion[key] = confusion.get(key, 0) + 1
    n = len(rows)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return {
        "n": n,
        "exact": exact / n,
        "precision": precision,
        "recall": recall,
        "f1": 2 * precision * recall / (precision + recall) if precision + recall else 0.0,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "other_name_of_paper": also,
        "kind": kind_ok / n,
        "confusion": confusion,
    }


def eval_hand(papers: list[dict], base_src: Path, halves: list[str], misses: str | None) -> dict:
    """The 120 bare held-out abstracts labelled by hand from the abstract alone (stop 18)."""
    gold = [json.loads(x) for x in HAND_BARE.read_text(encoding="utf-8").splitlines() if x.strip()]
    by_id = {p["id"]: p for p in papers}
    rows = [(by_id[g["id"]], g) for g in gold]
    ours = {}
    for p, _ in rows:
        f = extract_facts(None, p["abstract"])
        ours[p["id"]] = {"name": f["name"], "kind": f["kind"]}
    base = base_predictions([p for p, _ in rows], base_src)
    result: dict = {}
    print(f"\n== hand set, bare abstracts ({HAND_BARE.name}: {len(rows)} held-out papers)")
    for half in halves:
        part = [(p, g) for p, g in rows if half == "all" or hand_half(p["id"]) == half]
        named = sum(1 for _, g in part if g["name"])
        print(f"  {half} half: {len(part)} papers, {named} name something")
        result[half] = {"ours": hand_scores(part, ours)}
        if base is not None:
            result[half]["base"] = hand_scores(part, base)
        for label, key in (("ours", "ours"), ("base", "base")):
            if key not in result[half]:
                continue
            r = result[half][key]
            print(
                f"    {label:5s} name exact {r['exact']:.3f}  P {r['precision']:.3f}  R {r['recall']:.3f}  "
                f"F1 {r['f1']:.3f} (tp {r['tp']}, fp {r['fp']}, fn {r['fn']}; another name of the "
                f"paper {r['other_name_of_paper']})   kind accuracy {r['kind']:.3f}"
            )
        for label, key in (("ours", "ours"), ("base", "base")):
            if key not in result[half]:
                continue
            conf = result[half][key]["confusion"]
            print(f"    {label} kinds, gold -> predicted:")
            for k in silver_kinds_order():
                gold_n = sum(v for (g, _), v in conf.items() if g == k)
                pred_n = sum(v for (_, q), v in conf.items() if q == k)
                right = conf.get((k, k), 0)
                cells = ", ".join(f"{q} {v}" for (g, q), v in sorted(conf.items()) if g == k and q != k)
                print(
                    f"      {k:9s} n={gold_n:3d}  precision {right / pred_n if pred_n else 0:.2f}  "
                    f"recall {right / gold_n if gold_n else 0:.2f}" + (f"   wrong: {cells}" if cells else "")
                )
    if misses:
        print(f"  name/kind misses of the {misses} half (gold | ours):")
        for p, g in rows:
            if hand_half(p["id"]) != misses:
                continue
            got = ours[p["id"]]
            bad_name = not hand_name_ok(got["name"], g, clean(p["abstract"]))
            if bad_name or got["kind"] != g["kind"]:
                print(
                    f"    {p['id']} name {g['name']!r} | {got['name']!r}"
                    + ("  X" if bad_name else "")
                    + f"   kind {g['kind']} | {got['kind']}"
                    + ("  X" if got["kind"] != g["kind"] else "")
                )
    return result


def eval_numbers(papers: list[dict]) -> dict:
    """The hand-checked quantities: one random quantity of each of 100 random held-out papers,
    its role read by hand, and whether the context shown then said what it measures. A
    context that has changed since the hand check is counted apart (not judged)."""
    hand = ROOT / "benchmarks/hand/numbers_100.jsonl"
    if not hand.exists():
        return {}
    rows = [json.loads(x) for x in hand.read_text(encoding="utf-8").splitlines() if x.strip()]
    by_id = {p["id"]: p for p in papers}
    said_result = right_result = role_ok = context_ok = changed = missing = 0
    for r in rows:
        items = extract_numbers(clean(by_id[r["id"]]["abstract"]), limit=50)
        item = next((i for i in items if i["text"] == r["text"]), None)
        if item is None:
            missing += 1
            continue
        said_result += item["role"] == "result"
        right_result += item["role"] == "result" and r["role"] == "result"
        role_ok += item["role"] == r["role"]
        if item["context"] != r["judged_context"]:
            changed += 1
        elif r["context_ok"]:
            context_ok += 1
    n = len(rows)
    print(
        f"\n== numbers: {n} hand-checked quantities, one from each of {n} random held-out papers "
        f"({hand.name})"
    )
    print(
        f"  role (result/setup) right: {role_ok}/{n}; precision of 'result': {right_result}/"
        f"{said_result} = {right_result / max(1, said_result):.2f}; context says what it "
        f"measures: {context_ok}/{n} ({changed} contexts changed since the hand check, "
        f"{missing} quantities no longer extracted)   today's code: no role, no context"
    )
    return {
        "role_accuracy": role_ok / n,
        "result_precision": right_result / max(1, said_result),
        "with_context": context_ok / n,
    }


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
    print(
        f"  ROUGE-L F1: {mean:.3f}   baseline (first 12 words of the abstract) {base:.3f}   "
        f"ratio {mean / base:.2f}"
    )
    print(f"  longest display title: {max(lengths)} chars (limit 110)")
    for real, shown in random.Random(3).sample(rows, 10):
        print(f"    real: {real}\n    ours: {shown}\n")
    return {"rouge_l": mean, "baseline": base, "max_len": max(lengths)}


# -- 3. speed --------------------------------------------------------------------------------

_BASE_SPEED = r"""
import json, sys, time
from paperatlas.enrich.pipeline import extract_facts
rows = [json.loads(line) for line in sys.stdin]
cpu = time.process_time()
for p in rows:
    extract_facts(p.get("title"), p["abstract"])
print(len(rows) / (time.process_time() - cpu))
"""


def _base_cpu_rate(papers: list[dict], base_src: Path) -> float | None:
    """Papers per CPU-second of today's code (the starting commit), in a subprocess."""
    import subprocess

    if not (base_src / "paperatlas").exists():
        return None
    feed = "".join(json.dumps({"title": p.get("title"), "abstract": p["abstract"]}) + "\n" for p in papers)
    run = subprocess.run(
        [sys.executable, "-c", _BASE_SPEED],
        input=feed,
        capture_output=True,
        text=True,
        check=True,
        cwd="/",
        env=dict(os.environ, PYTHONPATH=str(base_src)),
    )
    return float(run.stdout.strip().splitlines()[-1])


def speed(papers: list[dict], base_src: Path = Path("/tmp/paperatlas-base/src")) -> dict:
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
    print(
        f"  extract_facts, one process: {rate:,.0f} papers/s wall ({cpu_rate:,.0f} per CPU-second)   "
        f"baseline (normalise_text only) {base:,.0f} papers/s   ratio {rate / base:.3f}"
    )
    base_cpu = _base_cpu_rate(papers, base_src)
    if base_cpu:
        print(
            f"  today's code, extract_facts over the same papers: {base_cpu:,.0f} per CPU-second   "
            f"ratio ours/today {cpu_rate / base_cpu:.2f}"
        )

    from paperatlas.enrich import pipeline
    from paperatlas.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "atlas.db")
        with store.transaction():
            for p in papers:
                store.papers.insert({"id": p["id"], "title": p["title"], "abstract": p["abstract"]})
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
    print(
        f"  enrich_store, all papers into SQLite ({workers} worker processes, areas off): "
        f"{store_rate:,.0f} papers/s   target >= 300 papers/s; a second run skips "
        f"{again['skipped']} unchanged papers in {rerun:.2f} s"
    )
    return {"extract_facts": rate, "cpu_rate": cpu_rate, "baseline": base, "enrich_store": store_rate}


def eval_realworld(folder: Path, base_src: Path) -> None:
    """Names on lists from elsewhere (arXiv digests, a DAC program, a Zotero library, ...): the
    silver name of a titled paper is the coined word its title leads with ("Name: ...",
    `names.title_name`) when the abstract holds it; extraction sees the abstract only. Papers
    whose title leads with no name are counted apart: many of them still introduce one
    ("Xception: ..." reads as an ordinary word to title_name), so that count is not an error rate."""
    from paperatlas.enrich.names import title_name
    from paperatlas.sources import read

    rows: list[tuple[dict, str | None]] = []
    truth = (folder / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    for path in sorted(folder / json.loads(line)["file"] for line in truth if line.strip()):
        for i, paper in enumerate(read(path)):
            abstract, title = paper.abstract or "", paper.title or ""
            if title and len(abstract.strip()) >= 100:
                name = title_name(title)
                rows.append(
                    (
                        {"id": f"{path.name}#{i}", "abstract": abstract, "title": title},
                        name if name and name in abstract else None,
                    )
                )
    named = [r for r in rows if r[1]]
    print(
        f"\n== names on the real-world lists of {folder}: {len(rows)} titled papers with an abstract, "
        f"{len(named)} whose title leads with a name the abstract holds"
    )
    facts = {p["id"]: extract_facts(None, p["abstract"]) for p, _ in rows}
    systems = {"ours": {pid: f["name"] for pid, f in facts.items()}}
    base = base_predictions([p for p, _ in rows], base_src)
    if base is not None:
        systems["today's code"] = {pid: v["name"] for pid, v in base.items()}
    for label, pred in systems.items():
        r = prf(named, pred)
        others = sum(1 for p, n in rows if not n and pred.get(p["id"]))
        print(
            f"  {label:13s} precision {r['precision']:.3f}  recall {r['recall']:.3f}  F1 {r['f1']:.3f}   "
            f"(tp {r['tp']}, fp {r['fp']}, fn {r['fn']}); titles leading with no name given one: "
            f"{others} of {len(rows) - len(named)}"
        )
    kinds = [(p, k) for p, _ in rows if (k := silver.kind_label(p))]
    print(f"  kinds (silver from {len(kinds)} titles of a telling shape, as in 3):")
    kind_systems = {"ours": {pid: f["kind"] for pid, f in facts.items()}, "always 'method'": {}}
    if base is not None:
        kind_systems["today's code"] = {pid: v["kind"] for pid, v in base.items()}
    for label, pred in kind_systems.items():
        right = sum(pred.get(p["id"], "method") == k for p, k in kinds)
        per_kind = ", ".join(
            f"{kind} {sum(pred.get(p['id'], 'method') == k for p, k in kinds if k == kind)}/{n}"
            for kind, n in Counter(k for _, k in kinds).most_common()
        )
        print(f"    {label:15s} accuracy {right / max(1, len(kinds)):.3f} ({right}/{len(kinds)}; {per_kind})")
    first = [" ".join(p["abstract"].split()[:12]) for p, _ in rows]
    shown = [facts[p["id"]]["display_title"] or "" for p, _ in rows]
    for label, titles in (("ours", shown), ("first 12 words", first)):
        score = sum(rouge_l(t, p["title"]) for t, (p, _) in zip(titles, rows)) / max(1, len(rows))
        print(f"  display titles (title hidden) vs real, {label:14s} ROUGE-L {score:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT / "../shared/data/iclr2026.jsonl.gz")
    ap.add_argument("--gold", type=Path, default=ROOT / "../shared/gold/sample_list_annotations.jsonl")
    ap.add_argument("--sample", type=Path, default=ROOT / "examples/iclr2026_sample_list.txt")
    ap.add_argument(
        "--base",
        type=Path,
        default=Path("/tmp/paperatlas-base/src"),
        help="today's code (the starting commit), run beside ours",
    )
    ap.add_argument(
        "--hand",
        choices=("tuning", "test", "both", "all"),
        help="only the bare hand set (benchmarks/hand/names_kinds_bare_120.jsonl), this half",
    )
    ap.add_argument("--misses", choices=("tuning", "test"), help="with --hand: list that half's misses")
    ap.add_argument(
        "--realworld",
        type=Path,
        nargs="?",
        const=ROOT / "../shared/realworld",
        help="only the real-world lists in this folder (default ../shared/realworld): names, kinds, titles",
    )
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--speed-only", action="store_true")
    args = ap.parse_args()
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    if args.realworld:
        eval_realworld(args.realworld, args.base)
        return
    papers = load_papers(args.data)
    if args.hand:
        halves = ["tuning", "test"] if args.hand == "both" else [args.hand]
        eval_hand(papers, args.base, halves, args.misses)
        return
    if not args.speed_only:
        eval_gold(args.gold, args.sample)
        held = [p for p in papers if silver.is_held_out(p["id"])]
        base = base_predictions(held, args.base)
        silver_names(papers, base)
        silver_kinds(papers, base)
        eval_numbers(papers)
        silver_titles(papers)
    if not args.skip_speed:
        speed(papers, args.base)


if __name__ == "__main__":
    main()
