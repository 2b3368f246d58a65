"""The personal schedule in the web app: the likes and collection pages link
`/download/schedule`, an iCalendar file (read back with icalendar) of the saved papers and
the collection's liked ones that their program gives a time, as `paperatlas schedule` writes
it; none with a time is a 400 with one line."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html import unescape
from pathlib import Path

import icalendar
import pytest
from fastapi.testclient import TestClient

from paperatlas import Atlas
from paperatlas.web.app import create_app

PROGRAM = Path(__file__).parent / "fixtures" / "follow" / "program.json"
SAME = {"origin": "http://127.0.0.1"}


@pytest.fixture
def client(tmp_path):
    db = tmp_path / "atlas.db"
    with Atlas(db) as atlas:
        atlas.add([PROGRAM], list_name="prog", enrich=False)
    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        yield c


def test_the_likes_page_downloads_the_schedule_of_saved_and_liked_papers(client):
    answer = client.get("/download/schedule")
    assert answer.status_code == 400
    assert "none of the 0 saved or liked papers has a time in its list" in unescape(answer.text)
    for body in ({"id": "PROG1", "liked": True}, {"id": "PROG3", "liked": True}):
        assert client.post("/api/marks", json=body, headers=SAME).status_code == 200
    assert client.post("/api/state", json={"id": "PROG2", "state": "saved"}, headers=SAME).status_code == 200
    page = client.get("/likes").text
    link = unescape(re.search(r'<a id="schedule" href="([^"]+)"', page).group(1))
    assert link == "/download/schedule?collection=likes"
    answer = client.get(link)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/calendar")
    assert answer.headers["content-disposition"] == 'attachment; filename="paperatlas-schedule-likes.ics"'
    cal = icalendar.Calendar.from_ical(answer.content)
    events = {str(e["uid"]): e for e in cal.walk("VEVENT")}
    assert set(events) == {"PROG1@paperatlas", "PROG2@paperatlas"}  # PROG3 has no time
    assert events["PROG1@paperatlas"].decoded("dtstart") == datetime(2026, 7, 28, 20, 30, tzinfo=UTC)
    assert client.get("/download/schedule", params={"collection": "no-such"}).status_code == 404
