"""Headless Chromium for the browser tests (Debian's chromium + chromedriver, via Selenium):
where they are, one way to start a driver, a served atlas to point it at and a screen size."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,900",
)


def skip_without_chromium() -> None:
    """Skip the calling test module when chromium or chromedriver is missing."""
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip(
            "chromium and chromedriver are not installed (run `make browser-deps`)", allow_module_level=True
        )


def headless_chrome():
    """A headless Chrome driver with a 30 s page-load limit; the caller quits it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver


@contextmanager
def served(db) -> Iterator[str]:
    """The web app of the atlas `db` on a free local port, served by uvicorn in a thread;
    yields its base URL and stops the server after."""
    import uvicorn

    from paperatlas.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not srv.started and time.time() < deadline:
        time.sleep(0.05)
    assert srv.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


def set_screen(driver, width: int, height: int, phone: bool) -> None:
    """Emulate a screen of that size (a phone's: touch and mobile layout rules)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone},
    )


ARTIFACTS = Path(__file__).parents[1] / "test-artifacts"  # screenshots a run leaves to look at
VIEWPORTS = {"desktop": (1440, 900), "phone": (390, 844)}


@pytest.fixture(scope="module")
def browser():
    """One headless Chrome for a test module (import this fixture into the module)."""
    driver = headless_chrome()
    ARTIFACTS.mkdir(exist_ok=True)
    yield driver
    driver.quit()


def use_viewport(driver, name: str) -> None:
    """The screen of VIEWPORTS[name] ('phone': a phone's)."""
    width, height = VIEWPORTS[name]
    set_screen(driver, width, height, phone=name == "phone")


# How often `wait` looks again. WebDriverWait's own 0.5 s left a test idle for up to half a
# second after each page had done what it waited for; a look is one WebDriver round trip.
POLL_SECONDS = 0.05


def wait(driver, condition, timeout: float = 15.0):
    """WebDriverWait(...).until(condition), looking every POLL_SECONDS and again when an
    element it found was replaced by a page reload in between (stale)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(
        driver, timeout, poll_frequency=POLL_SECONDS, ignored_exceptions=(StaleElementReferenceException,)
    ).until(condition)
