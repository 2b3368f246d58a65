"""Paper vectors in the store: the hash that tells a stored vector is stale, and the
embedding of a whole store or of one query. The text a paper is embedded by is
`paperatlas.paper.embedding_text` (core: enrich classifies the same text), re-exported here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from paperatlas.embed.registry import DEFAULT_MODEL, backend_class, get_backend, weights_fingerprint
from paperatlas.paper import embedding_text, text_hash
from paperatlas.progress import progress_bar

BATCH_SIZE = 256
PAGE = 2048  # papers read from the store at a time

__all__ = [
    "BATCH_SIZE",
    "count_pending",
    "embed_query",
    "embed_store",
    "embedding_text",
    "pending_batches",
    "vector_hash",
]


def vector_hash(text: str, model: str) -> str:
    """The hash stored beside a vector: its input text and the model weights that made it."""
    fingerprint = weights_fingerprint(model)
    return text_hash(text) if not fingerprint else text_hash(f"{fingerprint}\n{text}")


def _scan(store, model: str, force: bool) -> Iterator[tuple[str, str, str, bool]]:
    """Every paper as (id, text, hash, needs a vector), read from the store a page at a
    time with its stored hash beside it: memory is one page, whatever the store's size."""
    after = 0
    while True:
        page = store.vector_inputs_page(model, after, PAGE)
        if not page:
            return
        for _, pid, title, abstract, stored in page:
            text = embedding_text(title, abstract)
            digest = vector_hash(text, model)
            yield pid, text, digest, force or stored != digest
        after = page[-1][0]


def count_pending(store, model: str, force: bool = False) -> tuple[int, int]:
    """(papers whose vector for `model` is missing or stale, papers in the store); with
    `force`, every paper. One streamed pass, nothing kept."""
    todo = total = 0
    for *_, stale in _scan(store, model, force):
        total += 1
        todo += stale
    return todo, total


def pending_batches(
    store, model: str, force: bool = False, batch_size: int = BATCH_SIZE
) -> Iterator[list[tuple[str, str, str]]]:
    """The papers needing a vector as (id, text, hash), in store order, in batches of
    `batch_size` (the last one shorter), read as they are consumed. A consumer may write
    each batch's vectors before taking the next: pages are read by rowid, after the last."""
    batch: list[tuple[str, str, str]] = []
    for pid, text, digest, stale in _scan(store, model, force):
        if stale:
            batch.append((pid, text, digest))
            if len(batch) == batch_size:
                yield batch
                batch = []
    if batch:
        yield batch


def embed_store(
    store,
    model: str | None = None,
    progress: bool = False,
    batch_size: int = BATCH_SIZE,
    force: bool = False,
    threads: int | None = None,
) -> dict[str, Any]:
    """Embed every paper of the store whose vector for `model` is missing or stale.

    A vector is stale when the paper's text or the model's weights changed (`vector_hash`
    differs). Batches are committed as they finish, so an interrupt keeps finished work
    and a rerun resumes. Texts are read from the store a batch at a time (memory does not
    grow with the store; lsa's fit reads them all). `threads`: cores a batch may use
    (back ends that use them; None: the back end's default).
    Returns {"model", "embedded", "skipped", "total"}.
    """
    model = model or DEFAULT_MODEL
    cls = backend_class(model)
    todo, total = count_pending(store, model, force)
    result: dict[str, Any] = {"model": model, "embedded": 0, "skipped": total - todo, "total": total}
    if not todo:
        return result
    if cls.per_store:
        texts = [embedding_text(p.get("title"), p.get("abstract")) for p in store.iter_papers()]
        backend, refit = cls.fit_store(store, texts, force)
        del texts
        if refit:  # old vectors lived in another space: redo all
            force, todo = True, total
            result["skipped"] = 0
    else:
        backend = get_backend(model, threads=threads)

    with progress_bar(progress, transient=False) as bar:
        task = bar.add_task(f"embedding ({model})", total=todo)
        for batch in pending_batches(store, model, force, batch_size):
            vectors = backend.embed([text for _, text, _ in batch])
            with store.transaction():
                store.put_vectors(model, [pid for pid, _, _ in batch], vectors, [h for _, _, h in batch])
            result["embedded"] += len(batch)
            bar.update(task, advance=len(batch))
    return result


def embed_query(text: str, model: str | None = None, store=None) -> np.ndarray:
    """One query's vector [dim] in the space of `model` (`lsa` needs the fitted store)."""
    return get_backend(model, store=store).embed([text])[0]
