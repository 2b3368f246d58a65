"""`paperatlas map --html` of a big map: a bounded sample (the web map's overview: the
first papers of the one priority order), said in the page; a small map whole as before."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from atlas_fixture import copy_atlas
from paperatlas import Atlas, results
from paperatlas.atlas import sample
from paperatlas.report import mapplot
from paperatlas.web import map_points


@pytest.fixture(scope="module")
def fixture_atlas(fixture_atlas_template, tmp_path_factory):
    atlas = Atlas(copy_atlas(fixture_atlas_template, tmp_path_factory, "atlas"))
    yield atlas
    atlas.close()


def _inlined(text: str) -> dict:
    return json.loads(text.split('<script type="application/json" id="atlas-data">')[1].split("</script>")[0])


def test_a_small_map_is_written_whole(fixture_atlas):
    stored = fixture_atlas.store.maps.get("*")
    text = mapplot.standalone_html(stored, fixture_atlas.store)
    view = _inlined(text)
    assert [p[5] for p in view["points"]] == [a["paper_id"] for a in stored["assignments"]]
    assert "Drawn:" not in text and "Highlight titles containing" in text


def test_a_big_map_is_written_as_the_web_maps_sample(fixture_atlas, monkeypatch):
    stored = fixture_atlas.store.maps.get("*")
    n = len(stored["assignments"])
    size = n // 3
    monkeypatch.setattr(mapplot, "HTML_FULL_MAP", n - 1)
    monkeypatch.setattr(mapplot, "HTML_SAMPLE", size)
    text = mapplot.standalone_html(stored, fixture_atlas.store)
    view = _inlined(text)
    drawn = [p[5] for p in view["points"]]
    # the first papers of the priority order the web map's overview uses, in the map's order
    index = map_points.PointIndex(
        [
            [
                (i, a["paper_id"], a["x"], a["y"], a["broad"], a["fine"], 0, -1, -1)
                for i, a in enumerate(stored["assignments"])
            ]
        ],
        sample.priority_order,
    )
    expected = {stored["assignments"][r]["paper_id"] for r in index.rowid[:size].tolist()}
    assert set(drawn) == expected and len(drawn) == size
    order = [a["paper_id"] for a in stored["assignments"] if a["paper_id"] in expected]
    assert drawn == order
    # every fine topic drawn, the topics' sizes those of the whole map
    assert {a["fine"] for a in stored["assignments"]} == {p[3] for p in view["points"]}
    sizes = Counter(a["broad"] for a in stored["assignments"])
    assert {t["id"]: t["size"] for t in view["topics"]["broad"]} == dict(sizes)
    assert f"Drawn: {size:,} of the {n:,} papers" in text
    assert "among the drawn papers only" in text and "Highlight drawn titles containing" in text
    assert all(p[6] for p in view["points"])  # titles read for the drawn papers


def test_one_overview_size_everywhere():
    assert sample.OVERVIEW == results.MAP_OVERVIEW == map_points.OVERVIEW == mapplot.HTML_SAMPLE
