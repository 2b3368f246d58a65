"""Phones and narrow windows, and the paper page, in real headless Chromium at a desktop
(1440x900) and a phone (390x844) viewport: no page is wider than the window, the search box
is always there, the header takes any number of links, the map pans and zooms by touch and
by keyboard, its panel folds, and the paper page shows scores, links and a BibTeX to copy.
Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest

from atlas_fixture import copy_atlas
from browserkit import (
    ARTIFACTS,
    VIEWPORTS,
    served,
    skip_without_chromium,
    use_viewport,
    wait,
)
from paperatlas import Atlas

pytestmark = pytest.mark.browser

REVIEWED = Path(__file__).parent / "fixtures" / "paper_page" / "iclr.jsonl"
LONG_LIST = "iclr2026_reviewed_sample_list"  # a file's name, as `add` names a list: one long word
PAGES = (
    "/",
    "/map",
    "/papers",
    "/papers?kind=method&sort=rating",
    "/papers/Rev1ewAbCd",
    "/papers/Plain0Xy12",
    "/search?q=unlearning",
    "/likes",
    "/collections",
    "/tags",
    "/topics/0",
    "/?lang=zh",
    f"/?list={LONG_LIST}",
    "/papers/Rev1ewAbCd?lang=zh",
)

skip_without_chromium()


@pytest.fixture(scope="module")
def server(fixture_atlas_template, tmp_path_factory):
    db = copy_atlas(fixture_atlas_template, tmp_path_factory, "browser-phone")
    with Atlas(db) as atlas:
        atlas.add([REVIEWED], list_name=LONG_LIST, enrich=False)
    with served(db) as url:
        yield url


def _viewport(driver, name: str) -> None:
    use_viewport(driver, name)  # and a touch screen on the phone
    driver.execute_cdp_cmd(
        "Emulation.setTouchEmulationEnabled", {"enabled": name == "phone", "maxTouchPoints": 5}
    )


def _fits(driver, viewport: str) -> bool:
    # against the screen's width, not window.innerWidth: a phone widens its layout viewport
    # to a page too wide for it (390 px of screen, 486 px of page and window)
    width = VIEWPORTS[viewport][0]
    return driver.execute_script(f"return document.documentElement.scrollWidth <= {width} + 1")


def _search_box_shown(driver) -> bool:
    """The header's search box is drawn, wide enough to type in, and inside the window."""
    return driver.execute_script(
        "const i = document.querySelector('.searchbox input'); if (!i) return false;"
        "const r = i.getBoundingClientRect();"
        "return i.offsetParent !== null && r.width >= 120 && r.left >= 0 && r.right <= window.innerWidth;"
    )


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_page_is_wider_than_the_window_and_search_is_there(server, browser, viewport):
    _viewport(browser, viewport)
    for path in PAGES:
        browser.get(server + path)
        assert _fits(browser, viewport), f"{path} is wider than {VIEWPORTS[viewport][0]} px"
        assert _search_box_shown(browser), f"no search box on {path}"
    browser.get(server + "/papers")
    browser.save_screenshot(str(ARTIFACTS / f"header-{viewport}.png"))


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_header_takes_more_links(server, browser, viewport):
    _viewport(browser, viewport)
    browser.get(server + "/papers")
    # a header with three times today's links, with long names, still fits
    browser.execute_script(
        "const nav = document.querySelector('.nav');"
        "for (let i = 0; i < 8; i++) { const a = document.createElement('a');"
        " a.href = '/'; a.textContent = 'Recommendations ' + i; nav.appendChild(a); }"
    )
    assert _fits(browser, viewport)
    assert _search_box_shown(browser)
    browser.find_element("css selector", ".searchbox input").send_keys("unlearning\n")
    wait(browser, lambda d: "/search?q=unlearning" in d.current_url)
    assert browser.find_elements("css selector", "article.card")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_paper_page_shows_scores_links_and_copies_bibtex(server, browser, viewport):
    _viewport(browser, viewport)
    browser.execute_cdp_cmd(
        "Browser.grantPermissions",
        {"origin": server, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]},
    )
    browser.get(server + "/papers/Rev1ewAbCd")
    scores = browser.find_element("id", "review-scores")
    assert scores.is_displayed() and "range 4–6" in scores.text and "mean 5.50" in scores.text
    links = {a.text: a.get_attribute("href") for a in browser.find_elements("css selector", "#read-links a")}
    assert links["PDF"] == "https://openreview.net/pdf?id=Rev1ewAbCd"
    assert links["OpenReview"] == "https://openreview.net/forum?id=Rev1ewAbCd"
    assert links["code"] == "https://github.com/example/sparse-reviewers"
    tldr = browser.find_element("id", "paper-tldr")
    assert tldr.is_displayed() and "<script>alert(1)</script>" in tldr.text  # shown as text, never run
    bibtex = browser.find_element("id", "bibtex")
    button = browser.find_element("id", "copy-bibtex")
    assert button.is_displayed()  # the script shows it; without one the entry is plain selectable text
    browser.execute_script("arguments[0].hidden = true", button)  # as the page comes, before the script
    assert not button.is_displayed()
    browser.execute_script("arguments[0].hidden = false", button)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait(browser, lambda d: d.find_element("id", "copy-status").text == "Copied")
    text = bibtex.get_attribute("textContent")
    assert text.startswith("@inproceedings{Rev1ewAbCd,")
    assert browser.execute_script("return window.getSelection().toString()").strip() == text
    copied = browser.execute_async_script(
        "const done = arguments[0]; navigator.clipboard.readText().then(done, e => done('error: ' + e))"
    )
    assert copied == text
    assert _fits(browser, viewport)
    browser.save_screenshot(str(ARTIFACTS / f"paper-{viewport}.png"))


