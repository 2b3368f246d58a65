"""The steps that fill an atlas, as `Atlas` runs them: files added (and their facts
extracted), facts, vectors of one model or of every model search fuses, what a map lacks,
and `quick_start`'s fast path from files to a searchable atlas. Each stage is imported
when its step runs, so that `import paperatlas` stays fast."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperatlas.results import (
    AreaModelReport,
    EmbedReport,
    EnrichReport,
    Inspection,
    ModelInfo,
    ModelProgress,
    QuickStart,
    SearchStatus,
    VocabularyReport,
)
from paperatlas.store import Store

if TYPE_CHECKING:
    from paperatlas.ingest import AddReport

PathLike = str | os.PathLike[str]


def paths_of(paths: PathLike | Iterable[PathLike]) -> list[Path]:
    """One path or several as a list (one file, not the characters of its name)."""
    if isinstance(paths, (str, os.PathLike)):
        return [Path(paths)]
    return [Path(p) for p in paths]


def add(
    store: Store,
    paths: PathLike | Iterable[PathLike],
    list_name: str | None,
    progress: bool,
    enrich_after: bool,
    dry_run: bool,
    records: str | None,
    skip_unchanged: bool,
) -> AddReport:
    from paperatlas.ingest import add_files

    store.require_writable("add papers")
    report = add_files(
        store,
        paths_of(paths),
        list_name=list_name,
        progress=progress,
        dry_run=dry_run,
        records=records,
        skip_unchanged=skip_unchanged,
    )
    if enrich_after and not dry_run:
        enrich(store, progress=progress)
    return report


def enrich(
    store: Store,
    force: bool = False,
    progress: bool = False,
    ray: bool = False,
    address: str | None = None,
    workers: int | None = None,
) -> EnrichReport:
    if ray:
        from paperatlas.enrich.distributed import enrich_store_ray

        counts = enrich_store_ray(store, force=force, progress=progress, address=address, workers=workers)
    else:
        from paperatlas.enrich.pipeline import enrich_store

        counts = enrich_store(store, force=force, progress=progress)
    return EnrichReport(**counts)


def embed(
    store: Store,
    model: str | None = None,
    progress: bool = False,
    force: bool = False,
    batch_size: int | None = None,
    ray: bool = False,
    address: str | None = None,
    workers: int | None = None,
    vocabulary: bool = True,
) -> EmbedReport:
    sizing: dict[str, Any] = {} if batch_size is None else {"batch_size": batch_size}
    if ray:
        from paperatlas.embed.distributed import embed_store_ray

        result = embed_store_ray(
            store, model=model, address=address, workers=workers, progress=progress, force=force, **sizing
        )
    else:
        from paperatlas.embed import embed_store

        result = embed_store(store, model=model, progress=progress, force=force, **sizing)
    if model is None and vocabulary:
        build_vocabulary(store, progress=progress, force=force)
    return EmbedReport(**result)


def embed_for_search(
    store: Store,
    progress: bool,
    force: bool,
    batch_size: int | None,
    ray: bool,
    address: str | None,
    workers: int | None,
    vocabulary: bool,
    on_model: Callable[[EmbedReport], None] | None,
    models: Iterable[str] | None,
) -> list[EmbedReport]:
    from paperatlas.embed import SEARCH_MODELS
    from paperatlas.ray_batches import shared_ray

    reports = []
    with shared_ray() if ray else contextlib.nullcontext():  # one Ray start for all models
        for model in SEARCH_MODELS if models is None else models:
            report = embed(store, model, progress, force, batch_size, ray, address, workers, vocabulary=False)
            reports.append(report)
            if on_model is not None:
                on_model(report)
    if vocabulary:
        build_vocabulary(store, progress=progress, force=force)
    return reports


def build_vocabulary(store: Store, progress: bool = False, force: bool = False) -> VocabularyReport:
    from paperatlas.search.translate_vocabulary import build_vocabulary

    return VocabularyReport(**build_vocabulary(store, progress=progress, force=force))


def ensure_vectors(store: Store, model: str | None, progress: bool, vocabulary: bool) -> EmbedReport | None:
    from paperatlas.atlas import pick_model

    if model is None and not store.vectors.models():
        return embed(store, progress=progress, vocabulary=vocabulary)
    target = model or pick_model(store, store.papers.ids(), None)
    if len(store.vectors.state(target)) < store.papers.count():
        return embed(store, model=target, progress=progress)
    return None


def search_status(store: Store) -> SearchStatus:
    from paperatlas.embed import SEARCH_MODELS
    from paperatlas.search.translate_vocabulary import vocabulary_built

    papers = store.papers.count()
    models = tuple(ModelProgress(m, store.vectors.count(m), papers) for m in SEARCH_MODELS)
    return SearchStatus(papers, models, vocabulary_built(store, papers))


def quick_start(
    store: Store,
    paths: PathLike | Iterable[PathLike],
    list_name: str | None,
    progress: bool,
    facts_now: int | None,
) -> QuickStart:
    from paperatlas.embed import DEFAULT_MODEL

    added = add(
        store,
        paths,
        list_name,
        progress,
        enrich_after=False,
        dry_run=False,
        records=None,
        skip_unchanged=True,
    )
    pending = store.facts.pending()
    enriched = enrich(store, progress=progress) if facts_now is None or pending <= facts_now else None
    embedded = embed(store, model=DEFAULT_MODEL, progress=progress, vocabulary=False)
    return QuickStart(added, enriched, embedded, 0 if enriched is not None else pending)


def inspect(path: Path, limit: int, records: str | None) -> Inspection:
    from paperatlas.ingest import inspect_file

    report, papers = inspect_file(path, limit, records)
    return Inspection(report, papers)


def file_format(path: Path) -> str:
    from paperatlas.sources import detect

    return str(detect(path))


def train_areas(data: Path, out: Path | None, include_held_out: bool, progress: bool) -> AreaModelReport:
    from paperatlas.enrich.areas import train_from_file

    info = train_from_file(data, out=out, include_held_out=include_held_out, progress=progress)
    return AreaModelReport(**info)


def models() -> list[ModelInfo]:
    from paperatlas.embed import DEFAULT_MODEL, SEARCH_MODELS, available_backends

    return [
        ModelInfo(name, what, name == DEFAULT_MODEL, name in SEARCH_MODELS)
        for name, what in available_backends().items()
    ]
