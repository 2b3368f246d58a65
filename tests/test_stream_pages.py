"""embed and enrich read the store a page at a time (bounded memory at a million papers):
results do not depend on the page size, pages are read while earlier batches are written,
and a local enrich on worker processes (a window of batches at a time) stores the facts a
single process does."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from paperatlas.embed import vectors
from paperatlas.enrich import pipeline
from paperatlas.store import Store

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"


def make_store(path: Path) -> Store:
    st = Store(path)
    abstracts = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n") if len(p.strip()) > 200]
    with st.transaction():
        for i, text in enumerate(abstracts):
            row = {"id": f"p{i:02d}", "abstract": text, "title": f"Paper {i}" if i % 2 else None}
            if i == 3:
                row["code_urls"] = ["https://github.com/example/tool"]
            st.papers.insert(row)
    return st


@pytest.fixture
def no_areas(monkeypatch):
    monkeypatch.setattr(pipeline, "_area_predictor", lambda: None)


def test_embed_pages_smaller_than_a_batch_give_the_same_vectors(tmp_path, monkeypatch):
    whole = make_store(tmp_path / "whole.db")
    vectors.embed_store(whole, "static", batch_size=4)
    monkeypatch.setattr(vectors, "PAGE", 3)  # pages cut across batches
    paged = make_store(tmp_path / "paged.db")
    # one paper already current: the pages skip it and batches close over the gap
    ids, vecs = whole.vectors.get("static")
    with paged.transaction():
        paged.vectors.put("static", ids[5:6], vecs[5:6], [whole.vectors.state("static")[ids[5]]])
    pending = vectors.Pending(paged, "static")
    assert (pending.todo, pending.total) == (len(ids) - 1, len(ids))
    batches = list(pending.batches(4))
    assert [len(b) for b in batches[:-1]] == [4] * (len(batches) - 1)
    assert ids[5] not in {pid for b in batches for pid, _, _ in b}
    result = vectors.embed_store(paged, "static", batch_size=4)
    assert result["embedded"] == len(ids) - 1 and result["skipped"] == 1
    got_ids, got = paged.vectors.get("static")
    assert got_ids == ids and np.array_equal(got, vecs)
    assert paged.vectors.state("static") == whole.vectors.state("static")


def test_embed_batches_leave_out_papers_deleted_after_the_count(tmp_path, monkeypatch):
    monkeypatch.setattr(vectors, "PAGE", 3)
    st = make_store(tmp_path / "atlas.db")
    pending = vectors.Pending(st, "static")
    ids = [p["id"] for p in st.papers.iter(id_only=True)]
    gone = {ids[2], ids[3], ids[4], ids[-1]}  # a run across a page's end, and the last one
    with st.transaction() as conn:  # (no store call deletes a paper; another process might)
        conn.executemany("DELETE FROM papers WHERE id = ?", [(pid,) for pid in gone])
    got = [pid for batch in pending.batches(4) for pid, _, _ in batch]
    assert got == [pid for pid in ids if pid not in gone]


def test_enrich_pages_and_worker_windows_give_the_same_facts(tmp_path, monkeypatch, no_areas):
    one = make_store(tmp_path / "one.db")
    counts = pipeline.enrich_store(one, workers=1)
    assert counts["enriched"] == one.papers.count() and counts["with_code"] >= 1
    monkeypatch.setattr(pipeline, "PAGE", 3)
    monkeypatch.setattr(pipeline, "BATCH", 2)  # more batches than one window of 2 workers
    pooled = make_store(tmp_path / "pooled.db")
    assert pipeline.enrich_store(pooled, workers=2) == counts
    ids = [p["id"] for p in one.papers.iter(id_only=True)]
    assert pooled.facts.get_many(ids) == one.facts.get_many(ids)
    assert pooled.facts.state() == one.facts.state()
    assert pipeline.enrich_store(pooled)["skipped"] == len(ids)


def test_enrich_cluster_options_need_ray(cli):
    code, _, err = cli("enrich", "--address", "auto")
    assert code == 2 and "--address and --workers go with --ray" in err
