"""Embedding on a Ray cluster: `paperatlas embed --model NAME --ray [ADDRESS]`.

The driver (this process) reads what needs a vector exactly as `embed.embed_store` does
(papers whose stored vector for the model is missing or stale), cuts it into the same
batches, and hands the batches to a pool of Ray actors, each holding one loaded back end.
Results come back in any order; the driver writes them to the store in batch order, one
transaction per batch, as soon as the batch and all before it have arrived. So:

- the vectors are the local run's (same back end, same batches, same order);
- a killed job keeps every batch written so far and a rerun does only the rest (the
  store's per-(paper, model) text hashes say what is done);
- an actor that dies (its node lost, its process killed) is restarted by Ray and its
  unfinished batches rerun on it (`max_restarts`, `max_task_retries`); a batch is written
  once, by the driver, whichever attempt computed it.

`ray` is an optional extra (`pip install 'paperatlas[ray]'`). With no address a local
Ray instance is started for the run (and stopped after it); with an address (`auto`, or
`HOST:PORT` of a head started by `ray start --head`) the job runs on that cluster, whose
nodes need paperatlas installed (the same version) in the Python that runs `ray start`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import Any

from paperatlas.embed.registry import DEFAULT_MODEL, backend_class
from paperatlas.embed.vectors import BATCH_SIZE, pending
from paperatlas.errors import PaperatlasError
from paperatlas.progress import progress_bar

INSTALL_HINT = "ray is not installed: pip install 'paperatlas[ray]' (or pip install ray)"
# Batches held by the driver beyond the next one to write, per actor: bounds its memory
# when an early batch is slow (its actor restarting) while later ones keep arriving.
_AHEAD_PER_ACTOR = 4


def import_ray():
    try:
        import ray
    except ImportError:
        raise PaperatlasError(INSTALL_HINT) from None
    return ray


def _actor_class(ray):
    @ray.remote(max_restarts=-1, max_task_retries=-1)
    class Embedder:
        """One loaded back end on a Ray worker."""

        def __init__(self, model: str, threads: int):
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            try:
                import torch

                torch.set_num_threads(max(1, threads))
            except ImportError:
                pass
            # the actor's CPUs, not the node's
            self.backend = backend_class(model).load(threads=threads)

        def pid(self) -> int:
            return os.getpid()

        def embed(self, index: int, texts: list[str]):
            return index, self.backend.embed(texts)

    return Embedder


class RayEmbedJob:
    """One run; `after_write(job, batch_index)` (tests) is called after each batch's commit."""

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
        after_write: Callable[[RayEmbedJob, int], None] | None = None,
    ):
        self.store = store
        self.model = model or DEFAULT_MODEL
        if backend_class(self.model).per_store:
            raise PaperatlasError(
                f"{self.model} is fit on the whole atlas in one process: run "
                f"`paperatlas embed --model {self.model}` without --ray"
            )
        self.address = address
        self.workers = workers
        self.cpus_per_worker = max(1, int(cpus_per_worker))
        self.batch_size = batch_size
        self.force = force
        self.progress = progress
        self.after_write = after_write
        self.actors: list[Any] = []

    def pending(self) -> tuple[list[tuple[str, str, str]], int]:
        """(papers needing a vector as (id, text, hash), papers in the store)."""
        return pending(self.store, self.model, self.force)

    def run(self) -> dict[str, Any]:
        ray = import_ray()
        todo, total = self.pending()
        result = {
            "model": self.model,
            "embedded": 0,
            "skipped": total - len(todo),
            "total": total,
            "workers": 0,
        }
        if not todo:
            return result
        batches = [todo[i : i + self.batch_size] for i in range(0, len(todo), self.batch_size)]
        started_here = not ray.is_initialized()
        if started_here:
            self._init(ray)
        try:
            result["workers"] = self._embed(ray, batches, result)
        finally:
            for actor in self.actors:
                with contextlib.suppress(Exception):  # already gone with its node
                    ray.kill(actor, no_restart=True)
            self.actors = []
            if started_here:
                ray.shutdown()
        return result

    def _init(self, ray) -> None:
        kwargs: dict[str, Any] = {"logging_level": "ERROR", "log_to_driver": False, "configure_logging": True}
        if self.address:
            ray.init(address=self.address, **kwargs)
        else:  # a local instance for this run only
            cpus = (self.workers or os.cpu_count() or 1) * self.cpus_per_worker
            ray.init(num_cpus=cpus, include_dashboard=False, **kwargs)

    def _pool_size(self, ray, batches: int) -> int:
        if self.workers:
            return min(self.workers, batches)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        return max(1, min(cpus // self.cpus_per_worker, batches))

    def _embed(self, ray, batches: list, result: dict) -> int:
        n_actors = self._pool_size(ray, len(batches))
        embedder = _actor_class(ray).options(num_cpus=self.cpus_per_worker)
        self.actors = [embedder.remote(self.model, self.cpus_per_worker) for _ in range(n_actors)]
        in_flight: dict[Any, Any] = {}  # object ref -> actor
        arrived: dict[int, Any] = {}  # batch index -> vectors, waiting for earlier batches
        next_submit = next_write = 0
        ahead = _AHEAD_PER_ACTOR * n_actors
        idle = list(self.actors)
        with progress_bar(self.progress, transient=False) as bar:
            task = bar.add_task(
                f"embedding ({self.model}) on Ray, {n_actors} workers", total=sum(len(b) for b in batches)
            )
            while next_write < len(batches):
                while idle and next_submit < len(batches) and next_submit - next_write < ahead:
                    actor = idle.pop()
                    texts = [text for _, text, _ in batches[next_submit]]
                    in_flight[actor.embed.remote(next_submit, texts)] = actor
                    next_submit += 1
                done, _ = ray.wait(list(in_flight), num_returns=1)
                for ref in done:
                    idle.append(in_flight.pop(ref))
                    index, vectors = ray.get(ref)
                    arrived[index] = vectors
                while next_write in arrived:
                    batch = batches[next_write]
                    vectors = arrived.pop(next_write)
                    with self.store.transaction():
                        self.store.put_vectors(
                            self.model, [pid for pid, _, _ in batch], vectors, [h for _, _, h in batch]
                        )
                    result["embedded"] += len(batch)
                    bar.update(task, advance=len(batch))
                    if self.after_write is not None:
                        self.after_write(self, next_write)
                    next_write += 1
        return n_actors


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
