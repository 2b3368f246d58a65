"""Ray started once for several jobs in a row (`paperatlas embed --ray` computes every
search model): `ray_batches.shared_ray` and `ray_session`, with a stand-in for the Ray
module (what each call would start and stop), then with Ray itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas import Atlas
from paperatlas.ray_batches import ray_session, shared_ray

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"


class FakeRay:
    def __init__(self):
        self.running = False
        self.calls: list[str] = []

    def is_initialized(self) -> bool:
        return self.running

    def init(self, **kwargs) -> None:
        assert not self.running
        self.running = True
        self.calls.append("init")

    def shutdown(self) -> None:
        self.running = False
        self.calls.append("shutdown")


def test_each_job_alone_starts_and_stops_ray():
    ray = FakeRay()
    for _ in range(3):
        with ray_session(ray, None, 2):
            assert ray.running
    assert ray.calls == ["init", "shutdown"] * 3


def test_jobs_in_a_shared_block_start_ray_once_and_it_stops_at_the_end():
    ray = FakeRay()
    with shared_ray():
        for _ in range(3):
            with ray_session(ray, None, 2):
                assert ray.running
        assert ray.calls == ["init"]
    assert ray.calls == ["init", "shutdown"] and not ray.running


def test_a_shared_block_whose_jobs_need_no_ray_never_starts_it():
    ray = FakeRay()
    with shared_ray():
        pass
    assert ray.calls == []


def test_a_failing_job_still_stops_the_shared_ray():
    ray = FakeRay()
    with pytest.raises(RuntimeError), shared_ray(), ray_session(ray, None, 2):
        raise RuntimeError("a batch failed")
    assert ray.calls == ["init", "shutdown"]


@pytest.mark.ray
def test_embed_for_search_on_ray_starts_ray_once_for_every_model(tmp_path, monkeypatch):
    import ray  # the ray extra: `make test` installs it

    assert not ray.is_initialized()
    starts: list[dict] = []
    real_init = ray.init

    def counting_init(*args, **kwargs):
        starts.append(kwargs)
        return real_init(*args, **{**kwargs, "num_cpus": 2})

    monkeypatch.setattr(ray, "init", counting_init)
    atlas = Atlas(tmp_path / "atlas.db")
    atlas.add(SAMPLE, enrich=False)
    reports = atlas.embed_for_search(ray=True, workers=1, models=["static", "minilm-int8"], vocabulary=False)
    assert [r.model for r in reports] == ["static", "minilm-int8"]
    assert all(r.embedded == r.total > 0 for r in reports)
    assert len(starts) == 1 and not ray.is_initialized()
    # a rerun has nothing to embed: Ray is not started at all
    again = atlas.embed_for_search(ray=True, workers=1, models=["static", "minilm-int8"], vocabulary=False)
    assert all(r.embedded == 0 for r in again) and len(starts) == 1
    atlas.close()
