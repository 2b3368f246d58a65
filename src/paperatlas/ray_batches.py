"""Batches of work on Ray, their results handed back in order: what `embed --ray` and
`enrich --ray` share (core, so both layers use one copy).

`RayBatches(make_worker, args).run(batches, write)` starts a pool of Ray actors, each
building its worker once (`make_worker(*args)`: a loaded model, an extractor) and then
calling it on one batch after another. Batches are pulled from an iterator as actors
are free, so the driver holds only those in flight or waiting for an earlier one
(AHEAD_PER_ACTOR per actor), never the whole job. Results come back in any order;
`write(batch, result)` is called in batch order, as soon as a batch and all before it
have arrived. An actor that dies (its node lost, its process killed) is restarted by
Ray and its unfinished calls rerun (`max_restarts`, `max_task_retries`); the driver
writes a batch once, whichever attempt computed it.

`ray` is an optional extra (`pip install 'paperatlas[ray]'`). With no address a local
Ray instance is started for the run (and stopped after it); with an address (`auto`, or
`HOST:PORT` of a head started by `ray start --head`) the job runs on that cluster, whose
nodes need paperatlas installed (the same version) in the Python that runs `ray start`.
An already initialised Ray (a test's) is used as it is.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from paperatlas.errors import PaperatlasError
from paperatlas.progress import progress_bar

INSTALL_HINT = "ray is not installed: pip install 'paperatlas[ray]' (or pip install ray)"
# Batches held by the driver beyond the next one to write, per actor: bounds its memory
# when an early batch is slow (its actor restarting) while later ones keep arriving.
AHEAD_PER_ACTOR = 4


def import_ray():
    try:
        import ray
    except ImportError:
        raise PaperatlasError(INSTALL_HINT) from None
    return ray


def _actor_class(ray):
    @ray.remote(max_restarts=-1, max_task_retries=-1)
    class BatchWorker:
        """One worker (a loaded model, an extractor) on a Ray node."""

        def __init__(self, make_worker: Callable[..., Callable[[Any], Any]], args: tuple):
            self.work = make_worker(*args)

        def pid(self) -> int:
            return os.getpid()

        def run(self, payload: Any) -> Any:
            return self.work(payload)

    return BatchWorker


# one entry per open `shared_ray` block: the Ray module if a job in it started Ray, else None
_SHARED: list[Any] = []


@contextlib.contextmanager
def shared_ray() -> Iterator[None]:
    """Several jobs in a row on one Ray start (`paperatlas embed --ray` with every search
    model): Ray is started by the first job that needs it and stopped when the block ends;
    never started when no job has work."""
    _SHARED.append(None)
    try:
        yield
    finally:
        started = _SHARED.pop()
        if started is not None:
            started.shutdown()


@contextlib.contextmanager
def ray_session(ray, address: str | None, cpus: int) -> Iterator[None]:
    """Ray for one job: the cluster at `address`, or a local instance of `cpus` CPUs
    started here and stopped after it (inside `shared_ray`: at the end of that block); an
    already initialised Ray is left as it is."""
    if ray.is_initialized():
        yield
        return
    kwargs: dict[str, Any] = {"logging_level": "ERROR", "log_to_driver": False, "configure_logging": True}
    if address:
        ray.init(address=address, **kwargs)
    else:
        ray.init(num_cpus=cpus, include_dashboard=False, **kwargs)
    if _SHARED:
        _SHARED[-1] = ray
        yield
        return
    try:
        yield
    finally:
        ray.shutdown()


class RayBatches:
    """One job's actor pool. `after_write(self, batch_index)` (tests) is called after each
    batch is written; `actors` are the live actor handles while `run` runs."""

    def __init__(
        self,
        make_worker: Callable[..., Callable[[Any], Any]],
        args: tuple = (),
        *,
        address: str | None = None,
        workers: int | None = None,
        cpus_per_worker: int = 1,
        after_write: Callable[[RayBatches, int], None] | None = None,
    ):
        self.make_worker = make_worker  # module level: workers import it by name
        self.args = args
        self.address = address
        self.workers = workers
        self.cpus_per_worker = max(1, int(cpus_per_worker))
        self.after_write = after_write
        self.actors: list[Any] = []

    def run(
        self,
        batches: Iterable[Any],
        write: Callable[[Any, Any], int],
        *,
        n_batches: int,
        total: int,
        label: str,
        payload: Callable[[Any], Any] = lambda batch: batch,
        progress: bool = False,
    ) -> int:
        """Compute every batch on the pool (`payload(batch)` is what an actor gets) and
        `write(batch, result)` them in order; `write` returns the progress it made (of
        `total`). Returns the number of actors used."""
        if n_batches <= 0:
            return 0
        ray = import_ray()
        cpus = (self.workers or os.cpu_count() or 1) * self.cpus_per_worker
        with ray_session(ray, self.address, cpus):
            n_actors = self._pool_size(ray, n_batches)
            worker = _actor_class(ray).options(num_cpus=self.cpus_per_worker)
            self.actors = [worker.remote(self.make_worker, self.args) for _ in range(n_actors)]
            try:
                with progress_bar(progress, transient=False) as bar:
                    task = bar.add_task(f"{label} on Ray, {n_actors} workers", total=total)

                    def written(batch: Any, result: Any) -> None:
                        bar.update(task, advance=write(batch, result))

                    self._in_order(ray, iter(batches), payload, written, AHEAD_PER_ACTOR * n_actors)
            finally:
                for actor in self.actors:
                    with contextlib.suppress(Exception):  # already gone with its node
                        ray.kill(actor, no_restart=True)
                self.actors = []
        return n_actors

    def _pool_size(self, ray, n_batches: int) -> int:
        if self.workers:
            return min(self.workers, n_batches)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        return max(1, min(cpus // self.cpus_per_worker, n_batches))

    def _in_order(self, ray, batches: Iterator[Any], payload, written, ahead: int) -> None:
        idle = list(self.actors)
        in_flight: dict[Any, tuple[int, Any]] = {}  # object ref -> (batch index, actor)
        held: dict[int, Any] = {}  # batch index -> batch, submitted and not yet written
        arrived: dict[int, Any] = {}  # batch index -> result, waiting for earlier batches
        next_submit = next_write = 0
        exhausted = False
        while True:
            while idle and not exhausted and next_submit - next_write < ahead:
                batch = next(batches, None)
                if batch is None:
                    exhausted = True
                    break
                actor = idle.pop()
                held[next_submit] = batch
                in_flight[actor.run.remote(payload(batch))] = (next_submit, actor)
                next_submit += 1
            if not in_flight:  # batches go out and are written in order: all are written
                return
            done, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in done:
                index, actor = in_flight.pop(ref)
                idle.append(actor)
                arrived[index] = ray.get(ref)
            while next_write in arrived:
                written(held.pop(next_write), arrived.pop(next_write))
                if self.after_write is not None:
                    self.after_write(self, next_write)
                next_write += 1
