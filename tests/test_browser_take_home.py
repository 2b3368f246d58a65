"""Recommendations, downloads, compare and the list switcher in real headless Chromium, on a
wide screen (1440×900) and a phone (390×844): "not interested" takes a card off the picks
and it stays off, the header's "more" menu opens inside the screen and switches the list,
the download links answer with files, and no page is wider than the screen.

Screenshots go to test-artifacts/. Skipped only when chromium or chromedriver is missing
(`make browser-deps` installs them)."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from atlas_fixture import copy_atlas, fixture_records
from browserkit import ARTIFACTS, served, set_screen, skip_without_chromium, wait
from paperatlas import Atlas

pytestmark = pytest.mark.browser

SCREENS = {"wide": (1440, 900), "phone": (390, 844)}
PART = "part-2026"  # a second list: ten of the fixture's papers

skip_without_chromium()


@pytest.fixture(scope="module")
def server(fixture_atlas_template, tmp_path_factory):
    db = copy_atlas(fixture_atlas_template, tmp_path_factory, "browser-take-home")
    atlas = Atlas(db)
    part = db.parent / "part.jsonl"
    part.write_text("\n".join(json.dumps(r) for r in fixture_records()[:10]), encoding="utf-8")
    atlas.add([part], list_name=PART, enrich=False)
    atlas.like([fixture_records()[0]["id"]])
    atlas.close()
    with served(db) as url:
        yield url


def _screen(driver, name: str) -> None:
    width, height = SCREENS[name]
    set_screen(driver, width, height, phone=name == "phone")


def _fits(driver, screen: str, selector: str = "body *") -> bool:
    """Every element matching `selector` that is shown ends inside the screen's width (a
    phone's layout viewport widens to whatever overflows, so the screen is the measure)."""
    right = driver.execute_script(
        "return Math.max(0, ...[...document.querySelectorAll(arguments[0])]"
        ".filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect().right))",
        selector,
    )
    return bool(right <= SCREENS[screen][0] + 1)


def _picks(driver) -> list[str]:
    # in one script: a card taken away while its attribute is read is no stale reference
    return driver.execute_script("return [...document.querySelectorAll('.pick')].map(e => e.dataset.paper)")


@pytest.mark.parametrize("screen", list(SCREENS))
def test_not_interested_takes_the_card_away(server, browser, screen):
    _screen(browser, screen)
    browser.get(server + "/recommend")
    before = _picks(browser)
    assert before, "no picks"
    reasons = browser.find_element("css selector", ".pick .reasons li").text
    assert reasons.startswith("Close to “") and reasons.endswith("which you liked.")
    assert _fits(browser, screen)
    browser.save_screenshot(str(ARTIFACTS / f"recommend-{screen}.png"))
    button = browser.find_element("css selector", ".pick .not-interested")
    assert button.get_attribute("aria-label").startswith("Not interested: ")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait(browser, lambda d: before[0] not in _picks(d))
    browser.refresh()
    assert before[0] not in _picks(browser)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_more_menu_switches_the_list(server, browser, screen):
    from selenium.webdriver.support.ui import Select

    _screen(browser, screen)
    browser.get(server + "/papers?kind=method")
    assert _fits(browser, screen, ".topbar, .topbar *")
    browser.find_element("css selector", "#more-menu > summary").click()
    panel = browser.find_element("css selector", "#more-menu .more-panel")
    assert panel.is_displayed() and _fits(browser, screen, ".more-panel, .more-panel *")
    left = browser.execute_script("return arguments[0].getBoundingClientRect().left", panel)
    assert left >= 0
    browser.save_screenshot(str(ARTIFACTS / f"more-menu-{screen}.png"))
    Select(browser.find_element("css selector", "#list-switch select[name=list]")).select_by_value(PART)
    browser.find_element("css selector", "#list-switch button").click()
    wait(browser, lambda d: "list=" in d.current_url)
    query = parse_qs(urlsplit(browser.current_url).query)
    assert urlsplit(browser.current_url).path == "/papers"
    assert query["list"] == [PART] and query["kind"] == ["method"]
    nav_map = browser.find_element("css selector", ".nav a[href^='/map']").get_attribute("href")
    assert parse_qs(urlsplit(nav_map).query)["list"] == [PART]


@pytest.mark.parametrize("screen", list(SCREENS))
def test_downloads_answer_with_files(server, browser, screen):
    _screen(browser, screen)
    browser.get(server + f"/papers?list={PART}")
    browser.find_element("css selector", "#downloads > summary").click()
    links = browser.find_elements("css selector", "#downloads a")
    assert {"BibTeX (.bib)", "CSV (.csv)", "Digest, HTML"} <= {a.text for a in links}
    assert _fits(browser, screen, "#downloads, #downloads *")
    answers = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all([...document.querySelectorAll('#downloads a')].map(a => fetch(a.href)"
        ".then(r => [r.status, r.headers.get('content-disposition')])))"
        ".then(done)"
    )
    assert answers and all(
        status == 200 and disposition.startswith("attachment; filename=") for status, disposition in answers
    )


@pytest.mark.parametrize("screen", list(SCREENS))
def test_compare_shows_both_lists_inside_the_screen(server, browser, screen):
    _screen(browser, screen)
    browser.get(server + f"/compare?a=fixture&b={PART}")
    summary = browser.find_element("css selector", "#compare-summary").text
    assert f"{PART}: 10 papers" in summary and "in both: 10" in summary
    assert browser.find_elements("css selector", ".compare-table tbody tr")
    assert _fits(browser, screen, "main, main h1, main .panel, main form")
    browser.save_screenshot(str(ARTIFACTS / f"compare-{screen}.png"))


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_downloads_of_unread_in_my_topics_hold_what_the_page_shows(server, browser, screen):
    _screen(browser, screen)
    # the second list has no map of its own: its topics are those of the map of all papers
    browser.get(server + f"/papers?list={PART}&topic=mine&state=unread")
    cards = browser.execute_script(
        "return [...document.querySelectorAll('article.card')].map(e => e.dataset.paper)"
    )
    assert fixture_records()[0]["id"] in cards  # the liked paper's topic
    browser.find_element("css selector", "#downloads > summary").click()
    assert _fits(browser, screen, "#downloads, #downloads *")
    links = [a.get_attribute("href") for a in browser.find_elements("css selector", "#downloads a")]
    assert links and all(parse_qs(urlsplit(u).query).get("topic") == ["mine"] for u in links)
    jsonl = next(u for u in links if "format=jsonl" in u)
    text = browser.execute_async_script(
        "const done = arguments[arguments.length - 1]; fetch(arguments[0]).then(r => r.text()).then(done)",
        jsonl,
    )
    assert [json.loads(line)["id"] for line in text.splitlines() if line.strip()] == cards
    browser.save_screenshot(str(ARTIFACTS / f"downloads-mine-{screen}.png"))
