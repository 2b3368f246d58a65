"""What a first command in a fresh process finds already computed instead of computing it
again: a digest of a collection uses the stored map of the same papers, whichever of the
two equal scopes (the list holding every paper, or all papers) `map` or `open` built."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas import Atlas

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2026_sample_list.txt"


def _atlas(tmp_path: Path) -> Atlas:
    atlas = Atlas(tmp_path / "a.db")
    atlas.add([SAMPLE], list_name="sample")
    atlas.embed(model="static", vocabulary=False)
    atlas.like(atlas.store.papers.ids()[:3])
    return atlas


@pytest.mark.slow  # builds an atlas with its map (UMAP) in the test
def test_digest_of_a_collection_uses_the_map_of_all_papers_open_built(tmp_path):
    with _atlas(tmp_path) as atlas:
        atlas.build_map()  # what `open` and `map` build: all papers
        text = atlas.digest(collection="likes")
        assert atlas.store.maps.header("sample") is None  # no second map of the same papers
        assert text.count("\n## ") >= 1  # grouped by the map's topics


def test_digest_keeps_using_the_lists_own_map_when_that_is_the_one_stored(tmp_path):
    with _atlas(tmp_path) as atlas:
        atlas.build_map("sample")
        atlas.digest(collection="likes")
        assert atlas.store.maps.header("*") is None  # the list's map served: none built
