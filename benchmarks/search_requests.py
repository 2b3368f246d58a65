"""Search for a topic wrapped in a request ("有哪些关于…的论文？", "papers about …") or typed in
traditional characters: known-item MRR@10 with the query made ready (request words cut,
search/framing.py; traditional written as simplified, search/chinese_text.py) and searched
as typed, in the same run.

    PAPERATLAS_BENCH_CACHE=... nice .venv/bin/python benchmarks/search_requests.py
        [--split tune|test|both] [--sets B C D]

The hand-written Chinese and paraphrase known-item queries (benchmarks/queries/known, over
the abstract-only held-out atlas of search_known.py) are each wrapped in every request of
benchmarks/queries/requests.json ("{}" is the query): Chinese ones in its "zh" requests,
English ones in its "en" requests. For each request: MRR@10 of the library's search with
`framing.topic_part` (the default) and without it (the query searched as typed, request
words and all), in the same run; the bare queries give the ceiling. Set D of the file was
written after the word lists were last changed: it is the held-out figure. Traditional:
each Chinese query converted by OpenCC's s2t (simplified to traditional, the library's
other direction), searched with and without the conversion back.
"""

from __future__ import annotations

import argparse
import json
import statistics

import opencc

from paperatlas import search as S
from paperatlas.store import Store
from search_common import CACHE, REPO
from search_known import KNOWN, split_of
from search_zh_tune import evaluate

REQUESTS = REPO / "benchmarks" / "queries" / "requests.json"


# the query as typed: the words asking for papers kept, or traditional characters kept
KEEP_FRAMING = S.SearchConfig(topic_framing=False)
KEEP_TRADITIONAL = S.SearchConfig(simplify=False)


def mrr(
    store, queries: list[dict], template: str, glossary: bool = True, config: S.SearchConfig = S.SHIPPED
) -> float:
    """MRR@10 of the queries, each wrapped in `template`, searched with `config`."""
    wrapped = [{**q, "query": template.format(q["query"])} for q in queries]
    return evaluate(store, wrapped, glossary, config)[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=str(CACHE / "search" / "heldout_abstracts.db"))
    ap.add_argument("--split", choices=("tune", "test", "both"), default="both")
    ap.add_argument("--sets", nargs="+", default=["B", "C", "D"])
    args = ap.parse_args()
    store = Store(args.db, read_only=True)
    requests = json.loads(REQUESTS.read_text(encoding="utf-8"))
    splits = ("tune", "test") if args.split == "both" else (args.split,)
    for split in splits:
        load = {
            lang: [
                q
                for q in map(json.loads, (KNOWN / name).read_text(encoding="utf-8").splitlines())
                if split_of(q["target"]) == split
            ]
            for lang, name in (("zh", "chinese.jsonl"), ("en", "paraphrase.jsonl"))
        }
        print(
            f"\n== {split} half: {len(load['zh'])} Chinese, {len(load['en'])} English paraphrase queries =="
        )
        bare = {"zh": mrr(store, load["zh"], "{}"), "en": mrr(store, load["en"], "{}")}
        bare_off = mrr(store, load["zh"], "{}", glossary=False)
        print(
            f"bare queries: Chinese {bare['zh']:.3f} (glossary off {bare_off:.3f}), English {bare['en']:.3f}"
        )
        for name in args.sets:
            means: dict[str, list[float]] = {}
            for lang in ("zh", "en"):
                for template in requests[name][lang]:
                    settings = [("on", True)] + ([("off", False)] if lang == "zh" else [])
                    for label, glossary in settings:
                        cut = mrr(store, load[lang], template, glossary)
                        whole = mrr(store, load[lang], template, glossary, KEEP_FRAMING)
                        key = f"{lang} {label}" if lang == "zh" else lang
                        means.setdefault(key + " cut", []).append(cut)
                        means.setdefault(key + " whole", []).append(whole)
                        print(f"  set {name} {key:<7} {template:<36} cut {cut:.3f}  as typed {whole:.3f}")
            summary = ", ".join(
                f"{key}: cut {statistics.fmean(means[key + ' cut']):.3f} vs as typed "
                f"{statistics.fmean(means[key + ' whole']):.3f}"
                for key in ("zh on", "zh off", "en")
            )
            print(f"set {name} ({split}) mean MRR@10 — {summary}")
        to_traditional = opencc.OpenCC("s2t").convert
        traditional = [{**q, "query": to_traditional(q["query"])} for q in load["zh"]]
        for label, glossary in (("on", True), ("off", False)):
            ready = mrr(store, traditional, "{}", glossary)
            typed = mrr(store, traditional, "{}", glossary, KEEP_TRADITIONAL)
            print(
                f"traditional ({split}), glossary {label}: written simplified {ready:.3f} vs as typed {typed:.3f}"
            )


if __name__ == "__main__":
    main()
