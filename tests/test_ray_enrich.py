"""`enrich --ray`: batches extracted by Ray actors give the local run's facts (areas
included); a worker killed mid-job is restarted and its batch rerun, nothing lost or stored
twice; an interrupted job keeps its finished batches and the rerun does only the rest.

Marked `ray` (`pytest -m "not ray"` skips them); `make test` runs them."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from paperatlas.enrich.pipeline import EXTRACTOR_VERSION, enrich_store
from paperatlas.store import Store
from raykit import local_ray_instance

pytestmark = pytest.mark.ray
try:  # without the extra, `-m "not ray"` still collects this file; the ray tests then fail
    import ray
except ImportError:
    ray = None

from paperatlas.enrich.distributed import enrich_store_ray  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"


def make_store(path: Path) -> Store:
    """The sample list's abstracts; some with a title, one with the list's own code link."""
    st = Store(path)
    paragraphs = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n")]
    abstracts = [text for text in paragraphs if len(text) > 200]
    with st.transaction():
        for i, text in enumerate(abstracts):
            row = {"id": f"p{i:02d}", "abstract": text}
            if i % 3 == 0:
                row["title"] = " ".join(text.split()[:8])
            if i == 4:
                row["code_urls"] = ["https://github.com/example/tool"]
            st.papers.insert(row)
    return st


def stored(st: Store) -> tuple[dict, dict]:
    ids = [p["id"] for p in st.papers.iter(id_only=True)]
    return st.facts.get_many(ids), st.facts.state()


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    st = make_store(tmp_path_factory.mktemp("local") / "atlas.db")
    counts = enrich_store(st, workers=1)
    facts, state = stored(st)
    st.close()
    assert counts["enriched"] == len(facts) >= 12
    assert counts["with_area"] == len(facts)  # the shipped area model was used
    assert {v for _, v in state.values()} == {EXTRACTOR_VERSION + "+areas"}
    return facts, state


local_ray = pytest.fixture(scope="module")(local_ray_instance)


class CountingStore:
    """The store, with every paper id whose facts are stored counted (at its facts part)."""

    def __init__(self, st: Store):
        self.st, self.written = st, []
        self.facts = CountingFacts(st.facts, self.written)

    def __getattr__(self, name):
        return getattr(self.st, name)


class CountingFacts:
    def __init__(self, part, written: list):
        self.part, self.written = part, written

    def __getattr__(self, name):
        return getattr(self.part, name)

    def set_many(self, rows, version):
        rows = list(rows)
        self.written.extend(pid for pid, _, _ in rows)
        return self.part.set_many(rows, version)


def test_local_ray_gives_the_local_facts(tmp_path, local_ray, local):
    st = make_store(tmp_path / "atlas.db")
    counts = enrich_store_ray(st, workers=2, batch_size=3)
    assert counts["enriched"] == len(local[0]) and counts["with_area"] == len(local[0])
    assert stored(st) == local
    again = enrich_store_ray(st, workers=2, batch_size=3)
    assert again["enriched"] == 0 and again["skipped"] == len(local[0])
    assert enrich_store(st)["enriched"] == 0  # the local run sees them as current too


def test_killed_worker_is_retried_nothing_lost_or_stored_twice(tmp_path, local_ray, local):
    st = CountingStore(make_store(tmp_path / "atlas.db"))
    killed = []

    def kill_one(pool, index):
        if index == 0:  # batches are in flight on both actors now
            pid = ray.get(pool.actors[0].pid.remote())
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    counts = enrich_store_ray(st, workers=2, batch_size=2, after_write=kill_one)
    assert killed
    assert counts["enriched"] == len(local[0])
    assert sorted(st.written) == sorted(local[0])  # each paper stored once
    assert stored(st.st) == local


def test_interrupted_job_keeps_finished_batches_and_resumes(tmp_path, local_ray, local):
    st = make_store(tmp_path / "atlas.db")

    def interrupt(pool, index):
        if index == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        enrich_store_ray(st, workers=2, batch_size=3, after_write=interrupt)
    assert len(st.facts.state()) == 6  # two batches committed
    rest = enrich_store_ray(st, workers=2, batch_size=3)
    assert rest["skipped"] == 6 and rest["enriched"] == len(local[0]) - 6
    assert stored(st) == local


def test_cli_enrich_ray_on_a_local_instance(tmp_path, local):
    """The command a user runs (its own local Ray instance, stopped after it)."""
    import subprocess

    db = tmp_path / "atlas.db"
    make_store(db).close()
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    cmd = [
        str(Path(sys.executable).parent / "paperatlas"),
        "enrich",
        "--ray",
        "--workers",
        "2",
        "--db",
        str(db),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert f"enriched {len(local[0])} of {len(local[0])} papers" in out.stdout
    st = Store(db)
    assert stored(st) == local
    st.close()
