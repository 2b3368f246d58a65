"""The web app in real headless Chromium (Debian's chromium + chromedriver, via Selenium).

Screenshots go to test-artifacts/. Skipped only when chromium or chromedriver is missing
(`make browser-deps` installs them)."""

from __future__ import annotations

import pytest

from atlas_fixture import copy_atlas
from browserkit import ARTIFACTS, served, skip_without_chromium, wait

pytestmark = pytest.mark.browser


skip_without_chromium()


@pytest.fixture(scope="module")
def server(fixture_atlas_template, tmp_path_factory):
    with served(copy_atlas(fixture_atlas_template, tmp_path_factory, "browser")) as url:
        yield url


def _map_ready(driver):
    return driver.execute_script("return window.atlasMap && window.atlasMap.placedLabels.length > 0")


def test_map_renders_with_labels(server, browser):
    browser.get(server + "/map")
    wait(browser, _map_ready)
    placed = browser.execute_script("return window.atlasMap.placedLabels.map(l => l.label)")
    broad = browser.execute_script("return window.atlasMap.broad.length")
    assert len(placed) >= min(3, broad)
    legend = [e.text for e in browser.find_elements("css selector", ".atlas-legend-label")]
    assert len(legend) == broad and all(legend)
    # something was drawn: the canvas is not blank
    inked = browser.execute_script("""
        const c = document.querySelector('.atlas-canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
        return n;""")
    assert inked > 2000
    browser.save_screenshot(str(ARTIFACTS / "map.png"))


def test_a_filtered_maps_legend_counts_the_papers_that_pass_and_links_with_the_filters(server, browser):
    browser.get(server + "/map?kind=method")
    wait(browser, _map_ready)
    passing, shown, links, sizes = browser.execute_script("""
        const m = window.atlasMap, items = [...document.querySelectorAll('.atlas-legend-item')];
        return [m.topicCounts, items.map(li => [li.dataset.topic, li.querySelector('.count').textContent]),
                items.map(li => li.querySelector('.atlas-legend-open').getAttribute('href')),
                m.broad.reduce((n, t) => n + t.size, 0)];""")
    assert passing and shown and {topic: str(passing.get(topic, 0)) for topic, _ in shown} == dict(shown)
    assert sum(passing.values()) < sizes  # not every paper is a method
    assert all(link.startswith("/topics/") and link.endswith("?kind=method") for link in links)


def test_hover_shows_a_card_and_click_opens_the_paper(server, browser):
    from selenium.webdriver.common.action_chains import ActionChains

    browser.get(server + "/map")
    wait(browser, _map_ready)
    # the screen position of one paper, relative to the canvas centre (Selenium's origin)
    x, y, pid, width, height = browser.execute_script("""
        const m = window.atlasMap, p = m.points[5], s = m.toScreen(p[0], p[1]);
        return [s[0], s[1], p[5], m.width, m.height];""")
    canvas = browser.find_element("css selector", ".atlas-canvas")
    ActionChains(browser).move_to_element_with_offset(
        canvas, int(x - width / 2), int(y - height / 2)
    ).perform()
    card = wait(
        browser,
        lambda d: (
            d.find_element("css selector", ".atlas-card").is_displayed()
            and d.find_element("css selector", ".atlas-card")
        ),
    )
    assert card.text.strip()
    browser.save_screenshot(str(ARTIFACTS / "map-hover.png"))
    hovered = browser.execute_script("return window.atlasMap.points[window.atlasMap.hover][5]")
    ActionChains(browser).click().perform()
    wait(browser, lambda d: "/papers/" in d.current_url)
    assert browser.current_url.endswith("/papers/" + hovered)
    assert browser.find_element("id", "paper-title").text
    assert pid  # the paper the test aimed at exists


def test_search_returns_results(server, browser):
    from selenium.webdriver.common.keys import Keys

    browser.get(server + "/")
    box = browser.find_element("css selector", ".searchbox input[name=q]")
    box.send_keys("graph neural networks over-smoothing", Keys.ENTER)
    wait(browser, lambda d: "/search" in d.current_url)
    cards = browser.find_elements("css selector", "#results .card")
    assert cards
    assert "graph" in cards[0].text.lower()
    browser.save_screenshot(str(ARTIFACTS / "search.png"))


def test_hostile_records_render_as_text(server, browser):
    from selenium.common.exceptions import NoAlertPresentException

    for pid, shown in (
        ("xss-script", "<script>alert('xss-title')</script>"),
        ("xss-img", '"><img src=x onerror="window.__xss=2">'),
    ):
        browser.get(f"{server}/papers/{pid}")
        assert shown in browser.find_element("id", "paper-title").text
        assert browser.execute_script("return window.__xss === undefined")
        with pytest.raises(NoAlertPresentException):
            browser.switch_to.alert.text  # noqa: B018 - no alert() ever ran
        assert not browser.find_elements("css selector", ".paper img")
    browser.save_screenshot(str(ARTIFACTS / "xss-paper.png"))
    # the map's hover card puts titles in with textContent
    browser.get(server + "/map")
    wait(browser, _map_ready)
    text = browser.execute_script("""
        const m = window.atlasMap;
        const i = m.points.findIndex(p => p[5] === 'xss-img');
        m.showCard(i, 100, 100, false);
        return document.querySelector('.atlas-card').textContent;""")
    assert "<img src=x" in text
    assert not browser.find_elements("css selector", ".atlas-card img")
    assert browser.execute_script("return window.__xss === undefined")
    browser.get(server + "/search?q=forecasting")
    assert browser.execute_script("return window.__xss === undefined")


def test_chinese_interface(server, browser):
    browser.get(server + "/map?lang=zh")
    wait(browser, _map_ready)
    nav = browser.find_element("css selector", ".nav").text
    assert "地图" in nav and "概览" in nav
    assert browser.find_element("css selector", "html").get_attribute("lang") == "zh-CN"
    browser.save_screenshot(str(ARTIFACTS / "map-zh.png"))
    browser.get(server + "/?lang=zh")
    assert "研究领域" in browser.find_element("tag name", "body").text
    browser.save_screenshot(str(ARTIFACTS / "overview-zh.png"))


def test_star_likes_a_paper(server, browser):
    browser.get(server + "/papers/graphs-03")
    star = browser.find_element("css selector", ".paper-head .star")
    assert star.get_attribute("aria-pressed") == "false"
    star.click()
    wait(
        browser,
        lambda d: d.find_element("css selector", ".paper-head .star").get_attribute("aria-pressed") == "true",
    )
    browser.get(server + "/papers/graphs-03")
    assert browser.find_element("css selector", ".paper-head .star").get_attribute("aria-pressed") == "true"
    browser.save_screenshot(str(ARTIFACTS / "paper.png"))
    browser.find_element("css selector", ".paper-head .star").click()
    wait(
        browser,
        lambda d: (
            d.find_element("css selector", ".paper-head .star").get_attribute("aria-pressed") == "false"
        ),
    )


def test_overview_and_list_pages_look_complete(server, browser):
    browser.get(server + "/")
    assert browser.find_elements("css selector", "svg.bars rect")
    browser.save_screenshot(str(ARTIFACTS / "overview.png"))
    browser.get(server + "/papers?sort=rating")
    assert len(browser.find_elements("css selector", ".card")) >= 20
    browser.save_screenshot(str(ARTIFACTS / "papers.png"))
    browser.get(server + "/topics/0")
    assert browser.find_element("id", "topic-label").text
    browser.save_screenshot(str(ARTIFACTS / "topic.png"))
