"""Embedding on a Ray cluster: `paperatlas embed --model NAME --ray [--address ADDRESS]`.

The driver (this process) reads what needs a vector exactly as `embed.embed_store` does
(papers whose stored vector for the model is missing or stale, streamed from the store in
the same batches) and hands the batches to a pool of Ray actors, each holding one loaded
back end (paperatlas.ray_batches: the pool, the ordered writes, the retries). The driver
writes each batch's vectors in batch order, one transaction a batch. So:

- the vectors are the local run's (same back end, same batches, same order);
- a killed job keeps every batch written so far and a rerun does only the rest (the
  store's per-(paper, model) text hashes say what is done);
- an actor that dies is restarted by Ray and its unfinished batches rerun; a batch is
  written once, by the driver, whichever attempt computed it;
- the driver holds the batches in flight, not the store's texts.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np

from paperatlas.embed.registry import DEFAULT_MODEL, backend_class
from paperatlas.embed.vectors import BATCH_SIZE, Pending
from paperatlas.errors import PaperatlasError
from paperatlas.ray_batches import INSTALL_HINT, RayBatches, import_ray

__all__ = ["INSTALL_HINT", "RayEmbedJob", "embed_store_ray", "import_ray"]


def load_embedder(model: str, threads: int) -> Callable[[list[str]], np.ndarray]:
    """What each actor runs: `model`'s back end on the actor's CPUs, not the node's."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        import torch

        torch.set_num_threads(max(1, threads))
    except ImportError:
        pass
    return backend_class(model).load(threads=threads).embed


class RayEmbedJob:
    """One run; `after_write(pool, batch_index)` (tests) is called after each batch's
    commit, `actors` are the pool's actors while it runs."""

    def __init__(
        self,
        store,
        model: str,
        *,
        address: str | None = None,
        workers: int | None = None,
        cpus_per_worker: int = 1,
        batch_size: int = BATCH_SIZE,
        force: bool = False,
        progress: bool = False,
        after_write: Callable[[RayBatches, int], None] | None = None,
    ):
        self.store = store
        self.model = model or DEFAULT_MODEL
        if backend_class(self.model).per_store:
            raise PaperatlasError(
                f"{self.model} is fit on the whole atlas in one process: run "
                f"`paperatlas embed --model {self.model}` without --ray"
            )
        self.batch_size = batch_size
        self.force = force
        self.progress = progress
        self.pool = RayBatches(
            load_embedder,
            (self.model, max(1, int(cpus_per_worker))),
            address=address,
            workers=workers,
            cpus_per_worker=cpus_per_worker,
            after_write=after_write,
        )

    @property
    def actors(self) -> list[Any]:
        return self.pool.actors

    def run(self) -> dict[str, Any]:
        import_ray()  # without it, the install hint before anything else
        pending = Pending(self.store, self.model, self.force)
        result: dict[str, Any] = {
            "model": self.model,
            "embedded": 0,
            "skipped": pending.total - pending.todo,
            "total": pending.total,
            "workers": 0,
        }
        if not pending.todo:
            return result

        def write(batch: list[tuple[str, str, str]], vectors: np.ndarray) -> int:
            with self.store.transaction():
                self.store.vectors.put(
                    self.model, [pid for pid, _, _ in batch], vectors, [h for _, _, h in batch]
                )
            result["embedded"] += len(batch)
            return len(batch)

        result["workers"] = self.pool.run(
            pending.batches(self.batch_size),
            write,
            n_batches=-(-pending.todo // self.batch_size),
            total=pending.todo,
            label=f"embedding ({self.model})",
            payload=lambda batch: [text for _, text, _ in batch],
            progress=self.progress,
        )
        return result


def embed_store_ray(
    store,
    model: str | None = None,
    address: str | None = None,
    *,
    workers: int | None = None,
    cpus_per_worker: int = 1,
    batch_size: int = BATCH_SIZE,
    force: bool = False,
    progress: bool = False,
) -> dict[str, Any]:
    """`embed.embed_store` with the batches computed on Ray (see the module doc).
    Returns {"model", "embedded", "skipped", "total", "workers"}."""
    return RayEmbedJob(
        store,
        model or DEFAULT_MODEL,
        address=address,
        workers=workers,
        cpus_per_worker=cpus_per_worker,
        batch_size=batch_size,
        force=force,
        progress=progress,
    ).run()
