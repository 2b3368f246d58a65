"""Enrich on a Ray cluster: `paperatlas enrich --ray [--address ADDRESS] [--workers N]`.

The driver plans the run exactly as `enrich_store` does (the same papers, the same
batches of BATCH, the same facts version) and hands the batches to a pool of Ray actors
(paperatlas.ray_batches), each extracting facts and predicting areas for a whole batch.
The driver stores each batch's facts in batch order, one transaction a batch, so the
facts are the local run's, a killed job keeps its finished batches and a rerun does only
the rest (the store's facts hashes and versions say what is done), and a batch whose
actor died is rerun and written once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paperatlas.enrich.pipeline import BATCH, facts_of_batch, pending_batches, plan_enrich, store_batch
from paperatlas.ray_batches import RayBatches, import_ray


def load_extractor(use_areas: bool) -> Callable[[list], list[dict[str, Any]]]:
    """What each actor runs: a batch's facts (and areas), the area model loaded once."""
    if use_areas:
        from paperatlas.enrich.areas import predict_areas

        predict_areas(["warm up"])  # load the model now, not inside the first batch

    def extract(batch: list) -> list[dict[str, Any]]:
        return facts_of_batch(batch, use_areas)

    return extract


def enrich_store_ray(
    store,
    force: bool = False,
    progress: bool = False,
    *,
    address: str | None = None,
    workers: int | None = None,
    batch_size: int | None = None,
    after_write: Callable[[RayBatches, int], None] | None = None,
) -> dict[str, Any]:
    """`enrich_store` with the batches computed on Ray (see the module doc): a local
    instance, or the cluster at `address`, with `workers` actors (default: one per CPU).
    `after_write(pool, batch_index)` (tests) is called after each batch is stored.
    Returns enrich_store's counts."""
    import_ray()  # without it, the install hint before anything else
    plan = plan_enrich(store, force)
    counts = plan.counts()
    if not plan.todo:
        return counts
    store.require_writable(f"store the facts of {plan.todo} papers")
    runner = RayBatches(
        load_extractor, (plan.use_areas,), address=address, workers=workers, after_write=after_write
    )
    runner.run(
        pending_batches(store, plan, batch_size),
        lambda batch, facts: store_batch(store, plan, batch, facts, counts),
        n_batches=-(-plan.todo // (batch_size or BATCH)),
        total=plan.todo,
        label="enrich",
        progress=progress,
    )
    return counts
