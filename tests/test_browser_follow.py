"""Following in real headless Chromium, on a wide screen (1440×900) and a phone (390×844):
the search page's "follow this search" and a paper author's "+" follow with one click (a
same-origin JSON POST) and say so; /follows lists them; its feed link opens the Atom feed;
/new marks a list seen. Nothing overflows the screen.

Screenshots go to test-artifacts/. Skipped only when chromium or chromedriver is missing
(`make browser-deps` installs them)."""

from __future__ import annotations

from pathlib import Path

import feedparser
import pytest

from atlas_fixture import copy_atlas
from browserkit import ARTIFACTS, served, set_screen, skip_without_chromium, wait
from paperatlas import Atlas

pytestmark = pytest.mark.browser

SCREENS = {"wide": (1440, 900), "phone": (390, 844)}
PROGRAM = Path(__file__).parent / "fixtures" / "follow" / "program.json"
# what each screen follows (one server for both: each follows its own)
FOLLOWS = {
    "wide": ("unlearning", "PROG2", "Mina Park", "prog"),
    "phone": ("graph", "PROG3", "Ana Lima", "fixture"),
}

skip_without_chromium()


@pytest.fixture(scope="module")
def server(fixture_atlas_template, tmp_path_factory):
    db = copy_atlas(fixture_atlas_template, tmp_path_factory, "browser-follow")
    atlas = Atlas(db)
    atlas.add([PROGRAM], list_name="prog", enrich=False)
    atlas.close()
    with served(db) as url:
        yield url


def _screen(driver, name: str) -> None:
    width, height = SCREENS[name]
    set_screen(driver, width, height, phone=name == "phone")


def _fits(driver, screen: str) -> bool:
    """What this feature adds to a page (follow buttons, the follows and their rows, the
    "new since" count, list chips and button) inside the screen's width. Measured on those
    elements: the header and the paper cards overflow a phone on every page already, the
    phone layout's own item (a phone's layout viewport widens to whatever overflows, so
    the screen's width is the measure)."""
    right = driver.execute_script(
        "return Math.max(0, ...[...document.querySelectorAll("
        "'.follow, .follow-row, .follow-row *, #new-since, #new-count, #mark-seen, nav.chips')]"
        ".map(e => e.getBoundingClientRect().right))"
    )
    return bool(right <= SCREENS[screen][0])


@pytest.mark.parametrize("screen", list(SCREENS))
def test_follow_search_and_author_then_open_the_feed(server, browser, screen):
    query, paper, author, _ = FOLLOWS[screen]
    _screen(browser, screen)
    browser.get(f"{server}/search?q={query}")
    button = browser.find_element("css selector", "#follow-search")
    assert button.is_displayed() and _fits(browser, screen)
    button.click()
    wait(
        browser,
        lambda d: d.find_element("css selector", "#follow-search").get_attribute("aria-pressed") == "true",
    )
    assert "Following" in browser.find_element("css selector", "#follow-search").text
    browser.refresh()  # the page, from the cache or not, shows the search followed
    wait(
        browser,
        lambda d: d.find_element("css selector", "#follow-search").get_attribute("aria-pressed") == "true",
    )

    browser.get(f"{server}/papers/{paper}")
    plus = browser.find_element("css selector", f'button.follow[aria-label="Follow author: {author}"]')
    assert plus.is_displayed() and _fits(browser, screen)
    plus.click()
    wait(browser, lambda d: plus.get_attribute("aria-pressed") == "true")
    browser.save_screenshot(str(ARTIFACTS / f"follow-author-{screen}.png"))

    browser.find_element("css selector", "#nav-follows").click()
    wait(browser, lambda d: d.current_url.endswith("/follows"))
    rows = [r.text for r in browser.find_elements("css selector", ".follow-row")]
    assert any(f"search: {query}" in r for r in rows) and any(f"author: {author}" in r for r in rows)
    assert _fits(browser, screen)
    browser.save_screenshot(str(ARTIFACTS / f"follows-{screen}.png"))
    row = next(
        r for r in browser.find_elements("css selector", ".follow-row") if f"author: {author}" in r.text
    )
    row.find_element("css selector", ".feed-link").click()
    wait(browser, lambda d: d.current_url.endswith(".atom"))
    # what the browser was served is the feed a reader parses
    text = browser.execute_script(
        "return fetch(location.href).then(r => r.text().then(t => r.headers.get('content-type') + '\\n' + t))"
    )
    kind, _, xml = text.partition("\n")
    parsed = feedparser.parse(xml)
    assert kind.startswith("application/atom+xml") and not parsed.bozo
    assert parsed.feed.title == f"author: {author}"


@pytest.mark.parametrize("screen", list(SCREENS))
def test_new_since_last_visit_marked_seen(server, browser, screen):
    list_name = FOLLOWS[screen][3]
    _screen(browser, screen)
    browser.get(f"{server}/new?list={list_name}")
    assert browser.find_elements("css selector", "#new-papers .card") and _fits(browser, screen)
    browser.save_screenshot(str(ARTIFACTS / f"new-since-{screen}.png"))
    browser.find_element("css selector", "#mark-seen").click()
    wait(browser, lambda d: "Marked seen" in d.find_element("css selector", "#mark-seen").text)
    browser.get(f"{server}/new?list={list_name}")
    assert not browser.find_elements("css selector", "#new-papers .card")
    assert browser.find_element("css selector", "#new-count").text.startswith("0 ")


def test_pressing_a_followed_button_again_unfollows(server, browser):
    _screen(browser, "wide")
    browser.get(f"{server}/search?q=benchmark")
    button = browser.find_element("css selector", "#follow-search")
    button.click()
    wait(browser, lambda d: button.get_attribute("aria-pressed") == "true")
    button.click()
    wait(browser, lambda d: button.get_attribute("aria-pressed") == "false")
    assert button.text == "Follow this search"
    follows = browser.execute_script("return fetch('/api/follows').then(r => r.json())")["follows"]
    assert all(f["body"].get("q") != "benchmark" for f in follows)
