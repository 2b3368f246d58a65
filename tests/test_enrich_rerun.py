"""A rerun of `enrich` reads only the papers still to do (a million-paper job killed near
its end resumes at once, instead of reading and hashing every paper twice first): what
it counts as to do (the store's facts_pending) is what it reads and stores, and the
facts are those of a run that was never interrupted."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas.enrich import pipeline
from paperatlas.store import Store

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"


def make_store(path: Path) -> Store:
    st = Store(path)
    abstracts = [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n") if len(p.strip()) > 200]
    with st.transaction():
        for i, text in enumerate(abstracts[:14]):
            st.papers.insert({"id": f"p{i:02d}", "abstract": text, "title": f"Paper {i}" if i % 2 else None})
    return st


def facts_rows(st: Store) -> list[tuple]:
    return [
        tuple(r) for r in st.conn.execute("SELECT paper_id, data, text_hash, version FROM facts ORDER BY 1")
    ]


def reads(st: Store, monkeypatch) -> list[str]:
    """The ids of the papers whose text enrich reads from the store from now on."""
    seen: list[str] = []
    real = st.facts.inputs_page

    def page(*args, **kwargs):
        rows = real(*args, **kwargs)
        seen.extend(r[1] for r in rows)
        return rows

    monkeypatch.setattr(st.facts, "inputs_page", page)
    return seen


@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(pipeline, "_area_predictor", lambda: None)
    monkeypatch.setattr(pipeline, "PAGE", 3)
    monkeypatch.setattr(pipeline, "BATCH", 4)


def test_a_rerun_reads_only_the_papers_left(tmp_path, monkeypatch, small_pages):
    whole = make_store(tmp_path / "whole.db")
    pipeline.enrich_store(whole, workers=1)
    st = make_store(tmp_path / "atlas.db")
    real_store_batch = pipeline.store_batch
    stored: list[int] = []

    def killed_after_two(*args):
        if len(stored) == 2:
            raise KeyboardInterrupt
        stored.append(real_store_batch(*args))
        return stored[-1]

    monkeypatch.setattr(pipeline, "store_batch", killed_after_two)
    with pytest.raises(KeyboardInterrupt):
        pipeline.enrich_store(st, workers=1)
    monkeypatch.setattr(pipeline, "store_batch", real_store_batch)
    done = [r[0] for r in facts_rows(st)]
    assert done == [f"p{i:02d}" for i in range(8)]
    # a finished paper whose abstract changed since is to do again (papers_text_changed)
    with st.transaction():
        st.papers.update("p02", {"abstract": whole.papers.get("p02")["abstract"] + " We also release code."})
    read = reads(st, monkeypatch)
    counts = pipeline.enrich_store(st, workers=1)
    assert read == ["p02", *(f"p{i:02d}" for i in range(8, 14))]
    assert (counts["enriched"], counts["skipped"], counts["total"]) == (7, 7, 14)
    with whole.transaction():
        whole.papers.update("p02", {"abstract": st.papers.get("p02")["abstract"]})
    pipeline.enrich_store(whole, workers=1)
    assert facts_rows(st) == facts_rows(whole)
    # nothing left: nothing read; --force: every paper
    read.clear()
    assert pipeline.enrich_store(st, workers=1)["enriched"] == 0 and read == []
    assert pipeline.enrich_store(st, force=True, workers=1)["enriched"] == 14 and len(read) == 14
    assert facts_rows(st) == facts_rows(whole)