def _open_map(browser, server):
    browser.get(server + "/map")
    wait(browser, lambda d: d.execute_script("return !!(window.atlasMap && window.atlasMap.width)"))


def _view(browser) -> dict:
    return browser.execute_script("return Object.assign({}, window.atlasMap.view)")


def _touch(browser, kind: str, points: list[tuple[float, float]]) -> None:
    browser.execute_cdp_cmd(
        "Input.dispatchTouchEvent",
        {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]},
    )


def test_map_pans_and_zooms_by_touch(server, browser):
    _viewport(browser, "phone")
    _open_map(browser, server)
    rect = browser.execute_script(
        "const r = window.atlasMap.canvas.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]"
    )
    cx, cy = rect[0] + rect[2] / 2, rect[1] + rect[3] * 0.7
    before = _view(browser)
    _touch(browser, "touchStart", [(cx, cy)])
    for step in range(1, 6):
        _touch(browser, "touchMove", [(cx + 12 * step, cy + 8 * step)])
    _touch(browser, "touchEnd", [])
    after = _view(browser)
    assert after["x"] - before["x"] == pytest.approx(60, abs=2)
    assert after["y"] - before["y"] == pytest.approx(40, abs=2)
    assert browser.execute_script("return window.scrollY") == 0  # the page did not scroll instead
    # two fingers moving apart zoom in
    _touch(browser, "touchStart", [(cx - 20, cy), (cx + 20, cy)])
    for step in range(1, 6):
        _touch(browser, "touchMove", [(cx - 20 - 12 * step, cy), (cx + 20 + 12 * step, cy)])
    _touch(browser, "touchEnd", [])
    assert _view(browser)["k"] == pytest.approx(
        after["k"] * 160 / 40, rel=0.05
    )  # fingers 40 px apart, then 160
    browser.save_screenshot(str(ARTIFACTS / "map-touch-phone.png"))


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_map_panel_folds(server, browser, viewport):
    _viewport(browser, viewport)
    _open_map(browser, server)
    legend = browser.find_element("css selector", ".atlas-legend")
    summary = browser.find_element("css selector", ".atlas-tools > summary")
    # a phone starts with the panel folded (the map first); a desktop with it open
    assert legend.is_displayed() == (viewport == "desktop")
    summary.click()
    assert legend.is_displayed() == (viewport == "phone")
    summary.click()
    assert legend.is_displayed() == (viewport == "desktop")
    assert _fits(browser, viewport)
    # the map page is the window's height, the header's wrapped rows included
    assert browser.execute_script("return document.documentElement.scrollHeight <= window.innerHeight + 1")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_map_moves_by_keyboard(server, browser, viewport):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    _viewport(browser, viewport)
    _open_map(browser, server)
    # the canvas is in the tab order: Tab from the top of the page reaches it
    browser.execute_script("document.activeElement.blur()")
    canvas_focused = "return document.activeElement === window.atlasMap.canvas"
    for _ in range(30):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        if browser.execute_script(canvas_focused):
            break
    assert browser.execute_script(canvas_focused)
    start = _view(browser)
    ActionChains(browser).send_keys(Keys.ARROW_LEFT, Keys.ARROW_UP).perform()
    moved = _view(browser)
    assert (moved["x"] - start["x"], moved["y"] - start["y"]) == (60, 60)
    ActionChains(browser).send_keys("+").perform()
    assert _view(browser)["k"] == pytest.approx(start["k"] * 1.4)
    ActionChains(browser).send_keys("-", "-").perform()
    assert _view(browser)["k"] == pytest.approx(start["k"] / 1.4)
    ActionChains(browser).send_keys("0").perform()
    assert _view(browser) == start


def test_star_buttons_name_their_paper(server, browser):
    _viewport(browser, "phone")
    browser.get(server + "/papers")
    cards = browser.find_elements("css selector", "article.card")
    assert cards
    for card in cards:
        title = card.find_element("css selector", ".card-title").text
        star = card.find_element("css selector", ".star")
        assert star.get_attribute("aria-label").endswith(": " + title)
