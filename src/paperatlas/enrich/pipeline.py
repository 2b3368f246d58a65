"""Run the extractors: `extract_facts` for one paper (pure), `enrich_store` over a store.

The facts schema is in docs/DEVELOPING.md ("The facts a paper carries").
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from paperatlas.enrich.gist import display_title, pick_gist
from paperatlas.enrich.keyphrases import extract_keyphrases
from paperatlas.enrich.kinds import classify_kind
from paperatlas.enrich.links import extract_links
from paperatlas.enrich.names import extract_names, with_title_name
from paperatlas.enrich.numbers import extract_numbers
from paperatlas.enrich.text import clean, sentences
from paperatlas.errors import PaperatlasError
from paperatlas.identifiers import link_kind
from paperatlas.paper import text_hash
from paperatlas.progress import OwnPace, pace_of_pool, progress_bar, two_stage_fields
from paperatlas.workers import InOrder

# Bump when any extractor's output changes: stored facts of an older version are redone.
EXTRACTOR_VERSION = "5"  # 2: learned names and kinds, number role/context, Chinese text
# 3: the list's own code links (Paper.code_urls) are links of the paper (has_code)
# 4: display titles trimmed by title_trim; areas blend the static-vector classifier
# 5: names (cited, en-dash pairs, descriptive compounds, intro verbs within their clause,
#    background acronyms), kinds' rule blend, display titles without broken pieces
BATCH = 500
PARALLEL_FROM = 3000  # papers to do before worker processes pay for their start-up


def extract_facts(title: str | None, abstract: str, code_urls: Iterable[str] = ()) -> dict[str, Any]:
    """Everything the abstract says about its contribution, as a facts dict (no area).
    A title-only paper (no abstract) is read from its title: names, keyphrases; no kind, no gist.
    `code_urls`, the code/project/data links the list gives beside the paper, are links of
    the paper too (typed by identifiers.link_kind), after those the abstract writes."""
    raw = abstract or ""
    title_only = not raw.strip() and bool(title)
    if title_only:
        raw = title or ""
    plain = clean(raw)
    sents = sentences(plain)
    names = with_title_name(extract_names(raw, plain), title)  # "NeuralFur: ..." names it
    name = names[0] if names else None
    kind, kinds = (None, []) if title_only else classify_kind(sents, name)  # a title says too little
    links = _with_list_links(extract_links(raw), code_urls)
    gist = "" if title_only else pick_gist(sents, name)
    return {
        "name": name,
        "names": names,
        "kind": kind,
        "kinds": kinds,
        "numbers": extract_numbers(plain),
        "links": links,
        "has_code": any(link["type"] == "code" for link in links),
        "gist": gist,
        "display_title": display_title(title, sents, name, gist),
        "keyphrases": extract_keyphrases(plain, clean(title) if title else None),
    }


def _with_list_links(links: list[dict], code_urls: Iterable[str]) -> list[dict]:
    """The abstract's links, then the list's own links not already among them."""
    seen = {_link_key(link["url"]) for link in links}
    out = list(links)
    for url in code_urls or ():
        key = _link_key(url)
        if not url or key in seen:
            continue
        seen.add(key)
        kind = link_kind(url)
        out.append({"url": url, "type": "project" if kind == "other" else kind})
    return out


def _link_key(url: str) -> str:
    return re.sub(r"^(?:https?|ftp)://", "", url.strip(), flags=re.I).lower().removeprefix("www.").rstrip("/")


def facts_hash(title: str | None, abstract: str, code_urls: Iterable[str] = ()) -> str:
    """Hash of what the facts are read from (the list's links only when it gives some,
    so a paper without them keeps the hash it had)."""
    links = "\n".join(code_urls or ())
    return text_hash(f"{title or ''}\n{abstract or ''}" + (f"\n{links}" if links else ""))


def _area_predictor():
    """The area classifier's predict function (tests and enrich_eval swap it for None or a
    fake; an untrained model is found when it is first called)."""
    from paperatlas.enrich.areas import predict_areas

    return predict_areas


# (id, title, abstract, the list's code links, facts_hash): a paper as enrich reads it
Item = tuple[str, str | None, str, list[str], str]
PAGE = 2000  # papers read from the store at a time


@dataclass
class EnrichPlan:
    """What a run will do: the facts version it stores (with "+areas" when the area
    classifier is used), papers to do and in the store, and why areas are left out."""

    version: str
    use_areas: bool
    todo: int
    total: int
    force: bool
    area_problem: str | None = None

    def counts(self) -> dict[str, Any]:
        counts: dict[str, Any] = {
            "total": self.total,
            "enriched": 0,
            "skipped": self.total - self.todo,
            "named": 0,
            "with_code": 0,
            "with_area": 0,
        }
        if self.area_problem:
            counts["area_problem"] = self.area_problem
        return counts


def _scan(store, version: str | None) -> Iterator[Item]:
    """The papers to do, in rowid order, read a page at a time with the hash of what their
    facts are read from: those without current facts of `version` (what facts_pending
    counts: none, of another version, or made stale by a changed text or links), every
    paper when `version` is None (force). Memory is one page whatever the store's size,
    and papers already done are passed over inside SQLite: a rerun reads only the rest."""
    after = 0
    while page := store.facts.inputs_page(after, PAGE, version):
        for _, pid, title, abstract, code_json, _, _ in page:
            code = json.loads(code_json) if code_json and code_json != "[]" else []
            yield pid, title, abstract, code, facts_hash(title, abstract, code)
        after = page[-1][0]


def pending_batches(store, plan: EnrichPlan, size: int | None = None) -> Iterator[list[Item]]:
    """The papers `plan` does, in store order, in batches of `size` (default BATCH), read
    as consumed (a consumer may store a batch's facts before taking the next: pages
    follow rowids)."""
    items = _scan(store, None if plan.force else plan.version)
    while batch := list(itertools.islice(items, size or BATCH)):
        yield batch


def plan_enrich(store, force: bool = False) -> EnrichPlan:
    """What `enrich_store` (or its Ray run) has to do: counted by the store (two counts
    on indexes, whatever was done before), not by reading the papers. Loads the area
    classifier once, when there is work, to know whether areas can be predicted (facts
    do not wait for it: without it they are stored without the area, under the plain
    extractor version)."""
    predict_areas = _area_predictor()
    version = EXTRACTOR_VERSION + ("+areas" if predict_areas else "")
    total = store.papers.count()

    def count(version: str) -> int:
        return total if force else store.facts.pending(version)

    todo = count(version)
    area_problem = None
    if todo and predict_areas is not None:
        try:
            predict_areas(["area model check"])  # loads the model once; it may not be trained yet
        except PaperatlasError as exc:
            area_problem, predict_areas = str(exc), None
            version = EXTRACTOR_VERSION
            todo = count(version)
    return EnrichPlan(version, predict_areas is not None, todo, total, force, area_problem)


def facts_of_batch(batch: list[Item], use_areas: bool) -> list[dict[str, Any]]:
    """The facts of one batch, areas included (what a Ray actor runs)."""
    facts = _facts_for([(t, a, c) for _, t, a, c, _ in batch])
    if use_areas:
        _add_areas(facts, batch, _area_predictor())
    return facts


def _add_areas(facts: list[dict[str, Any]], batch: list[Item], predict_areas) -> None:
    areas = predict_areas([f"{t}. {a}" if t else a for _, t, a, _, _ in batch])
    for f, area in zip(facts, areas):
        f["predicted_area"] = area


def store_batch(store, plan: EnrichPlan, batch: list[Item], facts: list[dict[str, Any]], counts) -> int:
    """Write one batch's facts in one transaction and add them to `counts`."""
    with store.transaction():
        store.facts.set_many(((pid, f, h) for (pid, _, _, _, h), f in zip(batch, facts)), plan.version)
    counts["enriched"] += len(batch)
    counts["named"] += sum(1 for f in facts if f["name"])
    counts["with_code"] += sum(1 for f in facts if f["has_code"])
    counts["with_area"] += sum(1 for f in facts if f.get("predicted_area"))
    return len(batch)


