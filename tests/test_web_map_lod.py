"""The map's level of detail (web/map_points.py, /api/map and /api/map/points): the
priority order, the box index against a brute-force scan, and the endpoints on the
fixture atlas with the thresholds lowered so that its 73 papers make a "big" map."""

from __future__ import annotations

import numpy as np
import pytest

from atlas_fixture import web_atlas_db, web_client  # noqa: F401 - the db and client fixtures
from paperatlas import Atlas
from paperatlas.api import web_reads
from paperatlas.atlas.sample import priority_order
from paperatlas.web import api_routes, map_points
from paperatlas.web.map_points import PointIndex


def synthetic_pages(n: int, seed: int = 0, page: int = 997) -> list[list[tuple]]:
    """n papers in clumps (a fine topic per clump, 4 fine per broad), as store pages."""
    rng = np.random.default_rng(seed)
    fine = rng.choice(40, size=n, p=np.r_[np.full(30, 0.9 / 30), np.full(10, 0.1 / 10)])
    centre = rng.random((40, 2))
    xy = np.clip(centre[fine] + rng.normal(0, 0.04, (n, 2)), 0, 1)
    rows = [
        (
            i + 1,
            f"p{i}",
            float(xy[i, 0]),
            float(xy[i, 1]),
            int(fine[i]) // 4,
            int(fine[i]),
            int(i % 50 == 0),
            -1,
            -1,
        )
        for i in range(n)
    ]
    return [rows[i : i + page] for i in range(0, n, page)]


def brute_force(index: PointIndex, box, zoom: float) -> np.ndarray:
    level = min(index.n, int(map_points.OVERVIEW * zoom**2))
    i = np.arange(index.n)
    x0, y0, x1, y1 = box
    keep = (i >= map_points.OVERVIEW) & (i < level)
    keep &= (index.x >= x0) & (index.x <= x1) & (index.y >= y0) & (index.y <= y1)
    return i[keep]


def test_priority_order_is_a_stratified_sample_led_by_every_topic():
    rng = np.random.default_rng(1)
    fine = np.repeat([0, 1, 2, 3], [5000, 500, 20, 3])
    rng.shuffle(fine)
    key = rng.integers(0, 2**32, size=len(fine), dtype=np.uint64).astype(np.uint32)
    order = priority_order(fine, key)
    assert sorted(order.tolist()) == list(range(len(fine)))  # a permutation
    assert set(fine[order[:4]].tolist()) == {0, 1, 2, 3}  # every topic's first paper leads
    for prefix in (100, 1000, 3000):
        counts = np.bincount(fine[order[:prefix]], minlength=4)
        share = np.array([5000, 500, 20, 3]) / len(fine) * prefix
        assert np.all(np.abs(counts - share) <= 2), (prefix, counts, share)  # systematic, not random
    # the order depends on the papers' hashes only, not on the row order they came in
    perm = rng.permutation(len(fine))
    again = priority_order(fine[perm], key[perm])
    assert np.array_equal(perm[again], order)


@pytest.mark.parametrize("zoom", [1.0, 1.5, 3.0, 8.0, 40.0])
@pytest.mark.parametrize(
    "box",
    [(0, 0, 1, 1), (0.2, 0.3, 0.5, 0.45), (0.61, 0.05, 0.63, 0.07), (-1, -1, 0.3, 2), (0.9, 0.9, 0.9, 0.9)],
)
def test_in_box_finds_what_a_full_scan_finds(monkeypatch, box, zoom):
    monkeypatch.setattr(map_points, "OVERVIEW", 500)
    index = PointIndex(synthetic_pages(30_000), priority_order)
    found = index.in_box(box, zoom, limit=2_000)
    expected = brute_force(index, box, zoom)
    assert found.index.tolist() == expected[:2_000].tolist()
    assert found.complete == (len(expected) <= 2_000)
    assert len(found.index) <= 2_000
    if zoom == 1.0:
        assert len(found.index) == 0 and found.complete  # the overview is all there is


