"""The field in a real headless Chromium: a short list's atlas.html draws the reference in grey
under the list; a long list's map switches between its own topics and the field's.
Skipped only when chromium or chromedriver is missing (`make browser-deps`)."""

from __future__ import annotations

import pytest

from atlas_fixture import SAMPLE
from browserkit import skip_without_chromium, wait
from test_reference import synthetic_list

pytestmark = pytest.mark.browser


skip_without_chromium()


def _html(tmp_path, source, list_name):
    from paperatlas import Atlas
    from paperatlas.report.mapplot import write_html

    atlas = Atlas(tmp_path / f"{list_name}.db")
    atlas.add([source], list_name=list_name)
    atlas.embed()
    stored = atlas.build_map(list_name=list_name)
    path = write_html(stored, atlas.store, tmp_path / f"{list_name}.html")
    atlas.close()
    return path


def _ready(driver):
    return driver.execute_script("return window.atlasMap && window.atlasMap.placedLabels.length > 0")


def _grey_pixels(driver) -> int:
    return driver.execute_script("""
        const c = document.querySelector('.atlas-canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4)
          if (d[i + 3] > 0 && Math.abs(d[i] - d[i + 1]) < 8 && Math.abs(d[i + 1] - d[i + 2]) < 14
              && d[i] > 60 && d[i] < 200) n++;
        return n;""")


def test_short_list_is_drawn_over_the_field(tmp_path, browser):
    browser.get(_html(tmp_path, SAMPLE, "sample").resolve().as_uri())
    wait(browser, _ready)
    assert browser.execute_script("return window.atlasMap.field.points.length") > 1000
    note = browser.find_element("css selector", ".atlas-field-note").text
    assert "ICLR 2026" in note
    assert _grey_pixels(browser) > 3000  # the field's papers, in grey
    legend = [e.text for e in browser.find_elements("css selector", ".atlas-legend-label")]
    field = browser.execute_script("return window.atlasMap.field.broad.map(t => t.label)")
    assert legend and set(legend) <= set(field)


def test_long_list_switches_to_the_field_topics(tmp_path, browser):
    from selenium.webdriver.support.ui import Select

    big = synthetic_list(tmp_path / "long.txt", n_per_topic=55)
    browser.get(_html(tmp_path, big, "long").resolve().as_uri())
    wait(browser, _ready)
    assert browser.execute_script("return window.atlasMap.field") is None
    own = [e.text for e in browser.find_elements("css selector", ".atlas-legend-label")]
    Select(browser.find_element("css selector", ".atlas-layer-select")).select_by_value("field")
    field = [e.text for e in browser.find_elements("css selector", ".atlas-legend-label")]
    layer = browser.execute_script("return window.atlasMap.layer.topics.broad.map(t => t.label)")
    assert field and set(field) <= set(layer) and field != own
    # a field topic in the legend filters the map to its papers
    browser.find_elements("css selector", ".atlas-legend-label")[0].click()
    matched = browser.execute_script(
        "var m = window.atlasMap.match; return m ? Array.from(m).reduce((a, b) => a + b, 0) : -1"
    )
    biggest = browser.execute_script("return Math.max.apply(null, window.atlasMap.broad.map(t => t.size))")
    assert matched == biggest > 0
