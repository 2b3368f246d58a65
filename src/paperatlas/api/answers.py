"""The questions `Atlas` answers from a filled atlas: search, similar papers,
recommendations, two lists compared, digests, exports, and a model's answers about papers.
Each stage is imported when its question is asked, so that `import paperatlas` stays fast."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from paperatlas.filters import Filters
from paperatlas.store import Store

if TYPE_CHECKING:
    from paperatlas.compare import Comparison
    from paperatlas.llm import Estimate as LlmEstimate
    from paperatlas.llm import RunReport as LlmReport
    from paperatlas.recommend import Recommendations
    from paperatlas.search import SearchResult


def search(
    store: Store, query: str, k: int, offset: int, filters: Filters, method: str, exact: bool
) -> SearchResult:
    from paperatlas.search import SearchConfig, search

    config = SearchConfig(spelling=not exact)
    return search(store, query, k=k, offset=offset, filters=filters, method=method, config=config)


def similar(
    store: Store, paper_id: str | None, text: str | None, k: int, offset: int, filters: Filters
) -> SearchResult:
    from paperatlas.search import similar

    return similar(store, paper_id=paper_id, text=text, k=k, offset=offset, filters=filters)


def recommend(store: Store, collection: str, k: int, filters: Filters, model: str | None) -> Recommendations:
    from paperatlas.recommend import recommend

    return recommend(store, collection=collection, k=k, model=model, filters=filters)


def compare(
    store: Store, list_a: str, list_b: str, png: Path | None, n_terms: int, n_names: int
) -> Comparison:
    from paperatlas.compare import compare_lists

    return compare_lists(store, list_a, list_b, png=png, n_terms=n_terms, n_names=n_names)


def digest(
    store: Store,
    fmt: str,
    lang: str,
    list_name: str | None,
    collection: str | None,
    output: str | os.PathLike[str] | None,
    progress: bool,
    filters: Filters,
    query: str | None,
    query_k: int,
    topic: str | None = None,
    new: bool = False,
    section: str | None = None,
    ids: Iterable[str] | None = None,
    exact: bool = False,
) -> str:
    from paperatlas.report.digest import digest

    return digest(
        store,
        fmt=fmt,
        lang=lang,
        list_name=list_name,
        collection=collection,
        output=Path(output) if output is not None else None,
        progress=progress,
        filters=filters,
        query=query,
        query_k=query_k,
        topic=topic,
        new=new,
        section=section,
        ids=ids,
        exact=exact,
    )


def export(
    store: Store,
    fmt: str,
    out: str | os.PathLike[str] | TextIO,
    filters: Filters,
    collection: str | None,
    query: str | None,
    query_k: int,
    ids: Iterable[str] | None = None,
    exact: bool = False,
) -> int:
    from paperatlas.report.export import export_papers

    return export_papers(store, fmt, out, filters, ids, collection, query, query_k, exact)


def bibtex(store: Store, paper_id: str) -> str:
    from paperatlas.report.export import paper_bibtex

    return paper_bibtex(store, paper_id)


def llm_estimate(
    store: Store, task: str, concurrency: int, list_name: str | None, limit: int | None
) -> LlmEstimate:
    from paperatlas.llm import endpoint_from_env, estimate

    return estimate(store, task, endpoint_from_env(), concurrency, list_name, limit)


def llm_run(
    store: Store, task: str, concurrency: int, list_name: str | None, limit: int | None, progress: bool
) -> LlmReport:
    from paperatlas.llm import endpoint_from_env, run_task

    return run_task(store, task, endpoint_from_env(), concurrency, list_name, limit, progress)