def enrich_store(
    store, force: bool = False, progress: bool = False, workers: int | None = None
) -> dict[str, Any]:
    """Compute and store facts for every paper whose text or extractor version changed.

    Work is written in batches of BATCH papers, one transaction each: an interrupt keeps
    every finished batch, and the next run resumes where it stopped (the store says
    what is pending: Store.facts.pending, so a run with nothing to do costs next to
    nothing, and a rerun reads only the papers left). Papers are read from the store a
    page at a time, so memory does not grow with the store. Large stores are extracted by a pool of worker processes
    (`workers`, default: one per core) that die with this process (workers.process_pool).
    Returns counts: total, enriched, skipped, named, with_code, with_area (and area_problem,
    the reason, when the area classifier could not be used).
    """
    plan = plan_enrich(store, force)
    counts = plan.counts()
    if not plan.todo:
        return counts
    store.require_writable(f"store the facts of {plan.todo} papers")
    predict_areas = _area_predictor() if plan.use_areas else None
    workers = _worker_count(plan.todo) if workers is None else max(1, workers)
    batches = pending_batches(store, plan)
    pool_pace = pace_of_pool(workers, plan.todo, BATCH)
    own_pace = OwnPace(workers)
    in_order: InOrder[list[Item]] | None = None
    with contextlib.ExitStack() as stack:
        if workers > 1:  # forked before the progress bar's thread starts
            from paperatlas.workers import process_pool

            pool = stack.enter_context(process_pool(workers))
            in_order = InOrder(
                pool, _facts_for, batches, _texts_of, 4 * workers, pool_pace.done, warm_extractors
            )
            done: Iterable[tuple[list[Item], list[dict[str, Any]]]] = in_order
        else:
            done = ((b, _facts_for(_texts_of(b)[0])) for b in batches)
        bar = stack.enter_context(progress_bar(progress))
        # the first batch waits for the extractors' models to load (in each worker)
        task = bar.add_task("enrich: loading the extractors…", total=plan.todo)
        stored = 0
        for batch, facts in done:
            alone = pool_pace.all_back()
            started, cpu = time.perf_counter(), time.process_time()
            if predict_areas is not None:
                _add_areas(facts, batch, predict_areas)
            stored += store_batch(store, plan, batch, facts, counts)
            # this process's part (areas, writing), timed for the time left
            own_pace.add(len(batch), time.perf_counter() - started, time.process_time() - cpu, alone)
            # with workers, the time left is that of the slower hand (progress.two_stage_time_left)
            pace: dict[str, Any] = {}
            if in_order is not None:
                ready = stored + in_order.ready()
                pace = two_stage_fields(pool_pace, own_pace, ready, BATCH, in_order.ahead * BATCH)
            bar.update(task, completed=stored, description="enrich", **pace)
    return counts


def _texts_of(batch: list[Item]) -> tuple[list[tuple[str | None, str, list[str]]]]:
    """_facts_for's argument for one batch: (title, abstract, code links) of each paper."""
    return ([(t, a, c) for _, t, a, c, _ in batch],)


def _facts_for(items: list[tuple[str | None, str, list[str]]]) -> list[dict[str, Any]]:
    """One batch of extract_facts (module level, so a worker process can run it)."""
    return [extract_facts(title, abstract, code) for title, abstract, code in items]


# names a method, states a number and links its code: every extractor's model is read
WARM_UP_ABSTRACT = (
    "We propose WarmNet, a method that improves accuracy by 3% on ImageNet. "
    "Code is at https://github.com/example/warmnet."
)


def warm_extractors() -> None:
    """A worker's start-up: the extractors load their models on first use; one short
    abstract loads them before the first batch (workers.InOrder times it apart)."""
    extract_facts("WarmNet", WARM_UP_ABSTRACT)


def _worker_count(n_papers: int) -> int:
    """Extraction is pure CPU work: big stores use every core, small ones stay in-process."""
    from paperatlas.workers import worker_count

    return worker_count(n_papers, PARALLEL_FROM)
