"""Triage by keyboard, the key help, a paper's note and tags, in real headless Chromium at
a desktop (1440x900) and a phone (390x844) viewport. Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest

from atlas_fixture import FIXTURE
from browserkit import (
    ARTIFACTS,
    VIEWPORTS,
    served,
    skip_without_chromium,
    use_viewport,
    wait,
)

pytestmark = pytest.mark.browser

# each viewport works on papers of its own (the server and its atlas are shared)
PAGES = {"desktop": ("/papers", "graphs-03"), "phone": ("/papers?page=2", "graphs-04")}

skip_without_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from paperatlas import Atlas

    db = tmp_path_factory.mktemp("browser-kept") / "atlas.db"
    with Atlas(db) as atlas:
        atlas.add([FIXTURE], list_name="fixture", enrich=False)
    with served(db) as url:
        yield url


def _keys(driver, keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(keys).perform()


def _pressed(driver, index: int, selector: str) -> str | None:
    cards = driver.find_elements("css selector", "article.card")
    return cards[index].find_element("css selector", selector).get_attribute("aria-pressed")


def _fits(driver) -> bool:
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_triage_by_keyboard(server, browser, viewport):
    use_viewport(browser, viewport)
    page, _ = PAGES[viewport]
    browser.get(server + page)
    browser.find_element("css selector", "h1").click()
    _keys(browser, "j")
    cards = browser.find_elements("css selector", "article.card")
    assert "current" in cards[0].get_attribute("class")
    _keys(browser, "r")
    wait(browser, lambda d: _pressed(d, 0, ".state-read") == "true")
    _keys(browser, "jx")
    wait(browser, lambda d: _pressed(d, 1, ".state-skipped") == "true")
    _keys(browser, "s")  # another state replaces skipped
    wait(browser, lambda d: _pressed(d, 1, ".state-saved") == "true")
    assert _pressed(browser, 1, ".state-skipped") == "false"
    _keys(browser, "l")
    wait(browser, lambda d: _pressed(d, 1, ".star") == "true")
    _keys(browser, "k")
    assert "current" in browser.find_elements("css selector", "article.card")[0].get_attribute("class")
    _keys(browser, "r")  # the state it is in: pressed again, taken off
    wait(browser, lambda d: _pressed(d, 0, ".state-read") == "false")
    _keys(browser, "r")
    wait(browser, lambda d: _pressed(d, 0, ".state-read") == "true")
    help_box = browser.find_element("id", "keys-help")
    assert not help_box.is_displayed()
    _keys(browser, "?")
    assert help_box.is_displayed() and "mark read" in help_box.text
    browser.save_screenshot(str(ARTIFACTS / f"triage-{viewport}.png"))
    assert _fits(browser)
    _keys(browser, "?")
    assert not help_box.is_displayed()
    browser.get(server + page)  # what was marked is stored
    assert _pressed(browser, 0, ".state-read") == "true"
    assert _pressed(browser, 1, ".state-saved") == "true" and _pressed(browser, 1, ".star") == "true"
    target = browser.find_elements("css selector", "article.card")[1].get_attribute("data-paper")
    browser.find_element("css selector", "h1").click()
    _keys(browser, "jjo")  # the second card, opened
    wait(browser, lambda d: d.current_url.endswith("/papers/" + target))
    browser.get(server + "/likes")
    assert target in [
        a.get_attribute("data-paper") for a in browser.find_elements("css selector", "article.card")
    ]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_note_and_tags_on_the_paper_page(server, browser, viewport):
    use_viewport(browser, viewport)
    _, paper = PAGES[viewport]
    browser.get(server + "/papers/" + paper)
    note = browser.find_element("id", "note-text")
    note.send_keys("**Strong point** <script>window.__xss = 1</script> [bad](javascript:window.__xss=2)")
    _keys(browser, "r")  # typing in the note box marks nothing
    assert (
        browser.find_element("css selector", ".paper-head .state-read").get_attribute("aria-pressed")
        == "false"
    )
    browser.execute_script("window.__before_save = true")
    browser.find_element("css selector", "#note-form button[type=submit]").click()
    wait(
        browser,
        lambda d: d.execute_script("return !window.__before_save && document.readyState == 'complete'"),
    )
    wait(browser, lambda d: d.find_element("id", "note-view").is_displayed())
    view = browser.find_element("id", "note-view")
    assert view.find_element("css selector", "strong").text == "Strong point"
    assert "<script>" in view.text and not view.find_elements("css selector", "a")
    assert browser.execute_script("return window.__xss") is None
    tag_input = browser.find_element("id", "tag-input")
    tag_input.send_keys("Must Read\n")
    wait(
        browser,
        lambda d: [a.text for a in d.find_elements("css selector", "#paper-tags .chip")] == ["#must-read"],
    )
    tag_input.send_keys("<script>\n")
    wait(browser, lambda d: "a tag holds letters" in d.find_element("id", "tag-status").text)
    browser.save_screenshot(str(ARTIFACTS / f"paper-kept-{viewport}.png"))
    assert _fits(browser)
    # the paper's own keys on its page: no card chosen, the paper is
    browser.execute_script("document.activeElement.blur()")
    _keys(browser, "s")
    wait(
        browser,
        lambda d: (
            d.find_element("css selector", ".paper-head .state-saved").get_attribute("aria-pressed") == "true"
        ),
    )
    browser.find_element("css selector", "#paper-tags .tag-remove").click()
    wait(browser, lambda d: not d.find_elements("css selector", "#paper-tags .chip"))
    browser.get(server + "/papers/" + paper)
    assert browser.find_element("id", "note-text").get_attribute("value").startswith("**Strong point**")
