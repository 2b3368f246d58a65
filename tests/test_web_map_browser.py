"""The map's level of detail in headless Chromium: the fixture's 73 papers served as a big
map (whole below 20 papers, an overview of 10), so that zooming in has to ask the server
for the view's papers; hostile titles that come that way are shown as text."""

from __future__ import annotations

import pytest

from atlas_fixture import copy_atlas
from browserkit import served, skip_without_chromium, wait

pytestmark = pytest.mark.browser

skip_without_chromium()


@pytest.fixture(scope="module")
def server(fixture_atlas_template, tmp_path_factory):
    from paperatlas.web import api_routes, map_points

    saved = api_routes.FULL_MAP, map_points.OVERVIEW
    api_routes.FULL_MAP, map_points.OVERVIEW = 20, 10
    try:
        with served(copy_atlas(fixture_atlas_template, tmp_path_factory, "lod")) as url:
            yield url
    finally:
        api_routes.FULL_MAP, map_points.OVERVIEW = saved


def test_zooming_in_brings_the_views_papers(server, browser):
    browser.get(server + "/map")
    wait(browser, lambda d: d.execute_script("return !!(window.atlasMap && window.atlasMap.width)"))
    assert browser.execute_script("return window.atlasMap.points.length") == 10
    note = browser.find_element("css selector", ".atlas-lod").text
    assert "10 of 73" in note
    # zoomed in (12x) on one paper of the overview: the papers near it come, none twice
    browser.execute_script(
        "const m = window.atlasMap, p = m.points[0]; m.zoomTo(p[0] - 0.02, p[1] - 0.02, p[0] + 0.02, p[1] + 0.02);"
    )
    wait(browser, lambda d: d.execute_script("return !!(window.atlasMap.detail)"))
    ids = browser.execute_script("return window.atlasMap.points.map(p => p[5])")
    assert len(ids) > 10 and len(set(ids)) == len(ids)
    assert "of 73" in browser.find_element("css selector", ".atlas-lod").text
    # back to the overview: the view's papers are dropped again
    browser.execute_script("window.atlasMap.fit()")
    wait(browser, lambda d: d.execute_script("return window.atlasMap.points.length === 10"))


def test_hostile_titles_of_a_view_render_as_text(server, browser):
    browser.get(server + "/map")
    wait(browser, lambda d: d.execute_script("return !!(window.atlasMap && window.atlasMap.width)"))
    browser.execute_script("const m = window.atlasMap; m.view.k = 400; m.draw();")  # every paper of the box
    wait(browser, lambda d: d.execute_script("return !!(window.atlasMap.detail)"))
    # the view holds the hostile papers wherever they lie: ask for the whole map at that zoom
    found = browser.execute_script("""
        const m = window.atlasMap;
        return fetch(m.lod.url + '?bbox=-1,-1,2,2&zoom=400').then(r => r.json()).then(res => {
          m.setDetail({box: [-1, -1, 2, 2], zoom: 400, complete: res.complete, points: res.points});
          const i = m.points.findIndex(p => p[5] === 'xss-img');
          m.showCard(i, 100, 100, false);
          return [i, document.querySelector('.atlas-card').textContent];
        });""")
    assert found[0] >= 0 and "<img src=x" in found[1]
    assert not browser.find_elements("css selector", ".atlas-card img")
    assert browser.execute_script("return window.__xss === undefined")


def test_the_filter_of_a_sampled_map_asks_the_server(server, browser):
    """Typing a word: the papers of the whole map whose titles hold it come and are
    highlighted (not only the 10 drawn), the note counts them; clearing drops them; a
    hostile title that came that way shows as text."""
    browser.get(server + "/map")
    wait(browser, lambda d: d.execute_script("return !!(window.atlasMap && window.atlasMap.width)"))
    box = browser.find_element("css selector", ".atlas-filter")
    box.send_keys("forecasting")
    wait(browser, lambda d: d.execute_script("return !!window.atlasMap.found"))
    found = browser.execute_script(
        "const m = window.atlasMap; let n = 0; for (const v of m.match) n += v;"
        "return [m.found.found, m.found.points.length, n, m.points.length, m.points.map(p => p[5])];"
    )
    assert found[0] >= 1 and found[1] == found[0] and found[2] >= found[1]
    ids = found[4]
    assert len(set(ids)) == len(ids) and "xss-script" in ids and found[3] > 10  # beyond the overview
    assert "papers' titles have these words" in browser.find_element("css selector", ".atlas-lod").text
    browser.execute_script(
        "const m = window.atlasMap, i = m.points.findIndex(p => p[5] === 'xss-script'); m.showCard(i, 100, 100, false);"
    )
    assert "<script>" in browser.find_element("css selector", ".atlas-card").text
    assert browser.execute_script("return window.__xss === undefined")
    box.clear()
    browser.execute_script("window.atlasMap.setFilter('')")
    wait(
        browser,
        lambda d: d.execute_script("return window.atlasMap.points.length === 10 && !window.atlasMap.found"),
    )
