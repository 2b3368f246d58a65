"""A note found by search, and a topic's unread papers through its filter form, in real
headless Chromium at a desktop (1440x900) and a phone (390x844) viewport, on a copy of the
mapped fixture atlas. Screenshots go to test-artifacts/."""

from __future__ import annotations

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

pytestmark = pytest.mark.browser

# each viewport works on a paper and a word of its own (the server and its atlas are shared)
NOTED = {"desktop": ("robots-02", "wombat"), "phone": ("graphs-04", "quokka")}

skip_without_chromium()


@pytest.fixture(scope="module")
def server(fixture_atlas_template, tmp_path_factory):
    db = copy_atlas(fixture_atlas_template, tmp_path_factory, "browser-notes")
    with served(db) as url:
        yield url


def _cards(driver) -> list[str]:
    return [a.get_attribute("data-paper") for a in driver.find_elements("css selector", "article.card")]


def _fits(driver) -> bool:
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_note_written_on_the_paper_page_is_found_by_search(server, browser, viewport):
    use_viewport(browser, viewport)
    paper, word = NOTED[viewport]
    browser.get(server + "/papers/" + paper)
    browser.find_element("id", "note-text").send_keys(
        f'<img src=x onerror="window.__xss=1"> {word} checklist for the group'
    )
    browser.execute_script("window.__before_save = true")
    browser.find_element("css selector", "#note-form button[type=submit]").click()
    wait(
        browser,
        lambda d: d.execute_script("return !window.__before_save && document.readyState == 'complete'"),
    )
    browser.get(f"{server}/search?q={word}+checklist")
    wait(browser, lambda d: _cards(d)[:1] == [paper])
    first = browser.find_element("css selector", "article.card")
    shown = first.find_element("css selector", ".in-note").text
    assert word in shown and "<img" in shown  # the note's text, as text
    assert browser.execute_script("return window.__xss") is None
    browser.save_screenshot(str(ARTIFACTS / f"notes-search-{viewport}.png"))
    assert _fits(browser)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_topic_page_filters_its_unread_papers(server, browser, viewport):
    from selenium.webdriver.support.ui import Select

    use_viewport(browser, viewport)
    browser.get(server + "/topics/0")
    before = _cards(browser)
    index = 0 if viewport == "desktop" else 1  # a paper of its own per viewport
    target = before[index]
    # marked through the app's own API from its page (triage itself: test_browser_kept.py)
    status = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/state', {method: 'POST', headers: {'content-type': 'application/json'},"
        " body: JSON.stringify({id: arguments[0], state: 'read'})}).then(r => done(r.status));",
        target,
    )
    assert status == 200
    Select(browser.find_element("css selector", "#filter-form select[name=state]")).select_by_value("unread")
    # submitted as a person on a phone does: Enter in the form's text field
    browser.find_element("css selector", "#filter-form input[name=tag]").send_keys("\n")
    wait(browser, lambda d: "state=unread" in d.current_url)
    after = _cards(browser)
    assert target not in after and after and set(after) <= set(before)
    chosen = Select(browser.find_element("css selector", "#filter-form select[name=state]"))
    assert chosen.first_selected_option.get_attribute("value") == "unread"
    browser.save_screenshot(str(ARTIFACTS / f"topic-unread-{viewport}.png"))
    assert _fits(browser)
