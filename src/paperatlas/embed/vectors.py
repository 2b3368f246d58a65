"""Paper vectors in the store: the hash that tells a stored vector is stale, and the
embedding of a whole store or of one query. The text a paper is embedded by is
`paperatlas.paper.embedding_text` (core: enrich classifies the same text), re-exported here."""

from __future__ import annotations

import contextlib
import functools
import time
from array import array
from collections.abc import Iterator
from typing import Any

import numpy as np

from paperatlas.embed.registry import DEFAULT_MODEL, backend_class, get_backend, weights_fingerprint
from paperatlas.paper import embedding_text, text_hash
from paperatlas.progress import OwnPace, pace_of_pool, progress_bar, two_stage_fields
from paperatlas.workers import InOrder

BATCH_SIZE = 256
PAGE = 2048  # papers read from the store at a time

__all__ = [
    "BATCH_SIZE",
    "Pending",
    "embed_query",
    "embed_store",
    "embedding_text",
    "vector_hash",
]


def vector_hash(text: str, model: str) -> str:
    """The hash stored beside a vector: its input text and the model weights that made it."""
    fingerprint = weights_fingerprint(model)
    return text_hash(text) if not fingerprint else text_hash(f"{fingerprint}\n{text}")


class Pending:
    """The papers whose vector for `model` is missing or stale (every paper with `force`),
    found in one pass over the store read a page at a time: kept as rowids and hashes, 28
    bytes a paper, not texts. `batches` then reads just their texts, again a page at a time,
    without hashing them twice."""

    def __init__(self, store, model: str, force: bool = False):
        self.store, self.model = store, model
        self.rowids = array("q")
        self.digests = bytearray()  # 20 bytes (a sha1) a pending paper
        self.total = 0
        after = 0
        while page := store.vectors.inputs_page(model, after, PAGE):
            for rowid, _, title, abstract, stored in page:
                digest = vector_hash(embedding_text(title, abstract), model)
                if force or stored != digest:
                    self.rowids.append(rowid)
                    self.digests += bytes.fromhex(digest)
            self.total += len(page)
            after = page[-1][0]

    @property
    def todo(self) -> int:
        return len(self.rowids)

    def batches(self, batch_size: int = BATCH_SIZE) -> Iterator[list[tuple[str, str, str]]]:
        """The pending papers as (id, text, hash), in store order, in batches of
        `batch_size` (the last one shorter), read as consumed: a consumer may write each
        batch's vectors before taking the next. A paper deleted since is left out."""
        batch: list[tuple[str, str, str]] = []
        i, n = 0, len(self.rowids)
        while i < n:
            page = self.store.vectors.inputs_page(self.model, self.rowids[i] - 1, PAGE)
            if not page:
                break
            for rowid, pid, title, abstract, _ in page:
                while i < n and self.rowids[i] < rowid:  # deleted since the pass above
                    i += 1
                if i == n:
                    break
                if self.rowids[i] == rowid:
                    batch.append(
                        (pid, embedding_text(title, abstract), self.digests[20 * i : 20 * i + 20].hex())
                    )
                    i += 1
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
    pending = Pending(store, model, force)
    result: dict[str, Any] = {
        "model": model,
        "embedded": 0,
        "skipped": pending.total - pending.todo,
        "total": pending.total,
    }
    if not pending.todo:
        return result
    backend = None
    if cls.per_store:
        texts = [embedding_text(p.get("title"), p.get("abstract")) for p in store.papers.iter()]
        backend, refit = cls.fit_store(store, texts, force)
        del texts
        if refit:  # old vectors lived in another space: redo all
            pending = Pending(store, model, force=True)
            result["skipped"] = 0
    batches = pending.batches(batch_size)
    workers = _worker_count(cls, pending.todo, threads)
    pool_pace, own_pace = pace_of_pool(workers, pending.todo, batch_size), OwnPace(workers)
    in_order: InOrder[list[tuple[str, str, str]]] | None = None
    with contextlib.ExitStack() as stack:
        if workers > 1:  # forked before the progress bar's thread starts
            from paperatlas.workers import process_pool

            pool = stack.enter_context(process_pool(workers))
            # the next batch goes out as each comes back: the workers are never idle while
            # this process writes, and it holds 2 batches a worker, not the store
            in_order = InOrder(
                pool,
                _embed_texts,
                batches,
                lambda b: (model, [t for _, t, _ in b]),
                2 * workers,
                pool_pace.done,
                functools.partial(_load_model, model),  # timed apart from the first batch
            )
            done: Iterator[tuple[list[tuple[str, str, str]], np.ndarray]] = iter(in_order)
        bar = stack.enter_context(progress_bar(progress, transient=False))
        # the first batch waits for the model to load (in each worker): say so, or the
        # bar would sit at 0 with no word of what it is doing
        task = bar.add_task(f"embedding ({model}): loading the model…", total=pending.todo)
        if in_order is None:
            # the time left's clock starts after the model's start-up: its pace is the work's
            backend = backend or get_backend(model, threads=threads)
            backend.warm_up()
            bar.reset(task, total=pending.todo)
            done = ((batch, backend.embed([text for _, text, _ in batch])) for batch in batches)
        for batch, vectors in done:
            alone = pool_pace.all_back()
            started, cpu = time.perf_counter(), time.process_time()
            with store.transaction():
                store.vectors.put(model, [pid for pid, _, _ in batch], vectors, [h for _, _, h in batch])
            own_pace.add(len(batch), time.perf_counter() - started, time.process_time() - cpu, alone)
            result["embedded"] += len(batch)
            # with workers, the time left is the pool's (progress.two_stage_time_left)
            pace: dict[str, Any] = {}
            if in_order is not None:
                ready = result["embedded"] + in_order.ready()
                pace = two_stage_fields(pool_pace, own_pace, ready, batch_size, in_order.ahead * batch_size)
            bar.update(task, completed=result["embedded"], description=f"embedding ({model})", **pace)
    return result


PARALLEL_FROM = 1000  # papers before worker processes pay for loading the model in each
# The same for a table-lookup model (static): a few thousand papers a second in one process,
# so workers (each loads the term table, ~1 s) pay only from a bigger store.
TABLE_PARALLEL_FROM = 20_000


def _worker_count(cls, todo: int, threads: int | None) -> int:
    """Processes for a model that runs on cores: one single-threaded copy per core embeds
    about twice as fast as one copy with a thread per core (all-MiniLM-L6-v2 int8 on 2
    cores: 31 against 15 papers/s, docs/bench/scale.md). A table-lookup model (static)
    does the same from TABLE_PARALLEL_FROM papers: cutting the texts into terms is Python,
    one core's work per process, while this process reads, hashes and writes. A
    caller that sets `threads` and a model fit on the store stay in this process."""
    if threads is not None or cls.per_store:
        return 1
    from paperatlas.workers import worker_count

    return worker_count(todo, PARALLEL_FROM if cls.uses_threads else TABLE_PARALLEL_FROM)


def _load_model(model: str) -> None:
    """A worker's start-up: the model one batch runs on (_embed_texts), loaded and warmed
    up (what it builds on its first batch built now)."""
    get_backend(model, threads=1).warm_up()


def _embed_texts(model: str, texts: list[str]) -> np.ndarray:
    """One batch in a worker process, on one core (module level, so a worker can run it)."""
    return get_backend(model, threads=1).embed(texts)


def embed_query(text: str, model: str | None = None, store=None) -> np.ndarray:
    """One query's vector [dim] in the space of `model` (`lsa` needs the fitted store)."""
    return get_backend(model, store=store).embed([text])[0]
