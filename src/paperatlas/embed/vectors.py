"""Paper vectors in the store: the hash that tells a stored vector is stale, and the
embedding of a whole store or of one query. The text a paper is embedded by is
`paperatlas.paper.embedding_text` (core: enrich classifies the same text), re-exported here."""

from __future__ import annotations

from typing import Any

import numpy as np

from paperatlas.embed.registry import DEFAULT_MODEL, backend_class, get_backend, weights_fingerprint
from paperatlas.paper import embedding_text, text_hash
from paperatlas.progress import progress_bar

BATCH_SIZE = 256

__all__ = ["BATCH_SIZE", "embed_query", "embed_store", "embedding_text", "pending", "vector_hash"]


def vector_hash(text: str, model: str) -> str:
    """The hash stored beside a vector: its input text and the model weights that made it."""
    fingerprint = weights_fingerprint(model)
    return text_hash(text) if not fingerprint else text_hash(f"{fingerprint}\n{text}")


def pending(store, model: str, force: bool = False) -> tuple[list[tuple[str, str, str]], int]:
    """(papers whose vector for `model` is missing or stale as (id, text, hash), papers in
    the store). With `force`, every paper."""
    state = {} if force else store.vector_state(model)
    todo, total = [], 0
    for paper in store.iter_papers():
        total += 1
        text = embedding_text(paper.get("title"), paper.get("abstract"))
        digest = vector_hash(text, model)
        if state.get(paper["id"]) != digest:
            todo.append((paper["id"], text, digest))
    return todo, total


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
    and a rerun resumes. `threads`: cores a batch may use (back ends that use them; None:
    the back end's default). Returns {"model", "embedded", "skipped", "total"}.
    """
    model = model or DEFAULT_MODEL
    cls = backend_class(model)
    todo, total = pending(store, model, force)
    result: dict[str, Any] = {"model": model, "embedded": 0, "skipped": total - len(todo), "total": total}
    if not todo:
        return result
    if cls.per_store:
        texts = [embedding_text(p.get("title"), p.get("abstract")) for p in store.iter_papers()]
        backend, refit = cls.fit_store(store, texts, force)
        if refit:  # old vectors lived in another space: redo all
            todo, _ = pending(store, model, force=True)
            result["skipped"] = 0
    else:
        backend = get_backend(model, threads=threads)

    with progress_bar(progress, transient=False) as bar:
        task = bar.add_task(f"embedding ({model})", total=len(todo))
        for start in range(0, len(todo), batch_size):
            batch = todo[start : start + batch_size]
            vectors = backend.embed([text for _, text, _ in batch])
            with store.transaction():
                store.put_vectors(model, [pid for pid, _, _ in batch], vectors, [h for _, _, h in batch])
            result["embedded"] += len(batch)
            bar.update(task, advance=len(batch))
    return result


def embed_query(text: str, model: str | None = None, store=None) -> np.ndarray:
    """One query's vector [dim] in the space of `model` (`lsa` needs the fitted store)."""
    return get_backend(model, store=store).embed([text])[0]