def test_zooming_in_keeps_what_was_drawn_and_the_density_of_the_screen(monkeypatch):
    monkeypatch.setattr(map_points, "OVERVIEW", 1_000)
    index = PointIndex(synthetic_pages(40_000, seed=3), priority_order)
    wide, narrow = (0.2, 0.2, 0.8, 0.8), (0.4, 0.4, 0.6, 0.6)
    at2 = set(index.in_box(wide, 2.0, limit=10**6).index.tolist())
    at6 = set(index.in_box(narrow, 6.0, limit=10**6).index.tolist())
    inside = {i for i in at2 if 0.4 <= index.x[i] <= 0.6 and 0.4 <= index.y[i] <= 0.6}
    assert inside <= at6  # nothing seen at zoom 2 vanishes at zoom 6
    # points per unit of screen about constant: the box is 1/3 as wide at 3x the zoom
    assert 0.5 < len(at6) / max(1, len(inside)) / 9 < 2


def test_topic_members_in_map_order():
    index = PointIndex(synthetic_pages(5_000, seed=4), priority_order)
    rowids = index.members(1, 7)
    assert rowids.tolist() == sorted(rowids.tolist()) and len(rowids) > 0
    assert set(rowids.tolist()) == set(index.rowid[index.fine == 7].tolist())


@pytest.fixture
def big(monkeypatch):
    """The fixture's 73 papers served as a big map: whole below 20, overview of 10."""
    monkeypatch.setattr(api_routes, "FULL_MAP", 20)
    monkeypatch.setattr(map_points, "OVERVIEW", 10)


def test_a_small_map_goes_whole_as_before(client, db):
    atlas = Atlas(db)
    data = client.get("/api/map").json()
    assert data == web_reads.map_reader(atlas, "*").full_view()
    assert "lod" not in data and len(data["points"]) == atlas.stats()["papers"]


def test_a_big_map_comes_as_an_overview_and_views(client, db, big):
    atlas = Atlas(db)
    n = atlas.stats()["papers"]
    whole = {p[5]: p for p in web_reads.map_reader(atlas, "*").full_view()["points"]}
    data = client.get("/api/map", params={"big": 1}).json()  # a new URL: not the page cache's
    assert data["lod"]["papers"] == n and data["lod"]["overview"] == 10
    assert len(data["points"]) == 10 and data["topics"]["broad"]
    seen = [p[5] for p in data["points"]]
    for p in data["points"]:
        assert p == whole[p[5]]  # the rows of the whole map's view, same fields
    # zoomed in on every quarter of the map far enough: every other paper once
    # quarters that share no edge: the next float32 after 0.5 is 0.5 + 6e-8
    for x0, y0 in ((0, 0), (0.5, 0), (0, 0.5), (0.5, 0.5)):
        lo = [v + 1e-12 if v else -1 for v in (x0, y0)]
        hi = [0.5 if v == 0 else 2 for v in (x0, y0)]
        box = f"{lo[0]},{lo[1]},{hi[0]},{hi[1]}"
        r = client.get("/api/map/points", params={"bbox": box, "zoom": 100, "t": "quarters"})
        assert r.status_code == 200 and r.json()["complete"]
        seen += [p[5] for p in r.json()["points"]]
    assert sorted(seen) == sorted(whole)  # each paper once
    # a view holds only papers inside its box
    box = (0.25, 0.25, 0.75, 0.75)
    params = {"bbox": ",".join(map(str, box)), "zoom": 100, "t": "inside"}
    pts = client.get("/api/map/points", params=params).json()["points"]
    assert all(box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3] for p in pts)
    assert {p[5] for p in pts} == {
        pid
        for pid, p in whole.items()
        if pid not in {q[5] for q in data["points"]} and box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]
    }


def test_a_view_is_bounded_and_grows_with_the_zoom(client, big, monkeypatch):
    monkeypatch.setattr(map_points, "DETAIL_MAX", 7)
    counts = []
    for zoom in (1, 1.2, 1.5, 100):
        res = client.get("/api/map/points", params={"bbox": "0,0,1,1", "zoom": zoom, "t": "bounded"}).json()
        assert len(res["points"]) <= 7 and res["level"] == min(73, int(10 * zoom**2))
        counts.append(len(res["points"]))
    assert counts == [0, 4, 7, 7]  # 14 - 10, 22 - 10 capped at 7, ...
    assert not res["complete"]


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"bbox": "0,0,1"},
        {"bbox": "0,0,1,1,1"},
        {"bbox": "a,0,1,1"},
        {"bbox": "1,0,0,1"},
        {"bbox": "0,0,nan,1"},
        {"bbox": "0,0,inf,1"},
        {"bbox": "0,0,1,1", "zoom": "0.5"},
        {"bbox": "0,0,1,1", "zoom": "1e9"},
        {"bbox": "0," * 100 + "1"},
    ],
)
def test_bad_views_are_refused(client, params):
    r = client.get("/api/map/points", params=params)
    assert r.status_code in (400, 422) and "error" in r.json()


