"""A list above the map's sample size, through build_map on the fixture atlas: labels read
only the papers the topics were fit on, every paper is read a page at a time, and the map
still names the fixture's subjects and places every paper."""

from __future__ import annotations

from collections import Counter

import pytest

from atlas_fixture import build_fixture_atlas, fixture_records
from paperatlas.atlas import cluster as atlas_cluster
from paperatlas.atlas import topics as atlas_topics

SAMPLE = 45
PAGE = 16


@pytest.fixture()
def sampled_atlas(tmp_path, monkeypatch):
    atlas = build_fixture_atlas(tmp_path / "atlas.db", with_map=False)
    monkeypatch.setattr(atlas_cluster, "MAP_SAMPLE", SAMPLE)
    monkeypatch.setattr(atlas_topics, "PAGE", PAGE)
    calls: list[int] = []
    get_papers = atlas.store.papers.get_many

    def counting(ids):
        ids = list(ids)
        calls.append(len(ids))
        return get_papers(ids)

    texts = atlas.store.maps.paper_texts

    def counting_texts(ids):  # the pages of every paper's text length and area
        ids = list(ids)
        calls.append(len(ids))
        return texts(ids)

    monkeypatch.setattr(atlas.store.papers, "get_many", counting)
    monkeypatch.setattr(atlas.store.maps, "paper_texts", counting_texts)
    yield atlas, calls
    atlas.close()


def test_a_list_above_the_sample_reads_its_papers_in_bounded_batches(sampled_atlas):
    atlas, calls = sampled_atlas
    n = len(atlas.store.papers.ids())
    assert n > SAMPLE + 20
    stored = atlas.build_map(model="lsa", force=True)
    assert stored.built and stored.meta["papers"] == n
    assert "placed" in stored.meta["stage_seconds"] and "papers read" in stored.meta["stage_seconds"]
    # the labeller reads the fitted sample only; every other read is a page
    assert max(calls) == SAMPLE
    assert sorted(calls, reverse=True)[1] <= PAGE
    assert len(stored.assignments) == n and {a["paper_id"] for a in stored.assignments} == set(
        atlas.store.papers.ids()
    )
    broad = [t for t in stored.topics if t["level"] == 0]
    assert sum(t["size"] for t in broad) == n
    labels = [t["label"] for t in broad]
    assert len(set(labels)) == len(labels) and all(not x.startswith("Topic ") for x in labels)
    # the unlearning papers' topic is still named after unlearning (sampled text only)
    truth = {r["id"]: r.get("topic", "hostile") for r in fixture_records()}
    unlearning = Counter(
        a["broad"] for a in stored.assignments if truth[a["paper_id"]] == "unlearning"
    ).most_common(1)[0][0]
    assert "unlearning" in next(t["label"] for t in broad if t["topic_id"] == unlearning).lower()


def test_area_counts_keep_the_first_seen_order_on_ties():
    import numpy as np

    pages = atlas_topics.PaperPages(
        words=np.zeros(6, np.int64), area=np.array([1, 0, -1, 0, 1, 2]), area_names=["a", "b", "c"]
    )
    assert pages.area_counts(np.arange(6)).most_common() == [("b", 2), ("a", 2), ("c", 1)]
    assert pages.area_counts(np.array([2])) == Counter()
