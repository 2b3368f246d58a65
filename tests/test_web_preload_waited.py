"""A web app a test opens is done with its background preload when the test ends
(conftest's `web_preload_finished`), so that the next test in the same process never has a
preload searching, reading and compiling beside it. The two tests run in this order, in one
process (as under `make test`: a module's tests run in order on one worker)."""

from __future__ import annotations

import threading
import time

from fastapi.testclient import TestClient

from atlas_fixture import web_atlas_db  # noqa: F401 - the `db` fixture: a copy of the fixture atlas
from paperatlas.web import warmup
from paperatlas.web.app import create_app

# what the slow preload of the first test did, read by the second
PRELOAD_RAN: list[str] = []


def test_a_web_app_closed_while_its_slow_preload_still_runs(db, monkeypatch):
    real = warmup.preload

    def slow_preload(web, freeze):
        time.sleep(1.5)  # a loaded machine, or a bigger atlas: still running when the test ends
        real(web, freeze)
        PRELOAD_RAN.append(threading.current_thread().name)

    monkeypatch.setattr(warmup, "preload", slow_preload)
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        assert client.get("/healthz").json()["ok"]
    assert PRELOAD_RAN == []  # the app is closed; its preload is not done yet


def test_the_next_test_starts_after_that_preload_has_finished():
    assert PRELOAD_RAN == [warmup.PRELOAD_THREAD]
    assert [t for t in threading.enumerate() if t.name == warmup.PRELOAD_THREAD] == []
