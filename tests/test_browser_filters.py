"""The filter form of /search and /papers in real headless Chromium, on a wide screen
(1440×900) and a phone (390×844): choosing filters and submitting narrows the page, the
form shows them again, the Next link keeps them, and nothing overflows the window.

Screenshots go to test-artifacts/. Skipped only when chromium or chromedriver is missing
(`make browser-deps` installs them)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from atlas_fixture import copy_atlas
from browserkit import ARTIFACTS, served, set_screen, skip_without_chromium, wait

pytestmark = pytest.mark.browser

SCREENS = {"wide": (1440, 900), "phone": (390, 844)}

skip_without_chromium()


@pytest.fixture(scope="module")
def server(filters_atlas_template, tmp_path_factory):
    db = copy_atlas(filters_atlas_template, tmp_path_factory, "browser-filters")
    with served(db) as url:
        yield url


def _screen(driver, name: str) -> None:
    width, height = SCREENS[name]
    set_screen(driver, width, height, phone=name == "phone")


def _choose(driver, name: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("css selector", f"#filter-form select[name={name}]")).select_by_value(value)


def _chosen(driver, name: str) -> str:
    return str(driver.execute_script(f"return document.querySelector('#filter-form [name={name}]').value"))


def _form_fits(driver, screen: str) -> bool:
    """The filter form and every field of it inside the screen's width (a phone's layout
    viewport widens to whatever overflows, so the screen's width is the measure)."""
    width = SCREENS[screen][0]
    right = driver.execute_script(
        "return Math.max(...[document.querySelector('#filter-form'),"
        " ...document.querySelectorAll('#filter-form label, #filter-form button')]"
        ".map(e => e.getBoundingClientRect().right))"
    )
    return bool(right <= width)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_search_filters_narrow_and_carry_on(server, browser, screen):
    _screen(browser, screen)
    browser.get(server + "/search?q=learning")
    form = browser.find_element("css selector", "#filter-form")
    assert form.is_displayed() and _form_fits(browser, screen)
    query = browser.find_element("css selector", "#filter-form input[name=q]")
    assert query.is_displayed() and query.get_attribute("value") == "learning"  # on a phone too
    _choose(browser, "list", "fixture")
    _choose(browser, "decision", "Accept (Oral)")
    _choose(browser, "state", "unread")
    form.find_element("css selector", "button[type=submit]").click()
    wait(browser, lambda d: "state=unread" in d.current_url)
    assert _chosen(browser, "decision") == "Accept (Oral)" and _chosen(browser, "state") == "unread"
    cards = browser.find_elements("css selector", "#results .card")
    assert cards and all("Oral" in c.find_element("css selector", ".badges").text for c in cards)
    assert browser.find_element("css selector", "#answered-by").text
    assert _form_fits(browser, screen)
    browser.save_screenshot(str(ARTIFACTS / f"search-filters-{screen}.png"))
    nexts = browser.find_elements("css selector", "#next-page")
    if nexts:  # a second page keeps every filter
        nexts[0].click()
        wait(browser, lambda d: "page=2" in d.current_url)
        kept = parse_qs(urlsplit(browser.current_url).query)
        assert (
            kept["decision"] == ["Accept (Oral)"]
            and kept["state"] == ["unread"]
            and kept["list"] == ["fixture"]
        )
        assert _chosen(browser, "state") == "unread"


@pytest.mark.parametrize("screen", list(SCREENS))
def test_paper_list_filters_by_tag_and_state(server, browser, screen):
    _screen(browser, screen)
    browser.get(server + "/papers")
    assert _form_fits(browser, screen)
    browser.find_element("css selector", "#filter-form input[name=tag]").send_keys("to-cite")
    _choose(browser, "state", "saved")
    browser.find_element("css selector", "#filter-form button[type=submit]").click()
    wait(browser, lambda d: "state=saved" in d.current_url)
    ids = [c.get_attribute("data-paper") for c in browser.find_elements("css selector", ".cards .card")]
    assert ids == ["extra-code"]  # tagged to-cite and saved for later: that one paper
    assert _chosen(browser, "tag") == "to-cite" and _form_fits(browser, screen)
    browser.save_screenshot(str(ARTIFACTS / f"papers-filters-{screen}.png"))