def test_views_of_a_list_without_a_map_are_404(client):
    assert client.get("/api/map/points", params={"bbox": "0,0,1,1", "list": "nope"}).status_code == 404


def test_hostile_titles_stay_json_strings(client, big):
    r = client.get("/api/map/points", params={"bbox": "-1,-1,2,2", "zoom": 100, "t": "hostile"})
    assert r.headers["content-type"].startswith("application/json")
    titles = {p[5]: p[6] for p in r.json()["points"]}
    overview = {p[5]: p[6] for p in client.get("/api/map", params={"x": 2}).json()["points"]}
    titles.update(overview)
    assert titles["xss-script"] == "<script>alert('xss-title')</script> Robust Forecasting"
    assert titles["xss-img"] == '"><img src=x onerror="window.__xss=2"> Graph Rewiring'
    # the page's script never parses paper text as HTML
    from paperatlas.assets import static_dir

    js = (static_dir() / "atlas.js").read_text(encoding="utf-8")
    assert "innerHTML" not in js.replace("(never innerHTML)", "")


def test_the_map_page_names_where_views_come_from(client):
    html = client.get("/map").text
    assert 'data-points-src="/api/map/points"' in html
    assert 'data-points-src="/api/map/points?lang=zh"' in client.get("/map?lang=zh").text


def test_topic_page_reads_only_what_it_shows(client, db, monkeypatch):
    from paperatlas.web.pages import topics

    stored = Atlas(db).store.maps.get("*")
    top = max((t for t in stored["topics"] if t["level"] == 0), key=lambda t: t["size"])
    monkeypatch.setattr(topics, "SHOWN", 3)
    asked = []
    real = Atlas.papers
    monkeypatch.setattr(Atlas, "papers", lambda self, **kw: asked.append(kw.get("ids")) or real(self, **kw))
    html = client.get(f"/topics/{top['topic_id']}", params={"few": 1}).text
    assert html.count('class="card"') == 3 and f"3 / {top['size']}" in html
    rep = top["data"].get("representative", [])
    assert asked and len(asked[0]) <= len(rep) + 3  # not the topic's every paper


def test_the_whole_maps_data_is_kept_until_the_atlas_changes(db, tmp_path, monkeypatch):
    import sqlite3

    from fastapi.testclient import TestClient

    from paperatlas.paper import shown_title
    from paperatlas.web.app import create_app

    mine = tmp_path / "atlas.db"
    with sqlite3.connect(db) as source, sqlite3.connect(mine) as copy:
        source.backup(copy)
    built: list[str] = []
    from paperatlas.atlas.view import MapReader

    real = MapReader.full_view
    monkeypatch.setattr(MapReader, "full_view", lambda self: built.append(self.scope) or real(self))
    with TestClient(create_app(mine), base_url="http://127.0.0.1") as client:
        first = client.get("/api/map").json()
        assert client.get("/api/map").json() == first and len(built) == 1  # the kept one
        renamed, untitled = first["points"][0][5], first["points"][1][5]
        with sqlite3.connect(mine) as other:  # another process changes the atlas
            other.execute("UPDATE papers SET title = 'A renamed paper' WHERE id = ?", (renamed,))
            other.execute("UPDATE papers SET title = '' WHERE id = ?", (untitled,))
        changed = {p[5]: p for p in client.get("/api/map").json()["points"]}
        assert len(built) == 2 and changed[renamed][6] == "A renamed paper"
        # a paper without a title: the one written from its abstract, as everywhere else
        row = next(Atlas(mine).store.papers.iter(ids=[untitled]))
        assert changed[untitled][6] == shown_title(row) and changed[untitled][6]
